"""How the notebooks show results: numbers in each language's notation, glue, tables.

The model lives in ``experiment.py``; this module only formats, with each edition's words and
typography read from ``words/<lang>.toml``. A notebook's language is its ``edition`` parameter
(``edition = "zh"`` in the parameters cell, the one line of code that differs between the four
editions), so a notebook runs the same from any folder, downloaded or under papermill.
"""
from __future__ import annotations

import ast
import math
import re
import unicodedata

from words import LANGUAGES
from words import edition as words_of

#: The prefix MyST-NB's glue gives the MIME types of a value it saves without showing it.
GLUE_PREFIX = "application/papermill.record/"
#: The name a section's code gives its article's part of the results, per kind of notebook
#: (``tp = r["tensor_parallel"]``): written into the setup cell by tools/notebooks.py, and given
#: to the section's code by panel.py.
RESULT_PART = {"tp": ("tp", "tensor_parallel"), "theory": ("th", "parallel_theory")}


# IPython is imported where a notebook shows something, not with this module: the "your numbers"
# panel (panel.py) imports this module in the reader's browser, where there is no IPython, and
# its page shows nothing: it keeps the texts.
def display(*objects, **options) -> None:
    """IPython's ``display``: show ``objects`` in the notebook."""
    from IPython.display import display as ipython_display
    ipython_display(*objects, **options)


def show_markdown(text: str) -> None:
    """Show ``text`` as Markdown in the notebook (IPython's ``Markdown``)."""
    from IPython.display import Markdown
    display(Markdown(text))


def glue_output(key: str, value) -> tuple:
    """The display output (bundle, metadata) that ``myst_nb.glue(key, value, display=False)``
    writes, without importing MyST-NB's glue module: that imports nbformat and jsonschema, and
    where JupyterLab's packages are installed jsonschema compiles rfc3987_syntax's grammars for
    1 to 2 s in every kernel (tests/test_present.py checks that both write the same)."""
    from IPython.core.formatters import format_display_data
    bundle, metadata = format_display_data(value)
    return ({GLUE_PREFIX + mime: data for mime, data in bundle.items()},
            {**metadata, "scrapbook": {"name": key, "mime_prefix": GLUE_PREFIX}})


#: The part of the book (words/<lang>.toml [parts]) that holds each source article's sections.
ARTICLE_PARTS = {"000": "split", "002": "tp", "004": "theory"}
#: The language the three source articles are written in (their quotes need no "in the source").
SOURCE_LANGUAGE = "zh"

#: The cases of article 1 named by the value they change: case → (key of the case row, symbol,
#: divisor, unit). The label is read from the case itself, so a changed constant relabels it.
CASE_LABELS = {"small_c": ("c_ms", "C", 1, "ms"), "slow_link": ("b_bytes_per_s", "B", 1e9, "GB/s"),
               "fast_link": ("b_bytes_per_s", "B", 1e9, "GB/s"), "large_s": ("s_ms", "S", 1, "ms")}

#: The name of the errata page's entry for a claim, which its section's marker links to.
FLAG_TARGET = "flag-{id}"

#: How a qualitative claim's relation is written.
RELATION_SIGNS = {">": ">", ">=": "≥", "<": "<", "<=": "≤", "==": "="}

#: The statuses of the claims ledger, in the order the book shows them (wrong ones first), and
#: the admonition style of each: a red box, an orange one, a grey one, a green one.
STATUSES = ("does not reproduce", "conflicts with well-known external facts",
            "cannot be recomputed from the article", "reproduces")
STATUS_CLASS = {"does not reproduce": "error", "conflicts with well-known external facts": "warning",
                "cannot be recomputed from the article": "note", "reproduces": "tip"}
#: The claims that do not hold (a wrong number, a sentence the model contradicts, a conflict with
#: external facts): each is flagged in its section and explained on the errata page.
FLAGGED = ("does not reproduce", "conflicts with well-known external facts")
#: The errata whose correction changes the model the reader is learning, so that their section
#: keeps them as a full box in the reading path: the ring factor (tp-04), NVLink's bandwidth per
#: direction and FP32 against the 1 PFLOP/s peak (tp-10), and the memory that does not fit
#: (tp-09, theory-01). Every other erratum is a marker where the source's statement would
#: stand, linked to its entry on the errata page (Page.mark_errata).
BOXED_ERRATA = frozenset({"comm_time_at_link_bandwidth", "demo_bandwidth_per_direction",
                          "demo_peak_in_float32", "anecdote_fits_without_pp", "single_a100_30_days"})
