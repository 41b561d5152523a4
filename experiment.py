"""When does splitting one operation over two devices pay off?

The model behind the book's first article, read top to bottom in the article's order:

1. parameters, with their units in their names and their allowed ranges;
2. the integer matrix example that shows where an all-reduce is forced;
3. the time ledger T1 = S + C and T2 = S + C/(2*eta) + Q*(ell + V/B);
4. the thresholds derived from it (break-even C, minimum bandwidth, minimum eta),
   the overlap bound and the six cases the article discusses;
5. the sweeps behind the figures;
6. ``run(**overrides)``, which assembles all of it as plain JSON-able data;
7. the ledger of the source article's stated numbers, checked against the model;
8. I/O only: strict JSON, deterministic SVG figures and the command line.

Assumptions (the article's): times in milliseconds unless a name says otherwise;
bandwidth in decimal bytes per second (1 GB/s = 10**9 bytes/s); Q identical,
serialised transfers; no overlap of communication with compute (except in the
overlap bound); no competing traffic and no request queue. Nothing here measures
hardware: every time is an assumed parameter of an arithmetic model.

Usage:  python experiment.py            regenerate data/ (JSON + SVG figures)
        python experiment.py --check    compare with data/, write nothing, exit 1 on drift
        python experiment.py --out DIR --set c_ms=1   write a variant elsewhere
"""
from __future__ import annotations

import argparse
import difflib
import functools
import io
import json
import math
import numbers
import os
import pathlib
import sys
import tempfile
import warnings

# ---------------------------------------------------------------------------
# 1. Parameters
# ---------------------------------------------------------------------------

#: The article's table of assumed parameters.
DEFAULTS = {
    "s_ms": 0.8,                 # S: time that cannot be split, ms
    "c_ms": 12.0,                # C: divisible time on one device, ms
    "eta": 0.8,                  # η: local efficiency of each half, dimensionless
    "q": 4,                      # Q: serialised communications per stage, count
    "ell_ms": 0.03,              # ℓ: fixed start-up cost of each communication, ms
    "v_bytes": 2_000_000,        # V: effective critical-path bytes of each communication
    "b_bytes_per_s": 1e10,       # B: effective bandwidth, bytes per second (10 GB/s decimal)
}

#: Allowed range of each parameter, as (check, human-readable range).
RANGES = {
    "s_ms": (lambda x: x >= 0, "S in ms, a finite real number >= 0"),
    "c_ms": (lambda x: x > 0, "C in ms, a finite real number > 0"),
    "eta": (lambda x: 0 < x <= 1, "eta, a finite real number in (0, 1]"),
    "q": (lambda x: x >= 1, "Q, an integer >= 1"),
    "ell_ms": (lambda x: x >= 0, "ell in ms, a finite real number >= 0"),
    "v_bytes": (lambda x: x >= 0, "V in bytes, a finite real number >= 0"),
    "b_bytes_per_s": (lambda x: x > 0, "B in bytes/s, a finite real number > 0"),
}

MS_PER_S = 1000.0
BYTES_PER_GB = 1e9  # decimal gigabyte, as in the article


def validate(overrides: dict) -> dict:
    """Return DEFAULTS updated with ``overrides``, or raise a clear error.

    Raises TypeError for a value of the wrong type (bool, str, None, ...) and
    ValueError for an unknown name or a value outside its range (NaN and
    infinity included). Every message names the parameter and its range.
    """
    unknown = sorted(set(overrides) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; "
                         f"valid names are: {', '.join(DEFAULTS)}")
    params = dict(DEFAULTS)
    for name, value in overrides.items():
        check, allowed = RANGES[name]
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be {allowed}; got {value!r} ({type(value).__name__})")
        if name == "q" and not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be {allowed}; got {value!r} ({type(value).__name__})")
        if not math.isfinite(value) or not check(value):
            raise ValueError(f"{name} must be {allowed}; got {value!r}")
        params[name] = int(value) if name == "q" else float(value)
    return params


# ---------------------------------------------------------------------------
# 2. The matrix example: a split by columns of A and rows of B
# ---------------------------------------------------------------------------

# y = ReLU(x A) B with integers, so that equality is exact.
X = [[1, 2]]                                   # 1 × 2
A = [[1, -1, 2, 0],
     [0, 1, -1, 2]]                            # 2 × 4
B = [[2, -1],
     [-1, 2],
     [3, -2],
     [-1, 2]]                                  # 4 × 2
DEVICE_COLUMNS = ([0, 1], [2, 3])              # columns of A (= rows of B) held by each device


