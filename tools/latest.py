"""`make latest`: the book rebuilt with the newest releases that requirements.in allows.

Run by the Python of a virtual environment that `make latest` filled from requirements.in (not
from the lock), in a copy of the repository's files (so that data/, the notebooks and _build/
of the checkout stay as they are):

1. ``python experiment.py`` regenerates data/;
2. ``python tools/notebooks.py --execute`` executes every notebook (a kernel on private
   sockets each, two at a time);
3. ``python tools/build_book.py en`` builds the English edition, with its PDF where Chromium
   is installed;

then it reports the versions of the packages requirements.in names and which files of data/
and of the notebooks differ from the committed ones. A step that fails fails the run, naming
the step; files that differ do not (newer releases may draw a figure or print a number
otherwise: the list says where to look).
"""
from __future__ import annotations

import argparse
import filecmp
import importlib.metadata
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from bench import copy_of_book  # noqa: E402
from build_book import source_files, unignored_files  # noqa: E402

#: The folders whose files a newer release may change, compared with the committed ones.
COMPARED = ("data", "notebooks", "book")


def step(what: str, command: list, cwd: pathlib.Path) -> None:
    """Run ``command`` in ``cwd``, saying what it does and how long it took; stop the run,
    naming ``what``, where it fails."""
    print(f"latest: {what} ...", flush=True)
    start = time.monotonic()
    if subprocess.run(command, cwd=cwd).returncode:
        raise SystemExit(f"latest: FAILED: {what} ({' '.join(map(str, command))} in {cwd})")
    print(f"latest: {what}: done in {time.monotonic() - start:.0f} s", flush=True)


def named_packages(requirements_in: pathlib.Path) -> list:
    """The distributions requirements.in names, in its order."""
    names = []
    for line in requirements_in.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.append(re.match(r"[A-Za-z0-9_.\-]+", line).group(0))
    return names


def differing(original: pathlib.Path, copy: pathlib.Path, folders=COMPARED) -> list:
    """The files under ``folders`` whose bytes differ between ``original`` (the repository) and
    ``copy``, or that only one of them has, as sorted relative names: the files the repository
    tracks, and those the run wrote that .gitignore does not exclude."""
    names = {name for name in [*source_files(original), *unignored_files(copy)]
             if name.split("/")[0] in folders}
    return sorted(name for name in names
                  if not ((original / name).is_file() and (copy / name).is_file()
                          and filecmp.cmp(original / name, copy / name, shallow=False)))


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=pathlib.Path, default=ROOT / "_build" / "latest" / "book",
                        help="where the copy of the book is made (emptied first)")
    args = parser.parse_args(argv)
    book = args.work.resolve()
    shutil.rmtree(book, ignore_errors=True)
    book.mkdir(parents=True)
    copy_of_book(book)
    # the copy's code, for the kernels and the build (editable: no wheel to build)
    step("install the copy's code", [sys.executable, "-m", "pip", "install", "--quiet",
                                     "--disable-pip-version-check", "--no-deps", "-e", "."], book)
    step("regenerate data/", [sys.executable, "experiment.py"], book)
    step("execute every notebook", [sys.executable, "tools/notebooks.py", "--execute"], book)
    step("build the English edition", [sys.executable, "tools/build_book.py", "en"], book)
    print("\nlatest: versions")
    for name in named_packages(ROOT / "requirements.in"):
        print(f"  {name}=={importlib.metadata.version(name)}")
    changed = differing(ROOT, book)
    print(f"\nlatest: {len(changed)} file(s) of {', '.join(COMPARED)} differ from the committed ones"
          + (":" if changed else ""))
    for name in changed:
        print(f"  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
