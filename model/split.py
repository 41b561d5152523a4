"""Article 1: when does splitting one operation over two devices pay off?

Pure functions, no I/O, read in the article's order: the integer matrix example that shows
where an all-reduce is forced; the time ledger T1 = S + C and T2 = S + C/(2η) + Q(ℓ + V/B);
the thresholds derived from it (break-even C, minimum bandwidth, minimum η), the overlap
bound and the six cases; the sweeps behind the figures.

The article splits over two devices; every function of the ledger also takes ``n`` devices
(default 2), as a measurement on n ranks needs: T_n = S + C/(nη) + Q·t_n(V), where one
all-reduce t_n(V) is a ring's, (n − 1)·ℓ + 2(n − 1)/n · V/B (``transfer_ms``). At n = 2 that is
the article's ℓ + V/B, so every number of the book is the article's two-device one.

Assumptions (the article's): times in milliseconds unless a name says otherwise; bandwidth
in decimal bytes per second (1 GB/s = 10**9 bytes/s); Q identical, serialised transfers;
no overlap of communication with compute (except in the overlap bound); no competing
traffic and no request queue. Nothing here measures hardware: every time is an assumed
parameter of an arithmetic model.
"""
from __future__ import annotations

from model.units import BYTES_PER_GB, MS_PER_S, Parameter, grid, log_grid, readable, ring_factor

#: The article's number of devices.
TWO = 2

#: The article's table of assumed parameters, with the ranges the book accepts (see Parameter).
PARAMETERS = {
    "s_ms": Parameter(0.8, "S, the indivisible time in ms", 0, 1e9),
    "c_ms": Parameter(12.0, "C, the divisible time in ms", 1e-6, 1e9),
    "eta": Parameter(0.8, "eta, the local efficiency of each half", 0.01, 1),
    "q": Parameter(4, "Q, the number of communications", 1, 10**6, integer=True),
    "ell_ms": Parameter(0.03, "ell, the start-up time of one communication in ms", 0, 1e9),
    "v_bytes": Parameter(2_000_000, "V, the bytes of one communication", 0, 1e15),
    "b_bytes_per_s": Parameter(1e10, "B, the effective bandwidth in bytes/s", 1e3, 1e15),
}

# ---------------------------------------------------------------------------
# 2. The matrix example: a split by columns of U and rows of W
# ---------------------------------------------------------------------------

# y = ReLU(x U) W with integers, so that equality is exact.
X = [[1, 2]]                                   # 1 × 2
U = [[1, -1, 2, 0],
     [0, 1, -1, 2]]                            # 2 × 4
W = [[2, -1],
     [-1, 2],
     [3, -2],
     [-1, 2]]                                  # 4 × 2
DEVICE_COLUMNS = ([0, 1], [2, 3])              # columns of U (= rows of W) held by each device
RELU_EXAMPLE = (2, -3)     # the article's two numbers whose sum ReLU does not split over


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
    The wrong split (rows of U, i.e. halves of x) leaves each hidden unit as a
    partial sum, and ReLU of the parts is not ReLU of the whole.
    """
    hidden = relu(matmul(X, U))
    full = matmul(hidden, W)
    devices = []
    for keep in DEVICE_COLUMNS:
        pre = matmul(X, columns(U, keep))
        part_hidden = relu(pre)
        devices.append({"columns": keep, "pre_activation": pre[0],
                        "hidden": part_hidden[0],
                        "contribution": matmul(part_hidden, rows(W, keep))[0]})
    summed = add([devices[0]["contribution"]], [devices[1]["contribution"]])
    # Wrong place: split the inner dimension of x U, apply ReLU to each partial sum.
    wrong_parts = [relu(matmul(columns(X, [i]), rows(U, [i]))) for i in range(len(U))]
    wrong_hidden = add(*wrong_parts)
    wrong_output = matmul(wrong_hidden, W)
    a, b = RELU_EXAMPLE
    return {
        "x": X, "u": U, "w": W,
        "shapes": {name: [len(m), len(m[0])] for name, m in (("x", X), ("u", U), ("w", W))},
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

def devices(n: int) -> int:
    """``n``, checked: the number of devices a split uses, an integer ≥ 2."""
    if isinstance(n, bool) or not isinstance(n, int) or n < TWO:
        raise ValueError(f"n, the number of devices: an integer >= 2; got {n!r}")
    return n


def transfer_ms(ell_ms: float, v_bytes: float, b_bytes_per_s: float, n: int = TWO) -> float:
    """One all-reduce of V bytes over ``n`` devices in a ring, in ms: 2(n − 1) steps, each
    device sending 2(n − 1)/n · V in all (``ring_factor``), with ℓ the start-up of the two
    steps that two devices take; so (n − 1)·ℓ + 2(n − 1)/n · V/B, which is ℓ + V/B at n = 2."""
    n = devices(n)
    return (n - 1) * ell_ms + ring_factor(n) * v_bytes / b_bytes_per_s * MS_PER_S


def comm_ms(q: int, ell_ms: float, v_bytes: float, b_bytes_per_s: float, n: int = TWO) -> float:
    """H = Q·t_n(V): total communication time, in ms (identical, serialised transfers); the
    article's Q (ℓ + V/B) at n = 2."""
    return q * transfer_ms(ell_ms, v_bytes, b_bytes_per_s, n)


