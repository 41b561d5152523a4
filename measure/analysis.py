"""What a measurement record means: statistics, the α–β fit, the break-even crossing, the
record's schema, and the model's prediction for the measured machine.

Pure Python and ``experiment``; no torch. The notebooks import this module to show the
committed record, so a reader who only builds the book never needs torch. The timings
themselves are taken by ``measure.worker`` under torch.distributed.

All times are in milliseconds, sizes in bytes, bandwidths in bytes per second.
"""
from __future__ import annotations

import json
import math
import pathlib
import random
import statistics

import atomic
import experiment
from model import split
from model.units import ring_factor

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: The measurement records: data/measurements in a clone of the book; in an installed copy
#: (`pip install .`, which carries the same files as measure/records), measure/records.
RECORDS = next((folder for folder in (ROOT / "data" / "measurements",
                                      pathlib.Path(__file__).resolve().parent / "records")
                if folder.is_dir()), ROOT / "data" / "measurements")
#: The record from this project's machine that the book shows.
COMMITTED = "cpu-gloo-2x1"
SCHEMA = "measure/5"   # 3: every steady repetition kept, the wide baseline, rows scaled for C;
#                       4: each all-reduce of the sweep sums a buffer of its own (a pool per size);
#                       5: the scheduler's facts, every thread counted, the wide baseline in the
#                          C sweep, the run's duration
#: Bootstrap resamples of the held-out prediction, the seed that makes them reproducible, and
#: the interval's confidence.
RESAMPLES, SEED, CONFIDENCE = 1000, 0, 0.95
#: Statistics of one timed quantity, in ms (``n`` is the number of steady repetitions).
STATISTICS = ("median_ms", "p10_ms", "p90_ms", "mean_ms", "max_ms", "n")
#: The timed quantities of the main run, with what each one is.
QUANTITIES = {
    "s": "S: the indivisible part (x · W0, whole on every rank)",
    "c": "C: the divisible part ReLU(x0 · U) · W on one rank",
    "half": "one share ReLU(x0 · U_i) · W_i, every rank at once (the slowest rank per repetition)",
    "one": "T1 end to end on one rank: S, then C",
    "two": "T2 end to end on all ranks: S, a half, and the all-reduce of the partial outputs",
    "one_wide": "T1 on one rank with the threads of every rank (the fair one-device baseline)",
}


def percentile(sorted_ms: list, fraction: float) -> float:
    """The ``fraction`` quantile of sorted samples, linearly interpolated (numpy's default)."""
    position = fraction * (len(sorted_ms) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_ms) - 1)
    return sorted_ms[low] + (position - low) * (sorted_ms[high] - sorted_ms[low])


def summary(samples_ms: list) -> dict:
    """Median, 10th and 90th percentiles, mean and maximum of steady repetitions, in ms.

    The mean and the median answer different questions: a long tail moves the mean and the
    p90 but not the median, which is why all of them are kept."""
    if not samples_ms:
        raise ValueError("summary needs at least one sample")
    ordered = sorted(samples_ms)
    return {"median_ms": statistics.median(ordered), "p10_ms": percentile(ordered, 0.1),
            "p90_ms": percentile(ordered, 0.9), "mean_ms": statistics.fmean(ordered),
            "max_ms": ordered[-1], "n": len(ordered)}


def fit_hockney(sizes_bytes: list, times_ms: list) -> dict:
    """Hockney's α–β model t(V) = ℓ + V/B fitted to all-reduce times by weighted least squares.

    ``sizes_bytes`` are the message sizes V (the bytes of the tensor each rank reduces), so B
    is the article's bandwidth in Q(ℓ + V/B). Each point is weighted by 1/t², so that the fit
    minimises relative residuals and every size counts alike: an unweighted line over four
    decades is decided by its largest message. ℓ is held in [0, the smallest measured time]:
    a start-up cost cannot exceed the whole time of some message (where the free fit leaves
    that range, ℓ is fixed at its edge and the slope refitted). ``r2`` is the weighted share of
    variance explained; ``relative_residuals`` are (t − fit)/t per size.
    """
    if len(sizes_bytes) != len(times_ms) or len(sizes_bytes) < 2:
        raise ValueError("fit_hockney needs at least two (size, time) pairs of equal length")
    if min(times_ms) <= 0:
        raise ValueError("fit_hockney needs positive all-reduce times (ms)")
    weights = [1 / t ** 2 for t in times_ms]
    total_weight = sum(weights)
    mean_v = sum(w * v for w, v in zip(weights, sizes_bytes)) / total_weight
    mean_t = sum(w * t for w, t in zip(weights, times_ms)) / total_weight
    sxx = sum(w * (v - mean_v) ** 2 for w, v in zip(weights, sizes_bytes))
    if sxx == 0:
        raise ValueError("fit_hockney needs at least two different message sizes")
    slope = sum(w * (v - mean_v) * (t - mean_t)
                for w, v, t in zip(weights, sizes_bytes, times_ms)) / sxx
    intercept = mean_t - slope * mean_v
    if slope <= 0:
        raise ValueError("all-reduce times do not grow with the message size; "
                         "no bandwidth can be fitted (too few or too noisy repetitions?)")
    if not 0 <= intercept <= min(times_ms):
        # Every t − ℓ is then ≥ 0, and not all 0 (the free slope was > 0): the slope stays > 0.
        intercept = min(max(intercept, 0.0), min(times_ms))
        slope = (sum(w * v * (t - intercept) for w, v, t in zip(weights, sizes_bytes, times_ms))
                 / sum(w * v * v for w, v in zip(weights, sizes_bytes)))
    fitted = [intercept + slope * v for v in sizes_bytes]
    residual = sum(w * (t - f) ** 2 for w, t, f in zip(weights, times_ms, fitted))
    total = sum(w * (t - mean_t) ** 2 for w, t in zip(weights, times_ms))
    return {"ell_ms": intercept, "bandwidth_bytes_per_s": 1000.0 / slope,
            "r2": 1 - residual / total if total > 0 else 1.0, "weighting": "1/t²",
            "relative_residuals": [(t - f) / t for t, f in zip(times_ms, fitted)]}


