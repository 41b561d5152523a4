"""The measurements' figures, drawn from a record's ``analysis.figure_data`` (article 1) or
``tp_analysis.figure_data`` (article 2) in the book's style."""
from __future__ import annotations

import math

from figures import COLOURS, figure

#: Message sizes labelled with the byte's symbol and SI prefixes (1 kB = 1000 B), the same in
#: every edition: the axis said "V (bytes)", an English word in the zh, es and it figures (as
#: "all-reduce" was in zh, which writes 全归约).
BYTE_TICKS = {10 ** 3: "1 kB", 10 ** 4: "10 kB", 10 ** 5: "100 kB", 10 ** 6: "1 MB",
              10 ** 7: "10 MB", 10 ** 8: "100 MB", 10 ** 9: "1 GB"}


@figure(panels=2)
def figure_measured(data: dict, fig, axes) -> None:
    """The measurement (``measure.analysis.figure_data``): all-reduce time against message
    size with the fitted ℓ + V/B (top); measured speedup against C with the model's (bottom)."""
    top, bottom = axes
    ar = data["allreduce"]
    spread = [[m - lo for m, lo in zip(ar["median_ms"], ar["p10_ms"])],
              [hi - m for m, hi in zip(ar["median_ms"], ar["p90_ms"])]]
    top.errorbar(ar["sizes_bytes"], ar["median_ms"], yerr=spread, fmt="o", color=COLOURS["two"],
                 capsize=3)
    top.plot(ar["sizes_bytes"], ar["fit_ms"], color=COLOURS["one"])
    top.annotate("ℓ + V/B", (ar["sizes_bytes"][-1], ar["fit_ms"][-1]), color=COLOURS["one"],
                 ha="right", va="bottom", xytext=(-8, 4), textcoords="offset points")
    top.axvline(ar["step_v_bytes"], color=COLOURS["grey"], linestyle=":")
    top.annotate("V", (ar["step_v_bytes"], max(ar["p90_ms"])), color=COLOURS["grey"],
                 xytext=(4, 0), textcoords="offset points", va="top")
    top.set_xscale("log")
    top.set_yscale("log")
    _byte_ticks(top.xaxis, ar["sizes_bytes"])
    top.set_xlabel("V")
    top.set_ylabel("ms")   # (the editions name the all-reduce in their own words)
    sp = data["speedup"]
    bottom.plot(sp["grid_c_ms"], sp["model"], color=COLOURS["one"])
    bottom.annotate(f"η = {sp['eta']:.2f}", (sp["grid_c_ms"][-1], sp["model"][-1]),
                    color=COLOURS["one"], ha="right", va="bottom", xytext=(0, 4),
                    textcoords="offset points")
    bottom.plot(sp["c_ms"], sp["model_own_eta"], "o", markerfacecolor="none",
                color=COLOURS["one"])
    bottom.plot(sp["c_ms"], sp["measured"], "o", color=COLOURS["two"])
    # the fair baseline, one rank with every thread: the same speedups, against a harder T₁
    bottom.plot(sp["c_ms"], sp["measured_wide"], "D", color=COLOURS["two"], markersize=4,
                markerfacecolor="none")
    bottom.axhline(1, color=COLOURS["grey"], linewidth=0.8)
    for key, style, label in (("predicted", "--", "C*"), ("measured", ":", "T₁ = T₂")):
        c_ms = sp["break_even_c_ms"][key]
        if c_ms is not None:
            bottom.axvline(c_ms, color=COLOURS["grey"], linestyle=style)
            bottom.annotate(label, (c_ms, 1), xytext=(4, 6 if key == "predicted" else -14),
                            textcoords="offset points", color=COLOURS["grey"])
    bottom.set_xscale("log")
    bottom.set_xlabel("C (ms)")
    bottom.set_ylabel("T₁/T₂")


def _byte_ticks(axis, sizes_bytes: list) -> None:
    """Ticks at the powers of ten of BYTE_TICKS within the measured sizes (in bytes), labelled
    with their symbols; no labels on the minor ticks."""
    shown = [size for size in BYTE_TICKS if min(sizes_bytes) <= size <= max(sizes_bytes)]
    _fixed_ticks(axis, shown, [BYTE_TICKS[size] for size in shown])


def _fixed_ticks(axis, values: list, labels: list) -> None:
    """Major ticks at ``values`` labelled ``labels``, and no labels on the minor ticks."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter

    axis.set_major_locator(FixedLocator(values))
    axis.set_major_formatter(FixedFormatter(labels))
    axis.set_minor_formatter(NullFormatter())


@figure(panels=2)
def figure_tp_measured(data: dict, fig, axes) -> None:
    """Article 2 against the tensor-parallel record (``measure.tp_analysis.figure_data``):
    R = T_comm/T_calc measured, and the article's t·P·d/(18·h·B) with the measured P and B
    (top); the two parts of R, measured (points) and as the article computes them (lines)
    (bottom), all against the hidden size h."""
    top, bottom = axes
    hidden = data["hidden"]
    top.plot(hidden, data["predicted_ratio"], color=COLOURS["one"])
    top.annotate("t·P·d/(18·h·B)", (hidden[1], data["predicted_ratio"][1]), color=COLOURS["one"],
                 ha="left", va="top", xytext=(0, -10), textcoords="offset points")
    top.plot(hidden, data["ratio"], "o", color=COLOURS["two"])
    _width_ticks(top.xaxis, hidden)
    _log_y(top, data["ratio"] + data["predicted_ratio"])
    top.set_xlabel("h")
    top.set_ylabel("R")
    for key, colour in (("calc", COLOURS["one"]), ("comm", COLOURS["two"])):
        bottom.plot(hidden, data[f"predicted_{key}_ms"], color=colour)
        bottom.plot(hidden, data[f"{key}_ms"], "o", color=colour)
        bottom.annotate(f"T_{key}", (hidden[-1], data[f"{key}_ms"][-1]), color=colour,
                        ha="right", va="bottom", xytext=(-8, 4), textcoords="offset points")
    _width_ticks(bottom.xaxis, hidden)
    _log_y(bottom, [v for prefix in ("", "predicted_") for key in ("calc", "comm")
                    for v in data[f"{prefix}{key}_ms"]])
    bottom.set_xlabel("h")
    bottom.set_ylabel("ms")


def _log_y(ax, values: list) -> None:
    """A logarithmic y axis from the power of ten below ``values`` to the one above, labelled
    at its powers of ten only (matplotlib labels minor ticks too when the data span less than
    two decades, a crowd of 2×10⁻², 3×10⁻², …)."""
    from matplotlib.ticker import NullFormatter

    ax.set_yscale("log")
    ax.set_ylim(10 ** math.floor(math.log10(min(values))), 10 ** math.ceil(math.log10(max(values))))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _width_ticks(axis, hidden: list) -> None:
    """A logarithmic axis of widths, ticked and labelled at the widths measured."""
    axis.axes.set_xscale("log", base=2)
    _fixed_ticks(axis, hidden, [str(h) for h in hidden])


#: The measurements' figures by their file in data/ (regenerate.py draws each from its committed
#: record). With ``figures.FIGURES`` they are every figure of the book: the lists the tests and
#: the words check (tests/test_words.py) read, so that a new figure is named in one place only.
MEASURED_FIGURES = {"fig_measured.svg": figure_measured, "fig_tp_measured.svg": figure_tp_measured}
