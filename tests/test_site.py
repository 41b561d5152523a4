"""The site as a reader gets it, in a real browser: Debian's headless Chromium, driven by
Playwright, reading the built book from 127.0.0.1 with every other request blocked (what an
offline reader sees). Every page of every edition is opened; each check names its page."""
from __future__ import annotations

import fcntl
import io
import json
import os
import pathlib
import re
import urllib.parse

import axe_playwright_python
import pytest

import words
from local_server import Quiet
from site_build import (EDITIONS, HTML, PHONE, ROOT, SIDEWAYS_SELECTOR, chromium_launched,
                        needs_pyodide, pages, serve)

DESKTOP = {"width": 1280, "height": 900}
#: The heaviest a page may be, everything it loads included, uncompressed.
MAX_PAGE_BYTES = 1_000_000
#: Interface text that is the same in every language (names of editions, keys, file types).
NEUTRAL = {"English", "Español", "Italiano", "中文", "EN", "ES", "IT", "PDF", ".ipynb", ".pdf",
           "Ctrl", "K", "+", "Ctrl+K", "¶", "#", "Errata"}
#: axe-core's browser bundle, pinned in requirements.txt (the axe-playwright-python package).
AXE = pathlib.Path(axe_playwright_python.__file__).parent / "axe.min.js"
#: axe-core with its default rules plus label-content-name-mismatch, which it ships as
#: experimental (off by default): a control whose accessible name does not contain its visible
#: words, such as a summary labelled "Toggle hidden content" that shows "Mostrar el código".
AXE_RUN = """async () => await axe.run(document, {resultTypes: ['violations'],
  rules: {'label-content-name-mismatch': {enabled: true}}})"""
#: The editions in the order the tests take them: English first, so that its pages' interface
#: strings are kept before the other editions compare with them.
ORDER = ["en", *(lang for lang in EDITIONS if lang != "en")]
#: One word of each edition's own text that its search must find.
SEARCH_WORDS = {"zh": "带宽", "es": "banda", "it": "banda", "en": "bandwidth"}
#: The pages axe-core checks: in English, the front page, one section per article, the quiz and
#: the errata; in the other editions (the same templates, other words) the front page, the quiz
#: and the errata, where their interface words and the ledger's boxes are.
AXE_PAGES = {"en": ["book/{lang}/index", "notebooks/{lang}/split-03-ledger",
                    "notebooks/{lang}/tp-05-scaling", "notebooks/{lang}/theory-03-amdahl",
                    "notebooks/{lang}/tp-12-quiz", "book/{lang}/errata"],
             "other": ["book/{lang}/index", "notebooks/{lang}/tp-12-quiz", "book/{lang}/errata"]}

# JavaScript run in the page: what the checks below read.
MATH_REPORT = """() => [...document.querySelectorAll('article math')]
  .filter(m => !m.closest('details:not([open])'))
  .map(m => ({display: getComputedStyle(m).display, width: m.getBoundingClientRect().width,
              height: m.getBoundingClientRect().height, text: m.textContent.slice(0, 40)}))"""
PROSE_TEXT = """() => { const a = document.querySelector('article').cloneNode(true);
  a.querySelectorAll('pre, code, .highlight, script').forEach(e => e.remove());
  return a.textContent; }"""
#: The interface: text outside the article's prose, summaries and buttons inside it, and every
#: attribute a reader or a screen reader meets (titles, labels, placeholders, toggle hints).
INTERFACE_STRINGS = """() => {
  const out = new Set();
  const chrome = document.querySelectorAll(
    '.bd-header-article, .bd-footer-article, .bd-footer-content, .prev-next-area, #pst-skip-link,'
    + ' .search-button-field, .bd-sidebar-secondary .onthispage, .bd-search, #pst-back-to-top,'
    + ' article summary, article button');
  chrome.forEach(e => e.innerText.split('\\n').forEach(t => { t = t.trim(); if (t) out.add(t); }));
  // (a citation's title attribute is the reference itself, the same in every edition)
  document.querySelectorAll('[title]:not(a.reference), [aria-label], [placeholder], [data-toggle-hint]').forEach(e =>
    ['title', 'aria-label', 'placeholder', 'data-toggle-hint'].forEach(a => {
      const v = e.getAttribute(a); if (v && v.trim()) out.add(v.trim()); }));
  return [...out]; }"""


#: Every table of the article: whether it fits inside the article, and whether a horizontal
#: scroll container (pydata-sphinx-theme's .pst-scrollable-table-container) holds it.
TABLES = """() => [...document.querySelectorAll('article table')].map(t => {
  let box = t.parentElement;
  while (box && box.tagName !== 'ARTICLE' && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
    box = box.parentElement;
  return {fits: t.getBoundingClientRect().right <= document.querySelector('article').getBoundingClientRect().right + 1,
          scrolls: !!box && box.tagName !== 'ARTICLE' && box.scrollWidth > box.clientWidth,
          head: t.querySelector('th') ? t.querySelector('th').textContent.trim() : ''}; })"""


#: Every display formula of the article, scrolled to its start: where its start and end lie
#: against the box that holds it, and whether the box scrolls to what does not fit.
FORMULAS = """() => [...document.querySelectorAll('article div.math')]
  .filter(d => !d.closest('details:not([open])') && d.querySelector('math')).map(d => {
  d.scrollLeft = 0;
  const box = d.getBoundingClientRect(), m = d.querySelector('math').getBoundingClientRect();
  return {left: m.left - box.left, right: box.right - m.right, reach: d.scrollWidth - d.clientWidth,
          overflow: m.width - d.clientWidth, text: d.textContent.trim().slice(0, 30)}; })"""


def formulas_that_do_not_read(formulas: list, viewport: dict) -> list:
    """Display formulas (as FORMULAS reports them) whose start is cut off (to the left of their
    box, where no scrolling reaches), whose end cannot be scrolled to, or which fit and are not
    centred at 1280 px (the theme's row-reverse flex box set them flush right and cut their
    left part on a phone)."""
    problems = []
    for f in formulas:
        if f["left"] < -1:
            problems.append(f"formula {f['text']!r} starts {-f['left']:.0f} px out of reach "
                            f"at {viewport['width']} px")
        elif f["overflow"] > 1 and f["reach"] < f["overflow"] - 2:
            problems.append(f"formula {f['text']!r} scrolls {f['reach']} of {f['overflow']:.0f} px")
        if viewport is DESKTOP and f["overflow"] <= 0 and abs(f["left"] - f["right"]) > 2:
            problems.append(f"formula {f['text']!r} not centred ({f['left']:.0f} | {f['right']:.0f} px)")
    return problems


