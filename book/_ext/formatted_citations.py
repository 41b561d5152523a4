"""Sphinx extension: the bibliography's entries formatted once, not in every build.
sphinxcontrib-bibtex has pybtex format every entry of book/references.bib in every build (once
for the reference list, once for its tooltip), whichever page changed: forty formattings through
pybtex's templates, about 0.08 s of a one-page rebuild's 1.7 s. A formatted entry depends only
on the style that formats it, its label and the entry's own type, fields and names, so it is
kept under those (pickled) beside the doctrees (``_build/doctrees/citation-cache``), in a file
named by pybtex's, sphinxcontrib-bibtex's and Python's versions, and read back by the next build;
an entry or style not in it is formatted as before and kept. The pages are the same
(tests/test_incremental.py builds an edition with the cache empty, then another with it full)."""
from __future__ import annotations

import importlib.metadata
import pathlib
import pickle
import sys

from kept_between_builds import Kept
from pybtex.style.formatting import BaseStyle
from sphinx.application import Sphinx

#: The parts of a pybtex name.
NAME_PARTS = ("first_names", "middle_names", "prelast_names", "last_names", "lineage_names")


def cache_file(app: Sphinx) -> pathlib.Path:
    """Where these versions of pybtex, sphinxcontrib-bibtex and Python keep formatted entries."""
    versions = "-".join(f"{name}-{importlib.metadata.version(name)}"
                        for name in ("pybtex", "sphinxcontrib-bibtex"))
    return pathlib.Path(app.doctreedir).parent / "citation-cache" / \
        f"{versions}-py{sys.version_info[0]}.{sys.version_info[1]}.pickle"


def _kind(thing) -> str:
    """A class's full name."""
    return f"{type(thing).__module__}.{type(thing).__qualname__}"


def entry_key(style: BaseStyle, label: str, entry) -> tuple:
    """Everything a formatted entry is made from: the style (its class and those of its name,
    label and sorting styles, its options), the label, and the entry's type, key, fields and
    names."""
    return ((_kind(style), _kind(style.name_style), _kind(style.label_style),
             _kind(style.sorting_style), style.abbreviate_names, style.min_crossrefs),
            label, entry.type, entry.original_type, entry.key, tuple(entry.fields.items()),
            tuple((role, tuple(tuple(getattr(person, part)) for part in NAME_PARTS
                               for person in people)) for role, people in entry.persons.items()))


class KeptFormatting:
    """Stands in for ``BaseStyle.format_entry``: answers from the entries read from ``path``
    (each a fresh copy, as pybtex makes a fresh one), and formats, and remembers, those it does
    not hold. An entry formatted against other bibliography data (``bib_data``, for
    cross-references) is formatted as before, and not kept."""

    def __init__(self, format_entry, path: pathlib.Path):
        self.format_entry, self.kept = format_entry, Kept(path)

    def __call__(self, style: BaseStyle, label: str, entry, bib_data=None):
        if bib_data is not None:
            return self.format_entry(style, label, entry, bib_data=bib_data)
        return pickle.loads(self.kept.get(entry_key(style, label, entry), lambda: pickle.dumps(
            self.format_entry(style, label, entry))))

    def keep(self) -> None:
        """Write the entries if this process formatted any."""
        self.kept.keep()


def read_kept(app: Sphinx) -> None:
    """Answer the process's formattings from the cache of the build's folder."""
    original = getattr(BaseStyle.format_entry, "original", BaseStyle.format_entry)
    kept = KeptFormatting(original, cache_file(app))

    def format_entry(style: BaseStyle, label: str, entry, bib_data=None):
        return kept(style, label, entry, bib_data)
    format_entry.original, format_entry.kept = original, kept
    BaseStyle.format_entry = format_entry


def keep(app: Sphinx, error: Exception | None) -> None:
    kept = getattr(BaseStyle.format_entry, "kept", None)
    if error is None and kept is not None:
        kept.keep()


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", read_kept)
    app.connect("build-finished", keep)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