#: The one place for the precision of every quantity that more than one section shows, by its glue
#: key (one key, one quantity in the whole book: tests/test_sections.py checks that a key shows
#: the same text on every page, and that no section sets these decimals itself). Parameters and
#: the first article's times in ms show up to six places, so that a rerun with other values
#: shows them unrounded; a quantity the source states takes the source's places (C* = 2.45333).
#: Any other key glued on several pages is a whole number or a text.
DECIMALS = {
    # article 1: parameters, the ledger, the break-even point
    "c_ms": 6, "eta": 6, "b_gb_per_s": 6, "half_c_ms": 6, "comm_ms": 6,
    "parallel_compute_ms": 6, "two_ms": 6, "speedup": 3, "break_even_c_ms": 5,
    # article 2: the per-layer times of the demo, the ring factors
    "tp_comm_ms": 3, "a_ms": 2, "ring_t2": 2, "ring_t8": 2, "ring_t32": 3,
    "one_nic_cut": 0, "all_nics_cut": 1, "one_nic_busbw_gb_per_s": 0, "all_nics_busbw_gb_per_s": 0,
    # article 3: the scenario
    "days": 2, "serial": 3, "adam_bytes": 0,
}

#: Prose shows a computed number to at most this many significant figures (2.45 ms, 19.8 ms,
#: 537 MB): more digits would claim a precision that a model of assumed parameters does not
#: have. The digits stay where they are the point: a whole number (a count, a size in bytes), a
#: parameter shown as the reader set it (PARAMETER_KEYS), a number quoted from a source
#: (a key that names it "stated"), and a table's column, whose cells all keep its decimals
#: (Page.cell).
SIGNIFICANT_FIGURES = 3
#: The glue keys that show a parameter as the reader set it (in the panel too), never rounded
#: further than their places: the first article's S, C, η, Q, ℓ, V and B, the worked examples'
#: parameters, and the second and third articles' inputs.
PARAMETER_KEYS = frozenset({
    "s_ms", "c_ms", "eta", "eta_percent", "q", "ell_ms", "v_bytes", "b_bytes_per_s", "b_gb_per_s",
    "large_s_ms", "c_s", "ex_eta", "ex_q", "ex_ell_ms", "ex_v_mb", "ex_b_gb_per_s", "ex1_eta",
    "ex2_c_ms", "ex3_b_gb_per_s", "ex3_q", "ex3_v_mb",
    "b", "s", "h", "d", "p_tflops", "b_gb", "days", "devices", "serial", "parallel",
    "efficiency_pct"})


def prose_decimals(value: float, decimals: int) -> int:
    """The places at which ``value`` shows at most SIGNIFICANT_FIGURES significant figures,
    never more than ``decimals``; a whole part is never rounded away (11648 stays 11648)."""
    if value == 0 or not math.isfinite(value):
        return decimals
    return max(0, min(decimals, SIGNIFICANT_FIGURES - 1 - math.floor(math.log10(abs(value)))))


#: How each article's parameters are shown: name → (symbol, divisor, unit symbol or UNITS key).
PARAMETER_LINE = {
    "split": {"s_ms": ("S", 1, "ms"), "c_ms": ("C", 1, "ms"), "eta": ("η", 1, ""),
              "q": ("Q", 1, ""), "ell_ms": ("ℓ", 1, "ms"), "v_bytes": ("V", 1, "bytes"),
              "b_bytes_per_s": ("B", 1e9, "GB/s")},
    "tp": {"tp_batch": ("b", 1, ""), "tp_seq_len": ("s", 1, ""), "tp_hidden": ("h", 1, ""),
           "tp_bytes_per_value": ("d", 1, "bytes"), "tp_flops_per_s": ("P", 1e12, "TFLOP/s"),
           "tp_bandwidth_bytes_per_s": ("B", 1e9, "GB/s")},
    "theory": {"th_serial_fraction": ("f", 1, ""), "th_devices": ("N", 1, ""),
               "th_single_device_days": ("T(1)", 1, "days"), "th_efficiency": ("E", 1, "")},
}


