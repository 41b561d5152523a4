"""The book's figures: each a function of ``experiment.run()``'s results, drawn as deterministic
SVG text (no date, fixed ids) in the book's style, with the decimal mark of the page's language.

``FIGURES`` names the file each one is in data/ (``regenerate.py`` writes them); a notebook
shows one with ``page.figure(figures.figure_versus_c)``. The measurement's figure is drawn from
its record, in ``measure/figure.py``.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import pathlib
import re
import warnings

from model.split import one_device_ms, split_ms
from model.tensor_parallel import RING_EXAMPLE_DEVICES
from model.units import BYTES_PER_GB
from words import LANGUAGES
from words import edition as words_of

# Okabe–Ito colour-blind-safe palette.
COLOURS = {"one": "#0072B2", "two": "#D55E00", "bound": "#009E73", "grey": "#666666"}
STYLE = {
    "svg.hashsalt": "tp-book",      # fixed ids inside the SVG
    "svg.fonttype": "path",         # glyphs as paths: no font needed to view
    "font.family": "DejaVu Sans",
    "font.size": 12,                # with FIGSIZE: ≥ 11 CSS px on a 390 px phone
    "legend.fontsize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
}

#: Figure size in inches: one panel, or two panels stacked (so that a phone shows them as
#: large as a single one). 4.8 in is 460.8 CSS px: a 390 px phone's column (358 px) shows it
#: at 0.78 of its size, so the 11 pt legends come out at 11.4 px, and a desktop at full size.
FIGSIZE = {1: (4.8, 3.2), 2: (4.8, 5.6)}

#: Decimal marks the figures are drawn with: the editions' notations (zh and en use the point,
#: es and it the comma). data/ holds one file per mark where the mark changes the figure.
DECIMAL_MARKS = {".": "", ",": ".decimal-comma"}
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def _localise(fig, decimal_mark: str) -> None:
    """Write the figure's numbers with ``decimal_mark``: tick labels (through a formatter that
    swaps the mark) and any other text (annotations, legends) where a point sits between digits."""
    if decimal_mark == ".":
        return
    from matplotlib.text import Text
    from matplotlib.ticker import LogFormatter, ScalarFormatter
    _relabel_ticks(fig, (ScalarFormatter, LogFormatter, _Relabelled),
                   lambda label: _DECIMAL_POINT.sub(decimal_mark, label))
    for text in fig.findobj(Text):
        text.set_text(_DECIMAL_POINT.sub(decimal_mark, text.get_text()))


class _Relabelled:
    """Marker base of the tick formatters ``_relabelled`` makes."""


def _relabelled(inner, rewrite):
    """A matplotlib tick formatter that labels the ticks ``inner`` labels, each label passed
    through ``rewrite`` (a function of the label's text)."""
    from matplotlib.ticker import Formatter

    class Relabelled(Formatter, _Relabelled):
        def __call__(self, x, pos=None):
            return rewrite(inner(x, pos))

        def set_locs(self, locs):
            inner.set_locs(locs)

        def set_axis(self, axis):
            super().set_axis(axis)
            inner.set_axis(axis)

        def format_ticks(self, values):
            return [rewrite(s) for s in inner.format_ticks(values)]

        def get_offset(self):
            return rewrite(inner.get_offset())

    return Relabelled()


def _relabel_ticks(fig, kinds: tuple, rewrite) -> None:
    """Pass the labels of every tick formatter of ``fig`` that is one of ``kinds`` (major and
    minor, both axes of every panel and inset) through ``rewrite`` (``_relabelled``)."""
    for ax in [axes for panel in fig.axes for axes in (panel, *panel.child_axes)]:
        for axis in (ax.xaxis, ax.yaxis):
            for get, put in ((axis.get_major_formatter, axis.set_major_formatter),
                             (axis.get_minor_formatter, axis.set_minor_formatter)):
                if isinstance(get(), kinds):
                    put(_relabelled(get(), rewrite))


#: Superscript digits and minus, for writing powers as text: 10⁻¹, 2×10³.
_SUPERSCRIPT = str.maketrans("0123456789-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻")
_MATHTEXT_POWER = re.compile(r"\^\{([^}]*)\}")


def _as_text(label: str) -> str:
    """A log-axis tick label as matplotlib writes it in mathtext ("$\\mathdefault{10^{-1}}$",
    "$\\mathdefault{2\\times10^{3}}$"), written as plain text ("10⁻¹", "2×10³"): the same
    label, without mathtext's parser (the slowest part of drawing a log axis)."""
    if not (label.startswith("$") and label.endswith("$")):
        return label
    body = label.strip("$").removeprefix("\\mathdefault{").removesuffix("}")
    body = body.replace("\\times", "×").replace("\\cdot", "·")
    return _MATHTEXT_POWER.sub(lambda power: power.group(1).translate(_SUPERSCRIPT), body)


def _lean_log_axes(fig) -> None:
    """Leave out the minor ticks of every log axis that labels three or more powers in view:
    unlabelled marks between the powers (eight a decade, about a quarter of the drawing's time)
    whose scale the labelled powers and their grid lines already show over two decades or more
    (matplotlib labels minor ticks only on an axis spanning under a decade, which keeps them, as
    does any axis spanning less than two)."""
    from matplotlib.ticker import NullLocator
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() != "log":
                continue
            low, high = sorted(axis.get_view_interval())
            slack = (high - low) * 1e-9
            powers = [x for x in axis.get_major_locator()() if low - slack <= x <= high + slack]
            if sum(1 for label in axis.get_major_formatter().format_ticks(powers) if label) >= 3:
                axis.set_minor_locator(NullLocator())


def _log_ticks_as_text(fig) -> None:
    """Write every log axis's tick labels as plain text (``_as_text``)."""
    from matplotlib.ticker import LogFormatter
    _relabel_ticks(fig, (LogFormatter,), _as_text)


#: The Chinese font of the worded figures: Debian's fonts-wqy-microhei, which
#: tools/system-packages.sh installs for the PDFs too. Registered by its file, so that the figure
#: does not depend on what matplotlib's font cache found when it was built; where it is absent,
#: a Chinese word is a missing glyph, which ``drawn`` turns into an error.
CJK_FONT = pathlib.Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
WORDED_FONTS = ["DejaVu Sans", "WenQuanYi Micro Hei"]


@functools.cache
def _matplotlib():
    """matplotlib, with its Figure and SVG canvas imported (not pyplot: the book's figures are
    made and drawn without its global state, its interactive backends or its raster renderer),
    and CJK_FONT registered where it exists."""
    import matplotlib
    import matplotlib.backends.backend_svg
    import matplotlib.figure
    import matplotlib.font_manager
    if CJK_FONT.is_file():
        matplotlib.font_manager.fontManager.addfont(str(CJK_FONT))
    return matplotlib


def new_figure(panels: int = 1, figsize=None):
    """A Figure of ``panels`` axes stacked (one axes, or a list of them), on an SVG canvas (which
    also measures its text for the layout), outside pyplot: nothing to close, kept by no one."""
    matplotlib = _matplotlib()
    fig = matplotlib.figure.Figure(figsize=figsize or FIGSIZE[panels])
    matplotlib.backends.backend_svg.FigureCanvasSVG(fig)
    return fig, fig.subplots(panels, 1)


def figure(draw=None, *, panels: int = 1, worded: bool = False):
    """Make ``draw(results, fig, ax)`` return the figure as deterministic SVG text.

    The drawing runs in the book's style (see ``drawn``); ``ax`` is a list when ``panels``
    > 1. The returned function takes the results, a decimal mark ("." or ",") and the
    edition's language. A ``worded`` figure says something in words (a legend): it is drawn
    as ``draw(results, fig, ax, say)``, ``say(key)`` giving the edition's words
    (words/<lang>.toml [figure_words]), in the edition's own notation, one file per edition.
    """
    if draw is None:
        return functools.partial(figure, panels=panels, worded=worded)

    @functools.wraps(draw)
    def svg(results: dict, decimal_mark: str = ".", lang: str = "en") -> str:
        if worded:
            return editions(svg, results, (lang,))[lang]
        return variants(svg, results, (decimal_mark,))[decimal_mark]
    svg.draw, svg.panels, svg.worded = draw, panels, worded
    return svg


def _svg_text(fig) -> str:
    """A drawn figure as deterministic SVG text (no date, no creator, ids that do not depend on
    the machine: ``_stable_ids``), as MyST-NB writes it."""
    return _stable_ids(_saved_svg(fig))


def _saved_svg(fig) -> str:
    """A drawn figure as matplotlib saves it as SVG, without a date or a creator."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return buffer.getvalue().rstrip("\n")


#: The ids matplotlib gives clip paths, markers and hatches: a letter and ten hex digits.
_MATPLOTLIB_ID = re.compile(r"\b[pmh][0-9a-f]{10}\b")


def _stable_ids(svg: str) -> str:
    """``svg`` with matplotlib's clip-path, marker and hatch ids renamed in order of first use.
    matplotlib names each by a hash of its coordinates at full precision, whose last bits differ
    from one CPU to another (the same figure, every printed coordinate equal, got other ids on
    another machine). The new ids start with a hash of the figure with its ids blanked, so the
    figures of one page still name theirs apart."""
    defined = list(dict.fromkeys(re.findall(r'id="([pmh][0-9a-f]{10})"', svg)))
    stem = hashlib.sha256(_MATPLOTLIB_ID.sub("", svg).encode()).hexdigest()[:8]
    names = {old: f"{old[0]}{stem}-{number}" for number, old in enumerate(defined, 1)}
    return _MATPLOTLIB_ID.sub(lambda found: names.get(found.group(0), found.group(0)), svg)


def editions(figure_function, data: dict, languages=tuple(LANGUAGES)) -> dict:
    """A worded figure as SVG text in each of ``languages``, by language: its words and its
    decimal mark the edition's own."""
    texts = {}
    for lang in languages:
        mark = words_of(lang)["typography"]["decimal_mark"]
        with drawn(figure_function, data, mark, lang) as fig:
            texts[lang] = _svg_text(fig)
    return texts


def variants(figure_function, data: dict, decimal_marks=tuple(DECIMAL_MARKS)) -> dict:
    """One figure (a function of ``FIGURES``) as SVG text in each of ``decimal_marks``, by mark,
    each drawn afresh in its own notation."""
    texts = {}
    for mark in decimal_marks:
        with drawn(figure_function, data, mark) as fig:
            texts[mark] = _svg_text(fig)
    return texts


@contextlib.contextmanager
def drawn(figure_function, results: dict, decimal_mark: str = ".", lang: str = "en"):
    """The matplotlib Figure of one of the book's figures (a function of ``FIGURES``), drawn
    for ``results`` in the book's style and notation, for the block to read or save.

    A glyph missing from the font is an error rather than a warning, so a figure never ships
    with empty boxes.
    """
    if decimal_mark not in DECIMAL_MARKS:
        raise ValueError(f"decimal_mark must be one of {', '.join(map(repr, DECIMAL_MARKS))}; "
                         f"got {decimal_mark!r}")
    with warnings.catch_warnings(), _matplotlib().rc_context(STYLE), \
            contextlib.ExitStack() as stack:
        warnings.filterwarnings("error", message=r"Glyph .* missing from font")
        worded = getattr(figure_function, "worded", False)
        if worded:
            # the edition's words in matplotlib's own DejaVu Sans, and the Chinese ones in the
            # font the PDFs use (CJK_FONT), glyph by glyph where DejaVu Sans has none
            stack.enter_context(_matplotlib().rc_context({"font.family": WORDED_FONTS}))
        fig, ax = new_figure(figure_function.panels)
        if worded:
            said = words_of(lang)["figure_words"]
            figure_function.draw(results, fig, ax, lambda key: said[key])
        else:
            figure_function.draw(results, fig, ax)
        _lean_log_axes(fig)
        _log_ticks_as_text(fig)
        _localise(fig, decimal_mark)
        fig.tight_layout()
        # laid out once: with any layout engine, even "none" (a placeholder engine),
        # savefig draws the figure a second time before it draws it into the file
        fig.set_layout_engine(None)
        yield fig


@figure
def figure_versus_c(results: dict, fig, ax) -> None:
    """T1 and T2 against the divisible time C, with the break-even point."""
    sweep = results["sweeps"]["versus_c"]
    ax.plot(sweep["c_ms"], sweep["one_ms"], color=COLOURS["one"])
    ax.plot(sweep["c_ms"], sweep["two_ms"], color=COLOURS["two"])
    ax.annotate("T₁ = S + C", (sweep["c_ms"][-1], sweep["one_ms"][-1]),
                color=COLOURS["one"], ha="right", va="bottom")
    # below the rising line, starting past its middle: the line climbs away from the words
    middle = len(sweep["c_ms"]) * 11 // 20
    ax.annotate("T₂ = S + C/(2η) + H", (sweep["c_ms"][middle], sweep["two_ms"][middle]),
                color=COLOURS["two"], ha="left", va="top", xytext=(8, -8),
                textcoords="offset points")
    c_star = results["break_even"]["c_ms"]
    if c_star is not None:
        y = one_device_ms(results["parameters"]["s_ms"], c_star)
        ax.plot([c_star], [y], "o", color=COLOURS["grey"])
        if 0 < c_star < sweep["c_ms"][-1] / 6:     # a point in the corner: named in an inset
            crossing_inset(ax, results, c_star)
        else:
            ax.annotate("C*", (c_star, y), xytext=(6, -12), textcoords="offset points",
                        color=COLOURS["grey"])
    ax.set_xlabel("C (ms)")
    ax.set_ylabel("T (ms)")
    ax.set_xlim(0, sweep["c_ms"][-1])
    ax.set_ylim(0, None)


def crossing_inset(ax, results: dict, c_star_ms: float) -> None:
    """An inset of ``ax`` (T against C, in ms) from C = 0 to 3·C*, where the two lines cross: at
    the article's values C* is a twentieth of the axis, a point in its corner. The lines are
    drawn from the ledger's formulas (model/split.py), so the inset needs no sweep of its own."""
    p = results["parameters"]
    c = [0.0, 3 * c_star_ms]
    one = [one_device_ms(p["s_ms"], x) for x in c]
    two = [split_ms({**p, "c_ms": x}) for x in c]
    inset = ax.inset_axes([0.1, 0.5, 0.36, 0.42])
    inset.plot(c, one, color=COLOURS["one"])
    inset.plot(c, two, color=COLOURS["two"])
    y = one_device_ms(p["s_ms"], c_star_ms)
    inset.plot([c_star_ms], [y], "o", color=COLOURS["grey"])
    inset.axvline(c_star_ms, color=COLOURS["grey"], linewidth=0.8, linestyle=":")
    inset.set_xticks([0, c_star_ms], ["0", "C*"])
    inset.set_xlim(c)
    inset.tick_params(labelsize=11)   # the smallest text a phone still reads (STYLE)
    ax.indicate_inset_zoom(inset, edgecolor=COLOURS["grey"])


@figure
def figure_versus_b(results: dict, fig, ax) -> None:
    """Speedup T1/T2 against the effective bandwidth, with the infinite-bandwidth limit."""
    sweep = results["sweeps"]["versus_b"]
    gb = [b / BYTES_PER_GB for b in sweep["b_bytes_per_s"]]
    ax.plot(gb, sweep["speedup"], color=COLOURS["two"])
    ax.axhline(sweep["speedup_infinite_b"], color=COLOURS["bound"], linestyle="--")
    ax.annotate("B → ∞", (gb[0], sweep["speedup_infinite_b"]), color=COLOURS["bound"],
                va="bottom", xytext=(2, 2), textcoords="offset points")
    ax.axhline(1.0, color=COLOURS["grey"], linewidth=0.8)
    ax.annotate("T₁/T₂ = 1", (gb[-1], 1.0), color=COLOURS["grey"], ha="right",
                va="bottom", xytext=(0, 2), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("B (GB/s)")
    ax.set_ylabel("T₁/T₂")
    ax.set_ylim(0, None)


@figure
def figure_ledger(results: dict, fig, ax) -> None:
    """The base case as stacked bars: T1 = S + C against T2 = S + C/(2η) + H, and the overlap bound."""
    p, led = results["parameters"], results["ledger"]
    fig.set_size_inches(FIGSIZE[1][0], 2.2)
    ax.grid(False)
    bars = (("T₁", ((p["s_ms"], "S"), (p["c_ms"], "C"))),
            ("T₂", ((p["s_ms"], "S"), (led["parallel_compute_ms"], "C/(2η)"),
                    (led["comm_ms"], "H"))))
    shades = {"S": COLOURS["grey"], "C": COLOURS["one"], "C/(2η)": COLOURS["one"],
              "H": COLOURS["two"]}
    for y, (label, parts) in enumerate(reversed(bars)):
        left = 0.0
        for width, part in parts:
            ax.barh(y, width, left=left, color=shades[part], edgecolor="white")
            left += width
        ax.annotate(parts[-1][1], (left, y), xytext=(4, 0), textcoords="offset points",
                    va="center")
    ax.axvline(results["overlap"]["bound_ms"], color=COLOURS["bound"], linestyle="--")
    ax.annotate("S + max[C/(2η), H]", (results["overlap"]["bound_ms"], 1.45),
                color=COLOURS["bound"], ha="right", xytext=(-3, 0), textcoords="offset points")
    ax.set_yticks([0, 1], [bars[1][0], bars[0][0]])
    ax.set_ylim(-0.5, 1.7)
    ax.set_xlabel("ms")


@figure
def figure_min_eta(results: dict, fig, ax) -> None:
    """The efficiency η that splitting needs, C/[2(C − H)], against C."""
    sweep = results["sweeps"]["min_eta_versus_c"]
    ax.plot(sweep["c_ms"], sweep["min_eta"], color=COLOURS["two"])
    ax.axhline(1.0, color=COLOURS["grey"], linewidth=0.8)
    ax.axhline(0.5, color=COLOURS["grey"], linewidth=0.8, linestyle=":")
    ax.annotate("η = 1", (sweep["c_ms"][-1], 1.0), ha="right", va="bottom",
                color=COLOURS["grey"])
    ax.annotate("η = 0.5", (sweep["c_ms"][-1], 0.5), ha="right", va="bottom",
                color=COLOURS["grey"])
    ax.set_ylim(0, 2)
    ax.set_xlim(0, sweep["c_ms"][-1])
    ax.set_xlabel("C (ms)")
    ax.set_ylabel("η > C / [2(C − H)]")


# Article 2 ------------------------------------------------------------------

@figure(panels=2)
def figure_tp_layer_time(results: dict, fig, ax) -> None:
    """The visual demo: per-layer compute and communication time for each TP degree, in ms
    (upper panel) and as shares of the layer's time (lower panel)."""
    demo = results["tensor_parallel"]["demo"]
    labels = [str(row["t"]) for row in demo]
    calc = [row["calc_ms"] for row in demo]
    comm = [row["comm_ms"] for row in demo]
    top, shares = ax
    top.bar(labels, calc, color=COLOURS["one"])
    top.bar(labels, comm, bottom=calc, color=COLOURS["two"])
    top.annotate("72·b·s·h²/(t·P)", (0, calc[0] / 2), color="white", ha="center", va="center",
                 rotation=90)
    top.annotate("4·b·s·h·d/B", (len(labels) - 1, calc[-1] + comm[-1]), xytext=(0, 4),
                 textcoords="offset points", ha="center", color=COLOURS["two"])
    top.set_ylabel("ms")
    # the communication's share of each layer's time: in ms it is a thin cap on every bar, as a
    # share it grows from a sliver to the larger part
    shares.bar(labels, [b / (a + b) for a, b in zip(calc, comm)], color=COLOURS["two"])
    shares.axhline(0.5, color=COLOURS["grey"], linewidth=0.8)
    shares.set_ylim(0, 1)
    shares.set_ylabel("R / (1 + R)")
    for a in ax:
        a.set_xlabel("t")


@figure(panels=2, worded=True)
def figure_tp_efficiency(results: dict, fig, ax, say) -> None:
    """E(t) and the communication share against t: the article's model and ring all-reduce,
    its lines named in the edition's words."""
    rows = results["tensor_parallel"]["sweeps"]["versus_t"]
    t = [row["t"] for row in rows]
    for key, colour, label in (("efficiency", COLOURS["two"], say("tp_source_model")),
                               ("ring_efficiency", COLOURS["one"], say("tp_ring"))):
        ax[0].plot(t, [row[key] for row in rows], color=colour, label=label)
    ax[0].plot(t, [row["standard_efficiency"] for row in rows], color=COLOURS["grey"],
               linestyle=":", label=say("tp_speedup_over_t"))
    ax[0].axhline(0.5, color=COLOURS["grey"], linewidth=0.8)
    t_star = results["tensor_parallel"]["critical"]["t_star"]
    if t[0] <= t_star <= t[-1]:   # the critical degree, where the article's E(t) falls to one half
        ax[0].plot([t_star, t_star], [0, 0.5], color=COLOURS["two"], linewidth=0.8, linestyle="--")
        ax[0].annotate("t*", (t_star, 0), xytext=(4, 4), textcoords="offset points",
                       color=COLOURS["two"])
    ax[0].set_ylabel("E(t)")
    ax[0].set_ylim(0, 1.05)
    ax[0].legend(frameon=False)
    for key, colour in (("comm_share", COLOURS["two"]), ("ring_comm_share", COLOURS["one"])):
        ax[1].plot(t, [row[key] for row in rows], color=colour)
    ax[1].set_ylabel("R / (1 + R)")
    ax[1].set_ylim(0, 1.05)
    for a in ax:
        a.set_xlabel("t")
        a.set_xlim(1, t[-1])


# Article 3 ------------------------------------------------------------------

#: Okabe–Ito, with black as the fifth colour: its orange (#E69F00) stands 2.2:1 against white,
#: under the 3:1 a line needs (tests/test_data.py).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000")


@figure
def figure_amdahl(results: dict, fig, ax) -> None:
    """Amdahl's speedup against N for the table's serial fractions, with their limits 1/f. f is
    written as the fraction the formula takes (0.05, not 5 %): the editions write a percentage
    each in their own way (5 % in Spanish), and the figure is the same in all but its mark."""
    sweep = results["parallel_theory"]["sweeps"]
    for colour, (serial, speedups) in zip(PALETTE, sweep["amdahl"].items()):
        s = float(serial)
        ax.plot(sweep["devices"], speedups, color=colour, label=f"f = {s:g}")
        ax.axhline(1 / s, color=colour, linestyle="--", linewidth=0.8)
    # a legend in the empty upper left: the limits 1/f of 50 % and 90 % lie too close together
    # (and to the axis) for a label beside each
    ax.legend(loc="upper left", frameon=False)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N")
    ax.set_ylabel("1 / (f + (1 − f)/N)")
    ax.set_ylim(0, 21)


@figure
def figure_gustafson(results: dict, fig, ax) -> None:
    """Amdahl (fixed problem) against Gustafson (scaled problem) at the article's f = 0.1 (as a
    fraction, like fig_amdahl)."""
    sweep = results["parallel_theory"]["sweeps"]
    n = sweep["gustafson_devices"]
    ax.plot(n, n, color=COLOURS["grey"], linestyle=":")
    ax.plot(n, sweep["gustafson"], color=COLOURS["bound"])
    ax.plot(n, sweep["amdahl_same_s"], color=COLOURS["one"])
    middle = len(n) * 11 // 20        # below the rising line, past its middle (as in versus_c)
    ax.annotate("N + f(1 − N)", (n[middle], sweep["gustafson"][middle]), color=COLOURS["bound"],
                ha="left", va="top", xytext=(8, -8), textcoords="offset points")
    ax.annotate("1 / (f + (1 − f)/N)", (n[-1], sweep["amdahl_same_s"][-1]), color=COLOURS["one"],
                ha="right", va="bottom", xytext=(0, 4), textcoords="offset points")
    ax.set_xlabel(f"N  (f = {results['parallel_theory']['facts']['gustafson_serial']:g})")
    ax.set_ylabel("T(1) / T(N)")
    ax.set_xlim(1, n[-1])
    ax.set_ylim(0, n[-1])


@figure(worded=True)
def figure_training_ledger(results: dict, fig, ax, say) -> None:
    """The 30-day scenario as stacked days: one device against N devices under Amdahl's law,
    with a legend naming each part in the edition's words."""
    ledger = results["parallel_theory"]["ledger_days"]
    n = results["parameters"]["th_devices"]
    fig.set_size_inches(FIGSIZE[1][0], 3.0)
    ax.grid(False)
    # each at least 3:1 against the page, the legend's swatches too (tests/test_data.py)
    colours = {"forward": COLOURS["one"], "backward": COLOURS["bound"], "optimizer": COLOURS["grey"],
               "communication": COLOURS["two"]}
    for y, key in ((1, "one_device_days"), (0, "n_devices_days")):
        left = 0.0
        for part, days in ledger.items():
            ax.barh(y, days[key], left=left, color=colours[part], edgecolor="white",
                    label=say(f"ledger_{part}") if y == 1 else None)
            left += days[key]
        ax.annotate(f"{left:.3g}", (left, y), xytext=(4, 0), textcoords="offset points",
                    va="center")
    ax.set_yticks([0, 1], [f"N = {n}", "N = 1"])
    ax.set_xlabel("d")
    ax.set_ylim(-0.5, 2.6)                  # room above the bars for the legend
    ax.legend(loc="upper center", ncols=2, frameon=False)


def drawn_arrow(ax, start, end, colour=COLOURS["grey"], width=1.5, head=14) -> None:
    """An arrow of a diagram from ``start`` to ``end`` (data coordinates), ``width`` points
    wide with a filled head of size ``head``, touching both ends."""
    ax.annotate("", end, start, arrowprops=dict(arrowstyle="-|>", color=colour, lw=width,
                                                shrinkA=0, shrinkB=0, mutation_scale=head))


@figure
def figure_split_blocks(results: dict, fig, ax) -> None:
    """The section's network y = ReLU(xU)W split over two devices d₁ and d₂, drawn as blocks.
    Each device's column (d₁ left, d₂ right) shows x, U, the hidden values and W at their whole
    shapes, filled in the device's colour where the device holds them and left as a dashed
    outline where the other one does: U split by columns and W by rows, so each device applies
    ReLU to whole hidden units with no exchange. Each device's product is a partial output, y₁ or
    y₂, of the full output's size; the two columns meet only in the sum y = y₁ + y₂ (green), the
    all-reduce, which hands y back to both. Every number is an entry of the model's integer
    example (results["matrix"]), without units; lengths are in inches."""
    from matplotlib.patches import Rectangle
    m = results["matrix"]
    units = len(m["hidden"])
    cw, ch, gap = 0.31, 0.29, 0.22         # a matrix entry's width and height; room for "·"
    width = 4.45                           # the drawing: the figure's width less its margins
    lane = (units + 2) * cw + gap          # the widest row of a device: h · B
    lefts = (0.0, width - lane)
    divide = (lane + lefts[1]) / 2
    colours = (COLOURS["one"], COLOURS["two"])
    talk = COLOURS["bound"]
    ax.set_axis_off()

    def matrix(left, top, values, colour, rows=None, columns=None):
        """A matrix with its top left corner at (left, top): the entries in the rows and columns
        the device holds (all where None), filled and numbered; the rest, one dashed outline."""
        others = []
        for i, row in enumerate(values):
            for j, value in enumerate(row):
                x, y = left + j * cw, top - (i + 1) * ch
                ours = (rows is None or i in rows) and (columns is None or j in columns)
                if not ours:
                    others.append((x, y))
                    continue
                ax.add_patch(Rectangle((x, y), cw, ch, facecolor=colour, edgecolor="white",
                                       linewidth=1.5))
                ax.text(x + cw / 2, y + ch / 2, str(value).replace("-", "−"), color="white",
                        fontsize=11, ha="center", va="center")
        if others:
            xs, ys = zip(*others)
            ax.add_patch(Rectangle((min(xs), min(ys)), max(xs) + cw - min(xs),
                                   max(ys) + ch - min(ys), facecolor="none",
                                   edgecolor=COLOURS["grey"], linewidth=1, linestyle="--"))

    arrow = functools.partial(drawn_arrow, ax)

    top_a = -0.55                                  # x · U
    top_b = top_a - 2 * ch - 0.55                  # h · W
    top_y = top_b - units * ch - 0.45              # y₁, y₂
    top_sum = top_y - ch - 0.85                    # y = y₁ + y₂ on both
    ends = []
    for d, (left, colour, device) in enumerate(zip(lefts, colours, m["devices"])):
        sub, mine = "₁₂"[d], device["columns"]
        ax.text(left + lane / 2, 0, f"d{sub}", color=colour, fontsize=14, fontweight="bold",
                ha="center", va="top")
        # x · U, U split by columns
        dot_a = left + 2 * cw + gap / 2
        matrix(left, top_a - ch / 2, m["x"], colour)
        ax.text(left + cw, top_a - ch / 2 + 0.05, "x", color=colour, ha="center", va="bottom")
        ax.text(dot_a, top_a - ch, "·", fontsize=22, fontweight="bold", ha="center", va="center")
        matrix(dot_a + gap / 2, top_a, m["u"], colour, columns=mine)
        ax.text(dot_a + gap / 2 + (mine[0] + mine[-1] + 1) / 2 * cw, top_a + 0.05, f"U{sub}",
                color=colour, ha="center", va="bottom")
        # ReLU of whole hidden units, on the device: nothing to exchange
        top_h = top_b - (units - 1) / 2 * ch
        arrow((dot_a, top_a - 2 * ch - 0.08), (left + units * cw / 2, top_h + 0.07))
        ax.text(dot_a + 0.12, (top_a - 2 * ch + top_h) / 2, "ReLU", ha="left", va="center")
        hidden = dict(zip(mine, device["hidden"]))
        matrix(left, top_h, [[hidden.get(j) for j in range(units)]], colour, columns=mine)
        # h · W, W split by rows
        dot_b = left + units * cw + gap / 2
        ax.text(dot_b, top_b - units * ch / 2, "·", fontsize=22, fontweight="bold", ha="center",
                va="center")
        matrix(dot_b + gap / 2, top_b, m["w"], colour, rows=mine)
        above = mine[0] == 0
        ax.text(dot_b + gap / 2 + cw, top_b + 0.05 if above else top_b - units * ch - 0.05,
                f"W{sub}", color=colour, ha="center", va="bottom" if above else "top")
        # the partial output, as large as the whole output
        arrow((dot_b, top_b - units * ch - 0.06), (dot_b, top_y + 0.07))
        matrix(dot_b - cw, top_y, [device["contribution"]], colour)
        ax.text(dot_b - cw - 0.06, top_y - ch / 2, f"y{sub}", color=colour, ha="right",
                va="center")
        ends.append((dot_b, colour))

    # the all-reduce: y = y₁ + y₂, on both devices
    middle = (top_y - ch + top_sum) / 2
    ax.plot([divide, divide], [0, top_sum - ch], color=COLOURS["grey"], linewidth=0.8,
            linestyle=":")
    ax.text(divide, middle, "y₁ + y₂", color=talk, ha="center", va="center",
            bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor=talk, linewidth=1.5))
    for side, (x, colour) in zip((-1, 1), ends):
        arrow((x, top_y - ch - 0.05), (divide + side * 0.42, middle + 0.07), talk)
        arrow((divide + side * 0.42, middle - 0.07), (x, top_sum + 0.05), talk)
        matrix(x - cw, top_sum, [m["sum_of_contributions"]], colour)
        ax.text(x - cw - 0.06, top_sum - ch / 2, "y", color=colour, ha="right", va="center")
    bottom = top_sum - ch - 0.02
    ax.set_xlim(0, width)
    ax.set_ylim(bottom, 0.02)
    ax.set_aspect("equal")
    fig.set_size_inches(FIGSIZE[1][0], 0.02 - bottom + 0.35)


@figure
def figure_ring_allreduce(results: dict, fig, ax) -> None:
    """A ring all-reduce over t = RING_EXAMPLE_DEVICES devices d₀ … d₃, drawn step by step, one row a
    step (row 0 the start). Each device's message is cut into t chunks, one cell each, in the
    colours of the devices whose values the chunk holds, or grey with Σ once it holds the sum of
    all t. Device i sends to d(i + 1 mod t) (the header; the arrow that leaves d₃ at the right
    comes in to d₀ at the left): in steps 1 … t − 1 one chunk each, which the receiver adds to
    its own, until each device holds one summed chunk; in steps t … 2(t − 1) the summed chunks
    go round the ring and replace what they land on. Each device thus sends 2(t − 1) chunks of 1/t
    of the message, ``ring_factor(t)`` messages (the bottom line). Drawn in inches, at equal
    scale; nothing is read from ``results``."""
    from matplotlib.patches import FancyArrowPatch, Rectangle
    from model.units import ring_factor

    t = RING_EXAMPLE_DEVICES
    steps = 2 * (t - 1)
    # held[k][i][j]: the devices whose values chunk j of device i holds after step k
    held = [[[frozenset({i})] * t for i in range(t)]]
    sends = []              # sends[k - 1][i]: the chunk device i sends in step k
    for k in range(steps):
        before, after = held[-1], [list(chunks) for chunks in held[-1]]
        reducing = k < t - 1
        sent = [(i - k) % t if reducing else (i + 1 - (k - (t - 1))) % t for i in range(t)]
        for i, j in enumerate(sent):
            receiver = (i + 1) % t
            after[receiver][j] = before[receiver][j] | before[i][j] if reducing else before[i][j]
        held.append(after)
        sends.append(sent)

    cell, gap, row_gap, inset = 0.215, 0.2, 0.34, 0.015  # inches
    block = t * cell + gap                      # one device's chunks and the gap after them
    pitch = cell + row_gap
    left, right = -gap / 2, t * block - gap / 2  # where the ring is cut open: d₃ | d₀
    everyone = frozenset(range(t))

    def top(k):
        return -k * pitch

    def arrow(start, end, head=True):
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>" if head else "-",
                                     mutation_scale=9, color=COLOURS["grey"], linewidth=1.2,
                                     shrinkA=0, shrinkB=0))

    for k, state in enumerate(held):
        y = top(k) - cell + inset
        ax.text(left - 0.12, top(k) - cell / 2, str(k), ha="right", va="center")
        for i, chunks in enumerate(state):
            for j, origins in enumerate(chunks):
                x = i * block + j * cell + inset
                if origins == everyone:
                    ax.add_patch(Rectangle((x, y), cell - 2 * inset, cell - 2 * inset,
                                           facecolor=COLOURS["grey"], edgecolor="none"))
                    ax.text(x + cell / 2 - inset, y + cell / 2 - inset, "Σ", ha="center",
                            va="center_baseline", fontsize=11, color="white")
                    continue
                width = (cell - 2 * inset) / len(origins)
                for n, origin in enumerate(sorted(origins)):
                    ax.add_patch(Rectangle((x + n * width, y), width, cell - 2 * inset,
                                           facecolor=PALETTE[origin], edgecolor="none"))

    # the header: the ring d₀ → d₁ → … → d₃ → d₀
    subscript = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    ghost = right + 0.2
    for i in range(t):
        middle = i * block + t * cell / 2
        ax.text(middle, 0.12, f"d{str(i).translate(subscript)}", ha="center", va="bottom",
                color=PALETTE[i])
        arrow((middle + 0.17, 0.22), (min(middle + block, ghost) - 0.17, 0.22))
    ax.text(ghost, 0.12, "d₀", ha="center", va="bottom", color=PALETTE[0])

    # the sends: from a chunk in the row before to the same chunk of the next device
    for k, sent in enumerate(sends, 1):
        y0, y1 = top(k - 1) - cell - 0.02, top(k) + 0.02
        for i, j in enumerate(sent):
            x0 = i * block + j * cell + cell / 2
            if i < t - 1:
                arrow((x0, y0), (x0 + block, y1))
            else:                               # out at the right, in at the left
                y_cut = y0 + (right - x0) / block * (y1 - y0)
                arrow((x0, y0), (right, y_cut), head=False)
                arrow((left, y_cut), (x0 + block - t * block, y1))

    # the two phases, t − 1 steps each
    for first in (1, t):
        y_top, y_bottom = top(first) + 0.04, top(first + t - 2) - cell - 0.04
        x = right + 0.1
        ax.plot([x, x + 0.07, x + 0.07, x], [y_top, y_top, y_bottom, y_bottom],
                color=COLOURS["grey"], linewidth=1.2)
        ax.text(x + 0.14, (y_top + y_bottom) / 2, "t − 1", rotation=-90, ha="left",
                va="center", rotation_mode="anchor")
    ax.text((left + right) / 2, top(steps) - cell - 0.2,
            f"t = {t}:   2(t − 1)/t = {steps}/{t} = {ring_factor(t):g}", ha="center", va="top")

    x_range, y_range = (left - 0.3, right + 0.36), (top(steps) - cell - 0.5, 0.4)
    ax.set_xlim(*x_range)
    ax.set_ylim(*y_range)
    ax.set_aspect("equal")
    ax.set_axis_off()
    # as tall as the drawing is at the book's figure width
    fig.set_size_inches(FIGSIZE[1][0], FIGSIZE[1][0] * (y_range[1] - y_range[0])
                        / (x_range[1] - x_range[0]))


