"""Pytest settings shared by `pytest tests` and `pytest --nbval notebooks book`.

Kernels talk over IPC files named after their unique connection file instead of TCP ports:
with two xdist workers starting kernels at once, TCP port picking races ("Address already
in use", jupyter_client issue 154), and a test would fail for a reason that is not the book's.
"""
from jupyter_client.connect import ConnectionFileMixin

ConnectionFileMixin.transport.default_value = "ipc"
