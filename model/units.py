"""Units and grids shared by the three articles' models."""
from __future__ import annotations

import math

MS_PER_S = 1000.0
BYTES_PER_GB = 1e9  # decimal gigabyte, as in the articles


def grid(start: float, stop: float, count: int) -> list:
    """``count`` evenly spaced values from start to stop inclusive."""
    step = (stop - start) / (count - 1)
    return [start + i * step for i in range(count)]


def log_grid(start: float, stop: float, count: int) -> list:
    """``count`` log-spaced values from start to stop inclusive."""
    return [10 ** v for v in grid(math.log10(start), math.log10(stop), count)]
