"""Each edition's words (words/<lang>.toml): complete in every language (every figure's
description included), in the edition's script, the same claims as the ledger, and no number
formatted by hand."""
import collections
import importlib.util
import json
import re
import types

import pytest
import yaml
from sphinx.errors import ExtensionError

import figures
from experiment import claims
from measure.figure import MEASURED_FIGURES
from model.claims import MEASURED_CLAIMS, SOURCE_CLAIMS
from present import SLOT, SOURCE_LANGUAGE, fill, literal
from words import FOLDER, LANGUAGES, edition, figure_descriptions

IDS = [row["id"] for row in SOURCE_CLAIMS + MEASURED_CLAIMS]
#: The tables whose keys every edition must translate, all of them.
TRANSLATED = ("edition", "parts", "typography", "words", "units", "flag_titles", "panel",
              "figure_words")
#: A number written by hand: digits free on both sides (not part of a name such as A100, FP16,
#: ZeRO-2 or t1, nor of a term such as 175B, 4k or 600e9), or digits around a decimal or
#: thousands mark. Years of a citation ("et al., 2022", "等，2022") are names too.
HAND_NUMBER = re.compile(r"(?<![A-Za-z0-9_])(?<!ZeRO-)(?<!al\., )(?<!等，)[0-9]+(?![0-9A-Za-z])"
                         r"|[0-9][.,\u202f][0-9]")
#: Claims whose Spanish text writes the source's billions as thousands of millions (175 000
#: millones, 70 000 millones), where Italian says miliardi and English 175B.
SCALED_IN_SPANISH = {"single_a100_30_days", "gradients_700gb", "a100_holds_70b"}


def claim_texts(lang):
    """(claim id, field, text) of every claim text, quantity and reason of an edition."""
    for claim_id, fields in edition(lang)["claims"].items():
        for field, text in fields.items():
            yield claim_id, field, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_edition_has_a_words_file_and_no_file_is_left_over(lang):
    assert sorted(p.stem for p in FOLDER.glob("*.toml")) == sorted(LANGUAGES)
    assert edition(lang)["edition"]["name"]


