"""What a build computed, kept for the next one: a dict pickled whole in a file beside the
doctrees, read back as the next build starts (compiled_selectors.py keeps the theme's compiled
CSS selectors in one, formatted_citations.py the formatted bibliography). Not an extension of
its own."""
from __future__ import annotations

import pathlib
import pickle
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import atomic  # noqa: E402


class Kept:
    """The values kept in ``path`` (none where it is missing or was written by something else,
    such as another version of the code whose values it holds), and those made since."""

    def __init__(self, path: pathlib.Path):
        self.path, self.added = path, False
        try:
            self.values = pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            self.values = {}

    def get(self, key, make):
        """The value kept under ``key``; else ``make()``'s, kept from now on."""
        if key not in self.values:
            self.values[key] = make()
            self.added = True
        return self.values[key]

    def keep(self) -> None:
        """Write the values (whole, atomic.write_bytes) if any was made since they were read."""
        if not self.added:
            return
        atomic.write_bytes(self.path, pickle.dumps(self.values))
        self.added = False