def typography(lang: str) -> dict:
    """How ``lang`` writes numbers, lists, dates and asides (words/<lang>.toml [typography])."""
    return words_of(lang)["typography"]


def grouped(digits: str, lang: str) -> str:
    """A run of integer digits with ``lang``'s thousands mark, from its ``group_min_digits`` on
    (Spanish groups from five digits, as the RAE and CLDR do: 2048, but 12 345)."""
    style = typography(lang)
    if len(digits) < style["group_min_digits"]:
        return digits
    head, tail = digits[:len(digits) % 3 or 3], digits[len(digits) % 3 or 3:]
    return style["group_mark"].join([head] + [tail[i:i + 3] for i in range(0, len(tail), 3)])


def number(value: float, decimals: int, lang: str, *, trailing_zeros: bool = False) -> str:
    """``value`` rounded to ``decimals`` places in ``lang``'s notation, trailing zeros dropped
    (prose: 0.2 ms) or kept (a table's column, whose cells all show ``decimals`` places: 0.200).

    Negative numbers take the typographic minus sign (U+2212).
    """
    text = f"{abs(value):.{decimals}f}"
    if "." in text and not trailing_zeros:
        text = text.rstrip("0").rstrip(".")
    return ("−" if round(value, decimals) < 0 else "") + literal(text, lang)


def literal(text: str, lang: str) -> str:
    """A number written as digits with an optional "." and fraction ("2000000", "0.20") in
    ``lang``'s notation, with the digits kept as they are (words' ``{0.20}`` slots)."""
    whole, _, fraction = text.partition(".")
    return grouped(whole, lang) + (typography(lang)["decimal_mark"] + fraction if fraction else "")


#: A number slot of the words files: ``{stated}`` or a number such as ``{0.2}``.
SLOT = re.compile(r"\{(stated|[0-9]+(?:\.[0-9]+)?)\}")


def marked_errata(claims: list, section: str) -> list:
    """The claims of ``section`` that do not hold (FLAGGED) and that its section does not keep
    as a box (BOXED_ERRATA): each is a marker in the prose (Page.mark_errata)."""
    return [c for c in claims if c["section"] == section and c["status"] in FLAGGED
            and c["id"] not in BOXED_ERRATA]


def fill(template: str, lang: str, stated: str | None = None) -> str:
    """A text of words/<lang>.toml with its number slots written in ``lang``'s notation and
    ``{stated}`` replaced by ``stated`` (the claim's value as the ledger shows it)."""
    def slot(match: re.Match) -> str:
        if match.group(1) == "stated":
            if stated is None:
                raise ValueError(f"{{stated}} in a text that has no stated value: {template!r}")
            return stated
        return literal(match.group(1), lang)
    return SLOT.sub(slot, template)


def as_markdown_text(text: str) -> str:
    """``text`` with its asterisks escaped, so that Markdown shows t* as t* and does not read
    it as emphasis (the ledger sets its quantities in bold: **T(2t*)/T(t*) > 1** broke)."""
    return text.replace("*", "\\*")


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(value: float, decimals: int, lang: str) -> str:
    """``value`` as m × 10ⁿ with ``decimals`` places in the mantissa, e.g. 3.14 × 10²³."""
    exponent = int(f"{value:e}".split("e")[1])
    mantissa = value / 10 ** exponent
    if round(abs(mantissa), decimals) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{number(mantissa, decimals, lang)} × 10{str(exponent).translate(SUPERSCRIPT)}"


def date(iso: str, lang: str) -> str:
    """An ISO date (2020-03-13) as each edition writes it: 2020 年 3 月 13 日, 13 de marzo de
    2020, 13 marzo 2020, 13 March 2020 (no-break spaces inside, so a date never breaks)."""
    year, month, day = (int(part) for part in iso.split("-"))
    style = typography(lang)
    name = style["months"][month - 1] if style["months"] else ""
    return style["date"].format(year=year, month=month, day=day, month_name=name)


