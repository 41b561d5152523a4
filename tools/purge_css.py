"""The themes' stylesheets of a built edition cut by purgecss (npm, pinned in tools/purgecss/) to
the rules its pages and scripts can use.

Why: pydata-sphinx-theme ships 390 kB of CSS (Bootstrap included), sphinx-design 55 kB and
MyST-NB 43 kB; a page of this book uses about a tenth of it, yet must download and parse all of
it before it shows anything. Served whole, they block a page's first paint for 108-110 KiB
(compressed) instead of 49-51: Lighthouse's mobile performance on the 17 pages `make audit`
reads was 96-99 (median 99) cut and 93-98 (median 97) whole, two pages under the book's bar of
95, and tests/test_lighthouse.py's byte budgets were exceeded (2026-12-06, 2 cores, each page
measured cut and whole back to back).

purgecss reads every page and script of the edition (tools/purgecss/purge.mjs says how), so a
class that a script adds keeps its rules, and keeps licence comments (``/*! … */``). The
theme's whole file is kept outside the site (``originals``) the first time a build sees it, and
every cut starts from that whole file, never from a cut one; the cut's source map, which maps
the whole file, is removed. Each build cuts afresh, nothing kept between builds: about 0.7 s of
an edition's build or one-page rebuild (2 cores). Without node or purgecss (npm missing, or
`npm ci` not run) the site ships the whole files, and the build says so in one line.
"""
from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import atomic  # noqa: E402

#: The stylesheets cut, relative to a site's _static/ (a name ending in "*" is a prefix: MyST-NB
#: names its file by a digest). The book's own site.css is written for its pages and stays whole.
SHEETS = ("styles/pydata-sphinx-theme.css", "sphinx-design.min.css", "mystnb.*",
          "styles/sphinx-book-theme.css", "basic.css")
#: How a cut file starts (a @charset must come first), so that a build tells it from a fresh
#: copy of the theme's and never cuts a cut file again.
MARK = '@charset "UTF-8";\n/* cut to this site by purgecss (tools/purge_css.py) */\n'
#: purgecss as `npm ci --prefix tools/purgecss` installs it, and the script that runs it.
PURGECSS = ROOT / "tools" / "purgecss"
INSTALLED = PURGECSS / "node_modules" / "purgecss" / "package.json"
SCRIPT = PURGECSS / "purge.mjs"


def sheets(static: pathlib.Path) -> list:
    """The stylesheets of ``SHEETS`` that a site's _static/ holds."""
    found = []
    for name in SHEETS:
        found += sorted(static.glob(name)) if name.endswith("*") else [static / name]
    return [path for path in found if path.is_file() and path.suffix == ".css"]


def purge_site(site: pathlib.Path, originals: pathlib.Path) -> None:
    """Cut each stylesheet of ``SHEETS`` in ``site`` to what its pages and scripts use, from
    the whole file kept under ``originals`` at the same relative path (saved there when the
    site's copy is not a cut one: Sphinx copies the theme's whole files in every build)."""
    names = [path.relative_to(site).as_posix() for path in sheets(site / "_static")]
    for name in names:
        text = (site / name).read_text(encoding="utf-8")
        whole = originals / name
        if not text.startswith(MARK) and not (whole.is_file() and
                                              whole.read_text(encoding="utf-8") == text):
            atomic.write_text(whole, text)
    node = shutil.which("node")
    if node is None or not INSTALLED.is_file():
        for name in names:   # a cut left by an earlier build goes back to the whole file
            if (site / name).read_text(encoding="utf-8").startswith(MARK):
                atomic.write_text(site / name, (originals / name).read_text(encoding="utf-8"))
        print(f"{site.name}: the site ships the themes' whole stylesheets (about 60 KiB more "
              f"per page, compressed): {'node' if node is None else 'purgecss'} is not installed "
              f"(make book installs purgecss with npm ci --prefix tools/purgecss)", file=sys.stderr)
        return
    if names:
        subprocess.run([node, str(SCRIPT), str(site), str(originals), MARK, *names], check=True)
    for name in names:
        (site / (name + ".map")).unlink(missing_ok=True)   # it maps the whole file
