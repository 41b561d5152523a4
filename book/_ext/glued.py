"""``{eval}`g.key``` on the site: the value the notebook glued as ``key``, from its saved outputs.

The book's prose writes each number as ``{eval}`g.key```, where ``g`` is the page's glued values
(present.Glued). In JupyterLab, jupyterlab-myst evaluates the expression in the reader's kernel.
The site executes nothing (``execute_notebooks: off``), so MyST-NB's own ``eval`` role, which asks
a kernel, cannot work there; this role reads the same expression as ``{glue:text}`key``` instead,
with the same warning (and so a failed build) for a key that no cell glued.
"""
import re

from myst_nb.ext.glue.roles import PasteTextRole
from myst_nb.ext.glue.utils import glue_warning
from sphinxcontrib.bibtex.roles import CiteRole

GLUED = re.compile(r"g\.(\w+)")
#: A citation as the notebooks write it (tools/notebooks.py turns the sources' {cite}`key` into
#: {eval}`cite.key`, which JupyterLab evaluates to the work's label).
CITED = re.compile(r"cite\.(\w+)")


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
        return super().run()


def setup(app):
    app.setup_extension("myst_nb")   # its own `eval` role is registered first, then replaced
    app.setup_extension("sphinxcontrib.bibtex")
    app.add_role("eval", GluedValue(), override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
