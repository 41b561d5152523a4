"""The built book, shared by the tests that read it: built once per test run (whichever xdist
worker gets there first), served on 127.0.0.1, and read in Debian's headless Chromium."""
from __future__ import annotations

import fcntl
import functools
import http.server
import json
import os
import pathlib
import subprocess
import sys
import threading

import yaml

from build_book import CHROMIUM, CHROMIUM_ARGS as PRINTER_ARGS

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
EDITIONS = {"zh": "zh-CN", "es": "es", "it": "it", "en": "en"}   # edition → <html lang>
#: Chromium as the book's PDF printer runs it (tools/build_book.py), and offline: no host but
#: 127.0.0.1 resolves.
CHROMIUM_ARGS = [*PRINTER_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def build_once() -> dict:
    """Build the four editions once per test run; return the build's output."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID", str(os.getpid()))
    stamp = ROOT / "_build" / "book-test-run.json"
    stamp.parent.mkdir(exist_ok=True)
    with open(ROOT / "_build" / "book-test.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and json.loads(stamp.read_text())["run"] == run_id:
            return json.loads(stamp.read_text())
        result = subprocess.run([sys.executable, "tools/build_book.py"], cwd=ROOT,
                                capture_output=True, text=True, timeout=1200)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        record = {"run": run_id, "stdout": result.stdout, "stderr": result.stderr}
        stamp.write_text(json.dumps(record))
        return record


def pages(lang: str) -> list:
    """The HTML files of one edition's table of contents, in reading order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]
    return [HTML / lang / (f.replace("/en/", f"/{lang}/") + ".html") for f in dict.fromkeys(files)]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that leaves a page mid-download closes the connection: not an error."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(directory: pathlib.Path) -> tuple:
    """Serve ``directory`` on an ephemeral 127.0.0.1 port; return (base URL, server)."""
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server
