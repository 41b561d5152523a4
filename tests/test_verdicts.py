"""A sentence whose truth depends on the values is marked where it stands when the reader's
values overturn it (issue 19, deliver 4): model/claims.verdicts decides it twice, present.Page
writes the mark in the edition's words, the setup cell of every section glues it, and the prose
places the slot after the sentence (tests/test_prose_numbers.py: every glued key is shown).

Expected values come from the ledger's formulas worked by hand, not from the code under test."""
import pytest

import experiment
from model import claims as claims_model
from present import LANGUAGES, Page
from words import edition

QUALITATIVE = [row for row in claims_model.SOURCE_CLAIMS if row["relation"] is not None]
SECTIONS = sorted({row["section"] for row in QUALITATIVE})


def values_moved_by_one_parameter(row) -> bool:
    """Whether setting any one parameter to its lowest, highest or a tenth or ten times its
    default (within its range) changes the quantity that decides ``row``."""
    base = claims_model.lookup(experiment.run(), row["key"])
    for name, spec in experiment.SPECS.items():
        for value in (spec.low, spec.high, spec.default / 10, spec.default * 10):
            value = int(value) if spec.integer else value
            if not spec.contains(value):
                continue
            if claims_model.lookup(experiment.run(**{name: value}), row["key"]) != base:
                return True
    return False


@pytest.mark.parametrize("row", QUALITATIVE, ids=lambda row: row["id"])
def test_the_parameter_free_claims_are_exactly_those_no_parameter_moves(row):
    """Both ways: a claim listed as parameter-free cannot be overturned by any value (so its
    sentence needs no slot), and every other one can move (so its sentence has one)."""
    assert values_moved_by_one_parameter(row) == (row["id"] not in claims_model.PARAMETER_FREE)


@pytest.mark.parametrize("section", SECTIONS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_the_articles_values_no_sentence_is_marked(section, lang):
    page = Page(experiment.run(), lang)
    rows = experiment.verdicts(section, experiment.run())
    assert all(row["holds"] == row["article_holds"] for row in rows)
    assert [page.verdict_mark(row) for row in rows] == [""] * len(rows)


def mark(lang, section, claim_id, **values) -> str:
    """The mark a page of ``lang`` shows after ``claim_id``'s sentence for ``values``."""
    page = Page(experiment.run(**values), lang)
    row, = [r for r in experiment.verdicts(section, page.results) if r["id"] == claim_id]
    return page.verdict_mark(row)


def test_a_claim_the_values_overturn_is_marked_with_its_quantity():
    # By hand, B = 10¹² B/s at C = 1 ms: V/B = 2·10⁶/10¹² s = 0.002 ms, H = 4 × 0.032 = 0.128 ms,
    # T₁ = 0.8 + 1 = 1.8 ms, T₂ = 0.8 + 1/1.6 + 0.128 = 1.553 ms, T₁/T₂ = 1.159: two devices are
    # faster, against "more devices, slower".
    text = mark("es", "split-04-break-even", "small_c_more_devices_slower", b_bytes_per_s=1e12)
    words = edition("es")["words"]["verdict_fails"]
    assert text.startswith(" " + words.split("{")[0]) and "= 1,16, no < 1" in text


def test_a_claim_whose_quantity_no_longer_exists_is_marked_undecided():
    # By hand, B = 1 GB/s: H = 4 × (0.03 + 2) = 8.12 ms exceeds C = 1 ms, so even C/(2η) = 0
    # would not pay off: the η needed does not exist (the claim compares it with 1).
    text = mark("it", "split-09-network", "eta_threshold_unreachable_small_c", b_bytes_per_s=1e9)
    assert text == " " + edition("it")["words"]["verdict_undecided"].format(
        quantity="η richiesta con C = 1 ms")


def test_an_erratum_the_values_would_make_true_is_marked_as_holding():
    # By hand, f = 0.03: Speedup(8) = 1/(0.03 + 0.97/8) = 6.612, E(8) = 0.8264 ≥ 75 %, while at
    # the article's f = 0.2 it is 3.33/8, about 42 %: the article's sentence holds only here.
    text = mark("zh", "theory-06-efficiency", "efficiency_explains_five_days",
                th_serial_fraction=0.03)
    assert "此说法成立" in text and "82.64%" in text and "≥ 75%" in text


def test_the_ledger_at_other_values_says_what_it_cannot_decide():
    """At η = 1/2 there is no break-even point: the ledger row says so instead of failing."""
    rows = {row["id"]: row for row in experiment.claims(experiment.run(eta=0.5))}
    assert rows["break_even_c_ms"]["status"] == claims_model.UNDECIDED
    assert rows["break_even_c_ms"]["computed"] is None
