"""The "your numbers" panel: a section's page recomputed for the reader's values by the book's
own code, as the texts the page shows.

On the site, book/_static/your-numbers.js runs this module in the reader's browser (Pyodide,
copied into the site by tools/build_book.py with the modules it imports) and writes the texts
into the page; book/_ext/your_numbers.py writes the panel's form from ``fields``;
tests/test_panel.py runs it in CPython. Nothing here computes or formats a number itself:
``recompute`` runs what the section's notebook runs (``experiment.run`` on the values, which
``experiment.validate`` checks; the setup cell's parameter line and verdicts; the section's
``code.py`` cells) on a page that keeps what it would show instead of showing it. Figures are
not drawn (matplotlib is not in the browser): the page names them, for the script to mark them
as drawn for the article's values.
"""
from __future__ import annotations

import contextlib
import decimal
import io
import json
import math
import pathlib
import re

import experiment
from model.units import readable
from present import PARAMETER_LINE, RESULT_PART, Page, typography
from words import LANGUAGES
from words import edition as words_of

ROOT = pathlib.Path(__file__).resolve().parent
#: A code.py's first cell: the kind of its notebook's head (tools/notebooks.py writes the head).
HEAD = re.compile(r"^# %% parameters: (\w+)$", re.M)
#: Where a code.py's next cell starts.
CELL = re.compile(r"^# %% ", re.M)


#: Article sections without the panel, and why.
WITHOUT_PANEL = {"split-11-reproducibility": "it shows the reader's own Python and matplotlib "
                                             "versions, and reruns the article's values on purpose"}


def article_sections(root: pathlib.Path = ROOT) -> dict:
    """The sections that show the panel, each in every edition: those of the three articles,
    whose notebooks take the article's parameters (not the measured pages, which show a
    record, nor the ledgers), less WITHOUT_PANEL. In the browser, the sections whose code.py
    the site carries."""
    found = {}
    for code in sorted((root / "sections").glob("*/code.py")):
        head = HEAD.search(code.read_text(encoding="utf-8"))
        if head and head[1] in experiment.PARAMETER_GROUPS and \
                code.parent.name not in WITHOUT_PANEL:
            found[code.parent.name] = tuple(LANGUAGES)
    return found


PAGES = article_sections()


class Kept(Page):
    """A Page that keeps what a notebook would show: the glued texts (``glued``), the body rows
    of each table as cell texts (``tables``), the parameter line after its label
    (``parameter_line``) and the name of each figure (``figures``), none of them drawn."""

    def __init__(self, results: dict, edition: str):
        super().__init__(results, edition)
        self.tables, self.figures, self.parameter_line = [], [], ""

    def save_glued(self, key: str, text: str) -> None:
        """Nothing to save: ``glue`` keeps the text in ``glued``."""

    def table(self, header: list, body: list) -> None:
        self.tables.append([[str(cell) for cell in row] for row in body])

    def parameters(self, article: str = "split", decimals: int = 6) -> None:
        self.parameter_line = self.parameter_values(article, decimals)

    def figure(self, draw, data: dict | None = None) -> None:
        self.figures.append(draw)


class Figures:
    """What a section's code finds as ``figures``: each figure by its name (figures.py draws
    with matplotlib, which the browser lacks; ``Kept.figure`` draws nothing)."""

    def __getattr__(self, name: str) -> str:
        return name


def kind_of(section: str) -> str:
    """The kind of a section's parameters ("split", "tp", "theory"), from its code.py."""
    return HEAD.search(code_of(section))[1]


def code_of(section: str) -> str:
    """The text of ``sections/<section>/code.py``."""
    return (ROOT / "sections" / section / "code.py").read_text(encoding="utf-8")


def recompute(section: str, lang: str, values: dict) -> dict:
    """What the page of ``section`` in edition ``lang`` shows with ``values`` (parameter name →
    number, the rest at the article's values), as texts in the edition's notation:

    - ``glued``: glue key → text, every value the prose shows (the verdict slots included);
    - ``tables``: each table's body, as rows of cell texts;
    - ``parameters``: the parameter line after its label ("S = 0.8 ms · C = 12 ms · …");
    - ``figures``: the names of the figures, drawn for the article's values;
    - ``printed``: what each cell that prints printed, in order (as the page's text outputs);
    - ``article_values``: whether the values are the article's own.

    A value that ``experiment.validate`` refuses gives ``refused``'s one line instead."""
    code = code_of(section)
    try:
        r = experiment.run(**values)
    except (TypeError, ValueError) as refusal:
        return refused(lang, values, refusal)
    page, kind = Kept(r, lang), HEAD.search(code)[1]
    # the setup cell (tools/notebooks.py writes it), then the section's own cells
    page.parameters(kind)
    page.mark_errata(experiment.claims(), section)
    page.mark_verdicts(experiment.verdicts(section, r))
    names = {"experiment": experiment, "figures": Figures(), "r": r, "page": page, "g": page.glued,
             # the parameters cell's names, which a visible cell computes with (s_ms, eta, …)
             **{name: r["parameters"][name] for name in experiment.PARAMETER_GROUPS[kind]}}
    if kind in RESULT_PART:                 # tp = r["tensor_parallel"], as the setup cell has it
        names[RESULT_PART[kind][0]] = r[RESULT_PART[kind][1]]
    printed = []
    for cell in CELL.split(code)[1:]:          # cell by cell, as the notebook runs them
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile("# %% " + cell, f"sections/{section}/code.py", "exec"), names)
        if output.getvalue():
            printed.append(output.getvalue())
    return {"glued": {key: str(getattr(page.glued, key)) for key in dir(page.glued)},
            "tables": page.tables, "parameters": page.parameter_line, "figures": page.figures,
            "printed": printed, "article_values": r["parameters"] == experiment.DEFAULTS}


