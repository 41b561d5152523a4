"""The "your numbers" panel's Python (panel.py) in CPython: what it gives the page is what the
section's notebook shows, at the article's values (the saved notebook) and at others (the
notebook's own cells run with them, as papermill would: tests/test_papermill.py checks one set
under papermill itself); a value the book refuses gives its one-line message and nothing else;
a number is read in the edition's notation; and it runs without IPython, as in the browser.
tests/test_site.py checks the panel on the built page, in Chromium."""
import ast
import json
import subprocess
import sys

import nbformat
import pytest

import experiment
import panel
import present
from test_notebook_code import execute_in_process
from test_notebooks import ROOT
from words import LANGUAGES, edition

PAGES = [(section, lang) for section, langs in panel.PAGES.items() for lang in langs]


def other_values(kind: str) -> list:
    """Other values for a section of ``kind``: one that moves a verdict or a threshold, and every
    parameter of the article at its low and at its high end. For article 1: a faster link (the
    "more devices, slower" sentence no longer holds) and η ≤ 0.5 (no break-even C: undecided)."""
    group = experiment.PARAMETER_GROUPS[kind]
    moved = {"split": [{"b_bytes_per_s": 1e12}, {"eta": 0.45, "c_ms": 2.5, "q": 9}],
             "tp": [{"tp_bandwidth_bytes_per_s": 2.5e10, "tp_hidden": 1024}],
             "theory": [{"th_serial_fraction": 0.01, "th_devices": 64}]}[kind]
    return moved + [{name: spec.low for name, spec in group.items()},
                    {name: spec.high for name, spec in group.items()}]


#: Each section once with each of its other values, in one edition, the editions in turn: every
#: section, every edition and every kind of value is met without running all of their products.
OTHER = [(section, LANGUAGES[index % len(LANGUAGES)], values)
         for index, section in enumerate(panel.PAGES)
         for values in other_values(panel.kind_of(section))]


def table_body(markdown: str) -> list:
    """The body rows of a Markdown table (as present.Page.table writes it), as cell texts."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in markdown.splitlines()[2:]]


def label(lang: str) -> str:
    """The parameter line's label, as present.Page.parameters writes it in Markdown."""
    words = edition(lang)
    return f"**{words['words']['parameters']}{words['typography']['colon']}** "


