"""The pinned requirement files: every package at one exact version, and the optional files
(JupyterLab, torch) adding packages without re-pinning what requirements.txt pins."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.\-]*)(\[[^\]]*\])?==([^\s;]+)(\s*;.*)?$")


def pins(name: str) -> dict:
    """Package (normalised name) → version, for every requirement line of ``name``; a line
    that is not an exact pin fails."""
    found = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        match = PIN.match(line)
        assert match, f"{name}: not pinned to one version: {line!r}"
        found[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(3)
    return found


@pytest.mark.parametrize("name", ["requirements.txt", "requirements-lab.txt",
                                  "requirements-measure.txt"])
def test_every_requirement_is_pinned(name):
    assert pins(name)


@pytest.mark.parametrize("name", ["requirements-lab.txt", "requirements-measure.txt"])
def test_optional_requirements_leave_the_books_pins_alone(name):
    book, extra = pins("requirements.txt"), pins(name)
    assert {p: (book[p], v) for p, v in extra.items() if p in book and book[p] != v} == {}
