"""Measure the book's speed as ratios taken side by side in one run, and write them into the
README's performance notes (between the BENCH markers), with the date and the machine.

A shared 2-core machine is too noisy for absolute seconds to mean much, so every figure is
set beside a reference measured in the same run. This never fails on a number, only on a
crash; no test in ``make test`` times anything.

    python tools/bench.py            everything, including ``make test`` on a fresh clone
    python tools/bench.py --quick    without the fresh-clone ``make test``, whose rows it keeps
                                     with the date they were measured
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
BIN = pathlib.Path(PYTHON).parent


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
    build from scratch without touching _build/."""
    for name in source_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    return target


#: How many times each command of ``regeneration`` runs, in turn with the others.
REGENERATION_ROUNDS = 5


def regeneration() -> dict:
    """``python experiment.py`` against the floor of importing numpy and matplotlib: drawing
    every figure (the cache off, as --check and a fresh clone do), and with the figures read
    from a figure cache that one earlier run filled (the inner loop after an edit that leaves
    them unchanged). The three run in turn, REGENERATION_ROUNDS times, and each counts its
    fastest run, so that a ratio's two sides are taken at the same moments (run one after the
    other in blocks of three, the floor alone moved between 0.42 and 0.57 s within an hour)."""
    runs = {"drawn": [], "cached": [], "floor": []}
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as cache:
        seconds([PYTHON, "experiment.py", "--out", out], BOOK_FIGURE_CACHE=cache)
        for _ in range(REGENERATION_ROUNDS):
            runs["floor"].append(seconds([PYTHON, "-c", "import numpy, matplotlib.pyplot"]))
            runs["drawn"].append(seconds([PYTHON, "experiment.py", "--out", out],
                                         BOOK_FIGURE_CACHE="off"))
            runs["cached"].append(seconds([PYTHON, "experiment.py", "--out", out],
                                          BOOK_FIGURE_CACHE=cache))
    drawn, cached, floor = (min(runs[name]) for name in ("drawn", "cached", "floor"))
    return {"regenerate data/, every figure drawn (s)": drawn,
            "regenerate data/, figures from the cache (s)": cached, "import floor (s)": floor,
            "drawn / import floor": drawn / floor, "from the cache / import floor": cached / floor}


#: The sentence each measured rebuild changes, and how: the second form, then back (each a change
#: of one notebook's prose).
CHANGED_PAGE = "notebooks/en/split-03-ledger.ipynb"
SENTENCE = ("accounting for every millisecond", "accounting for every single millisecond")


def builds(repeats: int = 2) -> dict:
    """One edition (en): the book's build, from scratch (with its PDF, and its site alone) and
    after one notebook changed, against a Jupyter Book build that executes every notebook (its
    `execute_notebooks: force`), which prints no PDF. Each of the book's builds is the fastest
    of ``repeats`` (from scratch: each in a fresh copy; after a change: one more change each
    time), the least disturbed by the machine's other work, as for the figures; a single run
    moved by a tenth from one to the next."""
    with tempfile.TemporaryDirectory() as folder:
        site_only, full = float("inf"), float("inf")
        for attempt in range(repeats):
            site = copy_of_book(pathlib.Path(folder) / f"site-{attempt}")
            site_only = min(site_only, seconds([PYTHON, "tools/build_book.py", "--html-only", "en"], cwd=site))
            book = copy_of_book(pathlib.Path(folder) / f"book-{attempt}")
            full = min(full, seconds([PYTHON, "tools/build_book.py", "en"], cwd=book))
        page, incremental = book / CHANGED_PAGE, float("inf")
        for change in range(repeats + 1):
            old, new = SENTENCE if change % 2 == 0 else SENTENCE[::-1]
            text = page.read_text(encoding="utf-8")
            assert old in text, f"{CHANGED_PAGE} no longer says {old!r}: choose another sentence"
            page.write_text(text.replace(old, new, 1), encoding="utf-8")
            incremental = min(incremental, seconds([PYTHON, "tools/build_book.py", "en"], cwd=book))
        config = book / "_config.yml"
        config.write_text(re.sub(r'execute_notebooks: "?\w+"?', "execute_notebooks: force",
                                 config.read_text(encoding="utf-8")), encoding="utf-8")
        executing = seconds([str(BIN / "jupyter-book"), "build", ".", "--path-output",
                             str(book / "_executing")], cwd=book)
    return {"book build, one edition, from scratch (s)": full,
            "its site alone, without the PDF (s)": site_only,
            "same after one notebook changed (s)": incremental,
            "Jupyter Book build executing every notebook, no PDF (s)": executing,
            "executing / book build": executing / full,
            "executing / site alone (like with like: neither prints a PDF)": executing / site_only,
            "incremental / from scratch": incremental / full}


def panel() -> dict:
    """The "your numbers" panel in headless Chromium, on split-04 of the English edition built
    from a copy of the book with Pyodide: from opening the panel to the first page recomputed
    (Pyodide started, the book's modules loaded), and from a changed value to the page updated,
    against the page's own load. Skipped (no rows) where Pyodide or Chromium is missing."""
    import functools
    import http.server
    import threading

    from build_book import CHROMIUM as chromium
    from pdf_edition import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright
    modules = ROOT / "tools" / "pyodide" / "node_modules"
    if not modules.is_dir() or not pathlib.Path(chromium).exists():
        return {}
    with tempfile.TemporaryDirectory() as folder:
        book = copy_of_book(pathlib.Path(folder) / "book")
        (book / "tools" / "pyodide" / "node_modules").symlink_to(modules)
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
            "panel: value changed to page updated (s)": changed,
            "panel opened / page load": opened / loaded}


