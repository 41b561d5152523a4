"""The whole parameter space, not only the defaults (Hypothesis, derandomised so the gate never
flakes): every parameter set inside the documented ranges gives strict JSON with finite
numbers, a ``null`` only beside a reason, the model's identities (recomputed here by hand),
and figures whose data lie inside their axes; every value outside is refused by name."""
import functools
import json
import math
import pathlib
import re

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

import experiment
from experiment import SPECS, run, to_json
from figures import drawn
import figures
import regenerate

GROUPS = experiment.PARAMETER_GROUPS


def magnitudes(spec):
    """Values of one parameter: its bounds, its default, and values spread over every decade
    of its range (log-uniform), so that tiny and huge magnitudes are as likely as the middle."""
    if spec.integer:
        spread = st.floats(0, math.log10(spec.high)).map(lambda e: min(spec.high, round(10 ** e)))
        return st.one_of(st.sampled_from([spec.low, spec.high, spec.default]), spread,
                         st.integers(spec.low, min(spec.high, 64)))
    low = spec.low if spec.low > 0 else 1e-9
    spread = st.floats(math.log10(low), math.log10(spec.high)).map(lambda e: 10 ** e).filter(
        lambda v: spec.low <= v <= spec.high)
    return st.one_of(st.sampled_from([spec.low, spec.high, spec.default]), spread,
                     st.floats(spec.low, spec.high))


def parameter_sets(group):
    """Overrides for one article: any subset of its parameters, each anywhere in its range."""
    return st.fixed_dictionaries({}, optional={name: magnitudes(SPECS[name]) for name in GROUPS[group]})


def comm_by_hand(p):
    """H = Q(ℓ + V/B), in ms, written out again here."""
    return p["q"] * (p["ell_ms"] + p["v_bytes"] / p["b_bytes_per_s"] * 1000)


