"""Writing a file so that it is either the old one or the new one, never half of either.

The text or bytes go to a temporary file in the same folder, which is then renamed over the target
(an atomic rename on POSIX); on any error the temporary file is removed and the target is
untouched. regenerate.py (data/), measure/analysis.py (a measurement record),
tools/notebooks.py (the notebooks) and tools/pdf_edition.py (the PDF) all write this way.
"""
from __future__ import annotations

import os
import pathlib
import tempfile


def write_text(path: pathlib.Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8, "\\n" line ends, mode 644), atomically; create its
    folder if needed."""
    _write(path, text, "w", encoding="utf-8", newline="\n")


def write_bytes(path: pathlib.Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (mode 644), atomically; create its folder if needed."""
    _write(path, data, "wb")


def _write(path: pathlib.Path, content, mode: str, **stream_options) -> None:
    """Write ``content`` to a temporary file beside ``path``, opened in ``mode``, and rename it
    over ``path``; on any error, remove it and leave ``path`` as it was."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, mode, **stream_options) as stream:
            stream.write(content)
        os.chmod(temporary, 0o644)   # mkstemp makes it private; these files are for reading
        os.replace(temporary, path)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise
