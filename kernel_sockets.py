"""Kernels that cannot race for a port: a kernel provisioner for jupyter_client.

jupyter_client gives a new kernel its five TCP ports by binding port 0 and closing the socket;
two kernels started at the same moment by two processes (two test workers, two notebooks
executed at once) can be handed the same port before either binds it, and one of them dies
(https://github.com/jupyter/jupyter_client/issues/154). A kernel started by this provisioner
talks over Unix sockets ("ipc" transport) in a folder of its own process instead: there is no
shared namespace to race for, and nothing to retry.

It is jupyter_client's public way to start kernels one's own way: the project registers it as
the entry point ``private-sockets`` of ``jupyter_client.kernel_provisioners`` (pyproject.toml),
and the kernel specification in ``tools/jupyter/kernels/python3`` names it. Whoever puts
``tools/jupyter`` first on ``JUPYTER_PATH`` (conftest.py, tools/notebooks.py) gets these kernels
for every notebook whose kernel is ``python3``; a reader's Jupyter is left as it is.
"""
from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile

from jupyter_client.provisioning import LocalProvisioner

#: The kernel specifications that use the provisioner, for JUPYTER_PATH.
JUPYTER_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "jupyter")

_folder: list = []
_numbers = itertools.count()


def private_socket_prefix() -> str:
    """A fresh socket prefix inside this process's private folder: short, for the 107-byte
    limit of a Unix socket's path, and removed when the process exits."""
    if not _folder:
        _folder.append(tempfile.mkdtemp(prefix="kernels-"))
        atexit.register(shutil.rmtree, _folder[0], ignore_errors=True)
    return os.path.join(_folder[0], f"k{next(_numbers)}")


class PrivateSocketProvisioner(LocalProvisioner):
    """jupyter_client's LocalProvisioner, its kernel on Unix sockets under a prefix that no
    other kernel uses (``private_socket_prefix``), set on the kernel manager before the
    connection file is written."""

    async def pre_launch(self, **kwargs):
        manager = self.parent
        if manager is not None and manager.transport != "ipc":
            manager.transport = "ipc"
            manager.ip = private_socket_prefix()
            manager.cache_ports = False   # the port cache is for TCP ports
        return await super().pre_launch(**kwargs)


def with_private_kernels(environ: dict) -> dict:
    """``environ`` with ``JUPYTER_PATH`` naming this project's kernel specifications first."""
    paths = [path for path in environ.get("JUPYTER_PATH", "").split(os.pathsep)
             if path and path != JUPYTER_PATH]
    return {**environ, "JUPYTER_PATH": os.pathsep.join([JUPYTER_PATH, *paths])}