def crossing(c_ms: list, speedup: list) -> dict:
    """Where a measured speedup first rises through 1 as C grows: ``bracket_c_ms``, the two
    neighbouring C between which it does (the crossing is only known to lie there), and
    ``c_ms``, the linear interpolation between them; ``None`` with a reason when it never
    crosses."""
    points = sorted(zip(c_ms, speedup))
    for (c0, s0), (c1, s1) in zip(points, points[1:]):
        if s0 < 1 <= s1:
            return {"c_ms": c0 + (1 - s0) * (c1 - c0) / (s1 - s0), "bracket_c_ms": [c0, c1],
                    "reason": None}
    if points and all(s >= 1 for _, s in points):
        return {"c_ms": None, "bracket_c_ms": None,
                "reason": "the split is faster at every C measured"}
    return {"c_ms": None, "bracket_c_ms": None, "reason": "the split is slower at every C measured"}


def central_interval(values: list) -> list:
    """The central ``CONFIDENCE`` share of ``values`` (bootstrap draws): its lower and upper
    percentiles."""
    ordered, tail = sorted(values), (1 - CONFIDENCE) / 2
    return [percentile(ordered, tail), percentile(ordered, 1 - tail)]


def crossing_interval(record: dict, baseline: str = "one", resamples: int = RESAMPLES,
                      seed: int = SEED) -> dict:
    """Where the C sweep's measured speedup against ``baseline`` crosses 1 (``"one"``: one rank
    with its own threads; ``"one_wide"``: one rank with every rank's), with a bootstrap
    interval: ``resamples`` times, every list of repetitions is drawn again with replacement
    (seeded), and the medians, the speedups and the crossing are found again. ``crossed`` is the
    share of draws that cross 1 at all; ``interval``, the central ``CONFIDENCE`` share of their
    crossings, given only when more than half of the draws cross (else None)."""
    sweep = record["c_sweep"]
    samples = sweep["samples_ms"]
    point = crossing(sweep["c_ms"], sweep["speedup" if baseline == "one" else "speedup_wide"])
    draw = random.Random(seed)
    found = []
    for _ in range(resamples):
        def median(times):
            return statistics.median(draw.choices(times, k=len(times)))
        c_ms = [median(times) for times in samples["c"]]
        speedups = [median(one) / median(two) for one, two in zip(samples[baseline],
                                                                   samples["two"])]
        at = crossing(c_ms, speedups)["c_ms"]
        if at is not None:
            found.append(at)
    return {"c_ms": point["c_ms"], "reason": point["reason"], "crossed": len(found) / resamples,
            "interval": central_interval(found) if len(found) > resamples / 2 else None}


def median_interval(samples_ms: list, resamples: int = RESAMPLES, seed: int = SEED) -> list:
    """A bootstrap interval of the median of ``samples_ms``: the central ``CONFIDENCE`` share
    of the medians of ``resamples`` draws with replacement (seeded), in ms."""
    draw = random.Random(seed)
    return central_interval([statistics.median(draw.choices(samples_ms, k=len(samples_ms)))
                             for _ in range(resamples)])