def problems_in(data, path="results"):
    """Non-finite numbers, and nulls without a reason beside them, anywhere in ``data``."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if value is None and not key.endswith("reason"):
                reason = data.get("reason") or data.get(f"{key}_reason")
                if not (isinstance(reason, str) and reason):
                    found.append(f"{path}.{key} is null with no reason")
            found += problems_in(value, f"{path}.{key}")
    elif isinstance(data, (list, tuple)):
        for i, value in enumerate(data):
            found += problems_in(value, f"{path}[{i}]")
    elif isinstance(data, float) and not math.isfinite(data):
        found.append(f"{path} = {data}")
    return found


def assert_strict(results):
    assert problems_in(results) == []
    text = to_json(results)

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON")
    json.loads(text, parse_constant=refuse)


# ---------------------------------------------------------------------------
# run(): strict JSON, finite numbers, nulls with reasons, the model's identities
# ---------------------------------------------------------------------------

@settings(max_examples=300)
@given(parameter_sets("split"))
@example({"eta": 0.5})                                   # the split saves nothing: no C*, no B
@example({"eta": 1.0, "ell_ms": 0.0, "v_bytes": 0.0})    # free communication: H = 0
@example({"c_ms": 0.92})                                 # C = H = 4 × (0.03 + 0.2) ms
@example({"c_ms": 0.1})                                  # C < H
@example({"c_ms": 1e-6, "q": 10**6, "ell_ms": 1e9, "v_bytes": 1e15, "b_bytes_per_s": 1e3})
@example({"c_ms": 1e9, "eta": 0.5 + 1e-12, "q": 10**6, "v_bytes": 1e15, "b_bytes_per_s": 1e3})
@example({"s_ms": 1e9, "c_ms": 1e-6, "eta": 0.01, "ell_ms": 0.0, "v_bytes": 0.0})
def test_split_results_are_strict_and_follow_the_ledger(overrides):
    r = run(**overrides)
    assert_strict(r)
    p = r["parameters"]
    h = comm_by_hand(p)
    t1, t2 = p["s_ms"] + p["c_ms"], p["s_ms"] + p["c_ms"] / (2 * p["eta"]) + h
    assert r["ledger"]["two_ms"] == pytest.approx(t2, rel=1e-12)
    assert r["ledger"]["speedup"] == pytest.approx(t1 / t2, rel=1e-12)
    assert r["overlap"]["bound_ms"] <= r["ledger"]["two_ms"] * (1 + 1e-12)
    c_star = r["break_even"]["c_ms"]
    if p["eta"] <= 0.5:
        assert c_star is None and r["bandwidth"]["b_bytes_per_s"] is None
    else:
        # At C = C*, T1 = T2: S + C* = S + C*/(2η) + H, i.e. C*(1 − 1/(2η)) = H.
        assert c_star * (1 - 1 / (2 * p["eta"])) == pytest.approx(h, rel=1e-9)
    threshold = r["efficiency_threshold"][0]
    if p["c_ms"] > h:
        assert threshold["min_eta"] == pytest.approx(p["c_ms"] / (2 * (p["c_ms"] - h)), rel=1e-9)
    else:
        assert threshold["min_eta"] is None and threshold["reason"]


@settings(max_examples=200)
@given(parameter_sets("tp"))
@example({name: SPECS[name].low for name in GROUPS["tp"]})
@example({name: SPECS[name].high for name in GROUPS["tp"]})
@example({"tp_hidden": 1, "tp_flops_per_s": 1e21, "tp_bandwidth_bytes_per_s": 1e3,
          "tp_bytes_per_value": 64})
def test_tensor_parallel_results_are_strict_and_follow_the_article(overrides):
    r = run(**overrides)
    assert_strict(r)
    p, tp = r["parameters"], r["tensor_parallel"]
    # t* = A/C = (72·b·s·h²/P) / (4·b·s·h·d/B) = 18·h·B/(P·d), and E(t*) = 1/2.
    t_star = 18 * p["tp_hidden"] * p["tp_bandwidth_bytes_per_s"] / (
        p["tp_flops_per_s"] * p["tp_bytes_per_value"])
    assert tp["critical"]["t_star"] == pytest.approx(t_star, rel=1e-9)
    assert tp["critical"]["efficiency_at_t_star"] == pytest.approx(0.5, rel=1e-9)
    efficiency = [row["efficiency"] for row in tp["sweeps"]["versus_t"]]
    assert all(0 < e <= 1 for e in efficiency)
    assert all(a >= b for a, b in zip(efficiency, efficiency[1:]))   # E falls as t grows
    totals = [row["total_ms"] for row in tp["sweeps"]["versus_t"]]
    assert all(a >= b for a, b in zip(totals, totals[1:]))   # while T(t) = A/t + C keeps falling


@settings(max_examples=200)
@given(parameter_sets("theory"))
@example({"th_serial_fraction": 0.0})                    # no limit 1/f
@example({"th_serial_fraction": 1.0})                    # nothing to parallelise
@example({"th_devices": 1})                              # no serial fraction to infer
@example({"th_devices": 10**9, "th_single_device_days": 1e-6, "th_efficiency": 0.01})
def test_theory_results_are_strict_and_follow_amdahl(overrides):
    r = run(**overrides)
    assert_strict(r)
    p, training = r["parameters"], r["parallel_theory"]["training"]
    s, n = p["th_serial_fraction"], p["th_devices"]
    assert training["speedup"] == pytest.approx(1 / (s + (1 - s) / n), rel=1e-12)
    assert 1 - 1e-12 <= training["speedup"] <= n * (1 + 1e-12)
    if s > 0:
        assert training["speedup"] <= 1 / s * (1 + 1e-12)
        assert training["limit"] == pytest.approx(1 / s)
    else:
        assert training["limit"] is None
    assert training["gustafson_same_s"] == pytest.approx(n + s * (1 - n), rel=1e-12)


# ---------------------------------------------------------------------------
# Figures: drawn at any parameters, their data inside the axes
# ---------------------------------------------------------------------------

SECTIONS = pathlib.Path(__file__).resolve().parents[1] / "sections"
#: The file of each figure of figures.FIGURES, by the name of the function that draws it.
FIGURE_FILES = {draw.__name__: name for name, draw in figures.FIGURES.items()}


def figures_shown() -> dict:
    """Each article's figures, as its sections show them: a section belongs to the article its
    folder's prefix names (split-04-break-even to "split"), and shows each ``figures.figure_x``
    its code.py names (the file of figures.FIGURES that draws it, or the function's name where
    FIGURES has none). Read from the sections, so that a new figure is drawn here unlisted."""
    shown = {group: set() for group in GROUPS}
    for code in sorted(SECTIONS.glob("*/code.py")):
        group = code.parent.name.split("-")[0]
        for function in re.findall(r"\bfigures\.(figure_\w+)", code.read_text(encoding="utf-8")):
            shown.get(group, set()).add(FIGURE_FILES.get(function, function))
    return {group: tuple(sorted(names)) for group, names in shown.items()}


#: The figures the property tests below draw at each article's parameters.
FIGURES_OF = figures_shown()
INSIDE_SHARE = 0.8   # a curve may leave its axes for at most a fifth of its points (an asymptote)


def outside_axes(fig) -> list:
    """Where a figure fails to show its data: an empty panel, a curve mostly outside its
    axes, a bar or an annotated point outside them (in display pixels, 1 px of slack)."""
    fig.canvas.draw()
    found = []
    for number, ax in enumerate(fig.axes):
        box = ax.bbox

        def inside(points):
            x, y = points[:, 0], points[:, 1]
            ok = np.isfinite(x) & np.isfinite(y)
            return ok & (x >= box.x0 - 1) & (x <= box.x1 + 1) & (y >= box.y0 - 1) & (y <= box.y1 + 1)
        lines = [line for line in ax.get_lines() if len(line.get_xdata())]
        if not lines and not ax.patches:
            found.append(f"panel {number} is empty")
        for line in lines:
            points = line.get_transform().transform(
                np.column_stack([np.asarray(line.get_xdata(), float),
                                 np.asarray(line.get_ydata(), float)]))
            share = inside(points).mean()
            if share < INSIDE_SHARE or inside(points).sum() < min(2, len(points)):
                found.append(f"panel {number}: a line has {share:.0%} of its points inside the axes")
        for patch in ax.patches:
            extent = patch.get_window_extent()
            corners = np.array([[extent.x0, extent.y0], [extent.x1, extent.y1]])
            if not inside(corners).all():
                found.append(f"panel {number}: a bar lies outside the axes ({extent})")
        for text in ax.texts:
            if hasattr(text, "xy") and text.xycoords == "data":
                anchor = ax.transData.transform([text.xy])
                if not inside(anchor).all():
                    found.append(f"panel {number}: {text.get_text()!r} is anchored outside the axes")
    return found


def assert_figures_show_their_data(group, overrides):
    results = run(**overrides)
    for name in FIGURES_OF[group]:
        with drawn(figures.FIGURES[name], results) as fig:
            assert outside_axes(fig) == [], name


def test_every_figure_is_shown_by_an_articles_section():
    """Each figure of figures.FIGURES is shown by a section of an article, so the property
    tests below draw it; each figure a section shows is one of figures.FIGURES."""
    shown = {name for names in FIGURES_OF.values() for name in names}
    assert shown == set(figures.FIGURES), (
        f"no article's section shows {sorted(set(figures.FIGURES) - shown)}; sections show "
        f"{sorted(shown - set(figures.FIGURES))}, which figures.FIGURES does not name")


@functools.cache
def at_defaults(name: str) -> str:
    """A figure of figures.FIGURES at the default parameters, as SVG text."""
    return figures.FIGURES[name](run())


@pytest.mark.parametrize("group", GROUPS)
def test_a_figure_changes_only_with_the_parameters_of_the_article_showing_it(group):
    """The property tests draw a figure at the parameters of the article that shows it only: it
    must not change with another article's, at which none draws it."""
    highs = run(**{k: SPECS[k].high for k in GROUPS[group]})
    for name in sorted(set(figures.FIGURES) - set(FIGURES_OF[group])):
        assert figures.FIGURES[name](highs) == at_defaults(name), \
            f"{name} changes with the {group} parameters, but no {group} section shows it"


