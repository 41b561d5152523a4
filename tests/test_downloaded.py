"""A notebook as a reader takes it away: copied out of the repository into an empty folder and
run there, against the book's code installed from a wheel built here, with the repository out
of reach. One notebook of each kind: a section with figures, the measured sections (which read
committed measurement records), and a page of book/ (the claims ledger)."""
from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import venv

import pytest

from build_book import source_files

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: One notebook of each kind, in four editions between them.
DOWNLOADS = ("notebooks/zh/split-04-break-even.ipynb", "notebooks/es/split-08-executed.ipynb",
             "notebooks/it/tp-05-scaling.ipynb", "notebooks/en/tp-13-counted.ipynb",
             "book/en/claims.ipynb")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> pathlib.Path:
    """A Python with the pinned packages (this environment's, as plain path entries: a folder
    named in a .pth file is not scanned for .pth files, so the editable link back to the
    repository that `make` installs is left out) and the book's code, installed from a wheel
    built from a copy of its source files by pip, as `pip install <clone>` would."""
    base = tmp_path_factory.mktemp("installed")
    source = base / "source"
    for name in source_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    environment = base / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    purelib = pathlib.Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True).stdout.strip())
    (purelib / "book-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    # (and, where this environment has it, the line that keeps its processes from importing
    # rfc3987_syntax: tools/lean-imports.pth)
    lean = pathlib.Path(sysconfig.get_path("purelib")) / "lean-imports.pth"
    if lean.is_file():
        shutil.copy(lean, purelib / lean.name)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--disable-pip-version-check", "--target",
                    str(purelib), str(source)], check=True, capture_output=True)
    return python


def test_installing_leaves_nothing_in_the_readers_copy(installed):
    """pip builds in the source folder: setup.py sends setuptools' build/ and egg-info into
    _build/ (ignored), so the copy holds its source files and that folder, nothing else."""
    source = installed.parents[2] / "source"
    assert not (source / "build").exists()
    assert not list(source.glob("*.egg-info"))
    assert {p.name for p in source.iterdir()} - {"_build"} == \
        {name.split("/")[0] for name in source_files()}


def test_the_installed_copy_is_the_one_a_downloaded_notebook_imports(installed, tmp_path):
    """Not the repository: from an empty folder, the installed Python imports the book's code
    from its own site-packages, and knows no path into the repository."""
    probe = subprocess.run(
        [installed, "-c", "import sys, experiment, measure.records; "
                          "print(experiment.__file__); print('\\n'.join(sys.path))"],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    module, *path = probe.splitlines()
    assert pathlib.Path(module).parent != ROOT and "site-packages" in module, module
    assert not any(entry and pathlib.Path(entry).resolve() == ROOT for entry in path), path


def shown(notebook: dict) -> list:
    """What each code cell shows: its outputs' data and text, without counts or metadata."""
    return [[(output.get("data"), output.get("text")) for output in cell.get("outputs", [])]
            for cell in notebook["cells"] if cell["cell_type"] == "code"]


@pytest.mark.parametrize("name", DOWNLOADS)
def test_a_downloaded_notebook_runs_where_the_reader_puts_it(installed, tmp_path, name):
    """Run with papermill in an empty folder, the notebook succeeds and shows what the book
    shows: every output equal to the saved one."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    notebook = folder / pathlib.Path(name).name
    shutil.copyfile(ROOT / name, notebook)
    executed = folder / "executed.ipynb"
    # The kernel specification that conftest.py puts first on JUPYTER_PATH starts the kernel on
    # private sockets (kernel_sockets.py, installed with the book), so that two test workers
    # cannot race for a port; the kernel sees none of the repository.
    launch = ("import sys, papermill; papermill.execute_notebook(sys.argv[1], sys.argv[2], "
              "kernel_name='python3', progress_bar=False)")
    result = subprocess.run([installed, "-c", launch, notebook.name, executed.name], cwd=folder,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    saved = json.loads(notebook.read_text(encoding="utf-8"))
    again = json.loads(executed.read_text(encoding="utf-8"))
    assert shown(again) == shown(saved)
