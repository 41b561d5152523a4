"""Sphinx extension: MyST-NB's code-cell toggles named by their own, translated words, one toggle
for the code a page opens with, and the themes' interface words where the book's catalogues
correct them.

MyST-NB 1.4 writes ``<summary aria-label="Toggle hidden content">`` around the words it shows
("Show code", set per edition by ``nb_code_prompt_show``). The fixed English label hides those
words from screen readers in every edition and does not match the visible text (axe-core's
``label-content-name-mismatch``). This renders the same toggle without the label, so its
accessible name is the visible, translated prompt.

sphinx-book-theme translates its buttons from its own catalogue, ``booktheme``, which writes
"Descarga esta pagina" (no accent) in Spanish and 列印成 PDF (Taiwan's usage) in Chinese;
``book/locales/<lang>/LC_MESSAGES/booktheme.po`` puts the book's words before it. sphinx-copybutton
has its words in its script ('Copiare', an infinitive, for Italian's "Copy"), corrected in the
copy the build writes. Sphinx's scripts (the search page's count line) take their words from
Sphinx's own ``translations.js``, which leaves some empty in Italian; the build fills those from
the edition's ``sphinx.po`` in the copy it writes.
"""
from __future__ import annotations

import gettext
import json
import pathlib
from html import escape

from docutils import nodes
from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput
from sphinx import locale
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.i18n import CatalogInfo

THEME_CATALOGUE = "booktheme"
#: sphinx-copybutton's words for "Copy" and "Copy to clipboard" by page language, corrected.
COPYBUTTON_WORDS = {
    "'copy': 'Copiare'": "'copy': 'Copia'",
    "'copy_to_clipboard': 'Copiato negli appunti'": "'copy_to_clipboard': 'Copia negli appunti'",
}


def visit_hidden_cell(self, node: HideCodeCellNode) -> None:
    """Open a collapsed cell: ``<details>`` whose summary is the show/hide prompt."""
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n'
                     f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n'
                     f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n'
                     "</summary>\n")


class OneToggleForThePagesHead(SphinxPostTransform):
    """Fold a page's leading run of collapsed code cells (its parameters, set-up and glue cells)
    under one "Show code" toggle, so that the first screen shows one bar, not three.

    Runs after MyST-NB's ``HideInputCells`` has wrapped each cell's code in its toggle: the code
    (and a fully collapsed cell's outputs) of the following cells of the run move, in order, into
    the first cell's toggle; what such a cell shows openly (the parameter line) stays where it
    was; a cell left with nothing is removed."""

    default_priority = 200
    formats = ("html",)

    def run(self, **kwargs) -> None:
        run = []
        for cell in self.document.findall(nodes.container):
            if cell.get("nb_element") != "cell_code":
                continue
            toggle = next((child for child in cell.children
                           if isinstance(child, HideCodeCellNode)
                           and "above-input" in child["classes"]), None)
            adjacent = run and cell.parent is run[-1][0].parent and \
                cell.parent.index(cell) == cell.parent.index(run[-1][0]) + 1
            if toggle is None or (run and not adjacent):
                break
            run.append((cell, toggle))
        for cell, toggle in run[1:]:
            run[0][1].extend(toggle.children)
            cell.remove(toggle)
            if not cell.children:
                cell.parent.remove(cell)


def prefer_the_books_theme_words(app: Sphinx) -> None:
    """Put the edition's booktheme.po (compiled here) before sphinx-book-theme's catalogue."""
    for folder in app.config.locale_dirs:
        base = pathlib.Path(app.srcdir, folder)
        po = base / app.config.language / "LC_MESSAGES" / f"{THEME_CATALOGUE}.po"
        if not po.is_file():
            continue
        info = CatalogInfo(str(po.parent), THEME_CATALOGUE, "utf-8")
        if info.is_outdated():
            info.write_mo(app.config.language)
        ours = gettext.translation(THEME_CATALOGUE, str(base), [app.config.language])
        theirs = locale.translators.get(("general", THEME_CATALOGUE))
        if theirs is not None:
            ours.add_fallback(theirs)
        locale.translators[("general", THEME_CATALOGUE)] = ours


def correct_copybutton_words(app: Sphinx, exception) -> None:
    """Rewrite sphinx-copybutton's words in the script the build wrote."""
    script = pathlib.Path(app.outdir, "_static", "copybutton.js")
    if exception is None and script.is_file():
        text = script.read_text(encoding="utf-8")
        for wrong, right in COPYBUTTON_WORDS.items():
            text = text.replace(wrong, right)
        script.write_text(text, encoding="utf-8")


def fill_script_words(app: Sphinx, exception) -> None:
    """Give the words Sphinx's ``translations.js`` leaves empty (or lacks) the edition's own,
    from ``book/locales/<lang>/LC_MESSAGES/sphinx.po``, in the copy the build wrote."""
    from babel.messages.pofile import read_po

    script = pathlib.Path(app.outdir, "_static", "translations.js")
    if exception is not None or not script.is_file():
        return
    ours = {}
    for folder in app.config.locale_dirs:
        po = pathlib.Path(app.srcdir, folder, app.config.language, "LC_MESSAGES", "sphinx.po")
        if po.is_file():
            with po.open("rb") as handle:
                ours.update({m.id: m.string for m in read_po(handle) if m.id and m.string})
    text = script.read_text(encoding="utf-8")
    start, end = text.index("{"), text.rindex("}") + 1
    catalogue = json.loads(text[start:end])
    empty = {k: v for k, v in ours.items() if not catalogue["messages"].get(k)}
    if empty:
        catalogue["messages"].update(empty)
        script.write_text(text[:start] + json.dumps(catalogue, ensure_ascii=False, indent=4,
                                                    sort_keys=True) + text[end:], encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.setup_extension("myst_nb")
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_HideCellInput))
    app.add_post_transform(OneToggleForThePagesHead)
    app.connect("builder-inited", prefer_the_books_theme_words)
    app.connect("build-finished", correct_copybutton_words)
    app.connect("build-finished", fill_script_words)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
