"""Sphinx extension: every figure the book shows says what it shows in the edition's language,
and carries its size.

MyST-NB writes a notebook's SVG output as ``<img alt="../../_images/<hash>.svg">``: a screen
reader reads out the hash. At the default parameters each figure is byte for byte a file of
data/ (tests/test_data.py), so the file names the figure, and ``words/<lang>.toml [figures]``
gives its description, which becomes the alt text (the build stops at its start, in one line
naming the figure and the file, if the edition lacks a figure's words). The image also gets
``width`` and ``height`` (the SVG's own size, in CSS pixels), so that the page does not move as
figures load; the stylesheet keeps them fluid (``height: auto``).
"""
from __future__ import annotations

import functools
import pathlib
import re
import sys

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import words  # noqa: E402

#: An SVG's size as matplotlib writes it, in points.
SVG_SIZE = re.compile(r'<svg\b[^>]*\bwidth="([\d.]+)pt" height="([\d.]+)pt"')
#: CSS pixels per point.
PX_PER_PT = 4 / 3
#: The size of each figure this build resolved, by image file name. Sphinx resolves every page
#: (``doctree-resolved``) in its main process before it forks the processes that write a chunk of
#: pages (``html-page-context``), so a writer finds its own pages' figures here.
SIZES: dict = {}


@functools.cache
def data_figures() -> dict:
    """The figures of data/ by their text: SVG text → figure name (the file name without its
    decimal-comma suffix and extension, the key of [figures])."""
    return {path.read_text(encoding="utf-8").rstrip("\n"): path.name.split(".")[0]
            for path in (ROOT / "data").glob("*.svg")}


def svg_size_px(text: str) -> tuple | None:
    """An SVG's width and height in whole CSS pixels, or None if it states no size in points."""
    found = SVG_SIZE.search(text)
    return None if found is None else tuple(round(float(v) * PX_PER_PT) for v in found.groups())


def edition_of(config) -> str:
    """The edition a build's Sphinx ``config`` is for: as tools/build_book.py names it, or, in a
    plain `jupyter-book build .` of _config.yml (the English edition), from its language."""
    return config.html_context.get("edition") or (config.language or "en")[:2]


def check_words(app: Sphinx) -> None:
    """Stop the build before it reads a page if the edition does not describe every figure of
    data/ (a SphinxError, which Sphinx prints as it is, without a traceback); otherwise the
    first page to show the figure would fail with a bare KeyError."""
    try:
        words.figure_descriptions(edition_of(app.config), set(data_figures().values()))
    except ValueError as error:
        raise ExtensionError(str(error), modname=__name__) from None


def describe_figures(app: Sphinx, doctree, docname: str) -> None:
    """Give each SVG image of a page its figure's words as alt text, and note its size."""
    described = words.edition(edition_of(app.config))["figures"]
    for node in doctree.findall(nodes.image):
        source = pathlib.Path(app.srcdir) / node["uri"]
        if source.suffix != ".svg" or not source.is_file():
            continue
        text = source.read_text(encoding="utf-8").rstrip("\n")
        name = data_figures().get(text)
        if name is not None:
            node["alt"] = described[name]
        size = svg_size_px(text)
        if size is not None:
            SIZES[source.name] = size


def size_images(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Write each noted figure's width and height into its <img> tag."""
    if "body" not in context or not SIZES:
        return

    def sized(match: re.Match) -> str:
        size = SIZES.get(match.group(2))
        return match.group(0) if size is None else \
            f'{match.group(1)} width="{size[0]}" height="{size[1]}"'
    context["body"] = re.sub(r'(<img\b[^>]*\bsrc="[^"]*/([^"/]+\.svg)")', sized, context["body"])


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", check_words)
    app.connect("doctree-resolved", describe_figures)
    app.connect("html-page-context", size_images)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
