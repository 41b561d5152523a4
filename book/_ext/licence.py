"""Sphinx extension: every page names the book's licence in the edition's words, in its footer,
and the front page does so in print too (the PDF edition is printed from the pages, front page
first, and site.css hides the footer in print).

``words/<lang>.toml [edition] licence`` is one sentence with two slots: ``{cc_by}``, where "CC BY
4.0" goes (linked to the licence's deed), and ``{mit}``, where "MIT" goes (linked to LICENSE,
which holds both licences in full and says which files each covers). The build copies LICENSE
into each edition's site as LICENSE.txt (served as text, read in the browser), so the link works
offline and without a repository address; in the PDF, a link to a file of the site is dropped
(tools/pdf_edition.py) and its words stay.

The templates read the filled sentence as ``licence`` (book/_templates/extra-footer.html, the
footer; book/_templates/layout.html, the front page in print). The sentence also goes into
``html_context`` as it is written, so that a change to it rewrites every page (the context is
part of the configuration that Sphinx's HTML builder compares between builds).
"""
from __future__ import annotations

import pathlib
import shutil
import sys
from html import escape

from sphinx.application import Sphinx
from sphinx.config import Config

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import words  # noqa: E402
from figure_words import edition_of  # noqa: E402 (book/_ext, on the path as the extensions are)

#: The licences' full texts, at the repository's root, and the name of its copy in each site.
LICENSE, SITE_COPY = ROOT / "LICENSE", "LICENSE.txt"
#: Where each slot of the sentence links, and the name it shows (the same in every edition).
CC_BY = ("https://creativecommons.org/licenses/by/4.0/", "CC BY 4.0")
MIT_NAME = "MIT"
SLOTS = ("{cc_by}", "{mit}")


def sentence(lang: str) -> str:
    """The edition's licence sentence as written, each slot checked to be there once."""
    text = words.edition(lang)["edition"]["licence"]
    for slot in SLOTS:
        if text.count(slot) != 1:
            raise ValueError(f"words/{lang}.toml [edition] licence must hold {slot} once: {text!r}")
    return text


def filled(text: str, licence_href: str) -> str:
    """The sentence as HTML: its words escaped, each slot the licence's name as a link."""
    cc_by = f'<a href="{CC_BY[0]}" rel="license">{CC_BY[1]}</a>'
    mit = f'<a href="{escape(licence_href)}" rel="license">{MIT_NAME}</a>'
    return escape(text, quote=False).replace("{cc_by}", cc_by).replace("{mit}", mit)


def keep_the_words(app: Sphinx, config: Config) -> None:
    config.html_context["licence_words"] = sentence(edition_of(config))


def name_the_licence(app: Sphinx, pagename: str, templatename: str, context: dict,
                     doctree) -> None:
    context["licence"] = filled(context["licence_words"], context["pathto"](SITE_COPY, 1))


def copy_the_licence(app: Sphinx, exception) -> None:
    if exception is None and app.builder.format == "html":
        shutil.copyfile(LICENSE, pathlib.Path(app.outdir) / SITE_COPY)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", keep_the_words)
    app.connect("html-page-context", name_the_licence)
    app.connect("build-finished", copy_the_licence)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
