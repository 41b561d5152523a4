"""sections/ is the one source of the notebooks: each section's code once, each edition's prose
on its own, and a record of when the editions were last brought in step (tools/notebooks.py).

The saved notebooks must be exactly what these sources give; a change to a section's code
reaches its four notebooks; a change to one edition's prose makes a test name the editions
that must follow."""
import json
import shutil

import nbformat
import pytest

import notebooks
from present import LANGUAGES

SECTIONS = notebooks.names()


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """A copy of sections/ that the tool reads instead of the real one (the saved notebooks
    it compares with are the real ones, which these tests never write)."""
    copy = tmp_path / "sections"
    shutil.copytree(notebooks.SECTIONS, copy)
    monkeypatch.setattr(notebooks, "SECTIONS", copy)
    return copy


def test_there_is_a_section_for_every_notebook_and_nothing_else():
    saved = sorted(p.stem for p in notebooks.ROOT.glob("notebooks/en/*.ipynb")) + \
            sorted(p.stem for p in notebooks.ROOT.glob("book/en/*.ipynb"))
    assert sorted(saved) == SECTIONS
    for name in SECTIONS:
        assert sorted(p.name for p in (notebooks.SECTIONS / name).iterdir()) == sorted(
            ["code.py", "reviewed.json", *(f"{lang}.md" for lang in LANGUAGES)])


def test_every_saved_notebook_is_what_its_sources_give():
    assert notebooks.out_of_date(SECTIONS) == []


@pytest.mark.parametrize("name", SECTIONS)
def test_no_edition_changed_since_its_section_was_last_reviewed(name):
    assert notebooks.behind(name) is None


@pytest.mark.parametrize("name", SECTIONS)
def test_each_prose_file_is_written_as_the_tool_writes_it(name):
    """The prose files are in their canonical form, so the tool's own rewrites (placing a new
    cell) change nothing else in them."""
    for lang in LANGUAGES:
        path = notebooks.prose_path(name, lang)
        assert notebooks.render_prose(notebooks.prose(name, lang)) == path.read_text(encoding="utf-8")


def test_the_code_of_a_section_is_the_same_in_every_edition_but_its_edition_line():
    for name in SECTIONS:
        code = {lang: [source for kind, source, tags in notebooks.sources_of(
                    nbformat.read(notebooks.destination(name, lang), as_version=4)) if kind == "code"]
                for lang in LANGUAGES}
        for lang in LANGUAGES:
            assert [s.replace(f'edition = "{lang}"', 'edition = "?"') for s in code[lang]] == \
                   [s.replace('edition = "en"', 'edition = "?"') for s in code["en"]]


def test_a_code_change_is_one_edit_that_reaches_all_four_editions(sources):
    code = sources / "split-04-break-even" / "code.py"
    code.write_text(code.read_text(encoding="utf-8").replace(
        'page.glue("factor", be["factor"], 6)', 'page.glue("factor", be["factor"], 5)'),
        encoding="utf-8")
    stale = notebooks.out_of_date(["split-04-break-even"])
    assert stale == [f"notebooks/{lang}/split-04-break-even.ipynb: its code differs"
                     for lang in LANGUAGES]


def test_a_new_code_cell_is_placed_in_every_edition_after_the_cell_before_it(sources):
    code = sources / "split-04-break-even" / "code.py"
    code.write_text(code.read_text(encoding="utf-8").replace(
        "\n# %% by-hand\n", '\n# %% extra\nprint("new")\n\n# %% by-hand\n'),
        encoding="utf-8")
    for lang in LANGUAGES:
        items, changes = notebooks.merged_placements(
            "split-04-break-even", lang, notebooks.code_cells("split-04-break-even", lang))
        placed = [item[0] for item in items if isinstance(item, tuple)]
        assert placed[placed.index("glue") + 1] == "extra" and changes == ["placed the new cell 'extra'"]
        # The new cell follows the one before it in code.py: no prose between them.
        assert items[items.index(("glue",)) + 1] == ("extra",)


def test_placements_out_of_order_are_refused_naming_the_file(sources):
    prose = sources / "tp-04-volume" / "it.md"
    text = prose.read_text(encoding="utf-8")
    placed = [line for line in text.splitlines() if line.startswith("+++ ")]
    first, last = placed[2], placed[-1]
    prose.write_text(text.replace(first, "@@").replace(last, first).replace("@@", last),
                     encoding="utf-8")
    with pytest.raises(notebooks.SourceError, match=r"sections/tp-04-volume/it\.md: code cells placed"):
        notebooks.assemble("tp-04-volume", "it")