def tables_that_do_not_read(tables: list, viewport: dict) -> list:
    """Tables (as TABLES reports them) cut off: wider than the article at 1280 px, or wider and
    not scrollable at 390 px."""
    problems = []
    for table in tables:
        if viewport is DESKTOP and not table["fits"]:
            problems.append(f"table {table['head']!r} wider than the article at 1280 px")
        if viewport is PHONE and not table["fits"] and not table["scrolls"]:
            problems.append(f"table {table['head']!r} cut off at 390 px (no horizontal scroll)")
    return problems


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (site_build.chromium_launched), its idle tabs forgotten at the end."""
    with chromium_launched() as chromium:
        yield chromium
        for lent in [key for key in _IDLE_TABS if key[0] is chromium]:
            del _IDLE_TABS[lent]


#: The idle tabs of each browser's shared contexts, which Reader lends: "reading", for the
#: checks that only read pages, "panel", where the "your numbers" panel runs (its service
#: worker registered and Pyodide kept once it has, V8's code for Pyodide cached: a first start
#: costs about twice the CPU of a later one), and the cut-stylesheet check's "cut look" and
#: "whole look". A new tab starts a renderer process, about half a second of CPU, and the site
#: tests would open some seventy.
_IDLE_TABS: dict = {}


def _lent_tab(browser, context: str, viewport: dict, script: str | None = None):
    """An idle tab of ``browser``'s shared ``context`` at ``viewport`` (a new one when none is
    idle); ``script`` runs before each page of the context (given as the context is made)."""
    idle = _IDLE_TABS.setdefault((browser, context), {"context": None, "tabs": []})
    if idle["tabs"]:
        tab = idle["tabs"].pop()
    else:
        if idle["context"] is None:
            idle["context"] = browser.new_context(viewport=viewport)
            if script:
                idle["context"].add_init_script(script)
        tab = idle["context"].new_page()
    tab.set_viewport_size(viewport)
    return tab


class Reader:
    """One browser tab reading pages of the site in turn, as an offline reader would: any
    request for another host is recorded (and cannot resolve, see CHROMIUM_ARGS), and so are
    console messages, page errors and failed same-origin requests of the page being read;
    ``requested`` keeps every address requested since the reader was made.

    The tab is lent from one of the worker's shared contexts (``context``: "reading", "panel",
    or another name, with ``script`` run before each of its pages: see _IDLE_TABS) and given
    back, left on a blank page, by ``close``; a check that
    changes the tab or its context for good (a script run before each page, a route, a
    listener of its own, a context taken offline, a service worker it must see registered)
    takes a context of its own (``context="own"``)."""

    def __init__(self, browser, base: str, viewport: dict = DESKTOP, *, context: str = "reading",
                 script: str | None = None):
        self.base = base
        if context == "own":
            self.lent, self.context = None, browser.new_context(viewport=viewport)
            self.page = self.context.new_page()
        else:
            self.lent, self.context = (browser, context), None
            self.page = _lent_tab(browser, context, viewport, script)
        self.external, self.errors, self.broken, self.requested = [], [], [], []
        self.listeners = {
            "request": lambda r: (self.requested.append(r.url), None if r.url.startswith(base + "/")
                                  or r.url.startswith("data:") else self.external.append(r.url)),
            "console": lambda m: self.errors.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None,
            "pageerror": lambda e: self.errors.append(f"page error: {e}"),
            "response": lambda r: self.broken.append(f"{r.status} {r.url}")
            if r.status >= 400 else None}
        for event, listener in self.listeners.items():
            self.page.on(event, listener)

    def open(self, path: str) -> "Reader":
        """Load the page at ``path`` and put the pointer outside the tab, as a reader who has
        not yet moved it sees the page: Chromium's headless shell starts each page with the
        pointer at (0, 0), over whatever a layout puts there (the sidebar's links once a phone
        turns to 1280 px), and a click leaves it where it clicked; a hovered link drew another
        colour in one of two tabs that were to look the same."""
        self.external, self.errors, self.broken = [], [], []
        response = self.page.goto(f"{self.base}/{path}")
        assert response is not None and response.ok, path
        self.page.wait_for_load_state("load")
        self.page.mouse.move(-1, -1)   # after the load: a new document starts at (0, 0) again
        return self

    def weight(self, fetched_pages: bool = True, resources: list | None = None) -> int:
        """Bytes of the page and of every file it loaded, uncompressed, as stored on the site
        (cached or not: the browser's own list of resources, sized on disk; ``resources`` when
        already read). Without ``fetched_pages``, other pages of the site that its script
        fetched (the search page downloads each result's page to show a summary) are left out."""
        if resources is None:
            resources = self.page.evaluate(RESOURCES)
        urls = [self.page.url] + [u for u in resources
                                  if fetched_pages or not urllib.parse.urlparse(u).path.endswith(".html")]
        files = {HTML / urllib.parse.unquote(urllib.parse.urlparse(u).path).lstrip("/")
                 for u in urls if u.startswith(self.base + "/")}
        return sum(f.stat().st_size for f in files if f.is_file())   # a missing one is "broken"

    def close(self):
        if self.lent is None:
            self.context.close()
            return
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)
        self.page.goto("about:blank")
        _IDLE_TABS[self.lent]["tabs"].append(self.page)


def relative(page_file) -> str:
    return page_file.relative_to(HTML).as_posix()


def _interface_file(path: str) -> pathlib.Path:
    """Where this test run keeps the interface strings of the English page at ``path``, so that
    each English page is read once per run, not once per worker (the zh, es and it checks
    compare against them)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", str(os.getpid()))
    return HTML.parent / "interface-en" / run / (path.replace("/", "__") + ".json")


def remember_english_interface(path: str, strings: list) -> None:
    """Keep the interface strings of an English page read by the all-pages check."""
    target = _interface_file(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(sorted(strings)), encoding="utf-8")
    tmp.replace(target)


def english_interface(reader: "Reader", path: str) -> set:
    """The interface strings of the English edition's page at ``path``: as the English check
    kept them, or read now with ``reader`` (and kept) when that check has not reached it yet.
    The zh, es and it checks run at once on other workers: a lock lets one of them read the
    English page while the others wait for what it keeps, instead of each reading it again."""
    target = _interface_file(path)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not target.exists():
                remember_english_interface(path, reader.open(path).page.evaluate(INTERFACE_STRINGS))
    return set(json.loads(target.read_text(encoding="utf-8")))


#: The width of the contents sidebar on screen, in CSS px (0 when hidden).
SIDEBAR_WIDTH = """() => { const s = document.querySelector('#pst-primary-sidebar'),
  style = getComputedStyle(s);
  return style.display === 'none' || style.visibility === 'hidden' ? 0
    : s.getBoundingClientRect().width; }"""


#: The language switcher's links: whether each is rendered, and its box on screen.
SWITCHER = """() => [...document.querySelectorAll('.language-switcher a')].map(a => {
  const r = a.getBoundingClientRect(), s = getComputedStyle(a);
  return {shown: r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none',
          top: r.top, bottom: r.bottom, right: r.right}; })"""


def switcher_out_of_view(links: list, viewport: dict) -> list:
    """Switcher links (as SWITCHER reports them) missing or not fully inside the first screen."""
    problems = [] if len(links) == len(EDITIONS) - 1 else [f"{len(links)} switcher links"]
    for index, link in enumerate(links):
        if not link["shown"] or link["top"] < 0 or link["bottom"] > viewport["height"] or \
                link["right"] > viewport["width"]:
            problems.append(f"switcher link {index} out of view at {viewport['width']} px")
    return problems


#: The pages whose defects the checks of this file were written for, kept as screenshots at both
#: widths under _build/screens/<lang>/ for a person to look at what the checks checked: as the
#: check that reads every page reads them, and the search page (with the edition's word) as the
#: search check reads it.
SCREEN_PAGES = ["book/{lang}/index.html", "notebooks/{lang}/split-04-break-even.html",
                "notebooks/{lang}/tp-05-scaling.html", "notebooks/{lang}/theory-03-amdahl.html",
                "book/{lang}/claims.html"]
SCREENS = HTML.parent / "screens"
#: Run after a page's viewport changed: its style is worked out again for the new width, and the
#: transitions that starts (the theme slides its sidebars in and out) are run to their end, so
#: that what is read or shot next is the page at that width, not mid-way (the screens of a page
#: read at 1280 px, then at 390, showed the desktop's sidebars sliding out).
SETTLED = """() => { document.documentElement.getBoundingClientRect();
  document.getAnimations().forEach(a => { try { a.finish(); } catch (infinite) { a.cancel(); } }); }"""


def keep_screens(page, lang: str, path: str, viewport: dict) -> list:
    """Save the page's first screen at ``viewport``, and on a phone the whole page too, as PNG
    under SCREENS/<lang>/, named after ``path`` (within the edition) and the width. Returns the
    screens taken while something on the page still moved (SETTLED not run after a resize),
    not as wide as the viewport or showing nothing (their darkest pixel no darker than the
    page's background)."""
    from PIL import Image

    folder = SCREENS / lang
    folder.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"\W+", "-", path.split("?")[0].removesuffix(".html")).strip("-")
    shots = {f"{stem}-{viewport['width']}.png": False}
    if viewport is PHONE:
        shots[f"{stem}-{viewport['width']}-whole.png"] = True
    moving = page.evaluate("() => document.getAnimations().filter(a => a.playState === 'running')"
                           ".map(a => a.transitionProperty || a.animationName)")
    problems = [f"{stem} at {viewport['width']} px: shot while {moving} moved"] if moving else []
    for name, whole in shots.items():
        image = Image.open(io.BytesIO(page.screenshot(path=str(folder / name), full_page=whole))).convert("L")
        if image.width != viewport["width"] or image.getextrema()[0] > 100:
            problems.append(f"{name}: {image.size}, darkest {image.getextrema()[0]}")
    return problems


