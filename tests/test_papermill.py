"""Rerunning a section with papermill: other parameters change what the page shows,
invalid or unknown ones stop the run with an error naming the parameter.

The code cells are the same in the four editions (tests/test_notebooks.py), and the setup and
parameters cells are the same within an article, so papermill runs one notebook of each kind
here, each in another edition; every section's code runs with these parameters, and at the
edges of the parameter space, in process (tests/test_notebook_code.py)."""
import json

import nbformat
import papermill
import pytest

import panel

from present import LANGUAGES, number
from words import edition
from prose import glued
from measure import analysis, tp_analysis
from test_notebooks import DEFAULTS_OF, PAGES, ROOT, SECTIONS, article_of, rel


def run_notebook(path, tmp_path, **parameters):
    out = tmp_path / path.name
    papermill.execute_notebook(str(path), str(out), parameters=parameters, cwd=str(path.parent),
                               kernel_name="python3", progress_bar=False, log_output=False)
    return nbformat.read(out, as_version=4)


#: Every section and page once, each in one edition: the editions rotate over the list.
ONE_EDITION_EACH = [ROOT / ("notebooks" if name in SECTIONS else "book") / LANGUAGES[i % 4] / name
                    for i, name in enumerate(SECTIONS + PAGES)]
#: One notebook per article, in a different edition for each check.
PER_ARTICLE = {article: [p for p in ONE_EDITION_EACH if article_of(p) == article]
               for article in ("split", "tp", "theory", "ledger", "measured", "counted")}


def outputs_text(nb):
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            for value in output.get("data", {}).values():
                parts.append(value if isinstance(value, str) else json.dumps(value))
            parts.append(output.get("text", ""))
    return "\n".join(parts)


#: Per article: other parameters, and the text the page's parameter line must then show.
OTHER = {
    "split": ({"c_ms": 1.0, "b_bytes_per_s": 5e10, "q": 8},
              lambda lang: [f"C = {number(1.0, 6, lang)} ms", "Q = 8",
                            f"B = {number(50.0, 6, lang)} GB/s"]),
    "tp": ({"tp_hidden": 4096, "tp_bandwidth_bytes_per_s": 3e11},
           lambda lang: [f"h = {number(4096, 6, lang)}", f"B = {number(300, 6, lang)} GB/s"]),
    "theory": ({"th_serial_fraction": 0.1, "th_devices": 16},
               lambda lang: [f"f = {number(0.1, 6, lang)}", "N = 16"]),
    # The claims and errata pages take no parameter: run as they are, they show the ledger.
    "ledger": ({}, lambda lang: [edition(lang)["words"]["does not reproduce"]]),
    # The measured section shows a record; the parameter line then has the model's Q = 1.
    "measured": ({"record_name": analysis.COMMITTED}, lambda lang: ["Q = 1", "η = "]),
    # Article 2's counted section shows its record: the collectives as PyTorch names them.
    "counted": ({"record_name": tp_analysis.COMMITTED},
                lambda lang: ["`all_reduce`", "`reduce_scatter_tensor`"]),
}
INVALID = {
    "split": ({"eta": -1.0}, "eta must be eta, the local efficiency of each half: "
                             "a finite real number in [0.01, 1]; got -1.0"),
    "tp": ({"tp_hidden": 0}, "tp_hidden must be h, the hidden size: an integer in [1, 1e6]; got 0"),
    "theory": ({"th_serial_fraction": 1.5},
               "th_serial_fraction must be f, the serial fraction: a finite real number in [0, 1]"),
    "measured": ({"record_name": "no-such-record"},
                 "record_name must name one of the book's measurement records (cpu-gloo-2x1"),
    "counted": ({"record_name": "/no/such/tp-record.json"},
                "record_name: no measurement record at /no/such/tp-record.json"),
}
#: A parameter of another article, set on each article's page.
FOREIGN = {"split": {"tp_hidden": 4096}, "tp": {"c_ms": 1.0}, "theory": {"eta": 0.9},
           "ledger": {"c_ms": 1.0}, "measured": {"c_ms": 1.0}, "counted": {"tp_hidden": 64}}