def test_a_prose_change_in_one_edition_names_the_editions_that_must_follow(sources):
    prose = sources / "split-04-break-even" / "en.md"
    prose.write_text(prose.read_text(encoding="utf-8").replace(
        "Put plainly:", "In plain words:"), encoding="utf-8")
    message = notebooks.behind("split-04-break-even")
    assert message.startswith("split-04-break-even: en (sections/split-04-break-even/en.md) "
                              "changed since the last review: block 2 (")
    assert "zh, es, it must follow" in message and "make reviewed SECTION=split-04-break-even" in message
    # Only the English notebook is stale, for its prose (its outputs are kept).
    assert notebooks.out_of_date(["split-04-break-even"]) == [
        "notebooks/en/split-04-break-even.ipynb: its prose differs"]
    # Once the editions are in step, one command records it and the check is green again.
    notebooks.main(["--reviewed", "split-04-break-even"])
    assert notebooks.behind("split-04-break-even") is None


def test_a_typo_in_one_edition_is_recorded_as_changed_alone_without_a_false_review(sources):
    """A change that needs nothing in the other editions (a typo) is recorded as such: the
    edition's hashes move, the others' stay as their last review left them, and the record
    lists the edition under "changed_alone", claiming no review of the others. Where another
    edition changed too, the record is refused, naming it."""
    record_file = sources / "split-04-break-even" / "reviewed.json"
    before = json.loads(record_file.read_text(encoding="utf-8"))
    prose = sources / "split-04-break-even" / "it.md"
    text = prose.read_text(encoding="utf-8")
    prose.write_text(text.replace("a", "à", 1), encoding="utf-8")
    message = notebooks.behind("split-04-break-even")
    assert "zh, es, en must follow" in message
    assert "make reviewed SECTION=split-04-break-even EDITION=it" in message
    assert notebooks.main(["--reviewed", "split-04-break-even", "--edition", "it"]) == 0
    assert notebooks.behind("split-04-break-even") is None
    after = json.loads(record_file.read_text(encoding="utf-8"))
    assert after["changed_alone"] == ["it"]
    assert {lang: after[lang] for lang in ("zh", "es", "en")} == \
        {lang: before[lang] for lang in ("zh", "es", "en")}
    assert after["it"] != before["it"]
    english = sources / "split-04-break-even" / "en.md"
    english.write_text(english.read_text(encoding="utf-8").replace("Put plainly:", "Plainly:"),
                       encoding="utf-8")
    prose.write_text(text, encoding="utf-8")
    assert notebooks.main(["--reviewed", "split-04-break-even", "--edition", "it"]) == 2
    assert "en" in notebooks.behind("split-04-break-even")


def test_the_check_writes_nothing_and_fails(sources, capsys):
    code = sources / "tp-01-kitchen" / "code.py"
    code.write_text(code.read_text(encoding="utf-8") + "\n# %% more\nprint(1)\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in sources.rglob("*")
              if p.is_file()} | {notebooks.destination("tp-01-kitchen", lang): notebooks.destination(
                  "tp-01-kitchen", lang).read_bytes() for lang in LANGUAGES}
    assert notebooks.main(["--check", "tp-01-kitchen"]) == 1
    out = capsys.readouterr().out
    assert "sections/tp-01-kitchen/zh.md: placed the new cell 'more'" in out
    assert "notebooks/zh/tp-01-kitchen.ipynb: its code differs" in out
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize("value, typed", [(2_000_000, "2_000_000"), (2048, "2048"), (1e10, "1e10"),
                                          (6e11, "6e11"), (0.8, "0.8"), (30.0, "30.0")])
def test_defaults_are_written_as_a_reader_types_them(value, typed):
    assert notebooks.literal(value) == typed


def test_the_parameters_cell_states_the_models_defaults_once():
    """The head is written from experiment's defaults: change one there and every notebook of
    its article says so."""
    split = notebooks.head("split", "it")[0].source
    assert "s_ms = 0.8\n" in split and split.endswith('edition = "it"   # the language of this '
                                                      "page: zh, es, it or en")


def test_bad_sources_are_refused_by_file_and_line(sources):
    code = sources / "tp-01-kitchen" / "code.py"
    code.write_text(code.read_text(encoding="utf-8").replace("parameters: tp", "parameters: tq"),
                    encoding="utf-8")
    with pytest.raises(notebooks.SourceError, match=r"tp-01-kitchen/code\.py:\d+: unknown kind 'tq'"):
        notebooks.assemble("tp-01-kitchen", "zh")


