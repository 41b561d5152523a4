"""The kernels nbval and papermill run the notebooks in (tools/kernels.py): a kernel forked from
the zygote is the kernel jupyter_client would have started itself."""
import json
import os
import signal
import subprocess

from kernels import ForkedKernel, ForkedKernelManager, PrivateSocketKernelManager, zygote

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
