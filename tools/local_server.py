"""The built site served on an ephemeral 127.0.0.1 port, for a browser to read: the tests'
(tests/site_build.py), the bench's panel measurement (tools/bench.py) and, compressed as GitHub
Pages serves it, Lighthouse's (tools/audit.py). Served at the root, or under a path prefix as
GitHub Pages serves a project site (https://<owner>.github.io/<repo>/: tests/test_prefix.py)."""
from __future__ import annotations

import functools
import http.server
import os
import pathlib
import posixpath
import sys
import threading
import urllib.parse


class Quiet(http.server.SimpleHTTPRequestHandler):
    """The files of a folder, without a log line per request."""

    def log_message(self, *args):
        pass


class UnderPrefix(http.server.SimpleHTTPRequestHandler):
    """The folder at ``prefix`` (such as "/book-prefix") and nowhere else: "/book-prefix/x" is
    the folder's x, "/book-prefix" its index (SimpleHTTPRequestHandler redirects it to
    "/book-prefix/", as GitHub Pages does), and any path outside the prefix answers 404. Mixed
    in before another handler by ``serve``."""
    prefix = ""
    #: Where a path outside the prefix leads: below a file, so nothing can be found there and
    #: SimpleHTTPRequestHandler answers 404 (File not found), whatever the folder holds.
    NOWHERE = os.path.join(os.devnull, "outside-the-prefix")

    def translate_path(self, path: str) -> str:
        address = urllib.parse.unquote(path.split("?", 1)[0].split("#", 1)[0])
        normal = posixpath.normpath(address) if address else "/"   # "/p/../x" is "/x": outside
        if normal != self.prefix and not normal.startswith(self.prefix + "/"):
            return self.NOWHERE
        # What follows the prefix, quoted again as it came and its trailing slash kept
        # (SimpleHTTPRequestHandler unquotes it, and tells a folder's "x/" from "x" by it).
        rest = normal[len(self.prefix):] + ("/" if address.endswith("/") else "")
        return super().translate_path(urllib.parse.quote(rest or "/"))


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that leaves a page mid-download closes the connection: not an error."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(directory: pathlib.Path, handler=Quiet, prefix: str = "") -> tuple:
    """Serve ``directory`` with ``handler`` (a SimpleHTTPRequestHandler) on an ephemeral
    127.0.0.1 port, from a thread, at the root or, given ``prefix`` ("/book-prefix"), only
    under that path (UnderPrefix); return (base URL, server), the base URL ending with the
    prefix and no slash ("http://127.0.0.1:PORT/book-prefix")."""
    prefix = "/" + prefix.strip("/") if prefix.strip("/") else ""
    if prefix:
        handler = type(f"{handler.__name__}UnderPrefix", (UnderPrefix, handler), {"prefix": prefix})
    server = Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}{prefix}", server