def vector(values: list, lang: str) -> str:
    """An integer vector such as [−3, 9] (a semicolon separates items where the comma is decimal)."""
    return "[" + typography(lang)["list_separator"].join(number(v, 0, lang) for v in values) + "]"


def check_edition(edition) -> str:
    """The edition a notebook belongs to, as its parameters cell states it (``edition = "es"``)."""
    if edition not in LANGUAGES:
        raise ValueError(f"edition must be one of {', '.join(LANGUAGES)}; got {edition!r}")
    return edition


#: The edition line of every parameters cell: the only code that differs between editions.
EDITION_LINE = re.compile(r'^edition = "(\w+)"', re.M)


def refuse_unknown_parameters(history: list, known) -> None:
    """Raise ValueError if papermill injected a name the model does not know.

    ``history`` is IPython's ``In`` (the sources of the cells run so far); papermill's
    injected cell starts with the comment ``# Parameters``. Without this check a
    misspelt ``-p bandwith 1e9`` would be ignored with only a log warning. ``known`` is any
    collection of the valid names.
    """
    injected = set()
    for source in history:
        if source.lstrip().startswith("# Parameters"):
            for node in ast.parse(source).body:
                if isinstance(node, ast.Assign):
                    injected.update(t.id for t in node.targets if isinstance(t, ast.Name))
    unknown = sorted(injected - set(known))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; "
                         f"valid names are: {', '.join(known)}")


class Shown(str):
    """A glued value's text, which Jupyter shows bare (its repr is the text itself, unquoted)."""

    def __repr__(self) -> str:
        return str(self)


class Glued:
    """The values a page glued, by key, as their text: ``{eval}`g.key``` in the prose.

    In JupyterLab (jupyterlab-myst) the kernel evaluates ``g.key`` and the reader sees the
    number; on the site, where no kernel runs, book/_ext/glued.py reads the same role as MyST-NB's
    ``{glue:text}`key``` from the saved outputs."""

    #: What asking for a key that is not there says.
    missing = "nothing is glued as {key!r} on this page (yet): run the notebook's cells from the top"

    def __init__(self):
        self._texts = {}

    def __getattr__(self, key: str) -> Shown:
        try:
            return self.__dict__["_texts"][key]
        except KeyError:
            raise AttributeError(self.missing.format(key=key)) from None

    def __dir__(self):
        return sorted(self._texts)

    def keep(self, key: str, text: str) -> None:
        """Record what ``key`` shows (Page.glue calls this with the text it glues)."""
        self._texts[key] = Shown(text)


class Cited(Glued):
    """The works a page's prose cites, by bibliography key: ``{eval}`cite.key``` shows
    "[Flynn, 1972]" in JupyterLab, the label the site gives the same citation (the setup cell,
    written by tools/notebooks.py, passes the labels)."""

    missing = "this page cites no {key!r}"

    def __init__(self, **labels: str):
        super().__init__()
        for key, label in labels.items():
            self.keep(key, f"[{label}]")