def refused(lang: str, values: dict, refusal: Exception) -> dict:
    """What ``experiment.validate`` said of ``values``, in ``lang``'s words: ``{"error": one
    line naming the first refused parameter, what it is and its range in the edition's notation,
    "parameter": its name}``. It checks each value as validate does; a refusal it cannot place
    is validate's own line."""
    words = words_of(lang)["panel"]
    for name, value in values.items():
        if name not in experiment.SPECS:
            return {"error": words["refused_unknown"].format(name=name), "parameter": name}
        try:
            experiment.validate({name: value})
        except (TypeError, ValueError):
            spec = experiment.SPECS[name]
            number = isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value)
            text = words["refused_integer" if spec.integer else "refused_number"].format(
                name=name, label=words.get(name, spec.meaning),
                low=typed(in_field_unit(name, spec.low), lang),
                high=typed(in_field_unit(name, spec.high), lang),
                got=typed(in_field_unit(name, value), lang) if number else str(value))
            return {"error": text, "parameter": name}
    return {"error": str(refusal), "parameter": None}


def field_unit(name: str) -> float:
    """What one unit of parameter ``name``'s field is in the parameter's own unit: the pages speak
    of rates in GB/s and TFLOP/s (the divisors of present.PARAMETER_LINE), so the fields take
    them so (10 for B = 1e10 bytes/s); 1 for every other parameter."""
    return next((line[name][1] for line in PARAMETER_LINE.values() if name in line), 1)


def in_field_unit(name: str, value):
    """A parameter's value as its field shows it (10 for B = 1e10 bytes/s), in decimal so that
    the unit's power of ten adds no binary rounding; any other input is left as it is."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return value
    shown = decimal.Decimal(repr(value)) / decimal.Decimal(repr(field_unit(name)))
    return int(shown) if isinstance(value, int) and shown == int(shown) else float(shown)


def from_field_unit(name: str, value):
    """The parameter's value for what its field holds (1e10 bytes/s for B = 10 GB/s); inverse of
    ``in_field_unit``; any other input is left as it is, for ``experiment.validate`` to refuse."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return value
    if field_unit(name) == 1:
        return value
    return float(decimal.Decimal(repr(value)) * decimal.Decimal(repr(field_unit(name))))


def read(text: str, lang: str):
    """A number as the reader typed it in ``lang``'s notation: spaces dropped, thousands marks
    between groups of three digits dropped, the decimal mark read as "."; an int where it reads
    as one, else a float (1e10 too), else ``text`` itself, which ``experiment.validate`` refuses
    by name."""
    style = typography(lang)
    text = re.sub(r"\s", "", text)
    text = re.sub(rf"(?<=\d){re.escape(style['group_mark'])}(?=\d{{3}}(?!\d))", "", text)
    text = text.replace(style["decimal_mark"], ".")
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def typed(value: float, lang: str) -> str:
    """A parameter's value as a reader types it, in ``lang``'s notation (0,8; 12; 1e10)."""
    return readable(value).replace(".", typography(lang)["decimal_mark"])


def fields(section: str, lang: str) -> list:
    """The panel's fields for ``section`` in ``lang``, one per parameter of its article: name,
    label (words/<lang>.toml [panel]), the article's value and the range's ends, as typed, in
    the field's unit (``field_unit``)."""
    words = words_of(lang)["panel"]
    return [{"name": name, "label": words[name],
             **{end: typed(in_field_unit(name, getattr(spec, attribute)), lang)
                for end, attribute in (("value", "default"), ("low", "low"), ("high", "high"))}}
            for name, spec in experiment.PARAMETER_GROUPS[kind_of(section)].items()]


def as_parameter(name: str, value):
    """``value`` as parameter ``name`` takes it: a whole number read as a float (1e7, as the
    range itself is written) is the integer an integer parameter needs; anything else as it is,
    for ``experiment.validate`` to judge."""
    spec = experiment.SPECS.get(name)
    if spec is not None and spec.integer and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def answer(section: str, lang: str, typed_values: str) -> str:
    """``recompute`` for the browser: JSON of {name: the text typed, in the field's unit} in,
    JSON of the result out."""
    values = {name: as_parameter(name, from_field_unit(name, read(text, lang)))
              for name, text in json.loads(typed_values).items()}
    return json.dumps(recompute(section, lang, values), ensure_ascii=False)


def from_link(lang: str, linked: str) -> str:
    """The fields' texts for the values a link carries: JSON of {name: the value as the URL
    writes it, in the book's own notation and the parameter's unit (2.5, 1e12 bytes/s)} in,
    JSON of {name: the same value as a reader of ``lang`` types it in the field's unit (2,5;
    1000 GB/s)} out. A text that is no number stays as it is, so that
    ``experiment.validate`` refuses it by name."""
    values = {name: in_field_unit(name, read(text, "en"))
              for name, text in json.loads(linked).items()}
    return json.dumps({name: typed(value, lang) if isinstance(value, (int, float)) else value
                       for name, value in values.items()}, ensure_ascii=False)


def to_link(section: str, lang: str, typed_values: str) -> str:
    """What the page's URL carries for the fields' texts (JSON of {name: text typed in
    ``lang``}): JSON of {name: value in the book's own notation} for each value that is not the
    article's, so that the article's values give a bare URL."""
    specs = experiment.PARAMETER_GROUPS[kind_of(section)]
    values = {name: as_parameter(name, from_field_unit(name, read(text, lang)))
              for name, text in json.loads(typed_values).items()}
    return json.dumps({name: readable(value) for name, value in values.items()
                       if name in specs and value != specs[name].default})
