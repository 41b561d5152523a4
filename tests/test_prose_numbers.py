"""Every number in the notebooks' prose is glued from experiment.run(), and every edition
glues and shows the same values."""
import json
import pathlib
import re

import nbformat
import pytest

import experiment
from present import LANGUAGES, PARAMETER_KEYS, SIGNIFICANT_FIGURES, Page, date, number
from prose import glued, glued_keys, markdown_cells, numbers_named_by_hand, stray_numbers, used_keys
from words import edition

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(ROOT.glob("notebooks/*/*.ipynb")) + sorted(ROOT.glob("book/*/*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_number_is_typed_by_hand(path):
    stray = [(i, n) for i, text in enumerate(markdown_cells(path)) for n in stray_numbers(text)]
    assert not stray, f"numbers typed into prose (markdown cell index, number): {stray}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_number_a_glued_value_depends_on_is_typed_beside_it(path):
    """split-08 wrote "on eight GPUs it would be {ring_factor_8} times B" while code.py computed
    ring_factor(8): change one and the other lies. A sentence that glues a value whose key names a
    number must glue that number too, not write it as a word or as "= 2" in maths."""
    typed = [(i, found) for i, text in enumerate(markdown_cells(path))
             for found in numbers_named_by_hand(text, path.parent.name)]
    assert not typed, f"numbers typed beside the glued values they decide (cell, (key, typed)): {typed}"


@pytest.mark.parametrize("lang, text, typed", [
    ("en", "on eight GPUs it would be {eval}`g.ring_factor_8` times B", [("ring_factor_8", "eight")]),
    ("en", "on {eval}`g.gpus` GPUs it would be {eval}`g.ring_factor_8` times B", []),
    ("en", "was {eval}`g.tpg_efficiency_2_last` at $t = 2$ and", [("tpg_efficiency_2_last", "= 2")]),
    ("en", "{eval}`g.ring_t2` at t = {eval}`g.t2`, tending to two messages", []),
    ("en", "Eight cards. Then {eval}`g.ring_t8` at t = {eval}`g.t8`.", []),
    ("es", "con ocho GPU sería {eval}`g.ring_factor_8` veces B", [("ring_factor_8", "ocho")]),
    ("it", "su otto GPU sarebbe {eval}`g.ring_factor_8` volte B", [("ring_factor_8", "otto")]),
    ("zh", "换成八块 GPU，它将是 B 的 {eval}`g.ring_factor_8` 倍", [("ring_factor_8", "八块")]),
    ("zh", "八卦之外，{eval}`g.ring_factor_8` 倍", []),
])
def test_the_typed_number_finder_itself(lang, text, typed):
    assert numbers_named_by_hand(text, lang) == typed


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_glued_value_is_shown_and_every_shown_value_is_glued(path):
    used = set().union(*map(used_keys, markdown_cells(path)))
    glued = glued_keys(path)
    assert used <= glued, f"prose refers to keys no cell glues: {sorted(used - glued)}"
    assert glued <= used, f"glued but never shown in the prose: {sorted(glued - used)}"


@pytest.mark.parametrize("text, expected", [
    ("T₂ = {eval}`g.two_ms` ms", []),
    ("T₂ = 9.22 ms", ["9.22"]),
    ("una aceleración de 1,388", ["1,388"]),
    ("加速约 1.388 倍", ["1.388"]),
    ("x is 1 × 2, A is 2 × 4", []),
    ("arXiv, March 2020", []),
    ("$C/(2\\eta) + H$", []),
    ("$T_2 = 9.22$", ["9.22"]),
    ("float32 and T1", []),
    ("GPT-3 was trained", []),
    ("run `make measure QUICK=1` (about 60 s)", ["60"]),
    ("```bash\nmake measure ARGS=\"--nproc-per-node 8\"\n```\nthen 8 GPUs", ["8"]),
    ("a gap of -3 ms", ["3"]),
    ("Q = 4 transfers", ["4"]),
])
def test_the_number_finder_itself(text, expected):
    assert stray_numbers(text) == expected


#: Unit words that follow a glued number in each edition whose typography joins them: Spanish
#: sets % and units apart with a narrow no-break space, Italian units with a no-break space.
UNIT_AFTER_NUMBER = {
    "es": re.compile(r"\{eval\}`g\.[^`]+` (?:%|ms|s|GB/s|GB|MB|TFLOP/s|bytes|días|minutos|años|veces)(?![\w/])"),
    "it": re.compile(r"\{eval\}`g\.[^`]+` (?:ms|s|GB/s|GB|MB|TFLOP/s|byte|giorni|minuti|anni|volte|miliardi)(?![\w/])"),
}


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name in UNIT_AFTER_NUMBER],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_number_and_its_unit_never_break_across_lines(path):
    """An ordinary space between a glued number and its unit (or %) lets a line break there."""
    pattern = UNIT_AFTER_NUMBER[path.parent.name]
    breaks = [(i, m) for i, text in enumerate(markdown_cells(path)) for m in pattern.findall(text)]
    assert not breaks, f"ordinary space between a number and its unit (cell, text): {breaks}"


@pytest.mark.parametrize("lang, text, breaks", [
    ("es", "{eval}`g.two_ms` ms", True), ("es", "{eval}`g.two_ms`\u202fms", False),
    ("es", "{eval}`g.share_pct` %", True), ("it", "{eval}`g.weights_gb` GB", True),
    ("it", "{eval}`g.weights_gb`\u00a0GB", False), ("it", "{eval}`g.t` volte", True),
])
def test_the_unit_rule_sees_the_prose_as_the_notebooks_write_it(lang, text, breaks):
    """The rule reads the roles the notebooks hold ({eval}`g.key`), so that it can fail."""
    assert bool(UNIT_AFTER_NUMBER[lang].search(text)) is breaks


@pytest.mark.parametrize("value, lang, expected", [
    (2048, "es", "2048"), (8192, "es", "8192"),          # RAE and CLDR: four digits stay whole
    (12345, "es", "12\u202f345"), (1225.5, "es", "1225,5"),
    (8192, "it", "8.192"), (8192, "en", "8,192"), (8192, "zh", "8,192"),
])
def test_each_edition_groups_digits_its_own_way(value, lang, expected):
    assert number(value, 1, lang) == expected


@pytest.mark.parametrize("lang, as_the_source_writes_it", [
    ("zh", "2020 年 3 月 13 日"),      # article 000
    ("es", "13 de marzo de 2020"),     # article 001
    ("it", "13 marzo 2020"),           # article 003
    ("en", "13 March 2020"),
])
def test_dates_are_written_as_each_language_writes_them(lang, as_the_source_writes_it):
    assert date("2020-03-13", lang).replace("\u00a0", " ") == as_the_source_writes_it


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name == "zh"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_chinese_dates_use_digits_for_months(path):
    """Chinese technical prose writes 2020 年 3 月, not 2020 年三月."""
    spelled = [(i, m) for i, text in enumerate(markdown_cells(path))
               for m in re.findall(r"年\s*[一二三四五六七八九十]+\s*月", text)]
    assert not spelled, spelled


#: A MyST comment line that ties an admonition to the ledger entry it flags.
FLAG = re.compile(r"^% claim: (\w+)\s*$", re.M)


#: A marker where the source's statement would stand: the glued marker of a claim, linked to
#: its entry on the errata page (present.Page.mark_errata).
MARKER = re.compile(r"\[\{eval\}`g\.flag_(\w+)`\]\(#flag-(\w+)\)")


def boxed_claims(path) -> set:
    """The claims a section flags with a box: ids named by a ``% claim: <id>`` line inside a
    markdown cell that opens an admonition."""
    return {claim for text in markdown_cells(path) if "{admonition}" in text
            for claim in FLAG.findall(text)}


def marked_claims(path) -> set:
    """The claims a section flags with a marker that links to their own errata entry."""
    return {glued for text in markdown_cells(path) for glued, target in MARKER.findall(text)
            if glued == target}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_source_error_is_flagged_where_it_appears(lang):
    """Each ledger entry that does not hold (a wrong number, a sentence its model contradicts,
    a conflict with external facts) is flagged in its section, in every edition: by a full box
    if its correction changes the model the reader learns (present.BOXED_ERRATA), else by a
    marker where the source's statement would stand, linked to its entry on the errata page."""
    import experiment
    from present import BOXED_ERRATA, FLAGGED
    missing = []
    for claim in experiment.claims():
        if claim["status"] in FLAGGED:
            path = ROOT / "notebooks" / lang / f"{claim['section']}.ipynb"
            flagged = boxed_claims(path) if claim["id"] in BOXED_ERRATA else marked_claims(path)
            if claim["id"] not in flagged:
                missing.append(f"{claim['section']}: {claim['id']}")
    assert not missing, "not flagged in their sections:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_only_a_correction_that_changes_the_model_interrupts_the_reading(lang):
    """A box in the reading path only for the few errata of present.BOXED_ERRATA; a box for any
    other claim (or a marker for a boxed one) interrupts the argument the prose makes."""
    from present import BOXED_ERRATA
    found = []
    for path in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")):
        found += [f"{path.stem}: box for {claim}" for claim in boxed_claims(path) - BOXED_ERRATA]
        found += [f"{path.stem}: marker for {claim}" for claim in marked_claims(path) & BOXED_ERRATA]
    assert not found, "\n".join(found)


#: The head of an admonition that flags claims: title, class, then its ``% claim:`` lines.
FLAG_BOX = re.compile(r"```\{admonition\} (.*)\n:class: (\w+)\n((?:% claim: \w+\n)+)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_flag_is_titled_and_coloured_by_its_status(lang):
    """A wrong number or sentence is flagged in a red box titled as an erratum, a conflict with
    external facts in an orange one titled as such, in the edition's words (words/<lang>.toml [flag_titles]),
    the same in every section; every claim line sits at the head of its box."""
    import experiment
    from present import STATUS_CLASS
    from words import edition
    status = {claim["id"]: claim["status"] for claim in experiment.claims()}
    problems = []
    for path in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")):
        for text in markdown_cells(path):
            boxed = set()
            for title, css_class, lines in FLAG_BOX.findall(text):
                for claim in FLAG.findall(lines):
                    boxed.add(claim)
                    expected = (edition(lang)["flag_titles"][status[claim]], STATUS_CLASS[status[claim]])
                    if (title, css_class) != expected:
                        problems.append(f"{path.name}: {claim} in ({title}, {css_class}), "
                                        f"not {expected}")
            problems += [f"{path.name}: {claim} outside a box's head"
                         for claim in set(FLAG.findall(text)) - boxed]
    assert not problems, "\n".join(problems)


#: Two spaces or more between two words of a line, as the prose reads once its values are in
#: (a line's indentation, a Markdown hard break and the space before a table's pipe excepted).
DOUBLE_SPACE = re.compile(r"(?<=[^\s|])  +(?=[^\s|])")
def as_read(text: str, values: dict) -> str:
    """A markdown cell as the reader reads it: each glued value in its slot, citations as
    labels, other roles as a word; code (blocks and inline) left out, its spacing being the
    code's. A directive's fence (```{admonition}) is kept with its text, which is prose."""
    kept, fences = [], []            # fences: the open ones, True for a directive
    for line in text.splitlines():
        if line.startswith("```"):
            if line.strip() == "```" and fences:
                fences.pop()
            else:
                fences.append(line.startswith("```{"))
            continue
        if all(fences):
            kept.append(line)
    text = "\n".join(kept)
    text = re.sub(r"\{eval\}`g\.(\w+)`", lambda m: values[m[1]].replace("`", ""), text)
    text = re.sub(r"\{eval\}`cite\.\w+`", "[Label, 2000]", text)
    return re.sub(r"\{[a-z:-]+\}`[^`]*`|`[^`\n]+`", "role", text)


def double_spaces(path, values) -> list:
    return [(i, line.strip()) for i, text in enumerate(markdown_cells(path))
            for line in as_read(text, values).splitlines() if DOUBLE_SPACE.search(line)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_slot_leaves_two_spaces_whether_empty_or_filled(path):
    """An empty slot (a verdict at the articles' values, issue 48) leaves no double space in
    the prose, nor does a filled one: the value carries the space before it (the page's
    ``between_sentences``), so the prose writes no space before the slot."""
    values = glued(nbformat.read(path, as_version=4))
    page = Page(experiment.run(), path.parent.name)
    filled = {key: (page.words["typography"]["between_sentences"]
                    + page.word("verdict_undecided").format(quantity="X"))
              if key.startswith("verdict_") else value for key, value in values.items()}
    found = double_spaces(path, values) + double_spaces(path, filled)
    assert not found, f"two spaces in the prose as read (markdown cell, line): {found}"


@pytest.mark.parametrize("text, values, found", [
    ("It fails. {eval}`g.verdict_x` Next.", {"verdict_x": ""}, True),
    ("It fails.{eval}`g.verdict_x` Next.", {"verdict_x": ""}, False),
    ("It fails. {eval}`g.verdict_x` Next.", {"verdict_x": " [⚠ Mark.]"}, True),
    ("It fails.{eval}`g.verdict_x` Next.", {"verdict_x": " [⚠ Mark.]"}, False),
    ("| a | b |\n|---|---|\n| 1  | 2 |", {}, False),
    ("a hard break  \nnext", {}, False),
    ("```python\nx  = 1\n```", {}, False),
])
def test_the_double_space_finder_itself(tmp_path, text, values, found):
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": text}]}))
    assert bool(double_spaces(path, values)) is found


def significant_figures(text: str, lang: str) -> list:
    """(number, its significant figures) for each number with a fractional part in ``text``,
    written in ``lang``'s notation (whole numbers are exact counts and sizes; not counted)."""
    style = edition(lang)["typography"]
    mark, group = re.escape(style["decimal_mark"]), re.escape(style["group_mark"])
    found = []
    for whole, fraction in re.findall(rf"(?<![0-9A-Za-z_])([0-9](?:[0-9]|{group}(?=[0-9]{{3}}))*){mark}([0-9]+)",
                                      text):
        digits = (re.sub(r"[^0-9]", "", whole) + fraction).lstrip("0")
        found.append((f"{whole}{style['decimal_mark']}{fraction}", len(digits)))
    return found


@pytest.mark.parametrize("path", sorted(ROOT.glob("notebooks/*/*.ipynb")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_prose_shows_at_most_three_significant_figures(path):
    """Issue 49, item 7: a computed number in a sentence shows at most
    present.SIGNIFICANT_FIGURES figures (2.45 ms, not 2.45333 ms). The digits stay where they are
    the point: a parameter as the reader set it (present.PARAMETER_KEYS), a number a source
    states (a "stated" key, a marker), and a table's column, which keeps its decimals."""
    lang = path.parent.name
    values = glued(nbformat.read(path, as_version=4))
    long = set()
    for text in markdown_cells(path):
        prose = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
        for key in used_keys(prose):
            if key in PARAMETER_KEYS or "stated" in key or key.startswith("flag_"):
                continue
            long |= {(key, shown) for shown, figures in significant_figures(str(values.get(key, "")), lang)
                     if figures > SIGNIFICANT_FIGURES}
    assert not long, f"prose numbers with more than {SIGNIFICANT_FIGURES} significant figures: {sorted(long)}"


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "C* = 2.45333 ms, 19.8 ms, 1,024 bytes, 0.0375", [("2.45333", 6), ("19.8", 3), ("0.0375", 3)]),
    ("es", "2,45 ms y 16 777 216 bytes; 1,553", [("2,45", 3), ("1,553", 4)]),
    ("it", "2.000.000,5 e 0,125", [("2.000.000,5", 8), ("0,125", 3)]),
])
def test_significant_figures_are_counted_in_each_notation(lang, text, expected):
    assert significant_figures(text, lang) == expected
