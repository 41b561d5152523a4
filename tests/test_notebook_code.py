"""Every notebook's code at the edges of the parameter space, in process.

Papermill only adds a cell of assignments after the parameters cell; this test adds the same
cell (papermill's own ``parameterize_notebook``) and executes the code cells in order in this
process, which takes milliseconds instead of a kernel start. The code cells are identical in
the four editions (tests/test_notebooks.py), so the English ones stand for all; the edition
only changes formatting, which runs here in the edition that the sets name.
"""
import io
import contextlib

import pytest
from papermill.iorw import load_notebook_node
from papermill.parameterize import parameterize_notebook

import experiment
from measure import analysis, tp_analysis
from test_notebooks import PAGES, ROOT, SECTIONS, article_of

EN = [ROOT / ("notebooks" if name in SECTIONS else "book") / "en" / name for name in SECTIONS + PAGES]
SPECS, GROUPS = experiment.SPECS, experiment.PARAMETER_GROUPS

#: Per article, parameter sets at the edges of the ranges, each in one edition's notation.
EDGES = {
    "split": [
        {"eta": 0.5, "edition": "zh"},                           # no break-even C, no minimum B
        {"eta": 1.0, "ell_ms": 0.0, "v_bytes": 0.0, "edition": "es"},   # free communication
        {"c_ms": 0.92, "edition": "it"},                         # C = H
        {"c_ms": 0.1, "edition": "en"},                          # C < H: no η threshold
        {**{n: SPECS[n].low for n in GROUPS["split"]}, "edition": "es"},
        {**{n: SPECS[n].high for n in GROUPS["split"]}, "edition": "it"},
        {"c_ms": 1e9, "eta": 0.5 + 1e-12, "q": 10**6, "v_bytes": 1e15, "b_bytes_per_s": 1e3,
         "edition": "zh"},
    ],
    "tp": [
        {**{n: SPECS[n].low for n in GROUPS["tp"]}, "edition": "es"},
        {**{n: SPECS[n].high for n in GROUPS["tp"]}, "edition": "zh"},
        {"tp_hidden": 1, "tp_flops_per_s": 1e21, "tp_bandwidth_bytes_per_s": 1e3, "edition": "it"},
    ],
    "theory": [
        {"th_serial_fraction": 0.0, "edition": "it"},           # no limit 1/f
        {"th_serial_fraction": 1.0, "th_devices": 10**9, "edition": "es"},
        {"th_devices": 1, "edition": "zh"},                      # no serial fraction to infer
        {**{n: SPECS[n].low for n in GROUPS["theory"]}, "edition": "en"},
        {**{n: SPECS[n].high for n in GROUPS["theory"]}, "edition": "es"},
    ],
    "ledger": [{"edition": "zh"}, {"edition": "it"}],    # claims and errata take no parameter
    "measured": [{"record_name": analysis.COMMITTED, "edition": "es"}],   # the one record
    "counted": [{"record_name": tp_analysis.COMMITTED, "edition": "zh"}],
}


def execute_in_process(path, parameters: dict) -> dict:
    """Run a notebook's code cells with papermill's injected parameters and return the
    notebook's variables (what it displays is discarded). A failing cell raises as it
    would in Jupyter."""
    nb = parameterize_notebook(load_notebook_node(str(path)), parameters)
    namespace = {"In": [""], "__name__": "__main__"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for cell in nb.cells:
            if cell.cell_type == "code":
                namespace["In"].append(cell.source)
                exec(compile(cell.source, f"{path.name}, cell {len(namespace['In']) - 1}", "exec"),
                     namespace)
    return namespace


@pytest.mark.parametrize("path", EN, ids=lambda p: p.name)
def test_every_notebook_runs_at_the_edges_of_its_parameters(path):
    for parameters in EDGES[article_of(path)]:
        execute_in_process(path, parameters)


def test_the_in_process_run_sees_the_parameters():
    """Not vacuous: the injected parameters reach the page (as papermill's would)."""
    notebook = execute_in_process(ROOT / "notebooks" / "en" / "split-03-ledger.ipynb",
                                  {"c_ms": 1.0, "edition": "es"})
    # By hand: T2 = 0.8 + 1/1.6 + 4 × (0.03 + 0.2) = 2.345 ms, shown in Spanish notation.
    assert notebook["page"].num(notebook["r"]["ledger"]["two_ms"], 6) == "2,345"
    with pytest.raises(ValueError, match="unknown parameter"):
        execute_in_process(ROOT / "notebooks" / "en" / "tp-04-volume.ipynb", {"c_ms": 1.0})


@pytest.mark.parametrize("path", EN, ids=lambda p: p.name)
def test_every_notebook_takes_the_papermill_tests_other_parameters(path):
    """Each section with the other parameters that tests/test_papermill.py gives one notebook
    of its article under papermill: it runs, and its results are computed with them."""
    from test_papermill import OTHER
    parameters = OTHER[article_of(path)][0]
    page = execute_in_process(path, {**parameters, "edition": "it"})["page"]
    for name, value in parameters.items():
        if name in experiment.SPECS:   # the results the page shows were computed with them
            assert page.results["parameters"][name] == value, name
