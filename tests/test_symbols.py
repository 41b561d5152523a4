"""One symbol, one meaning, in the whole book: each edition's front page lists every symbol
written in math with its meaning and the section that defines it, and the pages follow it.

A page's symbols are the letters it writes in math ($…$, $$…$$), read by ``prose.math_symbols``
(T₁ and T_calc are both T, "a time"; C* and t* are symbols of their own). A letter that means
something else on another page has to be a different letter, since the glossary gives it one row.
"""
import pathlib
import re

import pytest
import yaml

from prose import math_symbols
from words import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: A row of the symbols table: symbols in math | meaning | the defining section's {doc} link.
SYMBOL_ROW = re.compile(r"^\|\s*(\$.+?)\s*\|\s*(.+?)\s*\|\s*\{doc\}`/notebooks/(\w+)/([\w-]+)`\s*\|\s*$",
                        re.M)


def reading_order() -> list:
    """The section names in the order the table of contents gives them."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [chapter["file"] for part in toc["parts"] for chapter in part["chapters"]]
    return [f.rsplit("/", 1)[1] for f in files if f.startswith("notebooks/")]


def glossary(lang: str) -> dict:
    """{symbol: [defining section, …]} from the symbols table of book/<lang>/index.md: one
    entry per row that names the symbol (so a symbol given two meanings has two)."""
    text = (ROOT / "book" / lang / "index.md").read_text(encoding="utf-8")
    rows = {}
    for symbols, _meaning, link_lang, section in SYMBOL_ROW.findall(text):
        assert link_lang == lang, f"{lang}: the row for {symbols} links the {link_lang} edition"
        for symbol in math_symbols(symbols):
            rows.setdefault(symbol, []).append(section)
    return rows


def page_symbols(lang: str) -> list:
    """(section, its math symbols) for every section of an edition, in reading order."""
    return [(name, math_symbols((ROOT / "sections" / name / f"{lang}.md").read_text(encoding="utf-8")))
            for name in reading_order()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_gives_each_symbol_one_meaning(lang):
    rows = glossary(lang)
    assert rows, f"book/{lang}/index.md has no symbols table"
    twice = {symbol: sections for symbol, sections in rows.items() if len(sections) > 1}
    assert not twice, f"{lang}: symbols given more than one row: {twice}"
    assert set(rows) == set(glossary("en")), (
        f"{lang}'s symbols differ from en's: {sorted(set(rows) ^ set(glossary('en')))}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_symbol_a_page_writes_is_in_the_glossary(lang):
    defined = glossary(lang)
    strays = {name: sorted(symbols - set(defined)) for name, symbols in page_symbols(lang)
              if symbols - set(defined)}
    assert not strays, f"{lang}: symbols the front page's table does not give: {strays}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_symbol_is_defined_where_a_reader_first_meets_it(lang):
    defined = {symbol: sections[0] for symbol, sections in glossary(lang).items()}
    first = {}
    for name, symbols in page_symbols(lang):
        for symbol in symbols:
            first.setdefault(symbol, name)
    wrong = {symbol: f"first used in {first[symbol]}, defined in {defined[symbol]}"
             for symbol in first if symbol in defined and first[symbol] != defined[symbol]}
    assert not wrong, f"{lang}: {wrong}"