def between_runs(records: list) -> dict:
    """What moves between independent runs of the same protocol (``records``, the first being
    the one the page shows): for T₂'s median, the fitted ℓ and B, the model's break-even C* and
    the measured crossing, each run's value in record order (None where it does not exist),
    in ms and bytes per second."""
    rows = {"two_median_ms": [], "ell_ms": [], "bandwidth_bytes_per_s": [],
            "break_even_c_ms": [], "crossing_c_ms": [], "duration_s": []}
    for record in records:
        comparison = compare(record)
        fit = record["allreduce"]["fit"]
        rows["two_median_ms"].append(record["main"]["two"]["median_ms"])
        rows["ell_ms"].append(fit["ell_ms"])
        rows["bandwidth_bytes_per_s"].append(fit["bandwidth_bytes_per_s"])
        rows["break_even_c_ms"].append(comparison["break_even_c_ms"]["predicted"])
        rows["crossing_c_ms"].append(comparison["break_even_c_ms"]["measured"])
        rows["duration_s"].append(record["protocol"]["duration_s"])
    return rows


def runs_of(name: str, directory: pathlib.Path = RECORDS) -> list:
    """The record ``name`` and the independent runs kept beside it (``<name>-run2``,
    ``<name>-run3``, … in ``directory``, while they exist), in that order; only the record
    itself for a record given by path."""
    records = [load(name, directory)]
    if isinstance(name, str) and not name.endswith(".json"):
        while (pathlib.Path(directory) / f"{name}-run{len(records) + 1}.json").is_file():
            records.append(load(f"{name}-run{len(records) + 1}", directory))
    return records


def rises_steadily(c_ms: list, speedup: list) -> bool:
    """Whether the speedup never falls as C grows (what a single noisy point breaks)."""
    ordered = [s for _, s in sorted(zip(c_ms, speedup))]
    return all(a <= b for a, b in zip(ordered, ordered[1:]))


def ledger_parameters(s_ms: float, c_ms: float, eta: float, fit: dict, v_bytes: float,
                      n: int) -> dict:
    """The article's parameters for a measured machine of ``n`` ranks, unvalidated: S, C, η,
    one all-reduce per step (Q = 1), V, and the ℓ and B that make the ledger's ring all-reduce,
    (n − 1)·ℓ + 2(n − 1)/n · V/B (``model.split.transfer_ms``), equal to the fitted line
    ℓ_fit + V/B_fit: ℓ = ℓ_fit/(n − 1) and B = B_fit · 2(n − 1)/n (nccl-tests' bus bandwidth).
    At n = 2 they are the fit's own ℓ and B."""
    return {"s_ms": s_ms, "c_ms": c_ms, "eta": eta, "q": 1, "ell_ms": fit["ell_ms"] / (n - 1),
            "v_bytes": v_bytes, "b_bytes_per_s": fit["bandwidth_bytes_per_s"] * ring_factor(n)}


def model_parameters(record: dict, c_ms: float, eta: float) -> dict:
    """``ledger_parameters`` for the record (its S median, V, fit and ranks), validated."""
    main = record["main"]
    return experiment.validate(ledger_parameters(
        main["s"]["median_ms"], c_ms, eta, record["allreduce"]["fit"], main["v_bytes"],
        record["environment"]["world_size"]))


def predicted(record: dict, c_ms: float, eta: float) -> dict:
    """The ledger over the record's n ranks, T_n = S + C/(nη) + Q·t_n(V), and its break-even C,
    for ``model_parameters``: {"parameters", "devices", "ledger", "break_even"}."""
    p, n = model_parameters(record, c_ms, eta), record["environment"]["world_size"]
    return {"parameters": p, "devices": n, "ledger": split.ledger(p, n),
            "break_even": split.break_even(p, n)}


def compare(record: dict) -> dict:
    """The article's model with the measured S, C, η and the fitted ℓ and B, set against the
    measured T₁, T₂, speedup and break-even C, each with the relative error
    (predicted − measured)/measured (None where either side does not exist).

    The model is ``predicted()`` at the measured C, over the record's n ranks (one all-reduce
    per step, and V the bytes of the partial output). A measured η above 1 (a superlinear split, e.g. from caches) lies
    outside the model's range; the prediction then uses η = 1 and says so.
    """
    main = record["main"]
    eta_used = min(main["eta"], 1.0)
    results = predicted(record, main["c"]["median_ms"], eta_used)
    ledger, crossing = results["ledger"], record["c_sweep"]["crossing"]
    measured_two = main["two"]["median_ms"]
    pairs = {"one_ms": (ledger["one_ms"], main["one"]["median_ms"]),
             "two_ms": (ledger["two_ms"], measured_two),
             "speedup": (ledger["speedup"], main["one"]["median_ms"] / measured_two),
             "break_even_c_ms": (results["break_even"]["c_ms"], crossing["c_ms"])}
    comparison = {key: {"predicted": model, "measured": measured}
                  for key, (model, measured) in pairs.items()}
    comparison["break_even_c_ms"]["reason"] = results["break_even"]["reason"] or crossing["reason"]
    return {
        **comparison,
        "eta_used": eta_used,
        "eta_note": None if eta_used == main["eta"] else
        "measured η > 1 (superlinear); the model uses η = 1",
        "comm_ms": ledger["comm_ms"],
        "relative_error": {key: (relative_error(model, measured)
                                 if model is not None and measured is not None else None)
                           for key, (model, measured) in pairs.items()},
        "results": results,
    }