@pytest.mark.long
@pytest.mark.parametrize("lang", ORDER)
def test_every_page_reads_offline_in_its_own_language(site, browser, lang):
    """On every page of the edition: no request leaves the site, nothing errs or 404s, no icon
    font is downloaded (the theme's icons are drawn from inline SVG in site.css), every
    formula is drawn as MathML and no TeX is left raw, <html lang> is right, the page weighs at
    most 1 MB, the language switcher is in view without scrolling on a desktop and on a phone,
    tables fit at 1280 px and scroll at 390 px, display formulas are centred at 1280 px and
    readable from their start at 390 px (scrolling to the rest), no page wider than the viewport
    at either width (a long word in a heading made some 438 px wide on a phone), every figure as
    wide as its column at both, and (zh, es, it) no interface text of the
    English edition's same page appears; on the phone, no figure text is under 11 CSS px. The
    pages of SCREEN_PAGES are kept as screens at both widths (keep_screens) as they are read."""
    problems, figures, interfaces = [], 0, {}
    screened = {template.format(lang=lang) for template in SCREEN_PAGES}
    reader = Reader(browser, site)
    english = Reader(browser, site)   # a second tab, for the English pages to compare with
    try:
        for page_file in pages(lang):
            path = relative(page_file)
            page = reader.open(path).page
            read = page.evaluate(READ)
            found = [f"external request {u}" for u in reader.external] + reader.errors + \
                    [f"broken {b}" for b in reader.broken]
            found += [f"downloads the theme's icon font {u.rsplit('/', 1)[-1]}"
                      for u in read["resources"] if "/fontawesome/" in u]
            weight = reader.weight(resources=read["resources"])
            if weight > MAX_PAGE_BYTES:
                found.append(f"weighs {weight} bytes > {MAX_PAGE_BYTES}")
            if read["lang"] != EDITIONS[lang]:
                found.append(f"<html lang={read['lang']}>")
            for formula in read["math"]:
                if "math" not in formula["display"] or not formula["width"] or not formula["height"]:
                    found.append(f"formula not rendered: {formula}")
            raw = re.findall(r"\\\(|\\\[|\$\$|\\frac|\\eta|\\ell", read["prose"])
            if raw:
                found.append(f"raw TeX {raw[:3]}")
            if lang == "en":
                remember_english_interface(path, read["interface"])
            else:
                interfaces[path] = set(read["interface"])
            # Both widths, starting from the one the tab is at: one resize per page.
            first = page.viewport_size
            for viewport in ((DESKTOP, PHONE) if first == DESKTOP else (PHONE, DESKTOP)):
                if page.viewport_size != viewport:
                    page.set_viewport_size(viewport)
                    page.evaluate(SETTLED)
                layout = read if viewport == first else page.evaluate(LAYOUT)
                found += switcher_out_of_view(layout["switcher"], viewport)
                found += tables_that_do_not_read(layout["tables"], viewport)
                found += formulas_that_do_not_read(layout["formulas"], viewport)
                if layout["width"]["page"] > layout["width"]["viewport"]:
                    found.append(f"page {layout['width']['page']} px wide at "
                                 f"{layout['width']['viewport']} px {layout['width']['headings']}")
                found += figures_narrower_than_the_column(layout["figures"])
                if viewport is PHONE:
                    figures += len(layout["figures"])
                    found += figure_text_too_small(layout["figures"])
                if path.split("/", 1)[1] in screened:
                    found += keep_screens(page, lang, path.split("/", 1)[1], viewport)
            problems += [f"{path}: {problem}" for problem in found]
        # Compared once the edition is read: by then the English check, which runs beside this
        # one, has kept most English pages, which this one would otherwise load again.
        for path, interface in interfaces.items():
            same_page = "en/" + path.split("/", 1)[1].replace(f"/{lang}/", "/en/")
            leaked = (interface & english_interface(english, same_page)) - NEUTRAL
            problems += [f"{path}: English interface text {t!r}" for t in sorted(leaked)]
    finally:
        reader.close()
        english.close()
    assert figures >= 14, f"{figures} figures"
    assert not problems, "\n".join(problems)


#: The elements under the pointer, outermost first.
HOVERED = "() => [...document.querySelectorAll(':hover')].map(e => e.tagName)"


def test_every_page_is_read_with_the_pointer_outside_it(site, browser):
    """Reader.open loads each page with the pointer outside the tab, wherever the last page left
    it: after a phone's page turned to 1280 px (where the shell's pointer at (0, 0) is over the
    sidebar) and after a click on a link, nothing is hovered."""
    reader = Reader(browser, site, PHONE)
    try:
        path = relative(pages("es")[1])
        reader.open(path).page.set_viewport_size(DESKTOP)
        reader.page.evaluate(NEXT_FRAMES)
        assert reader.page.evaluate(HOVERED) == []
        reader.page.locator("a.reference.internal:visible").first.hover()
        assert reader.page.evaluate(HOVERED)[-1] == "A", "the check itself can see a hover"
        assert reader.open(path).page.evaluate(HOVERED) == []
    finally:
        reader.close()


#: Each glued number of a page's paragraphs against the paragraph it sits in: font weights.
NUMBER_WEIGHTS = """() => [...document.querySelectorAll('article p span.pasted-text')]
  .filter(s => !s.closest('strong, b, th, .admonition-title'))
  .map(s => [getComputedStyle(s).fontWeight, getComputedStyle(s.closest('p')).fontWeight])"""


def test_a_computed_number_reads_in_the_weight_of_its_sentence(site, browser):
    """MyST-NB sets every pasted value in bold: split-08 held about 25 bold numbers in one
    paragraph, and bold signalled nothing. A glued number outside the prose's own **…** has the
    weight of its paragraph, on screen (and the print rule no longer names it)."""
    reader = Reader(browser, site, DESKTOP).open("en/notebooks/en/split-08-executed.html")
    try:
        weights = reader.page.evaluate(NUMBER_WEIGHTS)
    finally:
        reader.close()
    assert len(weights) > 20, f"{len(weights)} glued numbers found in split-08's paragraphs"
    assert all(number == paragraph for number, paragraph in weights), sorted(set(map(tuple, weights)))


