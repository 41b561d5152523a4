"""The kernels nbval and papermill run the notebooks in (tools/kernels.py): a kernel forked from
the zygote is the kernel jupyter_client would have started itself."""
import json
import os
import signal
import subprocess

import pytest
import zmq

from kernels import (AsyncForkedKernelManager, ForkedKernel, ForkedKernelManager,
                     PrivateSocketKernelManager, zygote)

#: What a cell reports of the process it runs in: everything a notebook could see differ
#: between a kernel started as a new interpreter and one forked from a warm process.
REPORT = """import json, os, sys, matplotlib
from ipykernel.kernelapp import IPKernelApp
print(json.dumps({"path": sys.path, "cwd": os.getcwd(), "argv": sys.argv, "env": dict(os.environ),
                  "executable": sys.executable, "flags": list(sys.flags),
                  "own_session": os.getsid(0) == os.getpid(),
                  "parent_handle": IPKernelApp.instance().parent_handle,
                  "backend": matplotlib.get_backend(), "main": sys.modules["__main__"].__name__,
                  "shell": type(get_ipython()).__name__, "cells": get_ipython().execution_count}))"""


def report(manager_class, folder, env=None) -> tuple:
    """(what REPORT prints in a kernel of ``manager_class`` started in ``folder``, the object
    jupyter_client holds as the kernel's process, the status it ended with)."""
    manager = manager_class(kernel_name="python3")
    manager.start_kernel(cwd=str(folder), **({} if env is None else {"env": env}))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        printed = []
        client.execute_interactive(REPORT, timeout=60, output_hook=lambda message: printed.append(
            message["content"].get("text", "")) if message["msg_type"] == "stream" else None)
        process = manager.provisioner.process
        seen = json.loads("".join(printed))
        # each kernel has a connection file of its own
        seen["argv"] = ["FILE" if a == manager.connection_file else a for a in seen["argv"]]
    finally:
        client.stop_channels()
        manager.shutdown_kernel()
    return seen, process, process.returncode


def test_a_forked_kernel_is_the_kernel_jupyter_client_starts(tmp_path):
    """Same interpreter, path, folder, argv, environment (the parent's pid for the kernel's
    poller included), a session of its own, matplotlib's inline backend, IPython's __main__;
    and it ends with status 0 on shutdown, as the started one does."""
    zygote()   # (a process's first kernel is started as usual, the zygote for the second)
    forked, forked_process, forked_status = report(ForkedKernelManager, tmp_path)
    started, started_process, started_status = report(PrivateSocketKernelManager, tmp_path)
    assert isinstance(forked_process, ForkedKernel) and isinstance(started_process, subprocess.Popen)
    assert forked["parent_handle"] == os.getpid()
    assert forked == started
    assert forked_status == started_status == 0


def test_a_kernel_the_zygote_cannot_be_is_started_as_usual(tmp_path):
    """Another PYTHONPATH (read as an interpreter starts) is not the zygote's: the kernel is
    started as a new process, and sees it."""
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    seen, process, _ = report(ForkedKernelManager, tmp_path, env=env)
    assert isinstance(process, subprocess.Popen)
    assert str(tmp_path) in seen["path"]


def test_a_killed_forked_kernel_reports_the_signal(tmp_path):
    zygote()
    manager = ForkedKernelManager(kernel_name="python3")
    manager.start_kernel(cwd=str(tmp_path))
    process = manager.provisioner.process
    assert isinstance(process, ForkedKernel) and manager.is_alive()
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL
    assert not manager.is_alive()
    manager.cleanup_resources()


def test_nbval_runs_the_notebooks_in_forked_kernels(tmp_path):
    """nbval, as conftest.py sets it up for make test's 144 notebooks, starts its kernels
    through the zygote (it sends their errors to /dev/null, which the zygote does too)."""
    from nbval.kernel import RunningKernel

    zygote()
    kernel = RunningKernel("python3", cwd=str(tmp_path))
    try:
        assert isinstance(kernel.km.provisioner.process, ForkedKernel)
        assert os.readlink(f"/proc/{kernel.km.provisioner.process.pid}/fd/2") == os.devnull
    finally:
        kernel.stop()