def verdict(record: dict, held: dict | None = None) -> dict:
    """One line's worth of judgement: the held-out prediction of the main step T_n
    (``held_out``, or the ``held`` already computed), its relative error and interval, and
    whether the interval covers zero (the prediction cannot be told from the measurement)."""
    main = (held or held_out(record))["main"]
    return {"error": main["error"], "interval": main["interval"],
            "predicted_ms": main["predicted_ms"], "measured_ms": main["measured_ms"],
            "within_noise": main["within_noise"]}


# ---- the held-out prediction --------------------------------------------------------------

def pooled_eta(c_ms: list, half_ms: list, n: int) -> float:
    """One η for several widths: ΣC / (n · Σt½), the efficiency of the pooled work (the widest
    widths weigh most, as they do in time), at most 1 (the model's range)."""
    return min(1.0, sum(c_ms) / (n * sum(half_ms)))


def held_out_estimates(record: dict, pick=lambda samples: samples) -> dict:
    """Every held-out prediction with the measurement it is set against, from the record's
    steady repetitions as ``pick`` gives them (the record itself, or one bootstrap resample):
    name → (predicted, measured), in ms.

    Nothing a prediction is compared with was used to make it. The model's parameters come
    from component runs: S from the main run's S; η pooled (``pooled_eta``) over the sweep's
    halves at the *other* widths; ℓ and B fitted to the all-reduce sweep *without* the step's
    own message V. Predicted are T_n of the main step (from its own C) and at each width of the
    sweep (from that width's C), and the all-reduce of V itself, each against its measured
    median: ``main``, ``width <h>`` and ``v``."""
    n, main = record["environment"]["world_size"], record["main"]
    samples, sweep, allreduce = main["samples_ms"], record["c_sweep"], record["allreduce"]

    def median(times):
        return statistics.median(pick(times))
    v_bytes = main["v_bytes"]
    fitted = [(size, median(times)) for size, times in zip(allreduce["sizes_bytes"],
                                                           allreduce["samples_ms"])
              if size != v_bytes]
    fit = fit_hockney([size for size, _ in fitted], [t for _, t in fitted])
    s_ms = median(samples["s"])
    c_ms = [median(times) for times in sweep["samples_ms"]["c"]]
    half_ms = [median(times) for times in sweep["samples_ms"]["half"]]

    def t_n(c, hidden):
        others = [i for i, h in enumerate(sweep["hidden"]) if h != hidden]
        eta = pooled_eta([c_ms[i] for i in others], [half_ms[i] for i in others], n)
        return split.split_ms(ledger_parameters(s_ms, c, eta, fit, v_bytes, n), n)
    estimates = {"main": (t_n(median(samples["c"]), record["protocol"]["shapes"]["hidden"]),
                          median(samples["two"]))}
    for hidden, c, two in zip(sweep["hidden"], c_ms, sweep["samples_ms"]["two"]):
        estimates[f"width {hidden}"] = (t_n(c, hidden), median(two))
    at_v = allreduce["sizes_bytes"].index(v_bytes)
    estimates["v"] = (fit["ell_ms"] + 1000.0 * v_bytes / fit["bandwidth_bytes_per_s"],
                      median(allreduce["samples_ms"][at_v]))
    return estimates


def held_out(record: dict, resamples: int = RESAMPLES, seed: int = SEED) -> dict:
    """``held_out_estimates`` with a bootstrap interval for each relative error
    (predicted − measured)/measured: ``resamples`` times, every list of repetitions is drawn
    again with replacement (seeded: the same record gives the same intervals), everything is
    refitted and predicted again, and the central ``CONFIDENCE`` share of the errors is the
    interval. ``within_noise``: the interval covers zero, so the run cannot tell the prediction
    from the measurement. A draw whose all-reduce times do not grow with the size cannot be
    fitted and is left out (``unfitted_resamples`` counts them; more than half is an error).
    Returns name → {predicted_ms, measured_ms, error, interval, within_noise,
    unfitted_resamples}."""
    draw = random.Random(seed)
    point = held_out_estimates(record)
    errors = {name: [] for name in point}
    unfitted = 0
    for _ in range(resamples):
        try:
            drawn = held_out_estimates(record, lambda times: draw.choices(times, k=len(times)))
        except ValueError:      # a draw whose all-reduce times do not grow with the size
            unfitted += 1
            continue
        for name, (model, measured) in drawn.items():
            errors[name].append(relative_error(model, measured))
    if unfitted > resamples // 2:
        raise ValueError(f"held_out: {unfitted} of {resamples} resamples could not be fitted "
                         "(too few or too noisy all-reduce repetitions for an interval)")
    results = {}
    for name, (model, measured) in point.items():
        interval = central_interval(errors[name])
        results[name] = {"predicted_ms": model, "measured_ms": measured,
                         "error": relative_error(model, measured), "interval": interval,
                         "within_noise": interval[0] <= 0 <= interval[1],
                         "unfitted_resamples": unfitted}
    return results