@pytest.mark.parametrize("lang", ORDER)
def test_the_navigation_toggle_works_on_a_phone_and_on_a_desktop(site, browser, lang):
    path = relative(pages(lang)[3])
    phone = Reader(browser, site, PHONE).open(path)
    try:
        toggle = phone.page.locator(".primary-toggle:visible")
        assert toggle.count() == 1, "one visible navigation toggle"
        toggle.click()
        dialog = phone.page.locator("#pst-primary-sidebar-modal")
        dialog.wait_for(state="visible", timeout=5000)
        assert dialog.evaluate("d => d.open"), "the contents open on a phone"
        assert dialog.locator("a.reference.internal").count() > 30, "the whole table of contents"
    finally:
        phone.close()
    desktop = Reader(browser, site, DESKTOP).open(path)
    try:
        assert desktop.page.evaluate(SIDEBAR_WIDTH) > 100, "the contents shown on a desktop"
        # The sidebar slides: wait for the end state, however long the machine takes (the
        # timeout only guards against a toggle that does nothing).
        desktop.page.locator(".primary-toggle:visible").click()
        desktop.page.wait_for_function(f"() => ({SIDEBAR_WIDTH})() < 1", timeout=15000)
        desktop.page.locator(".primary-toggle:visible").click()
        desktop.page.wait_for_function(f"() => ({SIDEBAR_WIDTH})() > 100", timeout=15000)
    finally:
        desktop.close()


@pytest.mark.parametrize("lang", ORDER)
def test_the_language_switcher_goes_to_the_same_page_of_each_edition(site, browser, lang):
    """A click on the switcher opens the same page in the next edition (every edition is clicked
    from and reached once; test_book checks every link of every page without a browser)."""
    other = ORDER[(ORDER.index(lang) + 1) % len(ORDER)]
    reader = Reader(browser, site).open(relative(pages(lang)[5]))
    try:
        with reader.page.expect_navigation():
            reader.page.locator(f'.language-switcher a[hreflang="{other}"]').click()
        url = urllib.parse.urlparse(reader.page.url).path
        assert url.endswith(pages(lang)[5].name) and f"/{other}/" in url, url
        assert reader.page.get_attribute("html", "lang") == EDITIONS[other]
    finally:
        reader.close()


#: True once the search page has shown its last result: Sphinx 7.4's searchtools then writes
#: the count line, which is empty until then. (Not the title: while searching it reads
#: "Searching" plus pulsing dots, a text that differs from "Searching" too; nor
#: ``_pulse_status``: a pulse already scheduled restarts it after the search stops.)
SEARCH_DONE = """() => { const line = document.querySelector('#search-results .search-summary');
  return !!line && line.innerText.trim().length > 0; }"""
#: Where each search form's magnifier ends and its query's text begins, in CSS px.
SEARCH_FIELDS = """() => [...document.querySelectorAll('form.bd-search')]
  .filter(f => f.checkVisibility()).map(f => {
    const icon = f.querySelector('i').getBoundingClientRect(), field = f.querySelector('input');
    return {icon: icon.right, text: field.getBoundingClientRect().left
            + parseFloat(getComputedStyle(field).paddingLeft)}; })"""
#: Words of a code cell: an assignment of the parameters cell (``tp_batch = 2``,
#: ``edition = "it"``) or a call of the page's helpers (``page.table(``).
CODE_IN_EXCERPT = re.compile(r"\b[a-z]+_[a-z_]+ = |\bedition = \"|\bpage\.\w+\(")


def magnifier_over_query(fields: list) -> list:
    """Search fields (as SEARCH_FIELDS reports them) whose query starts under the magnifier."""
    return [f"query text starts at {f['text']:.0f} px, under the magnifier (to {f['icon']:.0f} px)"
            for f in fields if f["text"] < f["icon"]]


@pytest.mark.parametrize("lang", ORDER)
def test_search_finds_the_editions_own_words(site, browser, lang):
    """The search page finds the edition's own word on several pages and says how many, in the
    edition's language (Sphinx's Italian left the line empty); its excerpts are prose, not the
    code cells' prompts and parameters (nor the print-only contents); the magnifier covers no
    query text, on the page or in the search dialog; nothing leaves the site. The search page
    with its results is kept as screens at both widths (keep_screens)."""
    word = SEARCH_WORDS[lang]
    prompt = words.edition(lang)["edition"]["nb_code_prompt_show"]
    reader = Reader(browser, site).open(f"{lang}/search.html?q={urllib.parse.quote(word)}")
    try:
        page = reader.page
        page.wait_for_function(SEARCH_DONE, timeout=60000)
        results = page.locator("#search-results ul.search li")
        summary = page.locator("#search-results .search-summary").inner_text()
        assert results.count() >= 3, f"{word}: {results.count()} results"
        assert str(results.count()) in summary, f"count line {summary!r}"
        assert "Search finished" not in summary or lang == "en", summary
        excerpts = page.locator("#search-results p.context").all_inner_texts()
        assert excerpts, "no excerpts"
        code = [e[:80] for e in excerpts if prompt in e or CODE_IN_EXCERPT.search(e)]
        assert not code, f"excerpts with code-cell words: {code}"
        problems = magnifier_over_query(page.evaluate(SEARCH_FIELDS))
        assert not reader.errors and not reader.external
        # The page with its scripts, styles and index; the result pages it fetches for their
        # summaries are pages of their own, each checked against the budget on its own.
        assert reader.weight(fetched_pages=False) <= MAX_PAGE_BYTES, "the search page is too heavy"
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            page.evaluate(SETTLED)
            problems += keep_screens(page, lang, f"search.html?q={urllib.parse.quote(word)}", viewport)
        page.set_viewport_size(DESKTOP)
        page = reader.open(relative(pages(lang)[3])).page   # (the search page has no dialog)
        page.locator(".search-button-field:visible").first.click()   # the sidebar's button
        page.locator("#pst-search-dialog form.bd-search").wait_for(state="visible", timeout=5000)
        problems += [f"dialog: {p}" for p in magnifier_over_query(page.evaluate(SEARCH_FIELDS))]
        assert not problems, problems
    finally:
        reader.close()


@pytest.mark.parametrize("lang", ORDER)
def test_axe_finds_no_serious_accessibility_violation(site, browser, lang):
    axe = AXE.read_text(encoding="utf-8")
    problems = []
    reader = Reader(browser, site)
    try:
        for template in AXE_PAGES["en" if lang == "en" else "other"]:
            path = template.format(lang=lang) + ".html"
            page = reader.open(f"{lang}/{path}").page
            page.add_script_tag(content=axe)
            result = page.evaluate(AXE_RUN)
            for violation in result["violations"]:
                if violation["impact"] in ("serious", "critical"):
                    targets = [n["target"] for n in violation["nodes"]][:3]
                    problems.append(f"{path}: {violation['id']} ({violation['impact']}) {targets}")
    finally:
        reader.close()
    assert not problems, "\n".join(problems)



#: The smallest text a figure may show on a 390 px phone, in CSS pixels.
MIN_FIGURE_TEXT_PX = 11
#: The figures a page shows (MyST-NB writes each SVG output to _images/ and shows it as <img>):
#: the file, its width on screen and the width of the column it sits in, in CSS px.
FIGURES_SHOWN = """() => [...document.querySelectorAll('article img')]
  .filter(i => i.src.endsWith('.svg'))
  .map(i => ({src: new URL(i.src).pathname, width: i.getBoundingClientRect().width,
              column: i.parentElement.getBoundingClientRect().width}))"""


def smallest_text_px(svg: str, width_px: float) -> float:
    """The smallest figure text of ``svg`` shown ``width_px`` wide, in CSS px. matplotlib draws
    text as glyph paths defined at size 100 and scaled by size/100 in each label's group, in the
    units of the viewBox."""
    view_width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) [\d.]+"', svg).group(1))
    scales = [float(s) for s in re.findall(
        r'<g id="text_\d+">\s*(?:<!--.*?-->\s*)?<g transform="[^"]*scale\(([\d.]+)', svg, re.S)]
    return 100 * min(scales) * width_px / view_width


