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


@pytest.mark.parametrize("name", ["requirements", "requirements-lab", "requirements-measure"])
def test_each_lock_is_compiled_from_its_input_and_within_its_ranges(name):
    """Each .txt says it is compiled by `make lock`, and pins every package its .in names at a
    version the .in's range allows (the input is the short list a maintainer edits)."""
    from packaging.requirements import Requirement

    lock = (ROOT / f"{name}.txt").read_text(encoding="utf-8")
    assert "#    make lock\n" in lock[:400], f"{name}.txt does not say it is compiled by make lock"
    pinned = pins(f"{name}.txt")
    for line in (ROOT / f"{name}.in").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line or line.startswith("-"):
            continue
        wanted = Requirement(line)
        key = re.sub(r"[-_.]+", "-", wanted.name).lower()
        assert key in pinned, f"{name}.in names {wanted.name}, which {name}.txt does not pin"
        assert wanted.specifier.contains(pinned[key], prereleases=True), (wanted, pinned[key])


def test_jsonschema_leaves_rfc3987_syntax_alone_where_jupyterlab_brings_it():
    """requirements-lab.txt pins rfc3987, so that jsonschema checks IRIs with it and never
    imports rfc3987-syntax, whose grammar took about a second of CPU in every process that
    imports nbformat (jsonschema issue 1428)."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("rfc3987_syntax") is None:
        pytest.skip("rfc3987-syntax is not installed here (JupyterLab is not): nothing to leave out")
    imported = subprocess.run([sys.executable, "-c", "import sys, nbformat, jsonschema; "
                               "print('rfc3987_syntax' in sys.modules)"],
                              capture_output=True, text=True, check=True).stdout.strip()
    assert imported == "False", "jsonschema imported rfc3987_syntax (is rfc3987 installed?)"