async def ready_then_stopped(manager_class, folder) -> tuple:
    """Start a kernel of ``manager_class`` in ``folder``, make its client ready and run a cell,
    then stop it: (the timeouts of IOPub reads while the client got ready, what the cell
    printed, whether the channel was left as it was, the intervals the wait for the stopped
    kernel was given to look at it by, how soon the client's shell socket tries again to reach a
    kernel not yet listening)."""
    import asyncio
    import inspect

    import jupyter_client.manager

    async def done(value):   # a manager's or client's call, sync or async
        return await value if inspect.isawaitable(value) else value

    manager = manager_class(kernel_name="python3")
    await done(manager.start_kernel(cwd=str(folder)))
    client = manager.client()
    client.start_channels()
    channel = client.iopub_channel
    waits, intervals, printed = [], [], []
    get_msg = channel.get_msg
    channel.get_msg = lambda timeout=None: (waits.append(timeout), get_msg(timeout=timeout))[1]
    # The interval jupyter_client's wait loop is given: it sleeps that long between looks only
    # while the kernel still lives, which a kernel killed at once may no longer do (the sleeps
    # alone made this test fail on a busy machine).
    real_wait = jupyter_client.manager.KernelManager._async_wait

    async def wait(self, pollinterval=0.1):
        intervals.append(pollinterval)
        await real_wait(self, pollinterval=pollinterval)

    try:
        await done(client.wait_for_ready(timeout=60))
        ready_waits = list(waits)
        retry_ms = client.shell_channel.socket.getsockopt(zmq.RECONNECT_IVL)
        del channel.get_msg
        left = "get_msg" not in vars(channel)
        await done(client.execute_interactive("print(6 * 7)", timeout=60, output_hook=lambda m: printed.append(
            m["content"].get("text", "")) if m["msg_type"] == "stream" else None))
    finally:
        client.stop_channels()
        jupyter_client.manager.KernelManager._async_wait = wait
        try:
            await done(manager.shutdown_kernel(now=True))
        finally:
            jupyter_client.manager.KernelManager._async_wait = real_wait
    return ready_waits, printed, left, intervals, retry_ms


@pytest.mark.parametrize("manager_class", [ForkedKernelManager, AsyncForkedKernelManager],
                         ids=["nbval's", "papermill's"])
def test_a_client_is_ready_once_iopub_is_quiet_for_a_moment_and_a_stopped_kernel_is_seen_at_once(
        tmp_path, manager_class):
    """The managers' clients wait for the kernel's kernel_info reply, then for IOPub to be quiet
    for kernels.QUIET_S (jupyter_client waits 0.2 s each time); their sockets try again to reach
    a kernel not yet listening every kernels.RECONNECT_MS (ZeroMQ: 100 ms); a kernel being
    stopped is looked at every kernels.POLL_S (jupyter_client: 0.1 s); the client's IOPub
    channel is left as it was, and the kernel still runs a cell and shows its output."""
    import asyncio

    import kernels

    if manager_class is ForkedKernelManager:   # nbval calls it from no event loop of its own
        waits, printed, left, intervals, retry_ms = kernels.run_sync(ready_then_stopped)(manager_class, tmp_path)
    else:
        waits, printed, left, intervals, retry_ms = asyncio.run(ready_then_stopped(manager_class, tmp_path))
    assert printed == ["42\n"] and left
    assert waits and max(waits) <= kernels.QUIET_S < 0.2, waits
    assert intervals == [kernels.POLL_S], intervals
    assert retry_ms == kernels.RECONNECT_MS < 100, retry_ms   # (ZeroMQ's own: 100)


def test_nbval_formats_a_kernel_message_only_where_it_is_logged(caplog):
    """nbval logs every kernel message it reads at debug level, formatted by pprint.pformat
    (conftest.py makes that formatting lazy): with debug logging off nothing is formatted; on,
    the message reads as pprint.pformat writes it."""
    import logging
    import pprint

    import nbval.kernel

    formatted = []

    class Message(dict):
        def __repr__(self):
            formatted.append(self)
            return dict.__repr__(self)

    class Client:
        def get_iopub_msg(self, timeout=None):
            return Message(msg_type="status", content={"execution_state": "idle"})

    kernel = nbval.kernel.RunningKernel.__new__(nbval.kernel.RunningKernel)
    kernel.kc = Client()
    with caplog.at_level(logging.INFO, logger=nbval.kernel.logger.name):
        kernel.get_message("iopub")
    assert formatted == []
    with caplog.at_level(logging.DEBUG, logger=nbval.kernel.logger.name):
        message = kernel.get_message("iopub")
    assert formatted and pprint.pformat(message) in caplog.text