@pytest.mark.parametrize("table", TRANSLATED)
def test_every_edition_translates_the_same_keys(table):
    keys = {lang: set(edition(lang)[table]) for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert keys[lang] == keys["en"], (f"words/{lang}.toml [{table}] lacks "
                                          f"{sorted(keys['en'] - keys[lang])}, has extra "
                                          f"{sorted(keys[lang] - keys['en'])}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_claims_are_the_ledgers_and_each_has_its_text(lang):
    own = edition(lang)["claims"]
    assert set(own) <= set(IDS), f"words/{lang}.toml names claims the ledger has not: " \
                                 f"{sorted(set(own) - set(IDS))}"
    for cid, fields in own.items():
        assert set(fields) <= {"text", "quantity", "reason", "marker"}, (lang, cid, sorted(fields))
    if lang != SOURCE_LANGUAGE:   # the source's language may quote the source itself
        missing = [cid for cid in IDS if "text" not in own.get(cid, {})]
        assert not missing, f"words/{lang}.toml has no text for {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_erratum_says_why_in_every_language(lang):
    """The errata page is the ledger's wrong and conflicting entries, each with its reason: a
    number or a sentence that fails without one in an edition's words (the hand-written
    walk-through once explained 22 of 42) leaves the reader with a verdict and no explanation."""
    without = [row["id"] for row in claims() if row["status"] not in
               ("reproduces", "cannot be recomputed from the article")
               and "reason" not in edition(lang)["claims"].get(row["id"], {})]
    assert not without, f"words/{lang}.toml gives no reason for these errata: {without}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_number_in_the_words_is_formatted_by_hand(lang):
    for claim_id, field, text in claim_texts(lang):
        bare = HAND_NUMBER.search(SLOT.sub("", text))
        assert bare is None, (f"words/{lang}.toml [claims.{claim_id}] {field}: write "
                              f"{bare.group()!r} as a slot such as {{0.2}} in {text!r}")
        assert "{" not in fill(text, lang, stated="x"), \
            f"words/{lang}.toml [claims.{claim_id}] {field}: a slot that is not a number: {text!r}"


@pytest.mark.parametrize("claim_id", IDS)
def test_the_editions_state_the_same_numbers(claim_id):
    """Spanish, Italian and English render the same claim with the same numbers (the Chinese
    text quotes the source, whose digits are its own)."""
    for field in ("text", "reason"):
        found = {lang: collections.Counter(SLOT.findall(
            edition(lang)["claims"].get(claim_id, {}).get(field, "")))
            for lang in ("es", "it", "en") if not (lang == "es" and claim_id in SCALED_IN_SPANISH)}
        assert len({tuple(sorted(c.items())) for c in found.values()}) == 1, (claim_id, field, found)


@pytest.mark.parametrize("lang, text, expected", [
    # the conventions each edition writes numbers in (CLDR; RAE for Spanish's narrow space)
    ("en", "2000000", "2,000,000"), ("zh", "2000000", "2,000,000"),
    ("es", "2000000", "2\u202f000\u202f000"), ("it", "2000000", "2.000.000"),
    ("es", "2048", "2048"), ("en", "2048", "2,048"), ("it", "12345", "12.345"),
    ("es", "0.20", "0,20"), ("it", "2.45333", "2,45333"), ("en", "0.375", "0.375"),
])
def test_a_number_slot_is_written_in_the_editions_notation(lang, text, expected):
    assert literal(text, lang) == expected
    assert fill(f"C = {{{text}}} ms", lang) == f"C = {expected} ms"


def test_stated_needs_a_value():
    with pytest.raises(ValueError, match="stated"):
        fill("T₁ = {stated} ms", "en")


def test_the_parts_of_the_table_of_contents_are_the_words_parts():
    from build_book import PARTS
    toc = yaml.safe_load((FOLDER.parent / "_toc.yml").read_text(encoding="utf-8"))
    assert len(toc["parts"]) == len(PARTS)
    assert all("caption" not in part for part in toc["parts"]), \
        "_toc.yml captions come from words/<lang>.toml [parts]"
    for lang in LANGUAGES:
        assert set(edition(lang)["parts"]) == set(PARTS)


#: An edition's prose as the terminology check reads it: without inline code and roles
#: ({eval}`…`, {doc}`…`) and formulas; code blocks are dropped by ``without_code_blocks``.
NOT_PROSE = re.compile(r"\{[a-z-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$\n]*\$|^% claim: \w+$"
                       r"|\]\(#flag-\w+\)", re.S | re.M)   # a marker's target names a claim


def without_code_blocks(markdown):
    """The Markdown without its fenced code blocks; a directive's fence (```{admonition}) is
    kept with its text, which is prose."""
    kept, fences = [], []          # fences: the open ones, True for a directive
    for line in markdown.splitlines():
        if line.startswith("```"):
            if line.strip() == "```" and fences:
                fences.pop()
                continue
            fences.append(line.startswith("```{"))
            continue
        if all(fences):
            kept.append(line)
    return "\n".join(kept)


SECTIONS_FOLDER = FOLDER.parent / "sections"


def tables_of(lang):
    """(where, text) of every table the edition's saved notebooks show, headers and cells: what
    the code writes in the edition's words (or literally, the same in every edition)."""
    root = FOLDER.parent
    for path in sorted(root.glob(f"notebooks/{lang}/*.ipynb")) + sorted(root.glob(f"book/{lang}/*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            for output in cell.get("outputs", []):
                shown = "".join(output.get("data", {}).get("text/markdown", ""))
                rows = [line for line in shown.splitlines() if line.startswith("|")]
                if rows:
                    yield f"{path.relative_to(root)} (a table)", NOT_PROSE.sub(" ", "\n".join(rows))


def prose_of(lang):
    """(where, text) of every piece of an edition's prose: each section's Markdown, each
    claim's text, quantity and reason in words/<lang>.toml, every other string of that file
    (table headers, labels, the panel's words; not its [terms], which name the variants to
    avoid) and the tables of its notebooks."""
    for path in sorted(SECTIONS_FOLDER.glob(f"*/{lang}.md")):
        yield path.parent.name, NOT_PROSE.sub(" ", without_code_blocks(path.read_text(encoding="utf-8")))
    for claim_id, field, text in claim_texts(lang):
        yield f"words/{lang}.toml [claims.{claim_id}] {field}", text
    for key, text in strings(edition(lang)):
        if key.split(".")[0] not in {"terms", "claims"}:
            # a {slot}'s name ({threads}, {median_error}) is code, not a word the reader sees
            yield f"words/{lang}.toml {key}", re.sub(r"\{\w+\}", " ", text)
    yield from tables_of(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_edition_writes_one_term_per_concept_and_its_front_page_lists_it(lang):
    """all-reduce, bandwidth, efficiency, break-even, rank, thread, worker, token, bootstrap,
    eager, median, quantile and network adapter are written one way in each edition
    (words/<lang>.toml [terms]): in its prose, in its words file and in the tables its
    notebooks show (zh's "V 的 all-reduce" stood in the split-08 table beside 全归约 in the
    prose); and the front page's terminology table shows that term."""
    terms = edition(lang)["terms"]
    front = (FOLDER.parent / "book" / lang / "index.md").read_text(encoding="utf-8")
    first_cells = [line.split("|")[1] for line in front.splitlines() if line.startswith("|")]
    assert [c for c, entry in terms.items()
            if not any(entry["term"] in cell for cell in first_cells)] == [], \
        f"book/{lang}/index.md's terminology table does not list these terms of words/{lang}.toml"
    found = collections.Counter()
    for where, text in prose_of(lang):
        for concept, entry in terms.items():
            assert entry["term"] not in entry["avoid"], (lang, concept)
            for variant in entry["avoid"]:
                if variant in text:
                    found[(where, concept, variant)] += text.count(variant)
    assert not found, f"{lang} writes variants its [terms] avoid: {dict(found)}"


#: Every figure of the book by its name (its file in data/ without ".svg"), the key of its
#: words: read from the code that draws them, so that a new figure is checked without a list here.
FIGURE_NAMES = sorted(name.removesuffix(".svg") for name in {*figures.FIGURES, *MEASURED_FIGURES})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_figure_has_its_words_and_no_words_are_left_over(lang):
    """A figure added to figures.FIGURES (or measure/figure.py) without its alt text fails here,
    in `make check`, with the line the build would stop with (book/_ext/figure_words.py)."""
    missing = None
    try:
        figure_descriptions(lang, FIGURE_NAMES)
    except ValueError as error:
        missing = str(error)
    if missing:
        pytest.fail(missing, pytrace=False)
    left_over = sorted(set(edition(lang)["figures"]) - set(FIGURE_NAMES))
    assert not left_over, f"words/{lang}.toml: [figures] describes {left_over}, no figure of the book"


def test_no_edition_copies_another_editions_figure_words():
    """A description pasted from another edition (English alt text in it.toml) is caught here."""
    for name in FIGURE_NAMES:
        texts = collections.Counter(edition(lang)["figures"].get(name) for lang in LANGUAGES)
        shared = [text for text, count in texts.items() if text and count > 1]
        assert not shared, f"{name}: editions share a description: {shared}"


def figure_words_extension():
    """book/_ext/figure_words.py, the Sphinx extension, loaded from its file."""
    spec = importlib.util.spec_from_file_location(
        "figure_words", FOLDER.parent / "book" / "_ext" / "figure_words.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_stops_at_its_start_naming_a_figure_without_words(monkeypatch):
    """Each edition describes every figure of data/, as the build asks when it starts; a figure
    of data/ that an edition lacks stops it there, in one line naming the figure and the file
    (the first page showing the figure died with a bare KeyError)."""
    extension = figure_words_extension()
    for lang in LANGUAGES:
        extension.check_words(types.SimpleNamespace(config=types.SimpleNamespace(
            html_context={"edition": lang}, language=lang)))
    monkeypatch.setattr(extension, "data_figures", lambda: {"<svg/>": "fig_new"})
    with pytest.raises(ExtensionError) as stopped:
        extension.check_words(types.SimpleNamespace(config=types.SimpleNamespace(
            html_context={"edition": "it"}, language="it")))
    assert str(stopped.value) == ("words/it.toml: [figures] has no entry for fig_new "
                                  "(add its description in Italian)")


#: A Chinese character (CJK Unified Ideographs, and their Extension A).
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
#: The tables of zh.toml that are not prose: marks and number formats, and the terms' variants
#: to avoid (English spellings, on purpose).
NOT_PROSE_TABLES = {"typography", "terms"}
#: The zh words rightly written without a Chinese character: a locale code, a name, a formula.
ZH_WITHOUT_HAN = {"edition.sphinx_language", "words.plan_tp",
                  "claims.anecdote_fits_without_pp.quantity"}


def strings(record, key=""):
    """(dotted key, text) of every string of a words file, in tables and lists at any depth."""
    if isinstance(record, str):
        yield key, record
    elif isinstance(record, (dict, list)):
        items = record.items() if isinstance(record, dict) else enumerate(record)
        for name, value in items:
            yield from strings(value, f"{key}.{name}" if key else str(name))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_edition_writes_in_its_own_script(lang):
    """Words pasted from another edition fail: every zh word of prose (alt text, panel, claims…)
    has a Chinese character, where English alt text in zh.toml passed every test before; no es,
    it or en word has one."""
    if lang == "zh":
        wrong = [(key, text) for key, text in strings(edition(lang))
                 if key.split(".")[0] not in NOT_PROSE_TABLES and key not in ZH_WITHOUT_HAN
                 and not HAN.search(text)]
        assert not wrong, f"words/zh.toml: no Chinese character in {wrong}"
    else:
        wrong = [(key, text) for key, text in strings(edition(lang)) if HAN.search(text)]
        assert not wrong, f"words/{lang}.toml: Chinese characters in {wrong}"