def relative_error(predicted_value: float, measured: float) -> float:
    """(predicted − measured)/measured: positive when the model overestimates."""
    return (predicted_value - measured) / measured


def model_speedup(record: dict, c_ms: float, eta: float) -> float:
    """The model's T₁/T₂ at divisible time ``c_ms`` on the measured machine (S, ℓ, B, V)."""
    return predicted(record, c_ms, eta)["ledger"]["speedup"]


def own_eta_speedups(record: dict) -> list:
    """The model's speedup at each width of the C sweep with the η measured at that width
    (capped at 1): the open circles of split-08's figure and its table's last column."""
    sweep = record["c_sweep"]
    return [model_speedup(record, c, min(eta, 1.0)) for c, eta in zip(sweep["c_ms"], sweep["eta"])]


#: The mean of T₂ within this fraction of its median, and p90 no more than this many times as
#: far above the median as p10 is below it: a spread on both sides, not a long tail.
TAIL_MEAN_FRACTION, TAIL_SKEW = 0.05, 2.0
#: The mean "equals" the median within this fraction (it would print as 0.0 %).
MEAN_EQUAL = 0.0005
#: A rank's wait inside its all-reduce phase is "a small part" of it below this fraction.
SMALL_WAIT_FRACTION = 1 / 3
#: The fitted line "passes through" the step's own message timed alone within this fraction.
LINE_THROUGH = 0.05


def _side(value: float, reference: float, names=("below", "equal", "above")) -> str:
    """Which side of ``reference`` ``value`` lies on, as one of ``names``."""
    return names[(value > reference) - (value < reference) + 1]


def movement(start: float | None, goal: float | None, moved: float | None) -> str:
    """Where ``moved`` lies, seen from ``start``, against ``goal``: ``toward`` it (at most all
    the way), ``past`` it, ``away`` from it; ``none`` when a point is missing or start is
    the goal."""
    if None in (start, goal, moved) or goal == start:
        return "none"
    share = (moved - start) / (goal - start)
    return "away" if share <= 0 else ("toward" if share <= 1 else "past")


def readings(record: dict, held: dict) -> dict:
    """What the record shows, where the section's words depend on it (each value names the
    words split-08 uses), from the record and its held-out prediction (``held_out``):

    - ``mean_side``: the mean of T₂ below, equal to (within MEAN_EQUAL) or above its median;
    - ``long_tail``: whether T₂ has a long tail (mean more than TAIL_MEAN_FRACTION from the
      median, or p90 more than TAIL_SKEW times as far above it as p10 is below);
    - ``vs_wide``, ``vs_own``: whether the split's T_n is faster or slower than one rank with
      every rank's threads, and than one rank with its own;
    - ``model_nearer``: whether the model's T_n lies nearer T_n's p10 or its median (the
      repetitions the scheduler left alone, or the typical one);
    - ``line_vs_v``: whether the fitted line passes below, through (within LINE_THROUGH) or
      above the step's own message timed alone in the sweep;
    - ``wait_small``: whether on every rank the median wait is under SMALL_WAIT_FRACTION of
      that rank's all-reduce phase (None across nodes, where the ranks share no clock and the
      record holds no wait);
    - ``held_main``: the held-out main prediction within the noise, or outside it too
      optimistic (error < 0) or too pessimistic;
    - ``width_signs``: the held-out errors all negative, all positive, or mixed;
    - ``own_eta``: whether η measured per width moves the model's break-even point toward the
      measured crossing (at most all the way), past it, or away from it (``none``: one of the
      points does not exist)."""
    main, trace, sweep = record["main"], record["trace"], record["c_sweep"]
    two = main["two"]
    allreduce = record["allreduce"]
    at_v = allreduce["median_ms"][allreduce["sizes_bytes"].index(main["v_bytes"])]
    comparison = compare(record)
    skew = two["p90_ms"] - two["median_ms"] >= TAIL_SKEW * (two["median_ms"] - two["p10_ms"])
    errors = [row["error"] for row in held.values()]
    own = crossing(sweep["c_ms"], own_eta_speedups(record))["c_ms"]
    before, after = (comparison["break_even_c_ms"][k] for k in ("predicted", "measured"))
    own_eta = movement(before, after, own)
    return {
        "mean_side": "equal" if abs(two["mean_ms"] / two["median_ms"] - 1) < MEAN_EQUAL
        else _side(two["mean_ms"], two["median_ms"]),
        "long_tail": abs(two["mean_ms"] / two["median_ms"] - 1) >= TAIL_MEAN_FRACTION or skew,
        "vs_wide": "faster" if two["median_ms"] < main["one_wide"]["median_ms"] else "slower",
        "vs_own": "faster" if two["median_ms"] < main["one"]["median_ms"] else "slower",
        "model_nearer": "p10" if abs(comparison["two_ms"]["predicted"] - two["p10_ms"])
        < abs(comparison["two_ms"]["predicted"] - two["median_ms"]) else "median",
        "line_vs_v": "through" if abs(comparison["comm_ms"] / at_v - 1) < LINE_THROUGH
        else ("below" if comparison["comm_ms"] < at_v else "above"),
        "wait_small": None if trace["wait_ms"] is None
        else all(wait < SMALL_WAIT_FRACTION * phase
                 for wait, phase in zip(trace["wait_ms"], trace["allreduce_ms"])),
        "held_main": "within" if held["main"]["within_noise"]
        else ("optimistic" if held["main"]["error"] < 0 else "pessimistic"),
        "width_signs": "negative" if all(e < 0 for e in errors)
        else ("positive" if all(e > 0 for e in errors) else "mixed"),
        "own_eta": own_eta,
    }


