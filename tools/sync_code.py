"""Copy the English notebooks' code cells into the other editions, in order.

Code cells are the same in all four editions (tests/test_notebooks.py checks it), except the
parameters cell's ``edition = "<lang>"`` line, which this tool writes for each edition; only
the markdown differs. After changing a code cell in notebooks/en/NAME.ipynb (or book/en/NAME.ipynb),
run ``python tools/sync_code.py`` and then ``make notebooks`` to re-execute everything.
A notebook whose number of code cells differs from the English one is reported, not changed.
"""
from __future__ import annotations

import pathlib
import sys

import nbformat

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from present import EDITION_LINE  # noqa: E402  (the one line that differs between editions)

ROOT = pathlib.Path(__file__).resolve().parents[1]
OTHER_EDITIONS = ("zh", "es", "it")


def sync(english: pathlib.Path) -> list:
    """Give each other edition of ``english`` its code cells; return the problems found."""
    source = [c for c in nbformat.read(english, as_version=4).cells if c.cell_type == "code"]
    problems = []
    for lang in OTHER_EDITIONS:
        path = english.parent.parent / lang / english.name
        nb = nbformat.read(path, as_version=4)
        target = [c for c in nb.cells if c.cell_type == "code"]
        if len(target) != len(source):
            problems.append(f"{path.relative_to(ROOT)}: {len(target)} code cells, en has {len(source)}")
            continue
        changed = False
        for mine, theirs in zip(target, source):
            wanted = EDITION_LINE.sub(f'edition = "{lang}"', theirs.source)
            if (mine.source, mine.metadata.get("tags")) != (wanted, theirs.metadata.get("tags")):
                mine.source, mine.metadata = wanted, theirs.metadata
                changed = True
        if changed:
            nbformat.write(nb, path)
            print("synced", path.relative_to(ROOT))
    return problems


def main() -> int:
    problems = []
    for english in sorted(ROOT.glob("notebooks/en/*.ipynb")) + sorted(ROOT.glob("book/en/*.ipynb")):
        problems += sync(english)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
