"""The built site served on an ephemeral 127.0.0.1 port, for a browser to read: the tests'
(tests/site_build.py), the bench's panel measurement (tools/bench.py) and, compressed as GitHub
Pages serves it, Lighthouse's (tools/audit.py)."""
from __future__ import annotations

import functools
import http.server
import pathlib
import sys
import threading


class Quiet(http.server.SimpleHTTPRequestHandler):
    """The files of a folder, without a log line per request."""

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that leaves a page mid-download closes the connection: not an error."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(directory: pathlib.Path, handler=Quiet) -> tuple:
    """Serve ``directory`` with ``handler`` (a SimpleHTTPRequestHandler) on an ephemeral
    127.0.0.1 port, from a thread; return (base URL, server)."""
    server = Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server
