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


def test_the_environment_leaves_out_rfc3987_syntax_where_jupyterlab_brings_it():
    """tools/lean-imports.pth, copied into the environment with JupyterLab, keeps jsonschema
    from importing rfc3987_syntax (a second of CPU in every process that imports nbformat)."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("rfc3987_syntax") is None and "rfc3987_syntax" not in sys.modules:
        pytest.skip("rfc3987-syntax is not installed here (JupyterLab is not): nothing to leave out")
    imported = subprocess.run([sys.executable, "-c", "import sys, nbformat; "
                               "print(sys.modules.get('rfc3987_syntax', 'not imported'))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    assert imported == "None", f"jsonschema imported {imported} (make installs tools/lean-imports.pth)"


def test_no_schema_installed_uses_the_formats_left_unchecked():
    """What leaving rfc3987_syntax out costs: jsonschema then leaves the "iri" and
    "iri-reference" formats unchecked. No JSON or YAML schema of the installed packages (those
    of nbformat, Jupyter Book, jupyter-events and JupyterLab among them) uses either; jsonschema's
    own metaschemas, which define them, aside."""
    import sys
    import sysconfig

    iri = re.compile(r'"format"\s*:\s*"iri|\bformat:\s*["\']?iri')
    roots = [pathlib.Path(sysconfig.get_paths()["purelib"]), pathlib.Path(sys.prefix) / "share" / "jupyter"]
    users = [str(path) for root in roots if root.is_dir() for pattern in ("*.json", "*.yaml", "*.yml")
             for path in root.rglob(pattern)
             if "jsonschema" not in path.relative_to(root).parts[0]
             and iri.search(path.read_text(encoding="utf-8", errors="ignore"))]
    assert users == []
