"""The notebooks' kernels in the tests and `make notebooks` talk over Unix sockets of their own
(kernel_sockets.py), so that kernels started at once by several processes cannot race for a TCP
port (jupyter_client issue 154)."""
import json
import os
import pathlib

from jupyter_client.manager import KernelManager

import kernel_sockets


def test_a_python3_kernel_here_runs_on_private_unix_sockets():
    """conftest.py puts the book's kernel specifications first on JUPYTER_PATH, as nbval and
    papermill then find them: the kernel named python3 (every notebook's) is started by the
    book's provisioner, its connection file names the ipc transport and a prefix in this
    process's private folder, the sockets are there, and it runs code."""
    assert os.environ["JUPYTER_PATH"].split(os.pathsep)[0] == kernel_sockets.JUPYTER_PATH
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel()
    try:
        client = manager.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        shown = []
        client.execute_interactive("print(6 * 7)", timeout=60, output_hook=lambda message: shown.append(
            message["content"].get("text", "")))
        client.stop_channels()
        info = json.loads(pathlib.Path(manager.connection_file).read_text())
        assert info["transport"] == "ipc"
        prefix = pathlib.Path(info["ip"])
        assert prefix.parent.name.startswith("kernels-")
        assert pathlib.Path(f"{prefix}-{info['shell_port']}").is_socket()
        assert "42\n" in shown
    finally:
        manager.shutdown_kernel(now=True)


def test_the_book_puts_its_kernel_specifications_first_once():
    """with_private_kernels puts tools/jupyter first on JUPYTER_PATH, keeps the others, and
    does not add it twice."""
    once = kernel_sockets.with_private_kernels({"JUPYTER_PATH": "/elsewhere"})
    assert once["JUPYTER_PATH"] == kernel_sockets.JUPYTER_PATH + os.pathsep + "/elsewhere"
    assert kernel_sockets.with_private_kernels(once) == once
    assert kernel_sockets.with_private_kernels({})["JUPYTER_PATH"] == kernel_sockets.JUPYTER_PATH
