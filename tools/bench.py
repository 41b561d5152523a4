"""`make bench`: the times a reader or a maintainer feels, against the budgets of
docs/performance.md, written into that file's table (between the BENCH markers) with the date
and the machine.

Each row is the fastest of a few runs (the least disturbed by the machine's other work); the
table says of each whether it is within its budget. This never fails on a number, only on a
crash; no test in ``make test`` times anything.

    python tools/bench.py            everything, the fresh clones' make book and make test too
    python tools/bench.py --quick    without the fresh clones, whose rows it keeps with the date
                                     they were measured
"""
from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

import atomic  # (tools/build_book.py puts the repository on the path)
from build_book import source_files
from local_server import serve

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYTHON = sys.executable
#: Where the table is written.
REPORT = ROOT / "docs" / "performance.md"


def seconds(command: list, cwd: pathlib.Path = ROOT, **env) -> float:
    """Wall time of one run of ``command``, which must succeed: a failure ends the bench with
    the end of what the command printed."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **env})
    if done.returncode:
        said = (done.stdout + done.stderr)[-4000:]
        raise SystemExit(f"{' '.join(command)} (in {cwd}) exited with {done.returncode}:\n{said}")
    return time.perf_counter() - start


def copy_of_book(target: pathlib.Path) -> pathlib.Path:
    """A copy of the book's source files (what the site's source archive holds, no git), to
    build from scratch without touching _build/, with the npm packages the build uses (Pyodide,
    purgecss) linked from the checkout where they are installed."""
    for name in source_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    for package in ("pyodide", "purgecss"):
        modules = ROOT / "tools" / package / "node_modules"
        if modules.is_dir():
            (target / "tools" / package / "node_modules").symlink_to(modules)
    return target


def regeneration(runs: int = 5) -> dict:
    """``python experiment.py``, every figure drawn: the fastest of ``runs``."""
    with tempfile.TemporaryDirectory() as out:
        drawn = min(seconds([PYTHON, "experiment.py", "--out", out]) for _ in range(runs))
    return {"python experiment.py, every figure drawn (s)": drawn}


#: The sentence each measured rebuild changes, and how: the second form, then back (each a change
#: of one notebook's prose).
CHANGED_PAGE = "notebooks/en/split-03-ledger.ipynb"
SENTENCE = ("accounting for every millisecond", "accounting for every single millisecond")


def builds(repeats: int = 2) -> dict:
    """One edition (en) built from scratch with its PDF, and again after one notebook's prose
    changed (the one-page rebuild a writer waits for): each the fastest of ``repeats``."""
    with tempfile.TemporaryDirectory() as folder:
        full = float("inf")
        for attempt in range(repeats):
            book = copy_of_book(pathlib.Path(folder) / f"book-{attempt}")
            full = min(full, seconds([PYTHON, "tools/build_book.py", "en"], cwd=book))
        page, incremental = book / CHANGED_PAGE, float("inf")
        for change in range(repeats):
            old, new = SENTENCE if change % 2 == 0 else SENTENCE[::-1]
            text = page.read_text(encoding="utf-8")
            assert old in text, f"{CHANGED_PAGE} no longer says {old!r}: choose another sentence"
            page.write_text(text.replace(old, new, 1), encoding="utf-8")
            incremental = min(incremental, seconds([PYTHON, "tools/build_book.py", "en"], cwd=book))
    return {"one edition from scratch, with its PDF (s)": full,
            "one-page rebuild (s)": incremental}


def panel() -> dict:
    """The "your numbers" panel in headless Chromium, on split-04 of the English edition built
    from a copy of the book with Pyodide: from opening the panel to the first page recomputed
    (Pyodide started, the book's modules loaded), and from a changed value to the page updated,
    against the page's own load. Skipped (no rows) where Pyodide or Chromium is missing."""

    from build_book import CHROMIUM as chromium
    from pdf_edition import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright
    if not (ROOT / "tools" / "pyodide" / "node_modules").is_dir() or not pathlib.Path(chromium).exists():
        return {}
    with tempfile.TemporaryDirectory() as folder:
        book = copy_of_book(pathlib.Path(folder) / "book")
        subprocess.run([PYTHON, "tools/build_book.py", "--html-only", "en"], cwd=book, check=True,
                       capture_output=True)
        base, server = serve(book / "_build" / "html")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                page = browser.new_page()
                start = time.perf_counter()
                page.goto(f"{base}/en/notebooks/en/"
                          "split-04-break-even.html", wait_until="load")
                loaded = time.perf_counter() - start

                def until(status: str) -> float:
                    began = time.perf_counter()
                    page.wait_for_function("s => document.querySelector('.your-numbers-status')"
                                           ".textContent === s", arg=status, timeout=300000)
                    return time.perf_counter() - began
                said = __import__("words").edition("en")["panel"]
                page.click("details.your-numbers > summary")
                opened = until(said["article_values"])
                page.fill("#your-numbers-c_ms", "2.5")
                page.click(".your-numbers-buttons button[type=submit]")
                changed = until(said["recomputed"])
                browser.close()
        finally:
            server.shutdown()
    return {"page load, split-04 (s)": loaded,
            "panel: opened to first page recomputed (s)": opened,
            "panel: value changed to page updated (s)": changed}


#: What ``make test`` installs before it tests: the book's and JupyterLab's Python packages,
#: Lighthouse, Pyodide, purgecss and cffconvert.
PACKAGES = [".venv/.requirements-installed", ".venv/.lab-installed",
            "tools/lighthouse/node_modules/.bin/lighthouse",
            "tools/pyodide/node_modules/pyodide/package.json",
            "tools/purgecss/node_modules/purgecss/package.json", "_build/cff-tools/bin/cffconvert"]


def fresh_clones() -> dict:
    """On fresh clones of the committed book: ``make book`` with the installs it makes (from
    pip's and npm's caches, as on a maintainer's second clone); ``make test`` once its packages
    are installed, and the time installing them took."""
    times = {}
    with tempfile.TemporaryDirectory() as folder:
        clone = pathlib.Path(folder) / "book"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        times["fresh clone, make book, with its installs (s)"] = seconds(["make", "book"], cwd=clone)
    with tempfile.TemporaryDirectory() as folder:
        clone = pathlib.Path(folder) / "book"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        times["fresh clone, installing make test's packages (s)"] = \
            seconds(["make", PACKAGES[0]], cwd=clone) + seconds(["make", "-j3", *PACKAGES[1:]], cwd=clone)
        times["fresh clone, make test (s)"] = seconds(["make", "test"], cwd=clone)
    return times


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in
                pathlib.Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    return f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, {platform.system()}"


START, END = "<!-- BENCH:START -->", "<!-- BENCH:END -->"
#: The budgets (issue 46), in seconds: row -> at most.
BUDGETS = {"fresh clone, make book, with its installs (s)": 240.0,
           "fresh clone, make test (s)": 240.0,
           "one-page rebuild (s)": 3.0,
           "python experiment.py, every figure drawn (s)": 2.5,
           "panel: opened to first page recomputed (s)": 1.5,
           "panel: value changed to page updated (s)": 0.05,
           "page load, split-04 (s)": 0.5}


def goal(name: str, value: str) -> str:
    """The budget cell of row ``name`` whose value reads ``value``: "≤ 3: met", "≤ 1.5: not
    met", or empty for a row without a budget."""
    if name not in BUDGETS:
        return ""
    return f"≤ {BUDGETS[name]:g}: {'met' if float(value) <= BUDGETS[name] else 'not met'}"


def written(name: str, value: float) -> str:
    """``value`` as the table shows it: three decimals under a second, so that a value just
    over a small budget (0.052 of 0.05 s) does not read as within it, two otherwise."""
    return f"{value:.3f}" if value < 1 else f"{value:.2f}"


def earlier_rows(readme: str) -> dict:
    """The table's rows: measurement → (value, the date it was measured). A row written
    before the table had a date column takes the table's own date."""
    if START not in readme:
        raise SystemExit(f"{REPORT.relative_to(ROOT)} has no {START} marker")
    table = readme.split(START, 1)[1].split(END, 1)[0]
    stated = re.search(r"on (\d{4}-\d{2}-\d{2})", table)
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and line.startswith("|") and cells[0] not in ("measurement", "---"):
            rows[cells[0]] = (cells[1], cells[2] if len(cells) > 2 else
                              (stated.group(1) if stated else "unknown"))
    return rows


def report(results: dict, earlier: dict, today: str) -> str:
    """The whole table: this run's rows, dated today, and every earlier row this run did not
    measure, kept with its own date (a quick run leaves out the fresh-clone make test)."""
    rows = {name: (written(name, value), today) for group in results.values()
            for name, value in group.items()}
    rows.update({name: row for name, row in earlier.items() if name not in rows})
    lines = [f"Written by `make bench` on {today}, {machine()}; each row is the fastest of "
             "a few runs, measured on the date it gives.", "",
             "| measurement | value | measured | budget |", "|---|---|---|---|"]
    lines += [f"| {name} | {value} | {date} | {goal(name, value)} |"
              for name, (value, date) in rows.items()]
    return "\n".join(lines)


def write_into(path: pathlib.Path, text: str, start: str = START, end: str = END) -> None:
    """Replace what lies between ``start`` and ``end`` in ``path`` with ``text``, the file
    written whole (atomic.py)."""
    content = path.read_text(encoding="utf-8")
    if start not in content:
        raise SystemExit(f"{path} has no {start} marker")
    before, rest = content.split(start, 1)
    atomic.write_text(path, f"{before}{start}\n{text}\n{end}{rest.split(end, 1)[1]}")


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip the fresh clones (their rows keep their date)")
    args = parser.parse_args(argv)
    results = {"regeneration": regeneration(), "builds": builds(), "panel": panel()}
    if not args.quick:
        results["fresh clones"] = fresh_clones()
    earlier = earlier_rows(REPORT.read_text(encoding="utf-8"))
    text = report(results, earlier, datetime.date.today().isoformat())
    print(text)
    write_into(REPORT, text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