def figures_narrower_than_the_column(shown: list) -> list:
    """The figures (as FIGURES_SHOWN lists them) that leave part of their column empty: drawn
    461 px wide, they stood as a narrow picture in a 690 px column on a desktop."""
    return [f"{figure['src']}: {figure['width']:.0f} px wide in a {figure['column']:.0f} px column"
            for figure in shown if figure["width"] < figure["column"] - 1]


def figure_text_too_small(shown: list) -> list:
    """The figures (as FIGURES_SHOWN lists them) whose smallest text is under the minimum."""
    problems = []
    for figure in shown:
        svg = (HTML / urllib.parse.unquote(figure["src"]).lstrip("/")).read_text(encoding="utf-8")
        size = smallest_text_px(svg, figure["width"])
        if size < MIN_FIGURE_TEXT_PX:
            problems.append(f"{figure['src']}: text {size:.1f} px < {MIN_FIGURE_TEXT_PX} px")
    return problems


#: What the all-pages check reads from a page, in one call: <html lang>, the formulas, the
#: prose, the interface strings, the files the page loaded, and its layout at the current width.
RESOURCES = "() => performance.getEntriesByType('resource').map(e => e.name)"
#: How wide the page is against the viewport, and the widest heading's words when they stick out.
WIDTH = """() => ({page: document.documentElement.scrollWidth, viewport: window.innerWidth,
  headings: [...document.querySelectorAll('article h1, article h2, article h3')]
    .filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.textContent.trim().slice(0, 40))})"""
LAYOUT = f"""() => ({{switcher: ({SWITCHER})(), tables: ({TABLES})(), formulas: ({FORMULAS})(),
  figures: ({FIGURES_SHOWN})(), width: ({WIDTH})()}})"""
READ = f"""() => ({{lang: document.documentElement.lang, math: ({MATH_REPORT})(),
  prose: ({PROSE_TEXT})(), interface: ({INTERFACE_STRINGS})(), resources: ({RESOURCES})(),
  ...({LAYOUT})()}})"""


#: Pages whose tables and code lines are wider than a phone (the Spanish and Italian split-04
#: tables were cut exactly between columns, so that T₁, T₂ and T₁/T₂ looked absent).
SIDEWAYS_PAGES = ["es/notebooks/es/split-04-break-even.html",   # a table, code, a formula
                  "it/notebooks/it/split-04-break-even.html",
                  "zh/notebooks/zh/split-03-ledger.html"]
#: The boxes of a page that scroll sideways (those sideways.js watches, by its own selector) and
#: are drawn (a folded code cell's lines are not), numbered for the locators below.
SIDEWAYS = f"""() => [...document.querySelectorAll('{SIDEWAYS_SELECTOR}')]
  .filter(b => b.scrollWidth > b.clientWidth + 1 && b.checkVisibility())
  .map((b, i) => {{ b.dataset.sideways = i; return i; }})"""
#: The fade switched off (to compare with what the page draws) while <html> is .plain.
PLAIN = "html.plain .sideways { -webkit-mask: none !important; mask: none !important; }"
#: Mean grey-level difference (0–255) between a box's edge as drawn and drawn without the fade,
#: above which the edge is faded and below which it is plain. A fade over text or a shaded cell
#: differs by 12–25 on average; drawn plain, only anti-aliasing differs (under 0.1).
FADED, PLAIN_AT_MOST = 2.0, 0.5


def _edge_fades(page, index: int) -> dict:
    """By edge ("left", "right"): True where the left or right 16 px of a sideways box (above
    its scrollbar) are drawn faded, False where drawn plain, None in between."""
    from PIL import Image, ImageChops

    box = page.locator(f'[data-sideways="{index}"]')
    box.scroll_into_view_if_needed()
    shots = {}
    for plain in (False, True):
        page.evaluate(f"() => document.documentElement.classList.toggle('plain', {str(plain).lower()})")
        r = box.bounding_box()
        for edge, x in (("left", r["x"]), ("right", r["x"] + r["width"] - 16)):
            png = page.screenshot(clip={"x": x, "y": r["y"], "width": 16,
                                        "height": max(r["height"] - 14, 4)})
            shots[edge, plain] = Image.open(io.BytesIO(png)).convert("L")
    page.evaluate("() => document.documentElement.classList.remove('plain')")
    fades = {}
    for edge in ("left", "right"):
        difference = ImageChops.difference(shots[edge, False], shots[edge, True])
        mean = sum(difference.histogram()[level] * level for level in range(256)) / \
            (difference.width * difference.height)
        fades[edge] = True if mean > FADED else False if mean < PLAIN_AT_MOST else None
    return fades


@pytest.mark.parametrize("path", SIDEWAYS_PAGES)
def test_what_scrolls_sideways_fades_where_more_of_it_lies(site, browser, path):
    """On a 390 px phone, each table, code cell and formula wider than the column is faded at its
    right edge (against the same box drawn without the fade) and plain at its left; scrolled to
    its end, the fade moves to the left edge and the right edge is drawn plain."""
    reader = Reader(browser, site, PHONE).open(path)
    try:
        page = reader.page
        page.add_style_tag(content=PLAIN)
        boxes = page.evaluate(SIDEWAYS)
        assert boxes, f"{path}: nothing wider than a phone"
        problems = []
        for index in boxes:
            found = _edge_fades(page, index)
            if found != {"left": False, "right": True}:
                problems.append(f"box {index} at its start: faded {found}")
            page.evaluate(f"""() => document.querySelector('[data-sideways="{index}"]')
                .scrollLeft = 1e6""")
            page.wait_for_function(f"""() => document.querySelector('[data-sideways="{index}"]')
                .classList.contains('more-left')""", timeout=5000)
            found = _edge_fades(page, index)
            if found != {"left": True, "right": False}:
                problems.append(f"box {index} at its end: faded {found}")
        assert not problems, f"{path}: " + "; ".join(problems)
    finally:
        reader.close()


#: Every element's computed style, its ::before and ::after included, in document order: each
#: standard property (the ~480 longhands every element has; custom properties, ~400 more, are
#: left out: they show only through the standard properties that use them, and the cut reorders
#: them). ``STYLE_DIGEST`` gives the number of elements and a SHA-256 of all their values (the
#: browser's own, so that a page's ~7 MB of style text never leaves it and is hashed natively;
#: the values only, in the order of ``names``, which is the browser's and the same in both
#: tabs: written with their names, the text was 25 MB on the claims page and took half as long
#: again); where two pages' digests differ, ``STYLE_HASHES`` gives a digest of each element, to
#: find which, and ``STYLES`` the elements at some indices, each property with its name.
STYLE_NAMES = """const names = [...getComputedStyle(document.documentElement)].filter(k => !k.startsWith('--'));"""
STYLE_VALUES = STYLE_NAMES + """
  const text = e => [null, '::before', '::after'].map(p => { const s = getComputedStyle(e, p);
    if (p && s.content === 'none') return '';
    const values = new Array(names.length);
    for (let i = 0; i < names.length; i++) values[i] = s.getPropertyValue(names[i]);
    return values.join(';'); }).join('|');"""
STYLES = "indices => { " + STYLE_NAMES + """
  const text = e => [null, '::before', '::after'].map(p => { const s = getComputedStyle(e, p);
    return p && s.content === 'none' ? '' : names.map(k => k + ':' + s.getPropertyValue(k)).join(';'); })
    .join('|');
  const all = document.querySelectorAll('*'); return indices.map(i => text(all[i])); }"""
STYLE_DIGEST = "async () => { " + STYLE_VALUES + """
  const all = [...document.querySelectorAll('*')];
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(all.map(text).join('\\n')));
  return all.length + ' ' + [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join(''); }"""