@figure
def figure_megatron_layer(results: dict, fig, ax) -> None:
    """One Transformer layer split Megatron-style over t devices, drawn (no axes, no units): the
    forward pass left to right on the upper row, the backward pass right to left on the lower.

    Each row shows the layer's two blocks (the attention block, then the MLP block; the prose
    names them) as boxes, with one lane per device inside (0, 1, …, t−1, coloured by device): a
    column-split matrix (a tall strip), then a row-split one (a flat strip). Every device holds
    the whole input of a block (the fans); the lanes' partial results meet at the all-reduces,
    ⊕ numbered 1 to 4 in the order they happen, each carrying one message of b·s·h·d bytes:
    after each block in the forward pass (X → Y → Z), before each block's input in the backward
    pass (∂Z → ∂Y → ∂X), Megatron-LM's conjugate operators g and f. No other arrow crosses
    between devices. The ⊕ are the model's collectives per layer
    (``results["tensor_parallel"]["collectives_per_layer"]``), which this layout needs to be 4.
    """
    collectives = results["tensor_parallel"]["collectives_per_layer"]
    if collectives != 4:
        raise ValueError(f"the drawing has 4 all-reduces a layer; the model counts {collectives}")
    from matplotlib.patches import FancyBboxPatch, Rectangle
    width, height = FIGSIZE[1][0], 3.5
    fig.set_size_inches(width, height)
    ax.set_axis_off()
    ax.set_xlim(0, width)                         # data units are inches
    ax.set_ylim(0, height)
    ax.set_aspect("equal", adjustable="box")
    grey, comm = COLOURS["grey"], COLOURS["two"]
    lanes = ((0.45, "0", PALETTE[0]), (0.15, "1", PALETTE[2]), (-0.45, "t−1", PALETTE[3]))
    dots = -0.15                                  # the lanes left out between 1 and t−1
    blocks, block_width = (1.05, 2.85), 0.95      # left edges
    x_b, x_c, x_e, x_f = 0.95, 2.25, 2.75, 4.05   # where the lanes fan out or meet, per row
    column = (0.28, 0.1, 0.24)                    # x in the block, width, height
    row = (0.64, 0.34, 0.1)

    arrow = functools.partial(drawn_arrow, ax, width=1.2, head=10)

    def line(xs, ys, colour=grey, lw=1.2, **style):
        ax.plot(xs, ys, color=colour, lw=lw, solid_capstyle="butt", **style)

    def reduce(x, y, number, up):
        """An all-reduce: ⊕ at (x, y), its number beside it, b·s·h·d above (up) or below."""
        side = 1 if up else -1
        ax.text(x, y, "⊕", color=comm, fontsize=20, ha="center", va="center_baseline",
                bbox=dict(boxstyle="circle,pad=0", fc="white", ec="none"), zorder=4)
        ax.text(x + 0.17 * side, y + 0.2 * side, str(number), color=comm, fontweight="bold",
                ha="center", va="center")
        line([x, x], [y + 0.16 * side, y + 0.68 * side], comm, lw=1, linestyle=(0, (2, 2)))
        ax.text(x, y + 0.78 * side, "b·s·h·d", color=comm, fontsize=11, ha="center",
                va="bottom" if up else "top")

    def layer_row(y, forward):
        for left in blocks:
            ax.add_patch(FancyBboxPatch((left, y - 0.62), block_width, 1.24, fc="none", ec=grey,
                                        lw=1.2, boxstyle="round,pad=0,rounding_size=0.08"))
            for dy, _, colour in lanes:
                for x, w, h in (column, row):
                    ax.add_patch(Rectangle((left + x - w / 2, y + dy - h / 2), w, h,
                                           fc=colour, ec="none"))
                ends = [(left + column[0] + column[1] / 2, y + dy),
                        (left + row[0] - row[1] / 2, y + dy)]
                arrow(*(ends if forward else ends[::-1]))
            for x, _, _ in (column, row):
                ax.text(left + x, y + dots, "⋮", color=grey, ha="center", va="center")
        for dy, label, colour in lanes:
            ax.text(0.14, y + dy, label, color=colour, ha="center", va="center")
        ax.text(0.14, y + dots, "⋮", color=grey, ha="center", va="center")
        # into a block from a fan (every device holds its whole input), out of it into an
        # all-reduce (each device holds a partial sum), the other way round going backward
        for left, fan_x, meet_x in ((blocks[0], x_b, x_c), (blocks[1], x_e, x_f)):
            start, end = left + column[0] - column[1] / 2, left + row[0] + row[1] / 2
            if not forward:
                fan_x, meet_x, start, end = meet_x, fan_x, end, start
            for dy, _, colour in lanes:
                arrow((fan_x, y + dy), (start, y + dy))
                line([end, meet_x], [y + dy, y], colour, lw=1.6)
            line([fan_x, fan_x], [y + lanes[0][0], y + lanes[-1][0]], lw=1.6)

    top, bottom = 2.48, 0.98
    layer_row(top, True)
    layer_row(bottom, False)
    # forward: X → fan → block → ⊕1 → Y → fan → block → ⊕2 → Z
    ax.text(0.45, top, "X", ha="center", va="center")
    arrow((0.56, top), (x_b, top))
    line([x_c, x_e], [top, top])
    ax.text((x_c + x_e) / 2, top - 0.14, "Y", ha="center", va="center")
    arrow((x_f, top), (4.46, top))
    ax.text(4.6, top, "Z", ha="center", va="center")
    reduce(x_c, top, 1, True)
    reduce(x_f, top, 2, True)
    # backward: ∂Z → fan → block → ⊕3 → ∂Y → fan → block → ⊕4 → ∂X
    ax.text(4.6, bottom, "∂Z", ha="center", va="center")
    arrow((4.47, bottom), (x_f, bottom))
    line([x_e, x_c], [bottom, bottom])
    ax.text((x_c + x_e) / 2, bottom + 0.14, "∂Y", ha="center", va="center")
    arrow((x_b, bottom), (0.58, bottom))
    ax.text(0.45, bottom, "∂X", ha="center", va="center")
    reduce(x_e, bottom, 3, False)
    reduce(x_b, bottom, 4, False)