def matmul(left: list, right: list) -> list:
    """Integer matrix product of two lists of rows."""
    return [[sum(a * b for a, b in zip(row, col)) for col in zip(*right)] for row in left]


def relu(matrix: list) -> list:
    """Element-wise max(0, value)."""
    return [[max(0, v) for v in row] for row in matrix]


def columns(matrix: list, keep: list) -> list:
    """The sub-matrix made of the listed columns."""
    return [[row[j] for j in keep] for row in matrix]


def rows(matrix: list, keep: list) -> list:
    """The sub-matrix made of the listed rows."""
    return [matrix[i] for i in keep]


def add(left: list, right: list) -> list:
    """Element-wise sum of two equal-shape matrices (the all-reduce's sum)."""
    return [[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(left, right)]


def matrix_example() -> dict:
    """The full network, the column/row split, and two ways a split goes wrong.

    The right split gives each device whole hidden units, so ReLU is applied to
    complete pre-activations and only the final contributions must be summed.
    The wrong split (rows of A, i.e. halves of x) leaves each hidden unit as a
    partial sum, and ReLU of the parts is not ReLU of the whole.
    """
    hidden = relu(matmul(X, A))
    full = matmul(hidden, B)
    devices = []
    for keep in DEVICE_COLUMNS:
        pre = matmul(X, columns(A, keep))
        part_hidden = relu(pre)
        devices.append({"columns": keep, "pre_activation": pre[0],
                        "hidden": part_hidden[0],
                        "contribution": matmul(part_hidden, rows(B, keep))[0]})
    summed = add([devices[0]["contribution"]], [devices[1]["contribution"]])
    # Wrong place: split the inner dimension of x A, apply ReLU to each partial sum.
    wrong_parts = [relu(matmul(columns(X, [i]), rows(A, [i]))) for i in range(len(A))]
    wrong_hidden = add(*wrong_parts)
    wrong_output = matmul(wrong_hidden, B)
    a, b = 2, -3
    return {
        "x": X, "a": A, "b": B,
        "shapes": {"x": [1, 2], "a": [2, 4], "b": [4, 2]},
        "hidden": hidden[0],
        "full": full[0],
        "devices": devices,
        "sum_of_contributions": summed[0],
        "split_matches": summed == full,
        "relu_counterexample": {"a": a, "b": b, "relu_of_sum": max(0, a + b),
                                "sum_of_relus": max(0, a) + max(0, b)},
        "wrong_split": {"hidden": wrong_hidden[0], "output": wrong_output[0],
                        "matches": wrong_output == full},
    }


# ---------------------------------------------------------------------------
# 3. The time ledger (all times in ms)
# ---------------------------------------------------------------------------

def transfer_ms(ell_ms: float, v_bytes: float, b_bytes_per_s: float) -> float:
    """One communication: start-up ℓ plus V/B, in ms."""
    return ell_ms + v_bytes / b_bytes_per_s * MS_PER_S


def comm_ms(q: int, ell_ms: float, v_bytes: float, b_bytes_per_s: float) -> float:
    """H = Q (ℓ + V/B): total communication time, in ms (identical, serialised transfers)."""
    return q * transfer_ms(ell_ms, v_bytes, b_bytes_per_s)


def parallel_compute_ms(c_ms: float, eta: float) -> float:
    """C/(2η): the divisible work on each of two devices at local efficiency η, in ms."""
    return c_ms / (2 * eta)


def one_device_ms(s_ms: float, c_ms: float) -> float:
    """T1 = S + C, in ms."""
    return s_ms + c_ms


def two_device_ms(p: dict) -> float:
    """T2 = S + C/(2η) + H, in ms, with no overlap of communication and compute."""
    return (p["s_ms"] + parallel_compute_ms(p["c_ms"], p["eta"])
            + comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"]))


def ledger(p: dict) -> dict:
    """Every line of the ledger for parameters ``p``."""
    one, two = one_device_ms(p["s_ms"], p["c_ms"]), two_device_ms(p)
    return {
        "transfer_ms": transfer_ms(p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"]),
        "wire_ms": p["v_bytes"] / p["b_bytes_per_s"] * MS_PER_S,
        "comm_ms": comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"]),
        "parallel_compute_ms": parallel_compute_ms(p["c_ms"], p["eta"]),
        "one_ms": one,
        "two_ms": two,
        "speedup": one / two,
        "efficiency": one / two / 2,
        "half_c_ms": p["c_ms"] / 2,
    }


# ---------------------------------------------------------------------------
# 4. Thresholds, the overlap bound and the six cases
# ---------------------------------------------------------------------------

def saving_factor(eta: float) -> float:
    """1 − 1/(2η): the share of C that splitting saves (≤ 0 when η ≤ 0.5)."""
    return 1 - 1 / (2 * eta)


def break_even(p: dict) -> dict:
    """C* = H / (1 − 1/(2η)): splitting pays off only for C > C*.

    Does not exist when η ≤ 0.5: splitting then saves no compute at all.
    """
    factor = saving_factor(p["eta"])
    h = comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"])
    if factor <= 0:
        return {"factor": factor, "comm_ms": h, "c_ms": None,
                "reason": "eta <= 0.5: the split saves no compute, so no C breaks even"}
    return {"factor": factor, "comm_ms": h, "c_ms": h / factor, "reason": None}


def min_bandwidth(p: dict) -> dict:
    """The bandwidth B must exceed: V/B < D with D = C(1 − 1/(2η))/Q − ℓ, in seconds.

    Where D ≤ 0 the start-up costs alone use up the saving and no finite
    bandwidth is enough; the result then holds ``None`` and the reason.
    """
    d_s = (p["c_ms"] * saving_factor(p["eta"]) / p["q"] - p["ell_ms"]) / MS_PER_S
    if d_s <= 0:
        return {"d_s": d_s, "b_bytes_per_s": None, "b_gb_per_s": None,
                "reason": "D <= 0: start-up costs use up the saving; no finite bandwidth suffices"}
    b = p["v_bytes"] / d_s
    return {"d_s": d_s, "b_bytes_per_s": b, "b_gb_per_s": b / BYTES_PER_GB, "reason": None}


def min_eta(c_ms: float, h_ms: float) -> dict:
    """The η that splitting needs, C/[2(C − H)], and whether η ≤ 1 can reach it.

    With C ≤ H no efficiency helps (the ledger cannot break even), so the
    threshold is ``None`` with the reason.
    """
    if c_ms <= h_ms:
        return {"c_ms": c_ms, "comm_ms": h_ms, "min_eta": None, "reachable": False,
                "reason": "C <= H: communication alone costs as much as all the compute"}
    threshold = c_ms / (2 * (c_ms - h_ms))
    return {"c_ms": c_ms, "comm_ms": h_ms, "min_eta": threshold,
            "reachable": threshold < 1, "reason": None}


def overlap_bound_ms(p: dict) -> float:
    """S + max[C/(2η), H]: the optimistic floor if compute and communication overlap fully."""
    return p["s_ms"] + max(parallel_compute_ms(p["c_ms"], p["eta"]),
                           comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"]))


def case(name: str, p: dict) -> dict:
    """One row of the article's case table."""
    one, two = one_device_ms(p["s_ms"], p["c_ms"]), two_device_ms(p)
    return {"name": name, "c_ms": p["c_ms"], "s_ms": p["s_ms"],
            "b_bytes_per_s": p["b_bytes_per_s"],
            "comm_ms": comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"]),
            "one_ms": one, "two_ms": two, "speedup": one / two}


#: The article's variations of the base case (the break-even case is added from the model).
CASE_CHANGES = (
    ("base", {}),
    ("break_even", None),
    ("small_c", {"c_ms": 1.0}),
    ("slow_link", {"b_bytes_per_s": 1e9}),
    ("fast_link", {"b_bytes_per_s": 5e10}),
    ("large_s", {"s_ms": 100.0}),
)


def cases(p: dict) -> tuple[list, list]:
    """The six cases, and the ones that cannot exist for these parameters (with why)."""
    rows_, omitted = [], []
    for name, change in CASE_CHANGES:
        if change is None:
            threshold = break_even(p)
            if threshold["c_ms"] is None:
                omitted.append({"name": name, "reason": threshold["reason"]})
                continue
            change = {"c_ms": threshold["c_ms"]}
        rows_.append(case(name, {**p, **change}))
    return rows_, omitted


# ---------------------------------------------------------------------------
# 5. Sweeps behind the figures (deterministic grids, no randomness)
# ---------------------------------------------------------------------------

def grid(start: float, stop: float, count: int) -> list:
    """``count`` evenly spaced values from start to stop inclusive."""
    step = (stop - start) / (count - 1)
    return [start + i * step for i in range(count)]


def log_grid(start: float, stop: float, count: int) -> list:
    """``count`` log-spaced values from start to stop inclusive."""
    return [10 ** v for v in grid(math.log10(start), math.log10(stop), count)]


def sweeps(p: dict) -> dict:
    """T1 and T2 against C; speedup against B; the η threshold against C."""
    h = comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"])
    c_grid = grid(0.25, 4 * p["c_ms"], 97)
    b_grid = log_grid(1e8, 1e12, 81)
    eta_c = [c for c in grid(0.25, 4 * p["c_ms"], 97) if c > h]
    return {
        "versus_c": {"c_ms": c_grid,
                     "one_ms": [one_device_ms(p["s_ms"], c) for c in c_grid],
                     "two_ms": [two_device_ms({**p, "c_ms": c}) for c in c_grid]},
        "versus_b": {"b_bytes_per_s": b_grid,
                     "speedup": [one_device_ms(p["s_ms"], p["c_ms"])
                                 / two_device_ms({**p, "b_bytes_per_s": b}) for b in b_grid],
                     "speedup_infinite_b": one_device_ms(p["s_ms"], p["c_ms"])
                     / (p["s_ms"] + parallel_compute_ms(p["c_ms"], p["eta"]) + p["q"] * p["ell_ms"])},
        "min_eta_versus_c": {"c_ms": eta_c,
                             "min_eta": [min_eta(c, h)["min_eta"] for c in eta_c]},
    }


# ---------------------------------------------------------------------------
# 6. run(): every result of the article as plain data
# ---------------------------------------------------------------------------

def run(**overrides) -> dict:
    """The article's results for the default parameters updated with ``overrides``.

    Names: s_ms, c_ms, eta, q, ell_ms, v_bytes, b_bytes_per_s (see DEFAULTS).
    Returns dicts, lists, numbers, booleans and ``None`` (where a threshold does
    not exist, next to a ``reason``); no NaN and no infinity.
    """
    p = validate(overrides)
    led = ledger(p)
    case_rows, omitted = cases(p)
    infinite = {**p, "v_bytes": 0.0}
    return {
        "parameters": p,
        "matrix": matrix_example(),
        "ledger": led,
        "cases": case_rows,
        "omitted_cases": omitted,
        "break_even": break_even(p),
        "bandwidth": min_bandwidth(p),
        "efficiency_threshold": [min_eta(c, led["comm_ms"]) for c in (p["c_ms"], 1.0)],
        "overlap": {"bound_ms": overlap_bound_ms(p), "two_ms": led["two_ms"]},
        "infinite_bandwidth": {"comm_ms": comm_ms(p["q"], p["ell_ms"], 0.0, 1.0),
                               "two_ms": two_device_ms(infinite),
                               "speedup": led["one_ms"] / two_device_ms(infinite)},
        "sweeps": sweeps(p),
    }


# ---------------------------------------------------------------------------
# 7. The source article's stated numbers, checked against the model
# ---------------------------------------------------------------------------

#: Each number the article states (000 zh, 001 es, 003 it say the same): an id,
#: the stated value and its decimals, where the model computes it, and the
#: article's wording in zh (000) as a quotation.
SOURCE_CLAIMS = (
    ("transfer", 0.2, 1, "ledger.wire_ms", "每次传输 2,000,000 / 10,000,000,000 秒，即 0.2 毫秒"),
    ("comm", 0.92, 2, "ledger.comm_ms", "四次 H = 0.92 毫秒"),
    ("parallel_compute", 7.5, 1, "ledger.parallel_compute_ms", "并行计算为 12/(2 × 0.8) = 7.5 毫秒"),
    ("one_device", 12.8, 1, "ledger.one_ms", "T₁ = 12.8"),
    ("two_devices", 9.22, 2, "ledger.two_ms", "T₂ = 9.22 毫秒"),
    ("speedup", 1.388, 3, "ledger.speedup", "加速约 1.388 倍"),
    ("saving_factor", 0.375, 3, "break_even.factor", "η = 0.8 时括号为 0.375"),
    ("break_even_c", 2.45333, 5, "break_even.c_ms", "阈值为 0.92/0.375 = 2.45333 毫秒"),
    ("small_c_one", 1.8, 1, "cases.small_c.one_ms", "若 C = 1 毫秒……单设备为 1.8 毫秒"),
    ("small_c_two", 2.345, 3, "cases.small_c.two_ms", "双设备为 2.345"),
    ("slow_link_comm", 8.12, 2, "cases.slow_link.comm_ms", "有效带宽降至 1 GB/s 时，H = 8.12"),
    ("slow_link_two", 16.42, 2, "cases.slow_link.two_ms", "T₂ = 16.42 毫秒"),
    ("fast_link_comm", 0.28, 2, "cases.fast_link.comm_ms", "50 GB/s 时 H = 0.28"),
    ("fast_link_two", 8.58, 2, "cases.fast_link.two_ms", "T₂ = 8.58 毫秒"),
    ("efficiency", 0.694, 3, "ledger.efficiency", "双设备并行效率再除以二，基例约 0.694"),
    ("large_s_one", 112.0, 0, "cases.large_s.one_ms", "总时间为 112"),
    ("large_s_two", 108.42, 2, "cases.large_s.two_ms", "与 108.42 毫秒"),
    ("large_s_speedup", 1.033, 3, "cases.large_s.speedup", "仅约 1.033 倍加速"),
    ("overlap_bound", 8.3, 1, "overlap.bound_ms", "基例为 8.3 而非 9.22 毫秒"),
    ("d_seconds", 0.001095, 6, "bandwidth.d_s", "D = 0.001095 秒"),
    ("min_bandwidth", 1.82648, 5, "bandwidth.b_gb_per_s", "带宽需超过约 1.82648 GB/s"),
    ("min_eta_12", 0.54152, 5, "efficiency_threshold.0.min_eta", "C = 12、H = 0.92 毫秒时阈值约 0.54152"),
    ("min_eta_1", 6.25, 2, "efficiency_threshold.1.min_eta", "C = 1 毫秒时变成 6.25"),
)


def lookup(results: dict, path: str):
    """Follow a dotted path through results; list items by index or by their 'name'."""
    node = results
    for part in path.split("."):
        if isinstance(node, list):
            node = node[int(part)] if part.isdigit() else next(r for r in node if r["name"] == part)
        else:
            node = node[part]
    return node


def claims(results: dict) -> list:
    """The claims ledger: each stated number, the computed value, and whether it reproduces.

    A claim reproduces when the computed value, rounded to the decimals the
    article gives, equals the stated value.
    """
    ledger_rows = []
    for claim_id, stated, decimals, path, quote in SOURCE_CLAIMS:
        computed = lookup(results, path)
        reproduces = round(computed, decimals) == stated
        ledger_rows.append({"id": claim_id, "article": "000/001/003", "source_text": quote,
                            "stated": stated, "decimals": decimals, "key": path,
                            "computed": computed,
                            "status": "reproduces" if reproduces else "does not reproduce"})
    return ledger_rows


# ---------------------------------------------------------------------------
# 8. I/O: strict JSON, deterministic SVG figures, command line
# ---------------------------------------------------------------------------

SIGNIFICANT_DIGITS = 12  # JSON floats are rounded so that last-bit libm noise never shows


def _rounded(value):
    """Round floats for stable JSON; refuse NaN and infinity."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"non-finite number {value!r} cannot go into strict JSON")
        return float(f"{value:.{SIGNIFICANT_DIGITS}g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def to_json(data) -> str:
    """Strict, sorted, byte-stable JSON text with a final newline."""
    return json.dumps(_rounded(data), sort_keys=True, indent=1, ensure_ascii=False,
                      allow_nan=False) + "\n"


# Okabe–Ito colour-blind-safe palette.
COLOURS = {"one": "#0072B2", "two": "#D55E00", "bound": "#009E73", "grey": "#666666"}
STYLE = {
    "svg.hashsalt": "tp-book",      # fixed ids inside the SVG
    "svg.fonttype": "path",         # glyphs as paths: no font needed to view
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "figure.figsize": (6.4, 3.6),
}


def _pyplot():
    """Matplotlib with a headless backend."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def figure(draw):
    """Make ``draw(results, fig, ax)`` return the figure as deterministic SVG text.

    The drawing runs in the book's style; a glyph missing from the font is an
    error rather than a warning, so a figure never ships with empty boxes.
    """
    @functools.wraps(draw)
    def svg(results: dict) -> str:
        plt = _pyplot()
        with warnings.catch_warnings(), plt.rc_context(STYLE):
            warnings.filterwarnings("error", message=r"Glyph .* missing from font")
            fig, ax = plt.subplots()
            try:
                draw(results, fig, ax)
                fig.tight_layout()
                buffer = io.StringIO()
                fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
            finally:
                plt.close(fig)
        return buffer.getvalue()
    return svg


@figure
def figure_versus_c(results: dict, fig, ax) -> None:
    """T1 and T2 against the divisible time C, with the break-even point."""
    sweep = results["sweeps"]["versus_c"]
    ax.plot(sweep["c_ms"], sweep["one_ms"], color=COLOURS["one"])
    ax.plot(sweep["c_ms"], sweep["two_ms"], color=COLOURS["two"])
    ax.annotate("T₁ = S + C", (sweep["c_ms"][-1], sweep["one_ms"][-1]),
                color=COLOURS["one"], ha="right", va="bottom")
    ax.annotate("T₂ = S + C/(2η) + H", (sweep["c_ms"][-1], sweep["two_ms"][-1]),
                color=COLOURS["two"], ha="right", va="top", xytext=(0, -6),
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
    fig.set_size_inches(6.4, 2.4)
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


FIGURES = {
    "fig_versus_c.svg": figure_versus_c,
    "fig_versus_b.svg": figure_versus_b,
    "fig_ledger.svg": figure_ledger,
    "fig_min_eta.svg": figure_min_eta,
}


def artefacts(results: dict) -> dict:
    """Every file of data/ by name, as text."""
    files = {"results.json": to_json(results)}
    if results["parameters"] == DEFAULTS:
        files["claims.json"] = to_json(claims(results))
    for name, draw in FIGURES.items():
        files[name] = draw(results)
    return files


def write_atomically(out_dir: pathlib.Path, files: dict) -> None:
    """Write each file through a temporary file and an atomic rename; drop stale ones."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        handle, tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
            os.chmod(tmp, 0o644)
            os.replace(tmp, out_dir / name)
        except BaseException:
            os.unlink(tmp)
            raise
    for stale in out_dir.iterdir():
        if stale.suffix in {".json", ".svg"} and stale.name not in files:
            stale.unlink()


def drift(out_dir: pathlib.Path, files: dict) -> list:
    """Human-readable differences between ``files`` and what ``out_dir`` holds."""
    problems = []
    present = {p.name for p in out_dir.glob("*") if p.suffix in {".json", ".svg"}} \
        if out_dir.is_dir() else set()
    for name in sorted(present - set(files)):
        problems.append(f"{name}: in {out_dir} but no longer generated")
    for name, text in sorted(files.items()):
        path = out_dir / name
        if not path.exists():
            problems.append(f"{name}: missing from {out_dir}")
            continue
        old = path.read_text(encoding="utf-8")
        if old != text:
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), f"{name} (saved)",
                                        f"{name} (regenerated)", n=0, lineterm="")
            problems.append("\n".join(list(diff)[:20]))
    return problems


def parse_assignment(text: str) -> tuple:
    """Parse NAME=VALUE from the command line (Q as an integer, the rest as reals)."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    name, raw = (part.strip() for part in text.split("=", 1))
    try:
        value = int(raw) if name == "q" else float(raw)
    except ValueError:
        allowed = RANGES[name][1] if name in RANGES else "a number"
        raise argparse.ArgumentTypeError(f"{name} must be {allowed}; got {raw!r}") from None
    return name, value


def main(argv=None) -> int:
    """Command line: regenerate data/, check it, or write a variant elsewhere."""
    root = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(
        description="Regenerate the book's canonical data: data/results.json, data/claims.json "
                    "and the SVG figures, written atomically.",
        epilog="Parameters (defaults): " + ", ".join(f"{k}={v!r}" for k, v in DEFAULTS.items())
               + ". Ranges: " + "; ".join(r for _, r in RANGES.values()) + ".")
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory, compare with the output directory, print "
                             "the differences, write nothing; exit 1 on drift")
    parser.add_argument("--out", type=pathlib.Path, default=root / "data",
                        help="output directory (default: data/ next to this file)")
    parser.add_argument("--set", dest="overrides", metavar="NAME=VALUE", action="append",
                        type=parse_assignment, default=[],
                        help="override a parameter (repeatable); only allowed with --out "
                             "elsewhere than data/, which holds the defaults")
    args = parser.parse_args(argv)
    overrides = dict(args.overrides)
    if overrides and args.out.resolve() == (root / "data").resolve():
        parser.error("data/ holds the canonical defaults; write overridden results with --out DIR")
    try:
        results = run(**overrides)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    files = artefacts(results)
    if args.check:
        problems = drift(args.out, files)
        for problem in problems:
            print(problem)
        print(f"{args.out}: {'drift in ' + str(len(problems)) + ' file(s)' if problems else 'up to date'}")
        return 1 if problems else 0
    write_atomically(args.out, files)
    print(f"wrote {len(files)} files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