STYLE_HASHES = "() => { " + STYLE_VALUES + """
  const digest = t => { let a = 0x811c9dc5, b = 0;
    for (let i = 0; i < t.length; i++) { const c = t.charCodeAt(i); a = Math.imul(a ^ c, 16777619); b = (Math.imul(b, 31) + c) | 0; }
    return (a >>> 0).toString(16) + '.' + (b >>> 0).toString(16); };
  return [...document.querySelectorAll('*')].map(e => digest(text(e))); }"""

#: The pages whose look the cut is checked on: the front page, a section with a figure, a
#: formula and a table, the claims ledger with its groups, a quiz, and the search page showing
#: results, each in another edition.
CUT_PAGES = ["en/book/en/index.html", "zh/notebooks/zh/split-04-break-even.html",
             "es/book/es/claims.html", "it/notebooks/it/tp-12-quiz.html", "en/search.html?q=bandwidth"]


#: Run before each page of the cut-stylesheet check's tabs: the theme's mode (light or dark), as
#: a reader's earlier visit leaves it in localStorage for the next page (the site shows no switch;
#: the theme reads the mode as the page loads), taken from the cookie "look", which the check
#: sets before each page it loads (an init script stays with its context, which the check's tabs
#: keep from one page to the next).
MODE_FROM_COOKIE = """const look = document.cookie.match(/(?:^|; )look=(light|dark)/);
  if (look) localStorage.setItem('mode', look[1]);"""


#: Resolved two frames later: a resize reaches the page's "resize" listeners at its next frame
#: (sideways.js then marks the boxes that scroll at the new width), and a style digest taken
#: before that, on a loaded machine, caught one tab still marked for the phone (a fresh clone's
#: run: two code boxes masked in one tab at 1280 px and not in the other).
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _open_for_styles(reader: "Reader", path: str, dark: bool) -> None:
    """Open the page in the theme's dark mode if ``dark``, light if not (chosen before the page
    loads, so that no colour is caught mid-transition: the context's MODE_FROM_COOKIE reads
    it), shown (the search page with its results) and its folds open."""
    reader.page.context.add_cookies([{"name": "look", "value": "dark" if dark else "light",
                                      "url": reader.base}])
    reader.open(path)
    if "search.html" in path:
        reader.page.wait_for_function(SEARCH_DONE, timeout=30000)
        # Each result's excerpt is fetched after the list is complete: wait until none is
        # pending and the page stops growing (312 elements in one tab, 300 in the other).
        reader.page.wait_for_load_state("networkidle")
        counts = [-1]
        while counts[-1] != (count := reader.page.evaluate("() => document.querySelectorAll('*').length")):
            counts.append(count)
            reader.page.wait_for_timeout(300)
    assert reader.page.evaluate("() => document.documentElement.dataset.theme") == \
        ("dark" if dark else "light"), path
    reader.page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")


def _look(reader: "Reader", viewport: dict, dark: bool) -> str:
    """The STYLE_DIGEST of the page that ``reader`` shows, at ``viewport`` and in the theme's
    dark mode if ``dark``: the page is loaded again only for a change of mode (a change of
    width is a resize, as a reader turns a phone, whose listeners are let run: NEXT_FRAMES), and
    every transition the change started (the folds' opening, the sidebars' sliding) is run to
    its end first: on a busy machine 500 ms caught one mid-way (opacity 0.994 against 1)."""
    if reader.page.viewport_size != viewport:
        reader.page.set_viewport_size(viewport)
        reader.page.evaluate(NEXT_FRAMES)
    if reader.page.evaluate("() => document.documentElement.dataset.theme") != \
            ("dark" if dark else "light"):   # loaded again at this width
        _open_for_styles(reader, reader.page.url.removeprefix(reader.base + "/"), dark)
    reader.page.evaluate(SETTLED)
    return reader.page.evaluate(STYLE_DIGEST)


class _LookedAt(Quiet):
    """The built site for the cut-stylesheet check: without the "your numbers" panel's script
    (404: opening the panel starts Pyodide, which rewrites the page some seconds later, at
    another moment in each tab, so its form is compared as the page serves it), and, where
    ``whole`` names the themes' stylesheets as Sphinx wrote them (_build/whole-css), with each
    of those served in place of its cut copy. Served from a server of its own, so that the
    browser reads the pages as any other: a Playwright route on a tab sent every request
    through the test process and turned off the browser's cache (0.48 CPU-s a page against
    0.29)."""
    whole: pathlib.Path | None = None

    def translate_path(self, path: str) -> str:
        local = pathlib.Path(super().translate_path(path))
        if local.name == "your-numbers.js":
            return str(local.with_name("your-numbers.js.left-out"))
        if self.whole is not None and local.suffix == ".css":
            lang, _, rest = local.relative_to(HTML).as_posix().partition("/")
            whole = self.whole / lang / rest
            if whole.is_file():
                return str(whole)
        return str(local)


@pytest.fixture(scope="module")
def looked_at():
    """The site as built and with the themes' whole stylesheets, each on a server of its own
    (_LookedAt); yields their base URLs."""
    cut_base, cut = serve(HTML, _LookedAt)
    whole_base, whole = serve(HTML, type("Whole", (_LookedAt,), {"whole": ROOT / "_build" / "whole-css"}))
    try:
        yield cut_base, whole_base
    finally:
        cut.shutdown()
        whole.shutdown()


#: The number of rules of each stylesheet of the page, by file name.
SHEET_RULES = """() => Object.fromEntries([...document.styleSheets].filter(s => s.href)
  .map(s => [s.href.split('/').pop().split('?')[0], s.cssRules.length]))"""


@pytest.mark.long
@pytest.mark.parametrize("path", CUT_PAGES)
def test_the_cut_stylesheets_change_nothing_a_reader_sees(site, browser, looked_at, path):
    """The themes' stylesheets are cut to the rules that can match (tools/purge_css.py). With the
    themes' whole files served in their place, every element of the page, and its ::before and
    ::after, computes the same style: at 390 and 1280 px, light and dark, its folds open."""
    cut_base, whole_base = looked_at
    problems = []
    # Two tabs, lent from two contexts that the worker's cut-stylesheet checks share (a new tab
    # started a renderer process each time, about a second of CPU), taken through the three
    # looks in turn: the page loaded light at 390 px, turned to 1280 px, then loaded dark at
    # 390 px (a load for each look cost a third more CPU).
    cut_reader = Reader(browser, cut_base, PHONE, context="cut look", script=MODE_FROM_COOKIE)
    whole_reader = Reader(browser, whole_base, PHONE, context="whole look", script=MODE_FROM_COOKIE)
    try:
        for reader in (cut_reader, whole_reader):
            _open_for_styles(reader, path, dark=False)
        for viewport, dark in ((PHONE, False), (DESKTOP, False), (PHONE, True)):
            if _look(cut_reader, viewport, dark) == _look(whole_reader, viewport, dark):
                continue
            cut_hashes, whole_hashes = (reader.page.evaluate(STYLE_HASHES)
                                        for reader in (cut_reader, whole_reader))
            assert len(cut_hashes) == len(whole_hashes), f"{path}: another number of elements"
            differ = [i for i, (a, b) in enumerate(zip(cut_hashes, whole_hashes)) if a != b][:5]
            if not differ:
                problems.append(f"{viewport['width']} px{' dark' if dark else ''}: the pages' "
                                f"styles differ, though no element's digest does")
            else:
                for index, cut_style, whole_style in zip(differ, cut_reader.page.evaluate(STYLES, differ),
                                                         whole_reader.page.evaluate(STYLES, differ)):
                    a = set(cut_style.replace("|", ";").split(";"))
                    b = set(whole_style.replace("|", ";").split(";"))
                    problems.append(f"{viewport['width']} px{' dark' if dark else ''}, element "
                                    f"{index}: cut {sorted(a - b)[:3]} whole {sorted(b - a)[:3]}")
        cut_rules, whole_rules = (reader.page.evaluate(SHEET_RULES) for reader in (cut_reader, whole_reader))
    finally:
        cut_reader.close()
        whole_reader.close()
    # The whole tab read the whole files (from the server or the browser's cache), the cut one the cut.
    assert all(whole_rules[name] > cut_rules[name] for name in ("pydata-sphinx-theme.css",
                                                                "sphinx-design.min.css")), (cut_rules, whole_rules)
    assert not problems, f"{path}: " + "; ".join(problems[:5])


