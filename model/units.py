"""Units, grids and the parameter ranges shared by the three articles' models."""
from __future__ import annotations

import math
from dataclasses import dataclass

MS_PER_S = 1000.0
BYTES_PER_GB = 1e9  # decimal gigabyte, as in the articles


def grid(start: float, stop: float, count: int) -> list:
    """``count`` evenly spaced values from start to stop inclusive."""
    step = (stop - start) / (count - 1)
    return [start + i * step for i in range(count)]


def log_grid(start: float, stop: float, count: int) -> list:
    """``count`` log-spaced values from start to stop inclusive."""
    return [10 ** v for v in grid(math.log10(start), math.log10(stop), count)]


def ring_factor(devices: int) -> float:
    """Bytes each of ``devices`` devices sends in a ring all-reduce, as a multiple of the
    message: 2(n − 1)/n (0 for a single device, which exchanges nothing)."""
    return 2 * (devices - 1) / devices


def readable(value: float) -> str:
    """A number as people type it on a command line: 0, 1, 0.01, 1e-6, 2e6, 1e9."""
    if value == 0 or 1e-3 <= abs(value) < 1e5:
        return f"{value:g}"
    mantissa, exponent = f"{value:e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


@dataclass(frozen=True)
class Parameter:
    """One assumed parameter of an article: its default, what it is, and its closed range.

    The ranges are wide enough for any real machine and narrow enough that every product
    and quotient the models form (and every figure's sweep) stays a finite double: a value
    outside them is refused by name rather than left to become infinity or NaN.
    """
    default: float
    meaning: str            # symbol, what it is and its unit, e.g. "C, the divisible time in ms"
    low: float
    high: float
    integer: bool = False

    @property
    def allowed(self) -> str:
        """The range in words, e.g. "C, the divisible time in ms: a real number in [1e-6, 1e9]"."""
        kind = "an integer" if self.integer else "a finite real number"
        return f"{self.meaning}: {kind} in [{readable(self.low)}, {readable(self.high)}]"

    def contains(self, value: float) -> bool:
        """Whether ``value`` (already known to be a finite number) lies in the range."""
        return self.low <= value <= self.high


def steps(values: list) -> list:
    """Differences between consecutive values (empty for fewer than two)."""
    return [b - a for a, b in zip(values, values[1:])]
