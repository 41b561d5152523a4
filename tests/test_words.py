"""Each edition's words (words/<lang>.toml): complete in every language, the same claims as the
ledger, and no number formatted by hand."""
import collections
import re

import pytest
import yaml

from experiment import claims
from model.claims import MEASURED_CLAIMS, SOURCE_CLAIMS
from present import SLOT, SOURCE_LANGUAGE, fill, literal
from words import FOLDER, LANGUAGES, edition

IDS = [row["id"] for row in SOURCE_CLAIMS + MEASURED_CLAIMS]
#: The tables whose keys every edition must translate, all of them.
TRANSLATED = ("edition", "parts", "typography", "words", "units", "flag_titles", "panel")
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
        assert set(fields) <= {"text", "quantity", "reason"}, (lang, cid, sorted(fields))
    if lang != SOURCE_LANGUAGE:   # the source's language may quote the source itself
        missing = [cid for cid in IDS if "text" not in own.get(cid, {})]
        assert not missing, f"words/{lang}.toml has no text for {missing}"


def test_every_sentence_claim_that_fails_says_why_in_every_language():
    for row in claims():
        if row["relation"] is not None and row["status"] != "reproduces":
            for lang in LANGUAGES:
                assert "reason" in edition(lang)["claims"].get(row["id"], {}), (lang, row["id"])


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
NOT_PROSE = re.compile(r"\{[a-z-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$\n]*\$|^% claim: \w+$", re.S | re.M)


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


def prose_of(lang):
    """(where, text) of every piece of an edition's prose: each section's Markdown and each
    claim's text, quantity and reason in words/<lang>.toml."""
    for path in sorted(SECTIONS_FOLDER.glob(f"*/{lang}.md")):
        yield path.parent.name, NOT_PROSE.sub(" ", without_code_blocks(path.read_text(encoding="utf-8")))
    for claim_id, field, text in claim_texts(lang):
        yield f"words/{lang}.toml [claims.{claim_id}] {field}", text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_edition_writes_one_term_per_concept_and_its_front_page_lists_it(lang):
    """all-reduce, bandwidth, efficiency and break-even are written one way in each edition
    (words/<lang>.toml [terms]), and the front page's terminology table shows that term."""
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
