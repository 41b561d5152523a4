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
import re
import warnings

from model.split import one_device_ms
from model.units import BYTES_PER_GB

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
    minor, both axes of every panel) through ``rewrite`` (``_relabelled``)."""
    for ax in fig.axes:
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


def _matplotlib():
    """matplotlib, with its Figure and SVG canvas imported (not pyplot: the book's figures are
    made and drawn without its global state, its interactive backends or its raster renderer)."""
    import matplotlib
    import matplotlib.backends.backend_svg
    import matplotlib.figure
    return matplotlib


def new_figure(panels: int = 1, figsize=None):
    """A Figure of ``panels`` axes stacked (one axes, or a list of them), on an SVG canvas (which
    also measures its text for the layout), outside pyplot: nothing to close, kept by no one."""
    matplotlib = _matplotlib()
    fig = matplotlib.figure.Figure(figsize=figsize or FIGSIZE[panels])
    matplotlib.backends.backend_svg.FigureCanvasSVG(fig)
    return fig, fig.subplots(panels, 1)


def figure(draw=None, *, panels: int = 1):
    """Make ``draw(results, fig, ax)`` return the figure as deterministic SVG text.

    The drawing runs in the book's style (see ``drawn``); ``ax`` is a list when ``panels``
    > 1. The returned function takes the results and a decimal mark ("." or ",").
    """
    if draw is None:
        return functools.partial(figure, panels=panels)

    @functools.wraps(draw)
    def svg(results: dict, decimal_mark: str = ".") -> str:
        return variants(svg, results, (decimal_mark,))[decimal_mark]
    svg.draw, svg.panels = draw, panels
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


def variants(figure_function, data: dict, decimal_marks=tuple(DECIMAL_MARKS)) -> dict:
    """One figure (a function of ``FIGURES``) as SVG text in each of ``decimal_marks``, by mark,
    each drawn afresh in its own notation."""
    texts = {}
    for mark in decimal_marks:
        with drawn(figure_function, data, mark) as fig:
            texts[mark] = _svg_text(fig)
    return texts


@contextlib.contextmanager
def drawn(figure_function, results: dict, decimal_mark: str = "."):
    """The matplotlib Figure of one of the book's figures (a function of ``FIGURES``), drawn
    for ``results`` in the book's style and notation, for the block to read or save.

    A glyph missing from the font is an error rather than a warning, so a figure never ships
    with empty boxes.
    """
    if decimal_mark not in DECIMAL_MARKS:
        raise ValueError(f"decimal_mark must be one of {', '.join(map(repr, DECIMAL_MARKS))}; "
                         f"got {decimal_mark!r}")
    with warnings.catch_warnings(), _matplotlib().rc_context(STYLE):
        warnings.filterwarnings("error", message=r"Glyph .* missing from font")
        fig, ax = new_figure(figure_function.panels)
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
        ax.annotate("C*", (c_star, y), xytext=(6, -12), textcoords="offset points",
                    color=COLOURS["grey"])
    ax.set_xlabel("C (ms)")
    ax.set_ylabel("T (ms)")
    ax.set_xlim(0, sweep["c_ms"][-1])
    ax.set_ylim(0, None)


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

@figure
def figure_tp_layer_time(results: dict, fig, ax) -> None:
    """The visual demo: per-layer compute and communication time for each TP degree."""
    demo = results["tensor_parallel"]["demo"]
    labels = [str(row["t"]) for row in demo]
    calc = [row["calc_ms"] for row in demo]
    comm = [row["comm_ms"] for row in demo]
    ax.bar(labels, calc, color=COLOURS["one"])
    ax.bar(labels, comm, bottom=calc, color=COLOURS["two"])
    ax.annotate("72·b·s·h²/(t·P)", (0, calc[0] / 2), color="white", ha="center", va="center",
                rotation=90)
    ax.annotate("4·b·s·h·d/B", (len(labels) - 1, calc[-1] + comm[-1]), xytext=(0, 4),
                textcoords="offset points", ha="center", color=COLOURS["two"])
    ax.set_xlabel("t")
    ax.set_ylabel("ms")


@figure(panels=2)
def figure_tp_efficiency(results: dict, fig, ax) -> None:
    """E(t) and the communication share against t: the article's model and ring all-reduce."""
    rows = results["tensor_parallel"]["sweeps"]["versus_t"]
    t = [row["t"] for row in rows]
    for key, colour, label in (("efficiency", COLOURS["two"], "4·b·s·h·d/B"),
                               ("ring_efficiency", COLOURS["one"], "2(t−1)/t · 4·b·s·h·d/B")):
        ax[0].plot(t, [row[key] for row in rows], color=colour, label=label)
    ax[0].plot(t, [row["standard_efficiency"] for row in rows], color=COLOURS["grey"],
               linestyle=":", label="T(1)/(t·T(t))")
    ax[0].axhline(0.5, color=COLOURS["grey"], linewidth=0.8)
    ax[0].set_ylabel("E(t)")
    ax[0].set_ylim(0, 1.05)
    ax[0].legend(frameon=False)
    for key, colour in (("comm_share", COLOURS["two"]), ("ring_comm_share", COLOURS["one"])):
        ax[1].plot(t, [row[key] for row in rows], color=colour)
    ax[1].set_ylabel("T_comm / (T_calc + T_comm)")
    ax[1].set_ylim(0, 1.05)
    for a in ax:
        a.set_xlabel("t")
        a.set_xlim(1, t[-1])


