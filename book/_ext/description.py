"""Sphinx extension: each page says what it is about in a ``<meta name="description">`` (search
engines show it under the title; Lighthouse's SEO audit asks for it): the page's first paragraph
of prose, as its reader sees it (numbers filled in), cut at a word to at most MAX_CHARS
characters. A page without prose (the search page) is described by the edition's title."""
from __future__ import annotations

import html
import re

from docutils import nodes
from sphinx.application import Sphinx

#: The most characters a description keeps (search engines show about this many).
MAX_CHARS = 160


def shortened(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` with its spaces squeezed, cut after the last whole word that fits in ``limit``
    characters (an ellipsis then ends it)."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:·") + "…"


def first_paragraph(doctree: nodes.document) -> str | None:
    """The text of the document's first paragraph outside code cells, admonitions and tables
    (its prose), or None when it has none."""
    for paragraph in doctree.findall(nodes.paragraph):
        if not any(isinstance(parent, (nodes.Admonition, nodes.table, nodes.literal_block))
                   or "cell" in parent.get("classes", []) for parent in _parents(paragraph)):
            text = paragraph.astext().strip()
            if text:
                return text
    return None


def _parents(node: nodes.Node):
    while node.parent is not None:
        node = node.parent
        yield node


def describe_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Add the page's description to the metatags its template writes into <head>."""
    text = (first_paragraph(doctree) if doctree is not None else None) or \
        html.unescape(context["docstitle"])      # (which the context holds as HTML)
    context["metatags"] = context.get("metatags", "") + \
        f'\n<meta name="description" content="{html.escape(shortened(text))}" />'


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", describe_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