def parallel_compute_ms(c_ms: float, eta: float, n: int = TWO) -> float:
    """C/(nη): the divisible work on each of ``n`` devices at local efficiency η, in ms."""
    return c_ms / (devices(n) * eta)


def one_device_ms(s_ms: float, c_ms: float) -> float:
    """T1 = S + C, in ms."""
    return s_ms + c_ms


def p_comm_ms(p: dict, n: int = TWO) -> float:
    """H for parameters ``p`` over ``n`` devices, in ms (``comm_ms``)."""
    return comm_ms(p["q"], p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"], n)


def split_ms(p: dict, n: int = TWO) -> float:
    """T_n = S + C/(nη) + H, in ms, with no overlap of communication and compute (the
    article's T2 at n = 2)."""
    return p["s_ms"] + parallel_compute_ms(p["c_ms"], p["eta"], n) + p_comm_ms(p, n)


def ledger(p: dict, n: int = TWO) -> dict:
    """Every line of the ledger for parameters ``p`` over ``n`` devices (``two_ms`` is T_n;
    ``wire_ms`` is V/B, ``half_c_ms`` C/n, the ideal share of each device)."""
    one, split = one_device_ms(p["s_ms"], p["c_ms"]), split_ms(p, n)
    return {
        "transfer_ms": transfer_ms(p["ell_ms"], p["v_bytes"], p["b_bytes_per_s"], n),
        "wire_ms": p["v_bytes"] / p["b_bytes_per_s"] * MS_PER_S,
        "comm_ms": p_comm_ms(p, n),
        "parallel_compute_ms": parallel_compute_ms(p["c_ms"], p["eta"], n),
        "one_ms": one,
        "two_ms": split,
        "speedup": one / split,
        "efficiency": one / split / n,
        "half_c_ms": p["c_ms"] / n,
    }


# ---------------------------------------------------------------------------
# 4. Thresholds, the overlap bound and the six cases
# ---------------------------------------------------------------------------

def saving_factor(eta: float, n: int = TWO) -> float:
    """1 − 1/(nη): the share of C that splitting over ``n`` devices saves (≤ 0 when η ≤ 1/n;
    the article's 1 − 1/(2η) at n = 2)."""
    return 1 - 1 / (devices(n) * eta)


def break_even(p: dict, n: int = TWO) -> dict:
    """C* = H / (1 − 1/(nη)): splitting pays off only for C > C*.

    Does not exist when η ≤ 1/n (the article's η ≤ 0.5): splitting then saves no compute.
    """
    factor = saving_factor(p["eta"], n)
    h = p_comm_ms(p, n)
    if factor <= 0:
        return {"factor": factor, "comm_ms": h, "c_ms": None,
                "reason": f"eta <= {readable(1 / n)}: the split saves no compute, so no C breaks even"}
    return {"factor": factor, "comm_ms": h, "c_ms": h / factor, "reason": None}


def min_bandwidth(p: dict, n: int = TWO) -> dict:
    """The bandwidth B must exceed: ring_factor(n)·V/B < D with D = C(1 − 1/(nη))/Q − (n − 1)ℓ,
    in seconds (the article's V/B < C(1 − 1/(2η))/Q − ℓ at n = 2).

    Where D ≤ 0 the start-up costs alone use up the saving and no finite
    bandwidth is enough; the result then holds ``None`` and the reason.
    """
    d_s = (p["c_ms"] * saving_factor(p["eta"], n) / p["q"] - (n - 1) * p["ell_ms"]) / MS_PER_S
    if d_s <= 0:
        return {"d_s": d_s, "b_bytes_per_s": None, "b_gb_per_s": None,
                "reason": "D <= 0: start-up costs use up the saving; no finite bandwidth suffices"}
    b = ring_factor(n) * p["v_bytes"] / d_s
    return {"d_s": d_s, "b_bytes_per_s": b, "b_gb_per_s": b / BYTES_PER_GB, "reason": None}


def min_eta(c_ms: float, h_ms: float, n: int = TWO) -> dict:
    """The η that splitting over ``n`` devices needs, C/[n(C − H)], and whether η ≤ 1 can
    reach it.

    With C ≤ H no efficiency helps (the ledger cannot break even), so the
    threshold is ``None`` with the reason.
    """
    if c_ms <= h_ms:
        return {"c_ms": c_ms, "comm_ms": h_ms, "min_eta": None, "reachable": False,
                "reason": "C <= H: communication alone costs as much as all the compute"}
    threshold = c_ms / (devices(n) * (c_ms - h_ms))
    return {"c_ms": c_ms, "comm_ms": h_ms, "min_eta": threshold,
            "reachable": threshold < 1, "reason": None}


def overlap_bound_ms(p: dict, n: int = TWO) -> float:
    """S + max[C/(nη), H]: the optimistic floor if compute and communication overlap fully."""
    return p["s_ms"] + max(parallel_compute_ms(p["c_ms"], p["eta"], n), p_comm_ms(p, n))


def case(name: str, p: dict) -> dict:
    """One row of the article's case table."""
    led = ledger(p)
    return {"name": name, "c_ms": p["c_ms"], "s_ms": p["s_ms"],
            "b_bytes_per_s": p["b_bytes_per_s"], "comm_ms": led["comm_ms"],
            "one_ms": led["one_ms"], "two_ms": led["two_ms"], "speedup": led["speedup"]}


def infinite_bandwidth(p: dict) -> dict:
    """B → ∞: the V/B term vanishes (as with V = 0), the Q start-up costs remain."""
    led = ledger({**p, "v_bytes": 0.0})
    return {"comm_ms": led["comm_ms"], "two_ms": led["two_ms"], "speedup": led["speedup"]}


#: What the article records about itself and its sources: dates (ISO 8601) and the versions it
#: ran. The book shows them through glue, in each edition's way of writing dates.
SOURCE_RECORD = {
    "megatron_arxiv_version": 4,             # Megatron-LM, arXiv v4 …
    "megatron_arxiv_date": "2020-03-13",     # … of 13 March 2020
    "sources_accessed": "2026-10-04",        # the article's sources were read on this day
    "article_python_version": "3.14.0",      # the article's calculations, not this book's
    "article_matplotlib_version": "3.11.2",  # the article's figures, not the pin (requirements.txt)
}

SMALL_C_MS = 1.0  # the article's small job: C = 1 ms, the rest unchanged
#: The article's slower and faster links, 1 and 50 GB/s against its 10 GB/s, as factors of the
#: bandwidth, so that with a reader's B the slow link is still slower and the fast one faster.
SLOW_LINK_DIVISOR = 10
FAST_LINK_FACTOR = 5

#: The article's variations of the base case (the break-even case is added from the model):
#: a case's changed parameters, or a function of the base parameters that gives them.
CASE_CHANGES = (
    ("base", {}),
    ("break_even", None),
    ("small_c", {"c_ms": SMALL_C_MS}),
    ("slow_link", lambda p: {"b_bytes_per_s": p["b_bytes_per_s"] / SLOW_LINK_DIVISOR}),
    ("fast_link", lambda p: {"b_bytes_per_s": p["b_bytes_per_s"] * FAST_LINK_FACTOR}),
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
            if threshold["c_ms"] == 0:
                omitted.append({"name": name, "reason": "H = 0: communication is free, so every "
                                "C > 0 pays off; the break-even C is 0, outside the range of C"})
                continue
            change = {"c_ms": threshold["c_ms"]}
        elif callable(change):
            change = change(p)
        rows_.append(case(name, {**p, **change}))
    return rows_, omitted


# ---------------------------------------------------------------------------
# 5. Sweeps behind the figures (deterministic grids, no randomness)
# ---------------------------------------------------------------------------

SWEEP_POINTS = 97            # points of the C grids
SWEEP_DECADES = 2            # the bandwidth sweep spans B/100 to 100·B


def sweep_c_max_ms(p: dict) -> float:
    """The C grids' upper end, in ms: four times the largest of C, C* and 2H, so the figures
    show the parameters' own C, the break-even point and the η threshold falling towards 1/2,
    whatever the magnitudes (at the article's defaults: 4 × C = 48 ms)."""
    h = p_comm_ms(p)
    c_star = break_even(p)["c_ms"]
    return 4 * max(p["c_ms"], 2 * h, c_star if c_star is not None else 0.0)


def sweeps(p: dict) -> dict:
    """T1 and T2 against C; speedup against B around the parameters' B; the η threshold
    against C, where it exists (C > H)."""
    h = p_comm_ms(p)
    c_max = sweep_c_max_ms(p)
    c_grid = grid(c_max / (2 * (SWEEP_POINTS - 1)), c_max, SWEEP_POINTS)
    b = p["b_bytes_per_s"]
    b_grid = log_grid(b / 10 ** SWEEP_DECADES, b * 10 ** SWEEP_DECADES, 81)
    eta_c = [c for c in c_grid if c > h]
    return {
        "versus_c": {"c_ms": c_grid,
                     "one_ms": [one_device_ms(p["s_ms"], c) for c in c_grid],
                     "two_ms": [split_ms({**p, "c_ms": c}) for c in c_grid]},
        "versus_b": {"b_bytes_per_s": b_grid,
                     "speedup": [one_device_ms(p["s_ms"], p["c_ms"])
                                 / split_ms({**p, "b_bytes_per_s": b}) for b in b_grid],
                     "speedup_infinite_b": infinite_bandwidth(p)["speedup"]},
        "min_eta_versus_c": {"c_ms": eta_c,
                             "min_eta": [min_eta(c, h)["min_eta"] for c in eta_c]},
    }


def sentence_checks(p: dict, r: dict) -> dict:
    """Quantities that decide the article's sentences (model/claims.py), from its parameters
    ``p`` and results ``r``: what η = 1/2 adds to T₂ over T₁ (ms); the large-S case's speedup
    over the base case's; how far the two devices' summed contributions are from the full
    output; ReLU(a) + ReLU(b) − ReLU(a + b) for the counterexample; the speedup at the small C
    with a perfect η = 1; the share of time the efficiency leaves unused; how many cases the
    case table holds."""
    small = r["efficiency_threshold"][1]
    speedup = {row["name"]: row["speedup"] for row in r["cases"]}
    relu = r["matrix"]["relu_counterexample"]
    return {
        "eta_half_extra_ms": ledger({**p, "eta": 0.5})["two_ms"] - r["ledger"]["one_ms"],
        # (None when the parameters make the large-S case coincide with another, see cases)
        "large_s_over_base_speedup": speedup["large_s"] / speedup["base"]
        if {"large_s", "base"} <= set(speedup) else None,
        "split_max_abs_error": max(abs(a - b) for a, b in zip(r["matrix"]["sum_of_contributions"],
                                                             r["matrix"]["full"])),
        "relu_sum_gap": relu["sum_of_relus"] - relu["relu_of_sum"],
        "small_c_perfect_eta_speedup": (p["s_ms"] + small["c_ms"])
        / (p["s_ms"] + small["c_ms"] / 2 + small["comm_ms"]),
        # the share of the two devices' time that the efficiency leaves unused (not energy)
        "unused_share": 1 - r["ledger"]["efficiency"],
        "case_count": len(r["cases"]) + len(r["omitted_cases"]),
    }


def results(p: dict) -> dict:
    """Every result of the article for parameters ``p`` (already validated), for its two
    devices."""
    out = _results(p)
    out["sentence_checks"] = sentence_checks(p, out)
    return out


def _results(p: dict) -> dict:
    """The article's results, without the sentence checks that read them."""
    led = ledger(p)
    case_rows, omitted = cases(p)
    return {
        "matrix": matrix_example(),
        "ledger": led,
        "cases": case_rows,
        "omitted_cases": omitted,
        "break_even": break_even(p),
        "bandwidth": min_bandwidth(p),
        "efficiency_threshold": [min_eta(c, led["comm_ms"]) for c in (p["c_ms"], SMALL_C_MS)],
        "overlap": {"bound_ms": overlap_bound_ms(p), "two_ms": led["two_ms"]},
        "infinite_bandwidth": infinite_bandwidth(p),
        "sweeps": sweeps(p),
        "source_record": SOURCE_RECORD,
    }