def test_the_review_record_is_hashes_of_each_editions_blocks():
    record = json.loads((notebooks.SECTIONS / "tp-01-kitchen" / "reviewed.json").read_text())
    assert sorted(set(record) - {"changed_alone"}) == sorted(LANGUAGES)
    assert len(record["zh"]) == len(notebooks.blocks("tp-01-kitchen", "zh"))


def glue_calls():
    """(section, key, explicit decimals or None) of every ``page.glue`` call in sections/."""
    import ast
    calls = []
    for name in SECTIONS:
        tree = ast.parse((notebooks.SECTIONS / name / "code.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "glue" and isinstance(node.args[0], ast.Constant)):
                explicit = len(node.args) > 2 or any(k.arg == "decimals" for k in node.keywords)
                calls.append((name, node.args[0].value, explicit))
    return calls


def test_a_quantity_shown_on_several_pages_takes_its_precision_from_one_place():
    """A key glued in two sections or more sets no decimals of its own: present.DECIMALS does
    (or it is a whole number or a text); and DECIMALS holds only keys some section glues."""
    from present import DECIMALS
    calls = glue_calls()
    sections_of = {}
    for name, key, _ in calls:
        sections_of.setdefault(key, set()).add(name)
    shared = {key for key, names in sections_of.items() if len(names) > 1}
    own = sorted((name, key) for name, key, explicit in calls if key in shared and explicit)
    assert own == [], f"set these decimals in present.DECIMALS, not in the section: {own}"
    assert set(DECIMALS) <= shared, sorted(set(DECIMALS) - shared)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_glue_key_names_one_quantity_in_the_whole_book(lang):
    """The same key shows the same text on every page of an edition that glues it, so one name
    never stands for two quantities (C of article 1 and article 2's C, a model's η and a
    measured one)."""
    from prose import glued
    shown = {}
    for name in SECTIONS:
        path = notebooks.destination(name, lang)
        for key, text in glued(nbformat.read(path, 4)).items():
            shown.setdefault(key, {})[name] = text
    clashes = {key: pages for key, pages in shown.items() if len(set(pages.values())) > 1}
    assert clashes == {}, f"one key, several quantities (rename them): {clashes}"


def test_a_build_error_in_a_notebook_names_the_prose_file_and_its_line():
    """MyST-NB names a warning's place in the generated notebook (cell 6 of the Italian
    tp-02-visual is its third markdown cell, 70002 its first line); the build's message adds
    the line of sections/<name>/<lang>.md where that text was written, found here
    independently: the line that starts the paragraph. A code cell's place gets nothing."""
    lines = (notebooks.SECTIONS / "tp-02-visual" / "it.md").read_text(encoding="utf-8").splitlines()
    paragraph = next(number for number, line in enumerate(lines, 1) if line.startswith("Per gradi bassi"))
    place = str(notebooks.ROOT / "notebooks" / "it" / "tp-02-visual.ipynb")
    assert notebooks.with_source_places(f"{place}:70002: No key 'x'") == \
        f"{place}:70002 (written in sections/tp-02-visual/it.md:{paragraph}): No key 'x'"
    assert notebooks.with_source_places(f"{place}:60002: a code cell") == f"{place}:60002: a code cell"


def test_a_missing_edition_of_a_sections_prose_is_named(sources):
    """An edition without its prose file (a language being added) is refused with the file's
    name, not a traceback."""
    (sources / "tp-01-kitchen" / "it.md").unlink()
    with pytest.raises(notebooks.SourceError, match=r"sections/tp-01-kitchen/it\.md is missing"):
        notebooks.assemble("tp-01-kitchen", "it")


#: Tags under which a cell's code is folded or left out on the site (the reader sees its output).
FOLDED = {"hide-cell", "hide-input", "remove-input", "remove-cell"}


@pytest.mark.parametrize("name", notebooks.names())
def test_a_visible_cell_shows_a_computation_not_plumbing(name):
    """A cell whose code the reader sees computes something with the model (an import from
    model/ or experiment) and carries none of the page's formatting (``page.``): tables, figures,
    glue and asides are plumbing, folded with the set-up (issue 49: a reader met about 37 cells of
    ``page.table([… page.cell(…)``)."""
    shown = [cell for cell in notebooks.code_cells(name, "en") if not FOLDED & set(cell.tags)]
    for cell in shown:
        assert "page." not in cell.source, f"{name}: visible cell {cell.name!r} is plumbing"
        assert "from model" in cell.source or "from experiment" in cell.source, \
            f"{name}: visible cell {cell.name!r} computes nothing with the model"
