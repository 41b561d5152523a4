"""Sphinx extension: the CSS selectors the theme looks up in every page compiled once, not in every
build. pydata-sphinx-theme finds the parts of each page's contents with BeautifulSoup's
``select`` (``li``, ``details > a.reference``, ...), and soupsieve compiles each selector the first
time a process asks, through regular expressions that are themselves compiled on first use: four
selectors, about 0.15 s of every build process (of a one-page rebuild's 2.7 s). The compiled
selectors (soupsieve's own immutable objects) are kept beside the doctrees
(``_build/doctrees/selector-cache``), in a file named by soupsieve's and Python's versions, and
read back by the next build; a selector not in it is compiled as before and kept. Only the main
process keeps what it compiled (it writes the first page, so every selector the theme uses, before
Sphinx forks its writers). The pages are the same (tests/test_incremental.py builds an edition
with the cache empty, then another with it full)."""
from __future__ import annotations

import pathlib
import sys

import soupsieve
import soupsieve.css_parser
from sphinx.application import Sphinx

from kept_between_builds import Kept


def cache_file(app: Sphinx) -> pathlib.Path:
    """Where this soupsieve and this Python keep their compiled selectors."""
    return pathlib.Path(app.doctreedir).parent / "selector-cache" / \
        f"soupsieve-{soupsieve.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}.pickle"


class KeptSelectors:
    """Stands in for soupsieve's compiling function (``css_parser._cached_css_compile``, itself
    cached per process): answers from the selectors read from ``path``, and compiles, and
    remembers, those it does not hold."""

    def __init__(self, compile_selector, path: pathlib.Path):
        self.compile_selector, self.kept = compile_selector, Kept(path)

    def __call__(self, *key):
        return self.kept.get(key, lambda: self.compile_selector(*key))

    def keep(self) -> None:
        """Write the selectors if this process compiled any."""
        self.kept.keep()


def read_kept(app: Sphinx) -> None:
    """Answer the process's selector compilations from the cache of the build's folder."""
    compile_selector = soupsieve.css_parser._cached_css_compile
    compile_selector = getattr(compile_selector, "compile_selector", compile_selector)
    soupsieve.css_parser._cached_css_compile = KeptSelectors(compile_selector, cache_file(app))


def keep(app: Sphinx, error: Exception | None) -> None:
    kept = soupsieve.css_parser._cached_css_compile
    if error is None and isinstance(kept, KeptSelectors):
        kept.keep()


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", read_kept)
    app.connect("build-finished", keep)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
