"""Re-execute the book's notebooks in place and save them with clean, stable metadata.

Run after changing experiment.py or a notebook: ``make notebooks`` (all of them) or
``python tools/refresh_notebooks.py notebooks/en/split-03-ledger.ipynb``. Each notebook
runs in its own folder (which sets its language), then loses everything that would
change from one run to the next: timings, papermill records, widget state.
"""
from __future__ import annotations

import multiprocessing
import os
import pathlib
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

import nbformat
from nbclient import NotebookClient

from kernels import AsyncPrivateSocketKernelManager

ROOT = pathlib.Path(__file__).resolve().parents[1]
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def normalize(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Stable notebook metadata: fixed kernel, numbered cell ids and counts, no timings."""
    nb.metadata = nbformat.from_dict({"kernelspec": KERNELSPEC,
                                      "language_info": {"name": "python"}})
    count = 0
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index:02d}"
        tags = cell.metadata.get("tags", [])
        cell.metadata = nbformat.from_dict({"tags": tags} if tags else {})
        if cell.cell_type == "code":
            count += 1
            cell.execution_count = count
            for output in cell.outputs:
                if "execution_count" in output:
                    output.execution_count = count
    nb.nbformat, nb.nbformat_minor = 4, 5
    return nb


def write_atomically(path: pathlib.Path, nb: nbformat.NotebookNode) -> None:
    """Write through a temporary file and rename, so a failed run never truncates a notebook."""
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            nbformat.write(nb, stream)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def refresh(path: pathlib.Path) -> str:
    """Execute one notebook in its folder and save it normalized."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, kernel_name="python3", timeout=120, startup_timeout=120,
                   kernel_manager_class=AsyncPrivateSocketKernelManager,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    write_atomically(path, normalize(nb))
    return str(path.relative_to(ROOT))


def main(argv: list) -> int:
    paths = [pathlib.Path(a).resolve() for a in argv] or sorted(
        list(ROOT.glob("notebooks/*/*.ipynb")) + list(ROOT.glob("book/*/*.ipynb")))
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        for done in pool.map(refresh, paths):
            print("refreshed", done)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
