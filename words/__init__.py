"""Each edition's words, one file per language: ``words/<lang>.toml``, edited without Python.

A file holds, in its language:

- ``[edition]``: what the build needs (Sphinx's language code, the edition's name and short name,
  the book's title, the authors and the footer's whole line about them, the footer's sentence
  naming the licence, with ``{cc_by}`` and ``{mit}`` where the licences' names and links go, the
  search box, the code toggles);
- ``[parts]``: the captions of the book's four parts;
- ``[typography]``: how numbers, per cent, lists, dates and asides are written;
- ``[words]``, ``[units]``, ``[flag_titles]``: what code output shows;
- ``[panel]``: the "your numbers" panel's words (panel.py), and each parameter's label and unit;
- ``[terms.<concept>]``: the one ``term`` the edition uses for each of the book's key concepts
  (all-reduce, bandwidth, efficiency, break-even; rank, thread, worker, token, bootstrap, eager,
  median, quantile and network adapter) and the variants it ``avoid``s; the front page's
  terminology table shows the term;
- ``[claims.<id>]``: each source claim of model/claims.py as the ledger states it (``text``),
  why it fails (``reason``) and the quantity that decides it (``quantity``). A number is written
  ``{2000000}`` or ``{0.2}`` (as the source gives its digits; the edition's typography sets the
  marks) and ``{stated}`` is the claim's stated value, so no edition formats a number by hand.
  A claim without ``text`` is shown in the source's own words; one without ``quantity`` uses
  the model's. ``marker``, where given, is what the section's marker says the source states
  (present.Page.marker), for a sentence whose bare bound ("> 1") would not name it.
- ``[figures]``: what each figure shows (its alt text), by its name: its file in data/ without
  the suffixes; ``figure_descriptions`` refuses a figure the file does not describe.

``LANGUAGES`` is the one list of the book's editions, in the order the book shows them.
"""
from __future__ import annotations

import functools
import pathlib
import tomllib

LANGUAGES = ("zh", "es", "it", "en")
#: Each edition's language as a message to a translator names it.
LANGUAGE_NAMES = {"zh": "Chinese", "es": "Spanish", "it": "Italian", "en": "English"}

FOLDER = pathlib.Path(__file__).resolve().parent
#: The tables every file has, and the keys of each that the book reads.
SECTIONS = {
    "edition": {"sphinx_language", "name", "short_name", "title", "author", "byline", "licence",
                "search_bar_text", "nb_code_prompt_show", "nb_code_prompt_hide", "no_repository"},
    "parts": {"split", "tp", "theory", "about"},
    "typography": {"decimal_mark", "group_mark", "group_min_digits", "percent", "list_separator",
                   "aside", "colon", "date", "months"},
    "terms": {"all_reduce", "bandwidth", "efficiency", "break_even", "rank", "thread", "worker",
              "token", "bootstrap", "eager", "median", "quantile", "adapter"},
    "panel": {"summary", "intro", "recompute", "reset", "loading", "recomputed", "article_values",
              "drawn_for_article", "range", "unavailable"},
    "words": None, "units": None, "flag_titles": None, "claims": None, "figures": None,
}


@functools.cache
def edition(lang: str) -> dict:
    """The words of one edition, read from ``words/<lang>.toml`` (once per process).

    Raises ValueError for a language the book does not have, or a file that lacks a table or a
    key the book reads (named, with the file)."""
    if lang not in LANGUAGES:
        raise ValueError(f"edition must be one of {', '.join(LANGUAGES)}; got {lang!r}")
    path = FOLDER / f"{lang}.toml"
    with path.open("rb") as handle:
        record = tomllib.load(handle)
    for table, keys in SECTIONS.items():
        if table not in record:
            raise ValueError(f"{path.name} has no [{table}] table")
        missing = sorted((keys or set()) - set(record[table]))
        if missing:
            raise ValueError(f"{path.name} [{table}] lacks {', '.join(missing)}")
    return record


def figure_descriptions(lang: str, names) -> dict:
    """The alt text of each figure of ``names`` in one edition: words/<lang>.toml [figures].

    Raises ValueError, in one line that names the file and the figure, for the first figure the
    file does not describe. The build asks at its start (book/_ext/figure_words.py), `make check`
    for every figure of the book (tests/test_words.py): a figure added without its words stops
    there, not in the middle of a page's build with a bare KeyError."""
    described = edition(lang)["figures"]
    for name in sorted(names):
        if name not in described:
            raise ValueError(f"words/{lang}.toml: [figures] has no entry for {name} "
                             f"(add its description in {LANGUAGE_NAMES[lang]})")
    return {name: described[name] for name in names}
