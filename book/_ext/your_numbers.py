"""Sphinx extension: the "your numbers" panel (issue 19), folded under the parameter line of the
pages panel.PAGES names, in the edition's words.

The panel is a ``<details>`` form: one labelled field per parameter of the section's article
(panel.fields: the edition's label and unit, the article's value, the range), a button that
recomputes and one that goes back to the article's values, and a status line that screen
readers announce. A small module script imports book/_static/your-numbers.js when the reader
first opens it (at once, where the page's address carries values of its fields: a shared link);
nothing else is loaded before. That script starts Pyodide from the site's
_pyodide/ folder, which tools/build_book.py fills (one folder for the four editions, beside
them) and names in ``html_context["your_numbers"]``; without it (no npm, no Pyodide) no page
shows the panel.
"""
from __future__ import annotations

import json
import pathlib
import sys
from html import escape

from docutils import nodes
from sphinx.application import Sphinx

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import panel  # noqa: E402
from words import edition as words_of  # noqa: E402

#: The words the script shows (words/<lang>.toml [panel]).
SCRIPT_WORDS = ("loading", "recomputed", "article_values", "drawn_for_article", "unavailable")
#: What loads the panel's script when the reader first opens it.
LOADER = ('<script type="module">const panel = document.querySelector("details.your-numbers");\n'
          'panel.addEventListener("toggle", () => import(panel.dataset.script), {once: true});\n'
          "const names = [...panel.querySelectorAll('input[name]')].map((input) => input.name);\n"
          "if ([...new URLSearchParams(location.search).keys()].some((n) => names.includes(n)))"
          " panel.open = true;</script>")


def form(section: str, lang: str, depth: int) -> str:
    """The panel of ``section`` in edition ``lang``, for a page ``depth`` folders below the
    edition's root (whose own root, with _pyodide/, is one folder further up)."""
    words = words_of(lang)["panel"]
    up = "../" * depth
    fields = []
    for field in panel.fields(section, lang):
        name, field_id = field["name"], f"your-numbers-{field['name']}"
        span = escape(words["range"].format(low=field["low"], high=field["high"]))
        fields.append(
            f'<p class="your-numbers-field"><label for="{field_id}">{escape(field["label"])}</label>\n'
            f'<input id="{field_id}" name="{name}" type="text" '
            f'value="{escape(field["value"])}" autocomplete="off" spellcheck="false" '
            f'aria-describedby="{field_id}-range">\n'
            f'<span class="your-numbers-range" id="{field_id}-range">{span}</span></p>')
    script_words = json.dumps({key: words[key] for key in SCRIPT_WORDS}, ensure_ascii=False)
    return (f'<details class="your-numbers" data-section="{section}" data-lang="{lang}" '
            f'data-script="{up}_static/your-numbers.js" data-pyodide="{up}../_pyodide/" '
            f'data-words="{escape(script_words)}">\n'
            f"<summary>{escape(words['summary'])}</summary>\n"
            f'<form class="your-numbers-form">\n<p>{escape(words["intro"])}</p>\n'
            + "\n".join(fields) +
            f'\n<p class="your-numbers-buttons"><button type="submit">{escape(words["recompute"])}'
            f'</button>\n<button type="reset">{escape(words["reset"])}</button></p>\n'
            '<p class="your-numbers-status" role="status" aria-live="polite"></p>\n'
            f"</form>\n</details>\n{LOADER}\n")


def add_panel(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Put the panel after the cell that shows the parameter line (the first cell with an
    output), on the pages that have one, when the build carries Pyodide."""
    context = app.config.html_context
    section = docname.rsplit("/", 1)[-1]
    if not context.get("your_numbers") or context.get("edition") not in panel.PAGES.get(section, ()):
        return
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") == "cell_code" and any(
                child.get("nb_element") == "cell_code_output" for child in cell.children
                if isinstance(child, nodes.Element)):
            html = form(section, context["edition"], docname.count("/"))
            cell.parent.insert(cell.parent.index(cell) + 1, nodes.raw("", html, format="html"))
            return


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", add_panel)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