def figure_data(record: dict, points: int = 61) -> dict:
    """What the measurement figure draws (``measure.figure.figure_measured``): the all-reduce
    medians with their p10–p90 spread and the fitted line; the measured speedups over C; the
    model's speedup on a log grid of C with the main run's η, and at each measured point
    with that point's own η; the speedups against the fair baseline (one rank with every
    thread); the model's break-even C and the measured crossing."""
    allreduce, sweep = record["allreduce"], record["c_sweep"]
    fit = allreduce["fit"]
    comparison = compare(record)
    low, high = min(sweep["c_ms"]), max(sweep["c_ms"])
    grid = [low * (high / low) ** (i / (points - 1)) for i in range(points)]
    return {
        "allreduce": {"sizes_bytes": allreduce["sizes_bytes"], "median_ms": allreduce["median_ms"],
                      "p10_ms": allreduce["p10_ms"], "p90_ms": allreduce["p90_ms"],
                      "fit_ms": [fit["ell_ms"] + 1000.0 * v / fit["bandwidth_bytes_per_s"]
                                 for v in allreduce["sizes_bytes"]],
                      "step_v_bytes": record["main"]["v_bytes"]},
        "speedup": {"c_ms": sweep["c_ms"], "measured": sweep["speedup"],
                    "measured_wide": sweep["speedup_wide"],
                    "model_own_eta": own_eta_speedups(record),
                    "grid_c_ms": grid,
                    "model": [model_speedup(record, c, comparison["eta_used"]) for c in grid],
                    "eta": comparison["eta_used"],
                    "break_even_c_ms": comparison["break_even_c_ms"]},
    }


# ---- the record ---------------------------------------------------------------------------

SWEEP_LISTS = ("hidden", "c_ms", "half_ms", "one_ms", "one_wide_ms", "two_ms", "eta", "speedup",
               "speedup_wide")
SWEEP_SAMPLES = ("c", "half", "one", "one_wide", "two")
#: What the record says of the operating system (``environment.scheduler``).
SCHEDULER_KEYS = ("kernel_tick_hz", "steal_share", "involuntary_switches_main")
ENVIRONMENT_KEYS = ("host", "device", "device_name", "cores_visible", "threads_per_rank",
                    "oversubscribed",
                    "interop_threads", "pinned_cores_rank0", "gpu",
                    "backend", "world_size", "nodes", "torch_version", "python_version",
                    "platform", "date")


#: The one-GPU probe's record (``measure.gpu_probe``): what one device measures of the split.
PROBE, PROBE_SCHEMA = "gpu-probe-h200", "measure-gpu-probe/1"
GPU_KEYS = ("cuda_version", "nccl_version", "driver_version", "gpu_names", "topology",
            "nccl_environment_variables", "tf32_matmul", "float32_matmul_precision")
#: GPU fields a record may hold under their earlier name: the NCCL_* environment variables were
#: ``nccl_variables`` in the records taken before they were labelled as such (the H200 probes).
GPU_KEYS_BEFORE = {"nccl_environment_variables": "nccl_variables"}
PROBE_QUANTITIES = ("s", "c", "one")