#: The claims ledger's groups as a phone shows them: each folded group's title, its number of
#: claims, and how many of them it shows once opened.
LEDGER_GROUPS = """async () => { const out = [];
  for (const group of document.querySelectorAll('article details.ledger-group')) {
    const shut = group.querySelector('li') ? group.querySelector('li').checkVisibility() : null;
    group.open = true;
    out.push({title: group.querySelector('summary').innerText.trim(), shut_shows: shut,
              items: [...group.querySelectorAll('li')].filter(li => li.checkVisibility()).length});
  }
  return out; }"""
#: At most how many phone screens the ledger page may fill with its groups folded (it filled
#: 32 (zh) to 60 (es) before, one claim after another).
LEDGER_SCREENS = 6


@pytest.mark.parametrize("lang", ORDER)
def test_the_ledger_reads_as_its_verdicts_by_status_and_article(site, browser, lang):
    """On a 390 px phone the claims page opens with every group folded: it fits in a few
    screens, each status box holds one group per article, titled with the article's name and its
    count; every group opened shows that many claims, and the counts add up to the ledger's
    claims (data/claims.json, independently of the page)."""
    claims = json.loads((ROOT / "data" / "claims.json").read_text(encoding="utf-8"))
    parts = words.edition(lang)["parts"]
    reader = Reader(browser, site, PHONE).open(f"{lang}/book/{lang}/claims.html")
    try:
        page = reader.page
        height = page.evaluate("() => document.documentElement.scrollHeight")
        assert height <= LEDGER_SCREENS * PHONE["height"], f"{height} px tall with its groups folded"
        groups = page.evaluate(LEDGER_GROUPS)
    finally:
        reader.close()
    assert len(groups) == len({(c["status"], c["article"]) for c in claims}), \
        [g["title"] for g in groups]
    problems, total = [], 0
    for group in groups:
        # (Sphinx writes the words' apostrophe as a typographic one)
        found = re.fullmatch(r"(.+) \((\d+)\)", group["title"].replace("’", "'"))
        if not found or found.group(1) not in {parts[p] for p in ("split", "tp", "theory")}:
            problems.append(f"group titled {group['title']!r}")
            continue
        count = int(found.group(2))
        total += count
        if group["shut_shows"] or group["items"] != count:
            problems.append(f"{group['title']}: shows {group['items']} claims opened "
                            f"(folded: {group['shut_shows']})")
    assert not problems, problems
    assert total == len(claims)


#: What the page of the "your numbers" panel shows that the book's Python recomputes: the texts
#: of each glued key (every element of a key), each table's body cells, the parameter line; the
#: figures dimmed and their notes; the panel's status line; whether the page is wider than the
#: screen.
PANEL_PAGE = """() => { const article = document.querySelector('article'), glued = {};
  for (const e of article.querySelectorAll('[data-key]'))
    glued[e.dataset.key] = [...new Set([...(glued[e.dataset.key] || []), e.textContent])];
  return {glued: glued, parameters: article.querySelector('.cell_output > p').textContent,
          tables: [...article.querySelectorAll('.cell_output table')].map(t =>
            [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent.trim()))),
          dimmed: article.querySelectorAll('.your-numbers-stale img').length,
          notes: [...article.querySelectorAll('.your-numbers-note')].map(n => n.textContent),
          status: document.querySelector('.your-numbers-status').textContent,
          wide: document.documentElement.scrollWidth > window.innerWidth}; }"""


def panel_page(lang: str, texts: dict, status: str) -> dict:
    """What PANEL_PAGE must read, its glued keys aside, on the panel's page in edition ``lang``
    when panel.py gave ``texts`` and the status line says ``status``."""
    words_of = words.edition(lang)
    stale = [] if texts["article_values"] else texts["figures"]
    return {"parameters": f"{words_of['words']['parameters']}{words_of['typography']['colon']} "
                          f"{texts['parameters']}",
            "tables": texts["tables"], "dimmed": len(stale),
            "notes": [words_of["panel"]["drawn_for_article"] for _ in stale],
            "status": status, "wide": False}


def test_the_your_numbers_panel_recomputes_the_page_with_the_books_python(site, browser):
    """Issue 19 on split-04 in Spanish, on a 390 px phone: folded, the panel loads nothing; opened
    from the keyboard, it loads Pyodide and the book's modules from the site alone, and every
    glued number, table cell, verdict and the parameter line equal what panel.py gives in CPython
    for the values typed (with the decimal comma), the figures dimmed with their note; a refused
    value shows the book's one-line message and changes nothing else; "the article's values"
    puts the page back. No console error, no request outside the site, axe finds nothing serious."""
    import panel

    needs_pyodide()
    section, lang = "split-04-break-even", "es"
    said = words.edition(lang)["panel"]
    reader = Reader(browser, site, PHONE, context="panel")
    requests = reader.requested
    try:
        page = reader.open(f"{lang}/notebooks/{lang}/{section}.html").page
        assert [u for u in requests if "_pyodide" in u or "your-numbers" in u] == []
        assert page.evaluate("() => document.querySelector('details.your-numbers').open") is False

        def shows(texts: dict, status: str) -> None:
            page.wait_for_function("s => document.querySelector('.your-numbers-status')"
                                   ".textContent === s", arg=status, timeout=180000)
            read = page.evaluate(PANEL_PAGE)
            glued = read.pop("glued")
            assert len(glued) >= 20 and all(len(t) == 1 for t in glued.values()), glued
            assert {key: t[0] for key, t in glued.items()} == \
                {key: texts["glued"][key] for key in glued}
            assert read == panel_page(lang, texts, status)

        article = panel.recompute(section, lang, {})
        page.locator("details.your-numbers > summary").focus()
        page.keyboard.press("Enter")
        shows(article, said["article_values"])

        typed = {"c_ms": "2,5", "b_bytes_per_s": "1000"}       # GB/s, the page's unit
        for name, text in typed.items():
            page.fill(f"#your-numbers-{name}", text)
        page.press("#your-numbers-b_bytes_per_s", "Enter")
        theirs = json.loads(panel.answer(section, lang, json.dumps(typed)))
        assert theirs["glued"]["c_ms"] == "2,5" and theirs["glued"]["verdict_small_c_more_devices_slower"]
        shows(theirs, said["recomputed"])

        page.fill("#your-numbers-c_ms", "-1")
        page.press("#your-numbers-c_ms", "Enter")
        refusal = panel.recompute(section, lang, {"c_ms": -1, "b_bytes_per_s": 1e12})["error"]
        shows(theirs, refusal)
        assert page.get_attribute("#your-numbers-c_ms", "aria-invalid") == "true"

        page.locator(".your-numbers-buttons button[type=reset]").click()
        shows(article, said["article_values"])
        assert page.get_attribute("#your-numbers-c_ms", "aria-invalid") is None
        assert any(u.endswith("/_pyodide/pyodide.asm.wasm") for u in requests)
        assert [u for u in requests if not u.startswith(site + "/")] == []
        assert not reader.external and not reader.errors and not reader.broken, \
            reader.external + reader.errors + reader.broken
        # last: axe-core fetches the page's stylesheets itself, one of them at a wrong address
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        axe = page.evaluate(AXE_RUN.replace("axe.run(document", "axe.run('details.your-numbers'"))
        assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in axe["violations"]
                if v["impact"] in ("serious", "critical")] == []
    finally:
        reader.close()


