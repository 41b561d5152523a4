"""The book's one entry point: every number of its three articles.

``run(**overrides)`` validates the parameters, asks the pure models in ``model/`` for their
results and returns them as plain JSON-able data; ``claims()`` sets every number the source
articles state beside the computed value; ``to_json`` writes them as strict, byte-stable JSON.
This file computes only: the figures are ``figures.py``, the files of data/ and the command line
``regenerate.py`` (which ``python experiment.py`` runs).

- model/split.py            article 1: when does splitting one operation over two devices pay off?
- model/tensor_parallel.py  article 2: tensor-parallel communication overhead
- model/parallel_theory.py  article 3: parallel computing theory (Amdahl, Gustafson, efficiency)
- model/claims.py           the ledger of the articles' stated numbers

Usage:  python experiment.py            regenerate data/ (JSON + SVG figures)
        python experiment.py --check    compare with data/, write nothing, exit 1 on drift
        python experiment.py --help     the parameters, with their defaults and ranges
        python experiment.py --out DIR --set c_ms=1   write a variant elsewhere
"""
from __future__ import annotations

import json
import math
import numbers
import sys

from model import claims as claims_model
from model import parallel_theory, split, tensor_parallel

# ---------------------------------------------------------------------------
# 1. Parameters: each article's, with units in the names and allowed ranges
# ---------------------------------------------------------------------------

#: Which parameters each article's notebooks expose (and papermill may set).
PARAMETER_GROUPS = {"split": split.PARAMETERS, "tp": tensor_parallel.PARAMETERS,
                    "theory": parallel_theory.PARAMETERS}
SPECS = {name: spec for group in PARAMETER_GROUPS.values() for name, spec in group.items()}
DEFAULTS = {name: spec.default for name, spec in SPECS.items()}
RANGES = {name: spec.allowed for name, spec in SPECS.items()}


def validate(overrides: dict) -> dict:
    """Return DEFAULTS updated with ``overrides``, or raise a clear error.

    Raises TypeError for a value of the wrong type (bool, str, None, a fraction where an
    integer is due) and ValueError for an unknown name or a value outside its range (NaN
    and infinity included). Every message names the parameter and its range.
    """
    unknown = sorted(set(overrides) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; "
                         f"valid names are: {', '.join(DEFAULTS)}")
    params = dict(DEFAULTS)
    for name, value in overrides.items():
        spec = SPECS[name]
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or (
                spec.integer and not isinstance(value, numbers.Integral)):
            raise TypeError(f"{name} must be {spec.allowed}; got {value!r} ({type(value).__name__})")
        if not math.isfinite(value) or not spec.contains(value):
            raise ValueError(f"{name} must be {spec.allowed}; got {value!r}")
        params[name] = int(value) if spec.integer else float(value) + 0.0   # -0.0 is 0
    return params


# ---------------------------------------------------------------------------
# 2. run(): every result as plain data
# ---------------------------------------------------------------------------

def run(**overrides) -> dict:
    """The three articles' results for the defaults updated with ``overrides``.

    Article 1's results sit at the top level (``r['matrix']``, ``r['cases']``, … as its
    closing snippet expects); articles 2 and 3 under ``tensor_parallel`` and
    ``parallel_theory``. Returns dicts, lists, numbers, booleans and ``None`` (where a
    threshold does not exist, next to a ``reason``); no NaN and no infinity.
    """
    p = validate(overrides)
    return {
        "parameters": p,
        **split.results(p),
        "tensor_parallel": tensor_parallel.results(p),
        "parallel_theory": parallel_theory.results(p),
    }


def claims(results: dict | None = None, measured: dict | None = None) -> list:
    """The claims ledger of the three articles, checked against the default parameters, and,
    given ``measured`` (measure.tp_analysis.ledger_values of a record), against what PyTorch's
    tensor parallelism communicates."""
    return claims_model.ledger(results if results is not None else run(), measured)


def verdicts(section: str, results: dict) -> list:
    """The qualitative claims of a book section (e.g. "split-04-break-even") that the parameters
    can move, decided for ``results`` and for the articles' own parameters (model/claims.py)."""
    return claims_model.verdicts(section, results, run())


# ---------------------------------------------------------------------------
# 3. Strict JSON
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


if __name__ == "__main__":
    # regenerate.py imports this module as `experiment`: let it find this very run of it
    # instead of loading the file a second time.
    sys.modules.setdefault("experiment", sys.modules["__main__"])
    try:
        from regenerate import main
        code = main()
    except ModuleNotFoundError as missing:   # the figures need matplotlib (imported when drawn)
        sys.exit(f"experiment.py: this Python ({sys.executable}) lacks {missing.name!r}, which "
                 "the figures need: run `make data` (it creates .venv from requirements.txt), or "
                 ".venv/bin/python experiment.py")
    sys.exit(code)