@pytest.mark.parametrize("section, lang", PAGES)
def test_at_the_articles_values_the_panel_gives_what_the_saved_notebook_shows(section, lang):
    nb = nbformat.read(ROOT / "notebooks" / lang / f"{section}.ipynb", as_version=4)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    saved_glue = {o.metadata["scrapbook"]["name"]:
                  ast.literal_eval(o.data["application/papermill.record/text/plain"])
                  for o in outputs if "scrapbook" in o.get("metadata", {})}
    markdown = [o.data["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})]
    page = panel.recompute(section, lang, {})
    assert page["glued"] == saved_glue
    assert page["parameters"] == markdown[0].removeprefix(label(lang))
    assert page["tables"] == [table_body(text) for text in markdown[1:]]
    assert len(page["figures"]) == sum("image/svg+xml" in o.get("data", {}) for o in outputs)
    assert page["printed"] == [o.text for o in outputs if o.output_type == "stream"]
    assert page["article_values"] is True


@pytest.mark.parametrize("section, lang, values", OTHER,
                         ids=[f"{s}-{lang}-{','.join(v)[:30]}" for s, lang, v in OTHER])
def test_with_other_values_the_panel_gives_what_the_notebooks_cells_show(section, lang, values,
                                                                        monkeypatch):
    shown = []
    monkeypatch.setattr(present, "display", lambda *objects, **options: shown.extend(objects))
    monkeypatch.setattr(present.Page, "figure", lambda *args, **kwargs: None)   # not drawn
    notebook = execute_in_process(ROOT / "notebooks" / lang / f"{section}.ipynb",
                                  {**values, "edition": lang})["page"]
    markdown = [shown_object.data for shown_object in shown if hasattr(shown_object, "data")]
    page = panel.recompute(section, lang, values)
    assert page["glued"] == {key: getattr(notebook.glued, key) for key in dir(notebook.glued)}
    assert page["parameters"] == markdown[0].removeprefix(label(lang))
    assert page["tables"] == [table_body(text) for text in markdown[1:]]
    assert page["article_values"] is False


def test_the_values_do_reach_the_verdicts():
    """Not vacuous: a faster link marks the sentence it overturns (by hand: at C = 1 ms,
    H = 4 × (0.03 + 0.002) = 0.128 ms, T₂ = 0.8 + 1/1.6 + 0.128 = 1.553 ms, T₁/T₂ = 1.16; prose
    shows three significant figures, 1.55)."""
    glued = panel.recompute("split-04-break-even", "es", {"b_bytes_per_s": 1e12})["glued"]
    assert "= 1,16, no < 1" in glued["verdict_small_c_more_devices_slower"]
    assert glued["small_c_two_ms"] == "1,55"


@pytest.mark.parametrize("values, name, got", [({"c_ms": -1}, "c_ms", "-1"), ({"q": 2.5}, "q", "2,5"),
                                               ({"eta": "0,9"}, "eta", "0,9"),
                                               ({"s_ms": float("nan")}, "s_ms", "nan")])
def test_a_refused_value_gives_one_line_in_the_readers_words(values, name, got):
    """What validate() refuses, the panel refuses too, in one line of the edition's words that
    names the parameter, what it is and its range in the edition's notation, and what was
    typed; never a traceback. By hand for c_ms: 'c_ms (C, tiempo divisible (ms)) debe ser un
    número de 1e-6 a 1e9; se ha escrito -1'."""
    with pytest.raises((TypeError, ValueError)):
        experiment.validate(values)
    page = panel.recompute("split-04-break-even", "es", values)
    spec, said = experiment.SPECS[name], edition("es")["panel"]
    template = said["refused_integer" if spec.integer else "refused_number"]
    assert page == {"parameter": name, "error": template.format(
        name=name, label=said[name], low=panel.typed(spec.low, "es"),
        high=panel.typed(spec.high, "es"), got=got)}
    assert "\n" not in page["error"] and page["error"].startswith(f"{name} (")
    c_ms = panel.recompute("split-04-break-even", "es", {"c_ms": -1})["error"]
    assert c_ms == "c_ms (C, tiempo divisible (ms)) debe ser un número de 1e-6 a 1e9; " \
                   "se ha escrito -1"
    assert panel.recompute("split-04-break-even", "zh", {"x": 1}) == \
        {"parameter": "x", "error": "x 不是本页的参数"}


@pytest.mark.parametrize("text, lang, value", [
    ("2,5", "es", 2.5), ("2\u202f000\u202f000", "es", 2_000_000), ("2 000 000", "es", 2_000_000),
    ("1e12", "es", 1e12), ("2,5e9", "es", 2.5e9), ("4", "es", 4), ("0.8", "en", 0.8),
    ("1,000,000", "en", 1_000_000), ("2.000.000", "it", 2_000_000),
    # a mark where the edition has none stays in the text, which the book then refuses
    ("2,5", "en", "2,5"), ("12,00", "en", "12,00"), ("abc", "es", "abc"), ("", "es", "")])
def test_a_number_is_read_in_the_editions_notation(text, lang, value):
    read = panel.read(text, lang)
    assert read == value and type(read) is type(value)


@pytest.mark.parametrize("section, lang", PAGES)
def test_each_field_shows_the_articles_value_which_reads_back_as_it(section, lang):
    fields = panel.fields(section, lang)
    specs = experiment.PARAMETER_GROUPS[panel.kind_of(section)]
    assert [f["name"] for f in fields] == list(specs)
    for field in fields:
        shown = panel.from_field_unit(field["name"], panel.read(field["value"], lang))
        assert shown == specs[field["name"]].default
        assert field["label"] == edition(lang)["panel"][field["name"]]
    assert panel.answer(section, lang, "{}") == panel.answer(
        section, lang, "{" + ", ".join(f'"{f["name"]}": "{f["value"]}"' for f in fields) + "}")


#: The article's S, η and ℓ (0.8 ms, 0.8, 0.03 ms) and its B (10 GB/s, in the unit every page
#: speaks) as a reader of each edition writes them: a decimal comma in Spanish and Italian, a
#: point in Chinese and English (written by hand from the articles, not by the code).
WRITTEN = {"es": ("0,8", "0,8", "0,03", "10"), "it": ("0,8", "0,8", "0,03", "10"),
           "zh": ("0.8", "0.8", "0.03", "10"), "en": ("0.8", "0.8", "0.03", "10")}


@pytest.mark.parametrize("lang", WRITTEN)
def test_each_field_writes_the_articles_value_in_the_editions_notation(lang):
    values = {f["name"]: f["value"] for f in panel.fields("split-04-break-even", lang)}
    assert tuple(values[name] for name in ("s_ms", "eta", "ell_ms", "b_bytes_per_s")) == \
        WRITTEN[lang]


def test_the_panel_runs_without_ipython_numpy_or_matplotlib():
    """The browser has none of them: panel.py (and present.py, which it imports) recompute every
    page of the panel without them (a section that imports one is in panel.WITHOUT_PANEL)."""
    code = ("import sys\n"
            "for name in ('IPython', 'numpy', 'matplotlib'): sys.modules[name] = None\n"
            "import panel\n"
            "for section, langs in panel.PAGES.items(): panel.recompute(section, langs[0], {})\n"
            "print(panel.recompute('split-04-break-even', 'es', {})['glued']['eta'])")
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout == "0,8\n", ran.stderr[-2000:]


def test_every_article_section_has_the_panel_in_every_edition_or_a_reason():
    """Deliver 1: the sections of the three articles, all but those panel.WITHOUT_PANEL names
    with a reason, in the four editions; never a measured page or a ledger."""
    sections = {path.parent.name for path in (ROOT / "sections").glob("*/code.py")}
    articles = {name for name in sections if name.split("-")[0] in ("split", "tp", "theory")}
    measured = {"split-08-executed", "tp-13-counted"}
    assert set(panel.PAGES) == articles - measured - set(panel.WITHOUT_PANEL)
    assert all(langs == tuple(LANGUAGES) for langs in panel.PAGES.values())
    assert all(reason for reason in panel.WITHOUT_PANEL.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_link_carries_the_values_in_the_books_notation_and_back(lang):
    """Deliver 5: the URL holds the values that are not the article's, in the book's own
    notation and the parameter's unit (2.5, 1e12 bytes/s) whatever the edition; a link fills the
    fields in the edition's notation and the page's unit (2,5 in es and it; 1000 GB/s) and gives
    back the same query; the article's values give a bare URL; a
    text that is no number stays as it is, for validate() to refuse by name."""
    # 0.125: three decimals, which Italian would read as thousands (its group mark is the point)
    linked = {"c_ms": "2.5", "ell_ms": "0.125", "b_bytes_per_s": "1e12", "q": "8"}
    typed = json.loads(panel.from_link(lang, json.dumps(linked)))
    comma = edition(lang)["typography"]["decimal_mark"] == ","
    # the link's 1e12 bytes/s is 1000 GB/s in the field, the unit the page speaks
    assert typed == {"c_ms": "2,5" if comma else "2.5", "ell_ms": "0,125" if comma else "0.125",
                     "b_bytes_per_s": "1000", "q": "8"}
    assert json.loads(panel.to_link("split-04-break-even", lang, json.dumps(typed))) == linked
    article = {f["name"]: f["value"] for f in panel.fields("split-04-break-even", lang)}
    assert json.loads(panel.to_link("split-04-break-even", lang, json.dumps(article))) == {}
    assert json.loads(panel.from_link(lang, json.dumps({"eta": "lots"}))) == {"eta": "lots"}


@pytest.mark.parametrize("section, lang", PAGES)
def test_both_ends_of_every_range_as_the_panel_writes_them_are_accepted(section, lang):
    """The range under each field is written in the edition's notation (1e7, 0,01); typed as it
    stands there, each end is accepted, an integer parameter's 1e7 included (it was refused as
    a float), and the page is recomputed for it."""
    for field in panel.fields(section, lang):
        for end in ("low", "high"):
            page = json.loads(panel.answer(section, lang, json.dumps({field["name"]: field[end]})))
            assert "error" not in page, (field["name"], field[end], page.get("error"))
            assert page["article_values"] is (panel.read(field[end], lang) ==
                                              experiment.SPECS[field["name"]].default)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rates_are_typed_in_the_units_the_pages_speak(lang):
    """Issue 49, item 9: the fields take B in GB/s and P in TFLOP/s, as every page writes them,
    and say so in their labels: the demo's 1 PFLOP/s is 1000 TFLOP/s and its 600 GB/s is 600
    (the source's values, by hand); 300 typed in B's field is 3e11 bytes/s to the model."""
    fields = {f["name"]: f for f in panel.fields("tp-04-volume", lang)}
    assert fields["tp_flops_per_s"]["value"] == "1000" and "TFLOP/s" in fields["tp_flops_per_s"]["label"]
    assert fields["tp_bandwidth_bytes_per_s"]["value"] == "600"
    assert "GB/s" in fields["tp_bandwidth_bytes_per_s"]["label"]
    split = {f["name"]: f for f in panel.fields("split-04-break-even", lang)}
    assert "GB/s" in split["b_bytes_per_s"]["label"]
    typed = json.loads(panel.answer("tp-04-volume", lang, json.dumps({"tp_bandwidth_bytes_per_s": "300"})))
    assert typed == panel.recompute("tp-04-volume", lang, {"tp_bandwidth_bytes_per_s": 3e11})
