"""Kernels that cannot race for a port.

jupyter_client gives a new kernel its five TCP ports by binding port 0 and closing the socket;
two kernels started at the same moment (two test workers, two refresh processes) can be handed
the same port before either binds it (jupyter_client issue 154), and one of them dies. These
managers use the "ipc" transport instead: each kernel talks over Unix sockets in a folder of its
own, so there is no shared namespace to race for, and nothing to retry.
"""
from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile

from jupyter_client.manager import AsyncKernelManager, KernelManager
from traitlets import default

_FOLDER = None
_NUMBERS = itertools.count()


def private_socket_prefix() -> str:
    """A fresh socket prefix inside this process's private folder (short, for the 107-byte
    limit of a Unix socket path; removed when the process exits)."""
    global _FOLDER
    if _FOLDER is None:
        _FOLDER = tempfile.mkdtemp(prefix="kernels-")
        atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
    return os.path.join(_FOLDER, f"k{next(_NUMBERS)}")


class PrivateSockets:
    """Mix-in: the ipc transport, with sockets under a prefix no other kernel uses."""

    @default("transport")
    def _transport_default(self) -> str:
        return "ipc"

    @default("ip")
    def _ip_default(self) -> str:
        return private_socket_prefix()


class PrivateSocketKernelManager(PrivateSockets, KernelManager):
    """jupyter_client's KernelManager (used by nbval) on private Unix sockets."""


class AsyncPrivateSocketKernelManager(PrivateSockets, AsyncKernelManager):
    """jupyter_client's AsyncKernelManager (used by nbclient and papermill) on private sockets."""