#: One section of each article: the panel's cross-check visits them in every edition.
CROSS_CHECKED = ("split-04-break-even", "tp-05-scaling", "theory-03-amdahl")


@pytest.mark.long
@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_the_panel_agrees_with_run_on_each_article_at_the_edges(site, browser, lang):
    """Issue 19's cross-check, in every edition, on one section of each article: the first of
    the article's parameters typed at the low end of its range and the second at the high end,
    in the edition's notation (panel.fields gives both ends as the edition writes them); every
    glued number, table cell and the parameter line then equal what panel.py gives in CPython
    for the same texts; only the site's own files are requested and the console stays clean."""
    import panel

    needs_pyodide()
    said = words.edition(lang)["panel"]
    reader = Reader(browser, site, PHONE, context="panel")
    requests = reader.requested
    try:
        for section in CROSS_CHECKED:
            page = reader.open(f"{lang}/notebooks/{lang}/{section}.html").page
            page.locator("details.your-numbers > summary").click()
            page.wait_for_function("s => document.querySelector('.your-numbers-status')"
                                   ".textContent === s", arg=said["article_values"], timeout=180000)
            low, high = panel.fields(section, lang)[:2]
            typed = {low["name"]: low["low"], high["name"]: high["high"]}
            for name, text in typed.items():
                page.fill(f"#your-numbers-{name}", text)
            page.locator(".your-numbers-buttons button[type=submit]").click()
            page.wait_for_function("s => document.querySelector('.your-numbers-status')"
                                   ".textContent === s", arg=said["recomputed"], timeout=60000)
            theirs = json.loads(panel.answer(section, lang, json.dumps(typed)))
            read = page.evaluate(PANEL_PAGE)
            glued = read.pop("glued")
            assert glued and {key: t[0] for key, t in glued.items()} == \
                {key: theirs["glued"][key] for key in glued}, section
            assert read == panel_page(lang, theirs, said["recomputed"]), section
        assert [u for u in requests if not u.startswith(site + "/")] == []
        assert not reader.external and not reader.errors and not reader.broken, \
            reader.external + reader.errors + reader.broken
    finally:
        reader.close()


def test_a_link_opens_the_panel_with_its_values_and_the_switcher_carries_them(site, browser):
    """Deliver 5: a link with values (?c_ms=2.5&b_bytes_per_s=1e12) opens the Spanish page with
    the panel open, its fields in the edition's notation (2,5) and the page recomputed for them;
    the language switcher takes them to the English page, recomputed there in its notation; "the
    article's values" clears them from the address."""
    import panel

    needs_pyodide()
    section, query = "split-04-break-even", "?c_ms=2.5&b_bytes_per_s=1e12"
    reader = Reader(browser, site, PHONE, context="panel")
    try:
        for lang, arrive in (("es", lambda page: page.goto(
                f"{site}/es/notebooks/es/{section}.html{query}")),
                             ("en", lambda page: page.locator(
                                 ".language-switcher a[hreflang=en]").first.click())):
            page = reader.page
            arrive(page)
            said = words.edition(lang)["panel"]
            page.wait_for_function("s => document.querySelector('.your-numbers-status')"
                                   "?.textContent === s", arg=said["recomputed"], timeout=180000)
            assert page.evaluate("() => document.querySelector('details.your-numbers').open")
            typed = json.loads(panel.from_link(lang, json.dumps({"c_ms": "2.5",
                                                                 "b_bytes_per_s": "1e12"})))
            assert page.input_value("#your-numbers-c_ms") == typed["c_ms"]
            theirs = json.loads(panel.answer(section, lang, json.dumps(typed)))
            glued = page.evaluate(PANEL_PAGE)["glued"]
            assert {key: t[0] for key, t in glued.items()} == \
                {key: theirs["glued"][key] for key in glued}
            assert page.url.endswith(f"/{lang}/notebooks/{lang}/{section}.html{query}")
        page.locator(".your-numbers-buttons button[type=reset]").click()
        page.wait_for_function("s => document.querySelector('.your-numbers-status').textContent"
                               " === s", arg=words.edition("en")["panel"]["article_values"])
        assert page.url.endswith(f"/en/notebooks/en/{section}.html")
        assert not reader.external and not reader.errors and not reader.broken, \
            reader.external + reader.errors + reader.broken
    finally:
        reader.close()


#: Starts Pyodide from the site's _pyodide/ as the panel does (book/_static/your-numbers.js), and
#: returns where each module it imported from its standard library came from.
STDLIB_STARTED = """async () => {
  const base = new URL(document.querySelector('details.your-numbers').dataset.pyodide, document.baseURI);
  const { loadPyodide } = await import(new URL('pyodide.mjs', base).href);
  const pyodide = await loadPyodide({ indexURL: base.href });
  return JSON.parse(pyodide.runPython(`import json, sys
stdlib = next(path for path in sys.path if path.endswith(".zip")) + "/"
json.dumps(sorted(m.__spec__.origin for m in list(sys.modules.values())
                  if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(stdlib)))`)); }"""


def test_pyodide_starts_with_the_bytecode_of_its_standard_library(site, browser):
    """The site's python_stdlib.zip (build_book.compiled_stdlib) holds the bytecode of the modules
    Pyodide imports as it starts: started from the site as the panel starts it, Pyodide imports a
    hundred modules or more from its standard library, none of them from source (compiling them
    was most of the panel's start)."""
    needs_pyodide()
    reader = Reader(browser, site, PHONE, context="panel")
    try:
        origins = reader.open("es/notebooks/es/tp-05-scaling.html").page.evaluate(STDLIB_STARTED)
    finally:
        reader.close()
    assert len(origins) >= 100, origins
    assert [origin for origin in origins if not origin.endswith(".pyc")] == []


@pytest.mark.long
def test_pyodide_is_kept_after_the_first_use_for_every_later_page(site, browser):
    """Deliver 6: once the panel has started, the panel's service worker keeps _pyodide/, and
    the next page's panel (another section, another edition), opened with the network gone,
    starts from what it kept; the pages themselves are served as always."""
    needs_pyodide()
    reader = Reader(browser, site, PHONE, context="own")
    try:
        page = reader.open("es/notebooks/es/split-04-break-even.html").page
        page.locator("details.your-numbers > summary").click()
        page.wait_for_function("s => document.querySelector('.your-numbers-status').textContent"
                               " === s", arg=words.edition("es")["panel"]["article_values"],
                               timeout=180000)
        assert page.evaluate("() => navigator.serviceWorker.ready.then((r) => !!r.active)")
        served = []
        page.on("response", lambda r: served.append((r.url, r.from_service_worker)))
        page = reader.open("zh/notebooks/zh/tp-05-scaling.html").page
        failed = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.wait_for_load_state("networkidle")   # the browser's own late requests (the icon)
        reader.context.set_offline(True)          # the page is here; the network is gone
        page.locator("details.your-numbers > summary").click()
        page.wait_for_function("s => document.querySelector('.your-numbers-status').textContent"
                               " === s", arg=words.edition("zh")["panel"]["article_values"],
                               timeout=180000)
        kept = {url.rsplit("/", 1)[1]: by_worker for url, by_worker in served if "/_pyodide/" in url}
        assert {"pyodide.asm.wasm", "python_stdlib.zip", "book.zip"} <= set(kept), kept
        assert all(kept.values()), kept
        pages = [by_worker for url, by_worker in served if url.endswith(".html")]
        assert pages and not any(pages)
        assert not reader.external and not reader.errors and not reader.broken, \
            reader.external + reader.errors + reader.broken + failed
    finally:
        reader.close()