class Page:
    """Formatting, glue and display for one notebook, in the language of its edition."""

    def __init__(self, results: dict, edition: str):
        self.results = results
        self.lang = check_edition(edition)
        self.glued = Glued()
        self.words = words_of(self.lang)

    def word(self, key: str) -> str:
        """An interface word in this page's language (words/<lang>.toml [words])."""
        return self.words["words"][key]

    def aside(self, label: str, text: str) -> str:
        """"label: text" in parentheses after what precedes it, as this page's language writes
        them: full-width brackets and colon in Chinese, a space and ASCII ones elsewhere."""
        return self.words["typography"]["aside"].format(label=label, text=text)

    def num(self, value: float, decimals: int) -> str:
        """A number in this page's notation."""
        return number(value, decimals, self.lang)

    def pct(self, fraction: float, decimals: int) -> str:
        """A fraction as a percentage in this page's notation (a narrow space before % in es)."""
        return self.words["typography"]["percent"].format(self.num(100 * fraction, decimals))

    def cell(self, value: float, decimals: int) -> str:
        """A number in a table's column: always ``decimals`` places, so that every cell of the
        column shows the same digits, as the source's programs print them (10.790, not 10.79)."""
        return number(value, decimals, self.lang, trailing_zeros=True)

    def cell_pct(self, fraction: float, decimals: int) -> str:
        """A fraction as a percentage in a table's column, always ``decimals`` places (58.0 %)."""
        return self.words["typography"]["percent"].format(self.cell(100 * fraction, decimals))

    def claim_value(self, row: dict, value: float, extra_decimals: int = 0) -> str:
        """A claim's stated or computed value as the source writes it (percent if it does)."""
        if row["percent"]:
            return self.pct(value, max(0, row["decimals"] - 2) + extra_decimals)
        return self.num(value, row["decimals"] + extra_decimals)

    def unit(self, key: str) -> str:
        """A unit word (words/<lang>.toml [units]) in this page's language, e.g. bytes → 字节."""
        return self.words["units"][key]

    def ledger(self, claims: list, statuses: tuple = STATUSES, targets: bool = False) -> None:
        """Show source claims grouped by status, in the order of ``statuses`` (wrong first):
        one boxed list per status, titled with its symbol, word and count, so a wrong claim
        stands apart by shape and words as well as colour. Inside each box, one folded group
        per article (in ARTICLE_PARTS order), titled with the article and its count: folded,
        the ledger reads as a table of its verdicts by status and article, a screen or two
        long (the PDF prints every group open). Each item gives the claim in this page's
        language, the source's own words, a link to the section, the stated and computed
        values, for a wrong number the relative error, and the entries of ``claims`` that
        judge the same sentence otherwise. With ``targets``, each item is the target its section's
        marker links to, ``flag-<id>`` (the errata page: a target is defined once per edition)."""
        blocks = []
        for status in statuses:
            rows = [c for c in claims if c["status"] == status]
            if not rows:
                continue
            groups = []
            for article, part in ARTICLE_PARTS.items():
                items = [self.ledger_item(c, claims, targets) for c in rows
                         if c["article"] == article]
                if items:
                    groups.append(f":::{{dropdown}} {self.words['parts'][part]} ({len(items)})\n"
                                  f":class-container: ledger-group\n\n" + "\n".join(items) + "\n:::")
            blocks.append(f"::::{{admonition}} {self.word(status)} ({len(rows)})\n"
                          f":class: {STATUS_CLASS[status]}\n\n" + "\n\n".join(groups) + "\n::::")
        show_markdown("\n\n".join(blocks))

    def claim_words(self, c: dict) -> dict:
        """A ledger row's words in this page's language (words/<lang>.toml [claims.<id>]), with
        their number slots filled: ``text`` (the source's own words where the edition gives no
        text of its own), ``quantity`` (the model's where it gives none) and ``reason`` (or
        None)."""
        own = self.words["claims"].get(c["id"], {})
        stated = self.claim_value(c, c["stated"]) if c["stated"] is not None else None
        return {"text": fill(own.get("text", c["source_text"]), self.lang, stated),
                "quantity": fill(own.get("quantity", c["quantity"] or ""), self.lang),
                "reason": fill(own["reason"], self.lang) if "reason" in own else None}

    def ledger_words(self, c: dict) -> dict:
        """``claim_words`` as the ledger's Markdown sets them: t* stays t* inside bold."""
        return {key: None if text is None else as_markdown_text(text)
                for key, text in self.claim_words(c).items()}

    def colon_and_space(self) -> str:
        """This page's colon before the text it introduces: a full-width colon (Chinese) carries
        its own space, an ASCII one takes a space after it."""
        colon = self.words["typography"]["colon"]
        return colon if unicodedata.east_asian_width(colon) == "F" else colon + " "

    def _ledger_label(self, c: dict) -> str:
        """How the ledger names a claim from another entry: a qualitative claim by the
        quantity that decides it, a number by its text."""
        words = self.ledger_words(c)
        return words["quantity"] if c["relation"] is not None else words["text"]

    def ledger_item(self, c: dict, claims: list, target: bool = False) -> str:
        """One claim of the ledger as a Markdown list item (see ``ledger``; its article is the
        title of the group that holds it). A qualitative claim shows the quantity that decides
        it: the bound the sentence implies, and its value. A claim whose sentence another entry
        of ``claims`` judges otherwise (``same_sentence``) names that entry and its status. With
        ``target``, the item is the target ``flag-<id>`` (a MyST target before its paragraph)."""
        words = self.ledger_words(c)
        if c["relation"] is not None:
            quantity = words["quantity"]
            stated = f"{quantity} {RELATION_SIGNS[c['relation']]} {self.claim_value(c, c['stated'])}"
            values = [f"{self.word('claim_needs')} **{stated}**",
                      f"{self.word('computed')} **{quantity} = "
                      f"{self.claim_value(c, c['computed'], 2)}**"]
        else:
            values = [f"{self.word('stated')} **{self.claim_value(c, c['stated'])}**"]
            if c["computed"] is not None:
                values.append(f"{self.word('computed')} **{self.claim_value(c, c['computed'], 2)}**")
            if c["status"] == "does not reproduce" and c["relative_error"] is not None:
                values.append(f"{self.word('error')} {self.pct(c['relative_error'], 1)}")
        opening = f"- ({FLAG_TARGET.format(id=c['id'])})=\n  " if target else "- "
        lines = [f"{opening}**{words['text']}** · {' · '.join(values)}"]
        if words["reason"] is not None and c["status"] != "reproduces":
            lines.append(f"  {words['reason']}")
        others = [o for o in claims if o["id"] in c["same_sentence"]]
        if others:
            colon = self.colon_and_space()
            lines.append(f"  {self.word('same_sentence')}{colon}" + " · ".join(
                f"*{self._ledger_label(o)}*{colon}{self.word(o['status'])}" for o in others))
        lines.append(f"  {{doc}}`/notebooks/{self.lang}/{c['section']}`")   # (its article: the group's)
        if self.lang != SOURCE_LANGUAGE:
            lines.append(f"  {self.word('source_words')}: <span lang=\"{SOURCE_LANGUAGE}\">"
                         f"{c['source_text']}</span>")
        return " \\\n".join(lines)

    def verdict_mark(self, row: dict) -> str:
        """What the page says after a qualitative claim's sentence (a row of
        ``experiment.verdicts``): nothing when the reader's parameters give the verdict the
        articles' own give; otherwise, in this page's language, that with these values the claim
        holds, does not hold, or cannot be decided, with the quantity that decides it."""
        if row["holds"] == row["article_holds"]:
            return ""
        quantity = self.claim_words(row)["quantity"]
        if row["holds"] is None:
            mark = self.word("verdict_undecided").format(quantity=quantity)
        else:
            mark = self.word("verdict_holds" if row["holds"] else "verdict_fails").format(
                quantity=quantity, value=self.claim_value(row, row["computed"], 2),
                relation=RELATION_SIGNS[row["relation"]], bound=self.claim_value(row, row["stated"]))
        # The slot stands right after the sentence's full stop, with no space: an empty one
        # leaves none doubled, and a mark brings the space between two sentences it needs.
        return self.words["typography"]["between_sentences"] + mark

    def marker(self, c: dict) -> str:
        """What a section shows where the source states claim ``c``, which does not hold: the
        source's statement in a few words, in this page's language (words/<lang>.toml [words]
        source_marker): the claim's own ``marker`` words where its [claims.<id>] gives them
        (a sentence the bare bound would not name), else its number, or for a sentence the
        bound it needs ("< 30 %")."""
        stated = self.claim_value(c, c["stated"])
        own = self.words["claims"].get(c["id"], {})
        if "marker" in own:
            stated = fill(own["marker"], self.lang, stated)
        elif c["relation"] is not None:
            stated = f"{RELATION_SIGNS[c['relation']]} {stated}"
        return self.word("source_marker").format(stated=stated)

    def mark_errata(self, claims: list, section: str) -> None:
        """Glue ``flag_<id>`` (``marker``) for each of ``marked_errata(claims, section)``: the
        prose writes it as a link, ``[{eval}`g.flag_<id>`](#flag-<id>)``, to its entry on the
        errata page."""
        for c in marked_errata(claims, section):
            self.glue(f"flag_{c['id']}", self.marker(c))

    def mark_verdicts(self, rows: list) -> None:
        """Glue ``verdict_<id>`` for each row of ``experiment.verdicts(section, results)``: the
        slot the prose places after the claim's sentence (``verdict_mark``)."""
        for row in rows:
            self.glue(f"verdict_{row['id']}", self.verdict_mark(row))

    def case_label(self, case: dict) -> str:
        """A case of article 1 by name: a word for the base and break-even cases; for the
        others, the value the model changes, read from the case (e.g. "C = 1 ms")."""
        if case["name"] in CASE_LABELS:
            key, symbol, scale, unit = CASE_LABELS[case["name"]]
            return f"{symbol} = {self.num(case[key] / scale, 6)} {unit}"
        return self.word(case["name"])

    def date(self, iso: str) -> str:
        """An ISO date in this page's language (see ``date``)."""
        return date(iso, self.lang)

    def vec(self, values: list) -> str:
        """An integer vector in this page's notation."""
        return vector(values, self.lang)

    def glue(self, key: str, value, decimals: int | None = None, *,
             scientific_notation: bool = False, hundredths: bool = False) -> None:
        """Glue ``value`` for ``{eval}`g.key``` in the prose: a number rounded to ``decimals``
        (by default the key's entry in ``DECIMALS``, else 0) and to SIGNIFICANT_FIGURES unless
        a parameter (PARAMETER_KEYS) or a source's "stated" value;
        as m × 10ⁿ if asked; times 100 if ``hundredths``, for a fraction the prose shows in per
        cent, an integer vector (list), text, or ``None`` for a quantity that does not exist for
        these parameters (shown as the word for "none")."""
        if decimals is None:
            decimals = DECIMALS.get(key, 0)
        if hundredths and value is not None:
            value = 100 * value
        if isinstance(value, float) and not (key in PARAMETER_KEYS or "stated" in key):
            decimals = prose_decimals(value, decimals)
        if scientific_notation:
            text = scientific(value, decimals, self.lang)
        elif value is None:
            text = self.word("none")
        elif isinstance(value, list):
            text = self.vec(value)
        elif isinstance(value, str):
            text = value
        else:
            text = self.num(value, decimals)
        self.glued.keep(key, text)
        self.save_glued(key, text)

    def save_glued(self, key: str, text: str) -> None:
        """Save ``text`` in the notebook's outputs as the glue ``key`` (what the site shows)."""
        bundle, metadata = glue_output(key, text)   # MyST-NB strips the quotes of the saved repr
        display(bundle, raw=True, metadata=metadata)

    def table(self, header: list, body: list) -> None:
        """Show a Markdown table (header words are translated keys or literal text)."""
        head = [self.words["words"].get(h, h) for h in header]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in body]
        show_markdown("\n".join(lines))

    def parameters(self, article: str = "split", decimals: int = 6) -> None:
        """One line with the article's parameters in effect, so a rerun shows its values
        (rounded to ``decimals`` places: the articles' values are short, measured ones are not)."""
        colon = self.words["typography"]["colon"]   # Chinese takes the full-width colon
        show_markdown(f"**{self.word('parameters')}{colon}** "
                      + self.parameter_values(article, decimals))

    def parameter_values(self, article: str = "split", decimals: int = 6) -> str:
        """The parameter line after its label: "S = 0.8 ms · C = 12 ms · …"."""
        p = self.results["parameters"]
        items = []
        for name, (symbol, scale, unit) in PARAMETER_LINE[article].items():
            unit = self.words["units"].get(unit, unit)
            items.append(f"{symbol} = {self.num(p[name] / scale, decimals)}" + (f" {unit}" if unit else ""))
        return " · ".join(items)

    def figure(self, draw, data: dict | None = None) -> None:
        """Show a figure of figures.py drawn for this page's results (or for ``data``, e.g.
        a measurement's ``figure_data``) in its notation.

        The SVG text is displayed as it is (IPython's SVG class would re-serialise it), so at
        the default parameters it is byte for byte the file regenerate.py writes to data/."""
        svg_text = draw(self.results if data is None else data,
                        self.words["typography"]["decimal_mark"], lang=self.lang)
        display({"image/svg+xml": svg_text}, raw=True)