@settings(max_examples=12)
@given(parameter_sets("split"))
@example({"eta": 0.5})
@example({"c_ms": 0.1})
@example({"eta": 1.0, "ell_ms": 0.0, "v_bytes": 0.0})
@example({"c_ms": 1e-6, "q": 10**6, "ell_ms": 1e9, "v_bytes": 1e15, "b_bytes_per_s": 1e3})
@example({"c_ms": 1e9, "eta": 0.5 + 1e-12, "q": 10**6, "v_bytes": 1e15, "b_bytes_per_s": 1e3})
def test_split_figures_show_their_data(overrides):
    assert_figures_show_their_data("split", overrides)


@settings(max_examples=8)
@given(parameter_sets("tp"))
@example({name: SPECS[name].low for name in GROUPS["tp"]})
@example({name: SPECS[name].high for name in GROUPS["tp"]})
def test_tensor_parallel_figures_show_their_data(overrides):
    assert_figures_show_their_data("tp", overrides)


@settings(max_examples=8)
@given(parameter_sets("theory"))
@example({"th_serial_fraction": 0.0, "th_devices": 10**9})
@example({"th_serial_fraction": 1.0, "th_devices": 1})
def test_theory_figures_show_their_data(overrides):
    assert_figures_show_their_data("theory", overrides)


def test_the_figure_check_catches_a_clipped_curve():
    """The check is not vacuous: squeezing the axes around the default figure fails it."""
    with drawn(figures.figure_versus_c, run()) as fig:
        assert outside_axes(fig) == []
        fig.axes[0].set_xlim(0, 1)
        assert any("points inside the axes" in p for p in outside_axes(fig))


# ---------------------------------------------------------------------------
# Outside the ranges: refused by name, with the range
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SPECS))
def test_values_outside_a_range_are_refused_by_name(name):
    spec = SPECS[name]
    below = spec.low - 1 if spec.integer else (spec.low / 2 if spec.low > 0 else -1e-9)
    above = spec.high + 1 if spec.integer else spec.high * 2
    for value in (below, above) + (() if spec.integer else (math.nan, math.inf, 1e308, 1e-300)):
        if not spec.integer and spec.low <= value <= spec.high:
            continue
        with pytest.raises(ValueError) as info:
            run(**{name: value})
        assert str(info.value).startswith(f"{name} must be {spec.meaning}: ")
        assert f"in [{experiment.SPECS[name].allowed.split('[')[1]}" in str(info.value)


def test_the_reported_overflows_are_refused_on_the_command_line(capsys):
    """The values that used to end in NaN (c_ms = 1e308, B = 1e-300) stop with one line."""
    for assignment, name in (("c_ms=1e308", "c_ms"), ("b_bytes_per_s=1e-300", "b_bytes_per_s")):
        with pytest.raises(SystemExit) as info:
            regenerate.main(["--out", "/nonexistent/never-written", "--set", assignment])
        assert info.value.code == 2
        assert f"error: {name} must be " in capsys.readouterr().err