def check_gpu_fields(environment: dict, need) -> None:
    """A GPU record's environment names its GPUs, driver, CUDA, NCCL and TF32 setting
    (``GPU_KEYS`` under ``environment.gpu``; a field may have its earlier name,
    ``GPU_KEYS_BEFORE``), or ``need`` raises naming the missing field by its present name."""
    gpu = need(environment, "gpu", "environment")
    for key in GPU_KEYS:
        if not (isinstance(gpu, dict) and GPU_KEYS_BEFORE.get(key) in gpu):   # the earlier name
            need(gpu, key, "environment.gpu")


def check_record(record: dict) -> dict:
    """Raise ValueError naming the first missing or malformed field; return the record.

    The schema: the environment (``ENVIRONMENT_KEYS``); the protocol (warm-up and steady
    repetitions, shapes, dtype); the main run (``QUANTITIES``, each a ``summary``, with η and
    the message size); the all-reduce sweep and its fit; the C sweep and its crossing. Every
    number is finite."""
    need = needing("measurement record")
    if need(record, "schema", "record") != SCHEMA:
        raise ValueError(f"measurement record: schema must be {SCHEMA!r}; got {record['schema']!r}")
    environment = need(record, "environment", "record")
    for key in ENVIRONMENT_KEYS:
        need(environment, key, "environment")
    if not isinstance(environment["world_size"], int) or environment["world_size"] < 2:
        raise ValueError(f"measurement record: environment.world_size must be an integer ≥ 2 "
                         f"(a split needs two ranks); got {environment['world_size']!r}")
    if environment["device"] == "cuda":
        check_gpu_fields(environment, need)
    protocol = need(record, "protocol", "record")
    for key in ("warmup", "repeats", "dtype", "shapes", "quick", "baseline", "min_sample_ms",
                "min_c_ms", "duration_s"):
        need(protocol, key, "protocol")
    scheduler = need(environment, "scheduler", "environment")
    for key in SCHEDULER_KEYS:
        need(scheduler, key, "environment.scheduler")
    if len(scheduler["involuntary_switches_main"]) != environment["world_size"]:
        raise ValueError("measurement record: environment.scheduler.involuntary_switches_main "
                         "needs one count per rank")
    main = need(record, "main", "record")
    for quantity in QUANTITIES:
        stats = need(main, quantity, "main")
        for key in STATISTICS:
            need(stats, key, f"main.{quantity}")
    for key in ("eta", "v_bytes", "max_abs_difference"):
        need(main, key, "main")
    for quantity in QUANTITIES:
        if len(need(need(main, "samples_ms", "main"), quantity, "main.samples_ms")) != \
                main[quantity]["n"]:
            raise ValueError(f"measurement record: main.samples_ms.{quantity} needs "
                             f"main.{quantity}.n repetitions")
    trace = need(record, "trace", "record")
    for key in ("s_ms", "half_ms", "allreduce_ms"):
        if len(need(trace, key, "trace")) != environment["world_size"]:
            raise ValueError(f"measurement record: trace.{key} needs one value per rank")
        if len(need(need(trace, "repetitions", "trace"), key, "trace.repetitions")) != \
                environment["world_size"]:
            raise ValueError(f"measurement record: trace.repetitions.{key} needs one list per rank")
    need(trace, "wait_ms", "trace")      # None across nodes (no common clock)
    allreduce = need(record, "allreduce", "record")
    for key in ("sizes_bytes", "inner", "buffers", "last_level_cache_bytes", "median_ms",
                "p10_ms", "p90_ms", "ring_factor", "fit", "samples_ms"):
        need(allreduce, key, "allreduce")
    for key in ("ell_ms", "bandwidth_bytes_per_s", "r2", "weighting", "relative_residuals"):
        need(allreduce["fit"], key, "allreduce.fit")
    sweep = need(record, "c_sweep", "record")
    for key in (*SWEEP_LISTS, "crossing", "crossing_wide", "samples_ms"):
        need(sweep, key, "c_sweep")
    for key in SWEEP_SAMPLES:
        need(sweep["samples_ms"], key, "c_sweep.samples_ms")
    if len({len(sweep[k]) for k in SWEEP_LISTS} |
           {len(sweep["samples_ms"][k]) for k in SWEEP_SAMPLES}) != 1:
        raise ValueError("measurement record: the c_sweep lists differ in length")
    if len({len(allreduce[k]) for k in ("sizes_bytes", "buffers", "median_ms",
                                         "samples_ms")}) != 1:
        raise ValueError("measurement record: the allreduce lists differ in length")
    if any(not isinstance(count, int) or count < 2 for count in allreduce["buffers"]):
        raise ValueError(f"measurement record: allreduce.buffers must be integers ≥ 2 (each "
                         f"call sums a buffer the call before it did not); got "
                         f"{allreduce['buffers']!r}")
    if main["v_bytes"] not in allreduce["sizes_bytes"]:
        raise ValueError("measurement record: allreduce.sizes_bytes must hold the step's "
                         "main.v_bytes (V is measured, not only interpolated)")
    return strict(record, "measurement record")




