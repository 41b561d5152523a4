"""A second engine: Firefox ESR (Debian's firefox-esr, headless) reads pages of each edition on
a 390 px phone. Firefox cannot be driven here (Playwright needs its own build), but its
``--screenshot`` is enough: a probe page holds the pages in 390 px frames, checks each one with
the layout checks of tests/test_site.py as it loads (before the probe's own load event, when
Firefox takes the screenshot), and paints each result as one square, green or red, in a grid at
its top left; the test reads the squares back from the screenshot."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from site_build import HTML, PHONE, SIDEWAYS_SELECTOR, build_once, serve

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
#: The pages read in each edition: the front page, a section with a wide table, code and a
#: formula, one with a two-panel figure, one with a formula-heavy table, and the claims ledger.
PAGES = ["book/{lang}/index.html", "notebooks/{lang}/split-04-break-even.html",
         "notebooks/{lang}/tp-05-scaling.html", "notebooks/{lang}/theory-03-amdahl.html",
         "book/{lang}/claims.html"]
#: What the probe checks in each page, in the order of its squares (left to right).
CHECKS = ["the page is no wider than the phone",
          "every formula is drawn (MathML with a size)",
          "every display formula starts inside its box (scrolled to its start)",
          "every table fits or scrolls sideways",
          "what scrolls sideways fades at its right edge",
          "every figure is drawn",
          "the language switcher is on the first screen"]
SQUARE = 12

PROBE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { margin: 0; } iframe { display: block; width: 390px; height: 844px; border: 0; }
canvas { position: fixed; top: 0; left: 0; z-index: 10; }</style>
<script>
const CHECKS = %(count)d, SQUARE = %(square)d;
function checks(w) {
  const d = w.document, article = d.querySelector('article');
  const shown = e => !e.closest('details:not([open])');
  const maths = [...article.querySelectorAll('math')].filter(shown);
  const boxes = [...article.querySelectorAll('div.math')].filter(b => shown(b) && b.querySelector('math'));
  const tables = [...article.querySelectorAll('table')].filter(shown);
  const wide = [...d.querySelectorAll('.sideways')];
  const links = [...d.querySelectorAll('.language-switcher a')];
  return [
    d.documentElement.scrollWidth <= w.innerWidth,
    maths.every(m => m.getBoundingClientRect().width > 0 && m.getBoundingClientRect().height > 0),
    boxes.every(b => { b.scrollLeft = 0;
      return b.querySelector('math').getBoundingClientRect().left >= b.getBoundingClientRect().left - 1; }),
    tables.every(t => { let box = t.parentElement;
      while (box !== article && !['auto', 'scroll'].includes(w.getComputedStyle(box).overflowX))
        box = box.parentElement;
      return t.getBoundingClientRect().right <= article.getBoundingClientRect().right + 1
        || (box !== article && box.scrollWidth > box.clientWidth); }),
    wide.length > 0 === [...d.querySelectorAll('%(sideways)s')]
        .some(b => b.scrollWidth > b.clientWidth + 1 && b.getClientRects().length > 0)
      && wide.every(b => b.classList.contains('more-right') && w.getComputedStyle(b).maskImage !== 'none'),
    [...article.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 0),
    links.length === 3 && links.every(a => { const r = a.getBoundingClientRect();
      return r.width > 0 && r.bottom <= %(height)d && r.right <= %(width)d; }),
  ];
}
function paint(row, results) {
  const c = document.querySelector('canvas').getContext('2d');
  results.forEach((ok, i) => { c.fillStyle = ok ? '#00ff00' : '#ff0000';
    c.fillRect(i * SQUARE, row * SQUARE, SQUARE, SQUARE); });
}
function probe(frame) {
  let results;
  try { results = checks(frame.contentWindow); } catch (e) { results = Array(CHECKS).fill(false); }
  paint(Number(frame.dataset.row), results);
}
</script></head><body>
<canvas width="%(canvas_width)d" height="%(canvas_height)d"></canvas>
%(frames)s
</body></html>"""


#: The editions, in the order of the probe's rows (PAGES of each in turn).
LANGS = ["zh", "es", "it", "en"]


def probe_page() -> str:
    """The probe for every edition's PAGES (served beside the site, under /site/), one row per
    page, the editions in the order of LANGS: one Firefox reads them all (each start of Firefox
    with a new profile took about a CPU-second)."""
    pages = [f"site/{lang}/" + p.format(lang=lang) for lang in LANGS for p in PAGES]
    frames = "\n".join(f'<iframe data-row="{row}" src="{page}" onload="probe(this)"></iframe>'
                       for row, page in enumerate(pages))
    return PROBE % {"count": len(CHECKS), "square": SQUARE,
                    "sideways": SIDEWAYS_SELECTOR,
                    "height": PHONE["height"], "width": PHONE["width"], "frames": frames,
                    "canvas_width": SQUARE * len(CHECKS), "canvas_height": SQUARE * len(pages)}


def read_squares(png) -> list:
    """The probe's grid read from its screenshot: one row per page (LANGS × PAGES), True
    (green), False (red) or None (not painted: the page's check never ran) per check."""
    from PIL import Image

    image = Image.open(png).convert("RGB")
    rows = []
    for row in range(len(LANGS) * len(PAGES)):
        squares = []
        for column in range(len(CHECKS)):
            r, g, b = image.getpixel((column * SQUARE + SQUARE // 2, row * SQUARE + SQUARE // 2))
            squares.append(True if g > 200 and r < 60 else False if r > 200 and g < 60 else None)
        rows.append(squares)
    return rows


def test_firefox_reads_every_edition_on_a_phone_without_the_defects_chromium_is_checked_for(tmp_path):
    """One Firefox reads every edition's PAGES in one probe (each start of Firefox with a new
    profile took about a CPU-second), served beside the built site (a link under site/) on
    127.0.0.1; every check of every page is green, and any that is not is named with its page."""
    if FIREFOX is None:
        if os.environ.get("AUDIT_REQUIRED"):
            pytest.fail("Firefox ESR is missing (tools/system-packages.sh installs it)")
        pytest.skip("Firefox ESR is not installed (Debian: apt-get install firefox-esr)")
    build_once()
    (tmp_path / "site").symlink_to(HTML, target_is_directory=True)
    (tmp_path / "probe.html").write_text(probe_page(), encoding="utf-8")
    base, server = serve(tmp_path)
    try:
        profile, shot = tmp_path / "profile", tmp_path / "probe.png"
        profile.mkdir()
        subprocess.run([FIREFOX, "--headless", "--no-remote", "--profile", str(profile),
                        f"--screenshot={shot}", f"--window-size={PHONE['width']},{PHONE['height']}",
                        f"{base}/probe.html"], check=True, capture_output=True, timeout=180)
    finally:
        server.shutdown()
    pages = [page.format(lang=lang) for lang in LANGS for page in PAGES]
    problems = [f"{pages[row]}: {'not checked' if ok is None else 'fails'}: {CHECKS[column]}"
                for row, squares in enumerate(read_squares(shot))
                for column, ok in enumerate(squares) if ok is not True]
    assert not problems, "\n".join(problems)
