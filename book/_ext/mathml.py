"""Sphinx extension: formulas rendered to MathML at build time.

The book is read offline, on phones and in print, so its formulas must not depend on a script
fetched from a CDN. Every ``$...$`` and ``$$...$$`` is converted here by ``latex2mathml`` into
MathML Core, which browsers draw natively and print into the PDF editions; no JavaScript, fonts
or network requests are involved. A formula that cannot be converted fails the build.
"""
from __future__ import annotations

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.locale import _
from sphinx.util.math import get_node_equation_number


def mathml(latex: str, display: bool) -> str:
    """``latex`` (without delimiters) as one ``<math>`` element, inline or as a block."""
    try:
        markup = convert(latex.strip(), display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises several unrelated exception types
        raise ExtensionError(f"formula cannot be rendered to MathML: {latex!r} ({error})") from error
    # TeX sets a slash as an ordinary symbol, without the spaces of MathML's infix operator.
    return markup.replace("<mo>&#x0002F;</mo>", '<mo lspace="0" rspace="0">/</mo>')


def visit_math(self, node: nodes.math) -> None:
    """Inline formula: ``<span class="math">`` holding MathML; the TeX source is its label."""
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate"))
    self.body.append(mathml(node.astext(), display=False))
    self.body.append("</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node: nodes.math_block) -> None:
    """Display formula, numbered like Sphinx's own renderers when it has a label."""
    self.body.append(self.starttag(node, "div", CLASS="math notranslate"))
    if node.get("number"):
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    parts = [part for part in node.astext().split("\n\n") if part.strip()]
    latex = parts[0] if len(parts) == 1 else r"\begin{aligned}" + r"\\".join(parts) + r"\end{aligned}"
    self.body.append(mathml(latex, display=True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict:
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_displaymath, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