def notebooks() -> dict:
    """nbval (two workers, a notebook's cells on one, as make test schedules them) and
    papermill (one at a time), per notebook."""
    paths = sorted((ROOT / "notebooks" / "en").glob("*.ipynb"))
    nbval = seconds([PYTHON, "-m", "pytest", "--nbval", "notebooks/en", "-n", "2", "--dist",
                     "load", "-q", "-p", "no:cacheprovider"])
    with tempfile.TemporaryDirectory() as out:
        papermill = sum(seconds([str(BIN / "papermill"), str(p), f"{out}/{p.name}", "--cwd",
                                 str(p.parent)]) for p in paths[:6])
    return {"nbval, per notebook (s)": nbval / len(paths), "papermill, per notebook (s)": papermill / 6}


#: What ``make test`` installs before it tests (its packages, from pip's and npm's caches):
#: the book's and JupyterLab's Python packages, Lighthouse and Pyodide.
PACKAGES = [".venv/.requirements-installed", ".venv/.lab-installed",
            "tools/lighthouse/node_modules/.bin/lighthouse",
            "tools/pyodide/node_modules/pyodide/package.json"]


def fresh_clone_test() -> dict:
    """``make test`` on a fresh clone of the committed book, its packages installed first from
    pip's and npm's caches (as CI installs them: ``make test`` installs what is missing, side
    by side), and the time that installing took."""
    with tempfile.TemporaryDirectory() as folder:
        clone = pathlib.Path(folder) / "book"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        install = seconds(["make", PACKAGES[0]], cwd=clone) + \
            seconds(["make", "-j3", *PACKAGES[1:]], cwd=clone)
        test = seconds(["make", "test"], cwd=clone)
    return {"make test on a fresh clone (s)": test, "installing the packages first (s)": install}


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in
                pathlib.Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    return f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, {platform.system()}"


START, END = "<!-- BENCH:START -->", "<!-- BENCH:END -->"
#: Issue 21's goals: row → (comparison, bound). The table says of each such row whether its
#: value meets the goal, so that no prose has to repeat a value that the next run changes.
GOALS = {"drawn / import floor": ("≤", 2.0), "executing / book build": ("≥", 8.0),
         "incremental / from scratch": ("≤", 0.2), "make test on a fresh clone (s)": ("≤", 240.0)}


def goal(name: str, value: str) -> str:
    """The goal cell of row ``name`` whose value reads ``value``: "≤ 2: met", "≥ 8: not met",
    or empty for a row without a goal."""
    if name not in GOALS:
        return ""
    relation, bound = GOALS[name]
    met = float(value) <= bound if relation == "≤" else float(value) >= bound
    return f"{relation} {bound:g}: {'met' if met else 'not met'}"


def written(name: str, value: float) -> str:
    """``value`` as row ``name`` shows it: two decimals, three for a ratio with a goal, so that
    the value judged against the goal is the one shown and a ratio just over its bound (0.2045
    of a full build) does not read as met at two decimals (0.20)."""
    return f"{value:.3f}" if name in GOALS and not name.endswith("(s)") else f"{value:.2f}"


def earlier_rows(readme: str) -> dict:
    """The README table's rows: measurement → (value, the date it was measured). A row written
    before the table had a date column takes the table's own date."""
    if START not in readme:
        raise SystemExit("README.md has no <!-- BENCH:START --> marker")
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
    lines = [f"Written by `make bench` on {today}, {machine()}. Ratios are taken side by side "
             "in one run (each row's date says which); seconds are indicative only.", "",
             "| measurement | value | measured | goal |", "|---|---|---|---|"]
    lines += [f"| {name} | {value} | {date} | {goal(name, value)} |"
              for name, (value, date) in rows.items()]
    return "\n".join(lines)


def write_into_readme(text: str, start: str = START, end: str = END) -> None:
    """Replace what lies between the README's ``start`` and ``end`` markers (BENCH by default;
    tools/audit.py writes its own) with ``text``, the README written whole (atomic.py)."""
    readme = ROOT / "README.md"
    content = readme.read_text(encoding="utf-8")
    if start not in content:
        raise SystemExit(f"README.md has no {start} marker")
    before, rest = content.split(start, 1)
    atomic.write_text(readme, f"{before}{start}\n{text}\n{end}{rest.split(end, 1)[1]}")


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip the fresh-clone make test (its rows keep their date)")
    args = parser.parse_args(argv)
    results = {"regeneration": regeneration(), "builds": builds(), "notebooks": notebooks(),
               "panel": panel()}
    if not args.quick:
        results["fresh clone"] = fresh_clone_test()
    earlier = earlier_rows((ROOT / "README.md").read_text(encoding="utf-8"))
    text = report(results, earlier, datetime.date.today().isoformat())
    print(text)
    write_into_readme(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
