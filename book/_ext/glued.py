"""``{eval}`g.key``` on the site: the value the notebook glued as ``key``, from its saved outputs.

The book's prose writes each number as ``{eval}`g.key```, where ``g`` is the page's glued values
(present.Glued). In JupyterLab, jupyterlab-myst evaluates the expression in the reader's kernel.
The site executes nothing (``execute_notebooks: off``), so MyST-NB's own ``eval`` role, which asks
a kernel, cannot work there; this role reads the same expression as ``{glue:text}`key``` instead,
with the same warning (and so a failed build) for a key that no cell glued. Each value of a page's
body is written ``<span class="pasted-text" data-key="key">``, so that a script can find it by its
key (the "your numbers" panel writes the reader's values there: book/_static/your-numbers.js);
the node that writes it exists only while the page is written, so that the saved environment
(whose tables of contents hold a heading's values) needs no module of the book to be read.
"""
import re

from docutils import nodes
from myst_nb.ext.glue.roles import PasteTextRole
from myst_nb.ext.glue.utils import glue_warning
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinxcontrib.bibtex.roles import CiteRole

GLUED = re.compile(r"g\.(\w+)")
#: A citation as the notebooks write it (tools/notebooks.py turns the sources' {cite}`key` into
#: {eval}`cite.key`, which JupyterLab evaluates to the work's label).
CITED = re.compile(r"cite\.(\w+)")


class keyed_value(nodes.inline):
    """A glued value in the prose, which knows its key (``node["key"]``)."""


def visit_keyed_value(self, node: keyed_value) -> None:
    self.body.append(self.starttag(node, "span", "", **{"data-key": node["key"]}))


def depart_keyed_value(self, node: keyed_value) -> None:
    self.body.append("</span>")


class GluedValue(PasteTextRole):
    """``{eval}`g.key``` read as ``{glue:text}`key```; ``{eval}`cite.key``` as ``{cite}`key```."""

    def __call__(self, name, rawtext, text, lineno, inliner, options=None, content=()):
        citation = CITED.fullmatch(text)
        if citation:
            return CiteRole()("cite", rawtext, citation[1], lineno, inliner, options or {}, content)
        return super().__call__(name, rawtext, text, lineno, inliner, options, content)

    def run(self):
        match = GLUED.fullmatch(self.text)
        if not match:
            return [], [glue_warning(f"{{eval}} takes g.<glued key> in this book; got {self.text!r}",
                                     self.document, self.line)]
        self.text = match[1]
        found, messages = super().run()
        for node in found:
            node["key"] = match[1]
        return found, messages


class KeyedValues(SphinxPostTransform):
    """Each glued value, as the page is written: MyST-NB's pasted text (a ``nodes.inline`` that
    the role gave its key) as a ``keyed_value``."""

    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(nodes.inline)):
            if "key" in node:
                value = keyed_value(node.rawsource, "", *node.children, **node.attributes)
                value.source, value.line = node.source, node.line
                node.replace_self(value)


def setup(app):
    app.setup_extension("myst_nb")   # its own `eval` role is registered first, then replaced
    app.setup_extension("sphinxcontrib.bibtex")
    app.add_role("eval", GluedValue(), override=True)
    app.add_node(keyed_value, html=(visit_keyed_value, depart_keyed_value))
    app.add_post_transform(KeyedValues)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