#: One notebook of each kind of parameters cell (the setup and parameters cells are the same
#: within an article), in editions that differ; tests/test_notebook_code.py runs every
#: section's code with these parameters in process.
def one_per_article() -> list:
    """For each article, its first notebook in an edition not yet taken (while any is left)."""
    chosen = []
    for paths in PER_ARTICLE.values():
        taken = {p.parent.name for p in chosen}
        chosen.append(next((p for p in paths if p.parent.name not in taken), paths[0]))
    return chosen


ONE_PER_ARTICLE = one_per_article()


@pytest.mark.parametrize("path", ONE_PER_ARTICLE, ids=rel)
def test_papermill_runs_with_other_parameters(path, tmp_path):
    parameters, expected = OTHER[article_of(path)]
    text = outputs_text(run_notebook(path, tmp_path, **parameters))
    for words in expected(path.parent.name):
        assert words in text


def test_papermill_parameters_reach_the_numbers(tmp_path):
    nb = run_notebook(ROOT / "notebooks" / "es" / "split-03-ledger.ipynb", tmp_path, c_ms=1.0)
    values = glued(nb)
    # By hand: T1 = 0.8 + 1 = 1.8 ms; T2 = 0.8 + 1/1.6 + 4 × 0.23 = 2.345 ms, which prose shows
    # to three significant figures (present.SIGNIFICANT_FIGURES), in Spanish notation.
    assert values["one_ms"] == "1,8" and values["two_ms"] == "2,35"
    nb = run_notebook(ROOT / "notebooks" / "it" / "theory-04-training.ipynb", tmp_path,
                      th_devices=4)
    # By hand: 1/(0.2 + 0.8/4) = 2.5; 30 days / 2.5 = 12 days (Italian notation).
    assert glued(nb)["amdahl_speedup"] == "2,5" and glued(nb)["amdahl_days"] == "12"


def test_papermill_marks_the_sentence_that_the_values_overturn(tmp_path):
    """Issue 19, deliver 4: rerun with a faster link, the page marks "more devices, slower" where
    it stands, and only where the verdict changed (tests/test_verdicts.py has the other cases)."""
    path = ROOT / "notebooks" / "es" / "split-04-break-even.ipynb"
    values = glued(run_notebook(path, tmp_path, b_bytes_per_s=1e12))
    # By hand: at C = 1 ms, H = 4 × (0.03 + 0.002) = 0.128 ms, T₁ = 1.8 ms, T₂ = 0.8 + 1/1.6 +
    # 0.128 = 1.553 ms: T₁/T₂ = 1.16, two devices are now faster.
    assert "= 1,16, no < 1" in values["verdict_small_c_more_devices_slower"]
    # The slow link is a tenth of the reader's B (model/split.py), 100 GB/s here, so the sentence
    # "even the large job is slower" no longer holds and is marked: H = 4 × (0.03 + 0.02) =
    # 0.2 ms, T₂ = 0.8 + 12/1.6 + 0.2 = 8.5 ms against T₁ = 12.8 ms, T₁/T₂ = 1.51.
    assert "= 1,51, no < 1" in values["verdict_slow_link_large_job_slower"]
    assert glued(nbformat.read(path, as_version=4))["verdict_small_c_more_devices_slower"] == ""
    # The "your numbers" panel gives the page the notebook's every glued text (tests/test_panel.py)
    assert panel.recompute("split-04-break-even", "es", {"b_bytes_per_s": 1e12})["glued"] == values


