"""Sphinx extension: MyST-NB's code-cell toggles named by their own, translated words.

MyST-NB 1.4 writes ``<summary aria-label="Toggle hidden content">`` around the words it shows
("Show code", set per edition by ``nb_code_prompt_show``). The fixed English label hides those
words from screen readers in every edition and does not match the visible text (axe-core's
``label-content-name-mismatch``). This renders the same toggle without the label, so its
accessible name is the visible, translated prompt.
"""
from __future__ import annotations

from html import escape

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput
from sphinx.application import Sphinx


def visit_hidden_cell(self, node: HideCodeCellNode) -> None:
    """Open a collapsed cell: ``<details>`` whose summary is the show/hide prompt."""
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n'
                     f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n'
                     f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n'
                     "</summary>\n")


def setup(app: Sphinx) -> dict:
    app.setup_extension("myst_nb")
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_HideCellInput))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
