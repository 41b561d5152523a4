"""The saved notebooks: each states its edition and the models' defaults, clean saved metadata,
and an nbval check that really fails on drift. (That they are what sections/ gives, the same
code in every edition, is tests/test_sections.py.)"""
import ast
import re
import json
import pathlib
import shutil
import subprocess
import sys

import nbformat
import pytest

import experiment
from measure import analysis, tp_analysis
import words
from present import EDITION_LINE, LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parents[1]
SECTIONS = sorted(p.name for p in (ROOT / "notebooks" / "en").glob("*.ipynb"))
PAGES = sorted(p.name for p in (ROOT / "book" / "en").glob("*.ipynb"))
ALL = [ROOT / "notebooks" / lang / name for lang in LANGUAGES for name in SECTIONS] + \
      [ROOT / "book" / lang / name for lang in LANGUAGES for name in PAGES]


#: The parameters (besides ``edition``) each kind of notebook takes, with their defaults.
DEFAULTS_OF = {**{article: {name: experiment.DEFAULTS[name] for name in names}
                  for article, names in experiment.PARAMETER_GROUPS.items()},
               "ledger": {}, "measured": {"record_name": analysis.COMMITTED},
               "counted": {"record_name": tp_analysis.COMMITTED}}


def rel(path):
    return str(path.relative_to(ROOT))


def article_of(path):
    """Which article's parameters a notebook exposes: split (article 1), tp or theory; the
    claims and errata pages ("ledger") take none but their edition; the measured section
    ("measured", article 1's protocol executed) takes the name of a measurement record, and so
    does article 2's ("counted", its layer in PyTorch's tensor parallelism)."""
    if path.parent.parent.name == "book":
        return "ledger"
    if path.name == "split-08-executed.ipynb":
        return "measured"
    if path.name == "tp-13-counted.ipynb":
        return "counted"
    prefix = path.name.split("-")[0]
    return prefix if prefix in ("tp", "theory") else "split"


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_each_notebook_states_its_own_edition(path):
    """A notebook's language is its parameters cell's ``edition``, which is its folder's name."""
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assert EDITION_LINE.findall(cell.source) == [path.parent.name]


def test_every_language_has_the_same_notebooks():
    # articles 1 (and its protocol executed), 2 (and its layer counted and timed) and 3
    assert len(SECTIONS) == 10 + 1 + 12 + 1 + 9
    for lang in LANGUAGES:
        assert sorted(p.name for p in (ROOT / "notebooks" / lang).glob("*.ipynb")) == SECTIONS
        assert sorted(p.name for p in (ROOT / "book" / lang).glob("*.ipynb")) == PAGES


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_parameters_cell_holds_the_articles_defaults(path):
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    values = {node.targets[0].id: ast.literal_eval(node.value)
              for node in ast.parse(cell.source).body}
    assert values == DEFAULTS_OF[article_of(path)] | {"edition": path.parent.name}


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_saved_notebooks_are_clean(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["metadata"] == {"kernelspec": {"display_name": "Python 3", "language": "python",
                                             "name": "python3"},
                              "language_info": {"name": "python"}}
    counts = []
    for index, cell in enumerate(nb["cells"]):
        assert cell["id"] == f"cell-{index:02d}"
        assert set(cell["metadata"]) <= {"tags"}
        if cell["cell_type"] == "code":
            counts.append(cell["execution_count"])
            assert not any(o["output_type"] == "error" for o in cell["outputs"])
    assert counts == list(range(1, len(counts) + 1)), "saved without running every cell in order"


def nbval(path, workers=("-p", "no:xdist")):
    """nbval on one notebook in a fresh pytest (by default in one process)."""
    return subprocess.run([sys.executable, "-m", "pytest", "--nbval", str(path), "-q",
                           "-p", "no:cacheprovider", *workers],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.fixture
def copy_of_ledger(request):
    """A copy of the English ledger notebook inside the repository (its code finds experiment.py
    by walking up from its folder, whose name sets the language)."""
    folder = ROOT / "_build" / "tamper" / request.node.name / "en"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "split-03-ledger.ipynb"
    shutil.copy(ROOT / "notebooks" / "en" / "split-03-ledger.ipynb", target)
    yield target
    shutil.rmtree(folder.parent)


def test_nbval_passes_on_an_untouched_copy_with_two_workers(copy_of_ledger):
    """As ``make test`` runs it: two xdist workers with ``--dist load``, which would split the
    notebook's cells between two kernels but for conftest.py's NotebookScheduling."""
    result = nbval(copy_of_ledger, workers=("-n", "2", "--dist", "load"))
    assert result.returncode == 0, result.stdout[-2000:]


def test_nbval_fails_when_a_saved_number_changes(copy_of_ledger):
    text = copy_of_ledger.read_text(encoding="utf-8")
    assert text.count('"\'9.22\'"') == 1                   # the glued T2, as saved
    copy_of_ledger.write_text(text.replace('"\'9.22\'"', '"\'9.23\'"'), encoding="utf-8")
    result = nbval(copy_of_ledger)
    assert result.returncode != 0
    assert "9.23" in result.stdout and "9.22" in result.stdout


def test_nbval_fails_when_a_saved_figure_changes(copy_of_ledger):
    nb = nbformat.read(copy_of_ledger, as_version=4)
    svg_outputs = [o for c in nb.cells for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {})]
    assert svg_outputs
    svg_outputs[0]["data"]["image/svg+xml"] = svg_outputs[0]["data"]["image/svg+xml"].replace(
        "#d55e00", "#000000", 1)
    nbformat.write(nb, copy_of_ledger)
    result = nbval(copy_of_ledger)
    assert result.returncode != 0 and "image/svg+xml" in result.stdout


def table_columns(markdown):
    """The body cells of each column of every Markdown table in ``markdown`` (header and rule
    left out), one list per column."""
    tables, rows = [], []
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            tables.append(rows[2:])
            rows = []
    return [list(column) for body in tables for column in zip(*body)]


def decimals_of(cell, lang):
    """How many decimals a table cell's number shows (an aside such as "(source: 1.31 ✗)" and a
    per cent sign left out), or None when the cell is not a number."""
    style = words.edition(lang)["typography"]
    cell = re.split(r" \(|（", cell)[0]
    mark, group = re.escape(style["decimal_mark"]), re.escape(style["group_mark"])
    match = re.fullmatch(rf"−?[0-9]+(?:{group}[0-9]{{3}})*(?:{mark}([0-9]+))?(?:\s?%)?", cell)
    return None if match is None else len(match.group(1) or "")


@pytest.mark.parametrize("path", [p for p in ALL if p.parent.parent.name == "notebooks"], ids=rel)
def test_every_table_column_keeps_one_number_of_decimals(path):
    """A column of numbers prints every cell with the same digits, trailing zeros included, as
    the source's programs print them (10.790 ms and 58.0 %, not 10.79 and 58 %). Columns with
    a cell that is not a number (labels, parameters with their units) are not columns of one
    quantity and are left out."""
    lang = path.parent.name
    uneven = []
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/markdown", "")
            for column in table_columns(text):
                counts = [decimals_of(c, lang) for c in column]
                if None not in counts and len(set(counts)) > 1:
                    uneven.append(column)
    assert uneven == [], f"{rel(path)}: columns with mixed decimals: {uneven}"
