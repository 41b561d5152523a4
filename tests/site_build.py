"""The built book, shared by the tests that read it: built once per test run (whichever xdist
worker gets there first), served on 127.0.0.1, and read in Debian's headless Chromium."""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
import yaml
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from build_book import CHROMIUM, CHROMIUM_ARGS as PRINTER_ARGS
from local_server import serve  # noqa: F401 (the tests import it from here)
from words import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
#: The phone every phone-width check reads pages on, in CSS px.
PHONE = {"width": 390, "height": 844}
#: What scrolls sideways, as book/_static/sideways.js selects it (read from the script, so that
#: the script and both browser engines' checks share one selector).
SIDEWAYS_SELECTOR = re.search(r'const BOXES = "([^"]+)"', (ROOT / "book" / "_static" / "sideways.js")
                              .read_text(encoding="utf-8")).group(1)
#: edition → <html lang> (BCP 47: the Chinese edition is written in mainland usage)
EDITIONS = {lang: {"zh": "zh-CN"}.get(lang, lang) for lang in LANGUAGES}
#: Chromium as the book's PDF printer runs it (tools/build_book.py), and offline: no host but
#: 127.0.0.1 resolves.
CHROMIUM_ARGS = [*PRINTER_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


#: Where a test run records the build it made (stdout, stderr, return code) and the lock that
#: keeps two builds from running at once.
STAMP, LOCK = ROOT / "_build" / "book-test-run.json", ROOT / "_build" / "book-test.lock"
#: The environment variable naming the test run whose build the controller started in the
#: background (start_build); xdist workers inherit it.
RUN_VARIABLE = "BOOK_TEST_RUN"


def _run_id() -> str:
    return os.environ.get(RUN_VARIABLE) or os.environ.get("PYTEST_XDIST_TESTRUNUID") \
        or str(os.getpid())


#: The build start_build runs in the background, while it runs (stop_build ends it).
_background: list = []


def _build(run_id: str, background: bool = False) -> dict:
    """Build the four editions; record the outcome for this run in STAMP; return it."""
    process = subprocess.Popen([sys.executable, "tools/build_book.py"], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)   # its own group: stop_build ends all
    if background:
        _background.append(process)
    stdout, stderr = process.communicate(timeout=1200)
    record = {"run": run_id, "returncode": process.returncode, "stdout": stdout,
              "stderr": stderr}
    STAMP.write_text(json.dumps(record))
    return record


def start_build() -> threading.Thread:
    """Start this run's build at once, in the background, holding the lock until it is done,
    so that the xdist workers run the other tests meanwhile and the book's tests (collected
    last) wait in build_once for it instead of building it themselves."""
    run_id = os.environ.setdefault(RUN_VARIABLE, f"{os.getpid()}-{time.time_ns()}")
    STAMP.parent.mkdir(exist_ok=True)
    lock = open(LOCK, "w")
    fcntl.flock(lock, fcntl.LOCK_EX)   # taken before any worker starts

    def build_then_release():
        try:
            _build(run_id, background=True)
        finally:
            lock.close()

    thread = threading.Thread(target=build_then_release, daemon=True)
    thread.start()
    return thread


def stop_build() -> None:
    """End the background build if the test run ends before it does (a failure with -x, ^C)."""
    for process in _background:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def needs_pyodide() -> None:
    """For a check of the "your numbers" panel: skip it where the site carries no Pyodide (npm
    was missing when it was built), or fail it where the run requires it (AUDIT_REQUIRED, which
    .ci/run sets)."""
    if not (HTML / "_pyodide" / "book.zip").is_file():
        if os.environ.get("AUDIT_REQUIRED"):
            pytest.fail("the site has no _pyodide/ (make test installs Pyodide with npm ci)")
        pytest.skip("Pyodide is not installed: make test installs it with npm (tools/pyodide)")


def build_once() -> dict:
    """The four editions built once per test run (by start_build, or here by whichever xdist
    worker gets there first); the build's output."""
    run_id = _run_id()
    STAMP.parent.mkdir(exist_ok=True)
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = json.loads(STAMP.read_text()) if STAMP.exists() else {}
        if record.get("run") != run_id:
            record = _build(run_id)
    assert record["returncode"] == 0, record["stdout"][-3000:] + record["stderr"][-3000:]
    return record


def pages(lang: str) -> list:
    """The HTML files of one edition's table of contents, in reading order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]
    return [HTML / lang / (f.replace("/en/", f"/{lang}/") + ".html") for f in dict.fromkeys(files)]


@contextlib.contextmanager
def built_site(server=None):
    """The book built once for this test run and served by ``server`` (``serve`` by default:
    a function of a folder that returns (base URL, server)); yields the base URL."""
    build_once()
    base, running = (server or serve)(HTML)
    try:
        yield base
    finally:
        running.shutdown()



@contextlib.contextmanager
def chromium_launched():
    """Headless Chromium, by the book's path and with its switches; a launch that fails (seen
    once on a loaded 2-core machine, before any page was opened) is retried, a page that fails
    never is."""
    with sync_playwright() as playwright:
        for attempt in range(3):
            try:
                chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                break
            except PlaywrightError:
                if attempt == 2:
                    raise
        try:
            yield chromium
        finally:
            chromium.close()