# Article 3 ------------------------------------------------------------------

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00")


@figure
def figure_amdahl(results: dict, fig, ax) -> None:
    """Amdahl's speedup against N for the table's serial fractions, with their limits 1/S. S is
    written as the fraction the formula takes (0.05, not 5 %): the editions write a percentage
    each in their own way (5 % in Spanish), and the figure is the same in all but its mark."""
    sweep = results["parallel_theory"]["sweeps"]
    for colour, (serial, speedups) in zip(PALETTE, sweep["amdahl"].items()):
        s = float(serial)
        ax.plot(sweep["devices"], speedups, color=colour, label=f"S = {s:g}")
        ax.axhline(1 / s, color=colour, linestyle="--", linewidth=0.8)
    # a legend in the empty upper left: the limits 1/S of 50 % and 90 % lie too close together
    # (and to the axis) for a label beside each
    ax.legend(loc="upper left", frameon=False)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N")
    ax.set_ylabel("1 / (S + (1 − S)/N)")
    ax.set_ylim(0, 21)


@figure
def figure_gustafson(results: dict, fig, ax) -> None:
    """Amdahl (fixed problem) against Gustafson (scaled problem) at the article's S = 0.1 (as a
    fraction, like fig_amdahl)."""
    sweep = results["parallel_theory"]["sweeps"]
    n = sweep["gustafson_devices"]
    ax.plot(n, n, color=COLOURS["grey"], linestyle=":")
    ax.plot(n, sweep["gustafson"], color=COLOURS["bound"])
    ax.plot(n, sweep["amdahl_same_s"], color=COLOURS["one"])
    middle = len(n) * 11 // 20        # below the rising line, past its middle (as in versus_c)
    ax.annotate("N + S(1 − N)", (n[middle], sweep["gustafson"][middle]), color=COLOURS["bound"],
                ha="left", va="top", xytext=(8, -8), textcoords="offset points")
    ax.annotate("1 / (S + (1 − S)/N)", (n[-1], sweep["amdahl_same_s"][-1]), color=COLOURS["one"],
                ha="right", va="bottom", xytext=(0, 4), textcoords="offset points")
    ax.set_xlabel(f"N  (S = {results['parallel_theory']['facts']['gustafson_serial']:g})")
    ax.set_ylabel("T(1) / T(N)")
    ax.set_xlim(1, n[-1])
    ax.set_ylim(0, n[-1])


@figure
def figure_training_ledger(results: dict, fig, ax) -> None:
    """The 30-day scenario as stacked days: one device against N devices under Amdahl's law."""
    ledger = results["parallel_theory"]["ledger_days"]
    n = results["parameters"]["th_devices"]
    fig.set_size_inches(FIGSIZE[1][0], 2.3)
    ax.grid(False)
    colours = {"forward": COLOURS["one"], "backward": "#56B4E9", "optimizer": COLOURS["grey"],
               "communication": COLOURS["two"]}
    for y, key in ((1, "one_device_days"), (0, "n_devices_days")):
        left = 0.0
        for part, days in ledger.items():
            ax.barh(y, days[key], left=left, color=colours[part], edgecolor="white")
            left += days[key]
        ax.annotate(f"{left:.3g}", (left, y), xytext=(4, 0), textcoords="offset points",
                    va="center")
    ax.set_yticks([0, 1], [f"N = {n}", "N = 1"])
    ax.set_xlabel("d")


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
}