def _overlap_schedule(calc: float, comm: float, layers: int) -> tuple[list, list]:
    """Start times of each layer's computation and communication on two streams: a layer's
    collective starts once its computation and the previous collective are done, and a layer
    computes once the previous layer has and the collective two layers back is done (one layer
    computed ahead), so that a layer takes max(calc, comm) once the streams are running."""
    computes, sends = [], []
    for layer in range(layers):
        start = computes[-1] + calc if computes else 0.0
        if layer >= 2:
            start = max(start, sends[layer - 2] + comm)
        computes.append(start)
        sends.append(max(start + calc, sends[-1] + comm) if sends else start + calc)
    return computes, sends


@figure(panels=2)
def figure_overlap_timeline(results: dict, fig, ax) -> None:
    """Overlap as a timeline, in ms, for three consecutive layers at the two degrees the section
    compares (the demo's fourth and last, t = 8 and t = 32): one panel each, with the layers run
    one after the other on top (C/t then H, the sequential sum, its end dashed) and, below, the
    two streams of the overlapped schedule (``_overlap_schedule``): compute (C/t per layer, the
    demo's calc_ms) and communication (H, its comm_ms). Each layer's collective runs while the
    next layer computes; the arrow spans one layer in the steady state, max(C/t, H). Each panel
    has its own time scale."""
    demo = results["tensor_parallel"]["demo"]
    layers = 3
    rows = {"sequential": 2.6, "compute": 1.1, "comm": 0.0}
    height = 0.72
    fig.set_size_inches(FIGSIZE[1][0], 5.4)
    for a, row in zip(ax, (demo[3], demo[-1])):
        calc, comm = row["calc_ms"], row["comm_ms"]
        total = layers * (calc + comm)
        a.grid(False)
        for side in ("left", "right", "top"):
            a.spines[side].set_visible(False)
        a.tick_params(axis="y", length=0)

        def bar(y, start, width, colour, layer):
            a.barh(y, width, left=start, height=height, color=colour, edgecolor="white",
                   linewidth=1)
            a.text(start + width / 2, y, str(layer), color="white", ha="center", va="center",
                   fontsize=11)

        for layer in range(layers):
            start = layer * (calc + comm)
            bar(rows["sequential"], start, calc, COLOURS["one"], layer + 1)
            bar(rows["sequential"], start + calc, comm, COLOURS["two"], layer + 1)
        computes, sends = _overlap_schedule(calc, comm, layers)
        for layer, (start, send) in enumerate(zip(computes, sends), 1):
            bar(rows["compute"], start, calc, COLOURS["one"], layer)
            bar(rows["comm"], send, comm, COLOURS["two"], layer)
        # one layer of the steady state: from the second layer's start to the third's
        left, right = computes[1], computes[2]
        y = rows["comm"] - height / 2 - 0.35
        for x in (left, right):
            a.plot([x, x], [y, rows["compute"] + height / 2], color=COLOURS["grey"],
                   linewidth=0.8, linestyle=":")
        a.annotate("", (left, y), (right, y),
                   arrowprops={"arrowstyle": "<->", "color": COLOURS["grey"],
                               "shrinkA": 0, "shrinkB": 0, "linewidth": 1.2})
        a.text((left + right) / 2, y - 0.12, "max(C/t, H)", ha="center", va="top",
               color=COLOURS["grey"])
        a.axvline(total, color=COLOURS["grey"], linewidth=1, linestyle="--")
        a.set_yticks([rows["sequential"], rows["compute"], rows["comm"]],
                     ["C/t + H", "C/t", "H"])
        a.set_ylim(y - 0.75, rows["sequential"] + height / 2 + 0.1)
        a.set_xlim(0, total * 1.04)
        a.set_title(f"t = {row['t']}", loc="left", fontsize=12)
        a.set_xlabel("ms")