def check_probe(record: dict) -> dict:
    """The one-GPU probe's record, or a ValueError naming its first missing or malformed
    field: the environment with its GPU fields (``GPU_KEYS``), and for each precision (fp32,
    tf32) the shapes, the medians of S, C, T₁ and each share of C, η per number of shares, and
    widths; every number finite."""
    need = needing("GPU probe record")
    if need(record, "schema", "record") != PROBE_SCHEMA:
        raise ValueError(f"GPU probe record: schema must be {PROBE_SCHEMA!r}; "
                         f"got {record['schema']!r}")
    environment = need(record, "environment", "record")
    for key in ENVIRONMENT_KEYS:
        need(environment, key, "environment")
    check_gpu_fields(environment, need)
    parts = need(need(record, "protocol", "record"), "parts", "protocol")
    for precision in ("fp32", "tf32"):
        run = need(record, precision, "record")
        need(need(run, "shapes", precision), "rows", f"{precision}.shapes")
        main = need(run, "main", precision)
        for quantity in (*PROBE_QUANTITIES, *(f"share_{n}" for n in parts)):
            need(need(main, quantity, f"{precision}.main"), "median_ms",
                 f"{precision}.main.{quantity}")
        for n in parts:
            need(need(run, "eta", precision), str(n), f"{precision}.eta")
        widths = need(run, "widths", precision)
        if len({len(need(widths, key, f"{precision}.widths"))
                for key in ("hidden", "c_ms", "half_ms", "eta_2")}) != 1:
            raise ValueError(f"GPU probe record: the {precision}.widths lists differ in length")
    return strict(record, "GPU probe record")


def load_probe(name: str = PROBE, directory: pathlib.Path = RECORDS) -> dict:
    """The one-GPU probe's record by name or path (``record_path``), checked."""
    return load(name, directory, check=check_probe)


def needing(what: str):
    """``need(mapping, key, where)``: ``mapping[key]``, or a ValueError naming ``what`` and the
    missing field (``where.key``) — the lookup both kinds of record are checked with."""
    def need(mapping, key, where):
        if not isinstance(mapping, dict) or key not in mapping:
            raise ValueError(f"{what}: {where}.{key} is missing")
        return mapping[key]
    return need


def strict(record: dict, what: str) -> dict:
    """``record``, if every number in it is finite (strict JSON); else a ValueError."""
    try:
        json.dumps(record, allow_nan=False)
    except ValueError:
        raise ValueError(f"{what}: a number is not finite (NaN or infinity)") from None
    return record


def record_path(name: str, directory: pathlib.Path = RECORDS) -> pathlib.Path:
    """Where record ``name`` is: ``<directory>/<name>.json``, or, for a name ending in .json
    (a record that `make measure OUT=DIR` wrote elsewhere), that file itself. A name with no
    record is refused with the names that exist."""
    if isinstance(name, str) and name.endswith(".json"):
        path = pathlib.Path(name).expanduser()
        if path.is_file():
            return path
        raise ValueError(f"record_name: no measurement record at {path}")
    path = pathlib.Path(directory) / f"{name}.json"
    if not isinstance(name, str) or "/" in name or not path.is_file():
        known = sorted(p.stem for p in pathlib.Path(directory).glob("*.json"))
        raise ValueError(f"record_name must name one of the book's measurement records "
                         f"({', '.join(known) or 'none here'}) or the path of a record file "
                         f"(….json, as `python -m measure` writes them); got {name!r}")
    return path


def load(name: str = COMMITTED, directory: pathlib.Path = RECORDS, check=None) -> dict:
    """A measurement record by name (``data/measurements/<name>.json``) or by path (see
    ``record_path``), checked by ``check`` (default ``check_record``)."""
    return (check or check_record)(json.loads(record_path(name, directory).read_text("utf-8")))


def write_record(path: pathlib.Path, record: dict, check=None) -> None:
    """Check the record (by ``check``, default ``check_record``) and write it as strict, sorted
    JSON, atomically: a temporary file in the same folder is renamed over ``path``, so a crash
    never leaves half a record."""
    text = json.dumps((check or check_record)(record), indent=1, sort_keys=True,
                      allow_nan=False) + "\n"
    atomic.write_text(pathlib.Path(path), text)