def test_papermill_split_04_with_the_small_job_as_its_base_says_nothing_untrue(tmp_path):
    """Issue 19's case: split-04 rerun with C = 1 ms, the article's small job. The base C and
    the small C are then one value; the page once said "shrink the work" to it and called the
    base "this larger job". Now its comparisons are decided by their numbers, and with these
    values each still holds, so none is marked."""
    values = glued(run_notebook(ROOT / "notebooks" / "it" / "split-04-break-even.ipynb",
                                tmp_path, c_ms=1.0))
    # By hand (S = 0.8, η = 0.8, Q = 4, ℓ = 0.03 ms, V/B = 0.2 ms at B = 10 GB/s): T₁ = 1.8 ms,
    # T₂ = 0.8 + 1/1.6 + 4 × 0.23 = 2.345 ms, so two devices are slower, as the page says;
    # at B = 1 GB/s, V/B = 2 ms and T₂ = 0.8 + 0.625 + 4 × 2.03 = 9.545 ms > 1.8 ms (prose:
    # three significant figures; 9.545 lies on a rounding boundary, so to within its last place).
    assert values["c_ms"] == values["small_c_ms"] == "1"
    assert (values["small_c_one_ms"], values["small_c_two_ms"]) == ("1,8", "2,35")
    assert float(values["slow_two_ms"].replace(",", ".")) == pytest.approx(9.545, abs=0.0051)
    verdicts = {name: text for name, text in values.items() if name.startswith("verdict_")}
    assert len(verdicts) == 4 and set(verdicts.values()) == {""}, verdicts


@pytest.mark.parametrize("article", INVALID)
def test_papermill_refuses_an_invalid_parameter_clearly(article, tmp_path):
    path = PER_ARTICLE[article][1 % len(PER_ARTICLE[article])]
    parameters, message = INVALID[article]
    with pytest.raises(papermill.PapermillExecutionError) as info:
        run_notebook(path, tmp_path, **parameters)
    assert message in str(info.value)


@pytest.mark.parametrize("article", FOREIGN)
def test_papermill_refuses_a_parameter_of_another_article(article, tmp_path):
    """``-p c_ms 1`` on a tp page would change nothing there: it is refused like a misspelling."""
    (name, value), = FOREIGN[article].items()
    with pytest.raises(papermill.PapermillExecutionError) as info:
        run_notebook(PER_ARTICLE[article][-1], tmp_path, **{name: value})
    assert f"unknown parameter(s) {name}; valid names are: " in str(info.value)
    assert ", ".join([*DEFAULTS_OF[article], "edition"]) in str(info.value)


def test_papermill_refuses_an_unknown_parameter_name(tmp_path):
    with pytest.raises(papermill.PapermillExecutionError) as info:
        run_notebook(ROOT / "notebooks" / "it" / "split-04-break-even.ipynb", tmp_path,
                     bandwith=1e9)
    assert "unknown parameter(s) bandwith; valid names are: s_ms, c_ms" in str(info.value)


@pytest.mark.parametrize("path, parameters, glued_name, expected", [
    # The crash the issue reported: C below H, so no η threshold exists for C (C = 0.1 < H).
    (ROOT / "notebooks" / "zh" / "split-09-network.ipynb", {"c_ms": 0.1}, "min_eta_high", "不存在"),
    # η = 1/2: the split saves nothing, so there is no break-even C.
    (ROOT / "notebooks" / "es" / "split-10-answer.ipynb", {"eta": 0.5}, "break_even_c_ms", "no existe"),
    # One device: no serial fraction can be inferred from the colleague's speedup.
    (ROOT / "notebooks" / "it" / "theory-04-training.ipynb", {"th_devices": 1},
     "colleague_serial_pct", "non esiste"),
], ids=["c-below-h", "eta-half", "one-device"])
def test_papermill_shows_a_missing_quantity_in_words(path, parameters, glued_name, expected,
                                                     tmp_path):
    assert glued(run_notebook(path, tmp_path, **parameters))[glued_name] == expected


def test_papermill_runs_a_notebook_from_any_folder(tmp_path, monkeypatch):
    """No --cwd: the notebook finds the installed book code and takes its language from its
    own ``edition`` parameter, not from the folder it runs in."""
    monkeypatch.chdir(tmp_path)
    path = ROOT / "notebooks" / "it" / "split-03-ledger.ipynb"
    out = tmp_path / "copy.ipynb"
    papermill.execute_notebook(str(path), str(out), kernel_name="python3", progress_bar=False,
                               log_output=False)
    assert glued(nbformat.read(out, as_version=4))["two_ms"] == number(9.22, 6, "it")


def test_papermill_refuses_an_unknown_edition_clearly(tmp_path):
    path = ROOT / "notebooks" / "en" / "split-01-problem.ipynb"
    with pytest.raises(papermill.PapermillExecutionError, match="edition must be one of zh, es, it, en"):
        run_notebook(path, tmp_path, edition="fr")