#: The pipeline the GPipe schedule is drawn for: K stages and M micro-batches (structural
#: constants of the drawing, not results of the model).
PIPELINE_STAGES, PIPELINE_MICRO_BATCHES = 4, 6


@figure
def figure_pipeline_bubble(results: dict, fig, ax) -> None:
    """A GPipe schedule (Huang et al. 2019) on a grid of equal time slots, time running to the
    right: one row per stage k = 1…K (one device each); the forward pass F of micro-batch m
    on stage k in slot k + m − 1, then, once every forward pass is done, the backward passes B,
    the last micro-batch first, stage K first. Every pass takes one slot (a backward pass as
    long as a forward one: the bubble's share is the same for any ratio of the two). The
    hatched slots are the bubble, where a stage sits idle: K − 1 of the M + K − 1 slots of each
    phase on every row, the share (K − 1)/(M + K − 1) written below. ``results`` is not read:
    K and M are the drawing's own (``PIPELINE_STAGES``, ``PIPELINE_MICRO_BATCHES``)."""
    from matplotlib.patches import Rectangle
    k_stages, m_micro = PIPELINE_STAGES, PIPELINE_MICRO_BATCHES
    phase = m_micro + k_stages - 1      # slots of each phase, forward and backward
    gap = 0.4                           # between the two phases, for the line that splits them
    fig.set_size_inches(FIGSIZE[1][0], 3.1)
    ax.set_axis_off()
    colours = {"F": COLOURS["one"], "B": COLOURS["two"]}
    busy = {}
    for k in range(k_stages):
        for m in range(m_micro):
            busy[k, k + m] = ("F", m)
            busy[k, phase + (k_stages - 1 - k) + (m_micro - 1 - m)] = ("B", m)

    def left(slot):                     # where a slot's cell starts
        return slot + (gap if slot >= phase else 0)

    for k in range(k_stages):
        y = -k                          # stage 1 at the top
        ax.text(-0.4, y, str(k + 1), ha="right", va="center")
        for slot in range(2 * phase):
            x, cell = left(slot), busy.get((k, slot))
            if cell is None:            # the bubble: the stage is idle
                ax.add_patch(Rectangle((x + 0.05, y - 0.42), 0.9, 0.84, facecolor="white",
                                       edgecolor=COLOURS["grey"], hatch="///", linewidth=0.8))
                continue
            letter, m = cell
            ax.add_patch(Rectangle((x + 0.04, y - 0.42), 0.92, 0.84,
                                   facecolor=colours[letter], edgecolor="none"))
            ax.text(x + 0.5, y, str(m + 1), ha="center", va="center", color="white")
    end, middle = left(2 * phase - 1) + 1, phase + gap / 2
    top, bottom = 0.5, -(k_stages - 1) - 0.5
    # time runs to the right, an arrow with no letter (t is the tensor-parallel degree
    # elsewhere in the book; the prose says what the arrow is); the phases named above the
    # grid and split by a dashed line
    ax.annotate("", (end, top + 1.25), (0, top + 1.25),
                arrowprops={"arrowstyle": "-|>", "color": COLOURS["grey"], "linewidth": 1,
                            "shrinkA": 0, "shrinkB": 0})
    for letter, centre in (("F", phase / 2), ("B", middle + gap / 2 + phase / 2)):
        ax.text(centre, top + 0.3, letter, ha="center", va="bottom", color=colours[letter],
                fontweight="bold")
    ax.plot([middle, middle], [top + 0.9, bottom - 0.05], color=COLOURS["grey"], linewidth=1,
            linestyle="--")
    # under the last stage: its idle and its busy slots, counted
    spans = ((0, k_stages - 1, "K − 1"), (k_stages - 1, phase, "M"),
             (phase, phase + m_micro, "M"), (phase + m_micro, 2 * phase, "K − 1"))
    under = bottom - 0.25
    for first, past, label in spans:
        x0, x1 = left(first) + 0.08, left(past - 1) + 0.92
        ax.plot([x0, x0, x1, x1], [under + 0.15, under, under, under + 0.15],
                color=COLOURS["grey"], linewidth=1)
        ax.text((x0 + x1) / 2, under - 0.1, label, ha="center", va="top")
    ax.text(middle, bottom - 1.45, f"K = {k_stages},  M = {m_micro}:   "
            f"(K − 1) / (M + K − 1) = {k_stages - 1}/{phase}", ha="center", va="top")
    ax.set_xlim(-1.1, end + 0.1)
    ax.set_ylim(bottom - 2.1, top + 1.5)


FIGURES = {
    "fig_versus_c.svg": figure_versus_c,
    "fig_versus_b.svg": figure_versus_b,
    "fig_ledger.svg": figure_ledger,
    "fig_min_eta.svg": figure_min_eta,
    "fig_tp_layer_time.svg": figure_tp_layer_time,
    "fig_tp_efficiency.svg": figure_tp_efficiency,
    "fig_amdahl.svg": figure_amdahl,
    "fig_gustafson.svg": figure_gustafson,
    "fig_training_ledger.svg": figure_training_ledger,
    "fig_split_blocks.svg": figure_split_blocks,
    "fig_ring_allreduce.svg": figure_ring_allreduce,
    "fig_megatron_layer.svg": figure_megatron_layer,
    "fig_overlap_timeline.svg": figure_overlap_timeline,
    "fig_pipeline_bubble.svg": figure_pipeline_bubble,
}
