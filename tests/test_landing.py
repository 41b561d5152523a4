"""The site's front door, _build/html/index.html (book/landing.html, filled in by
tools/build_book.py's landing()), as a reader meets it in Debian's headless Chromium: a browser
that names one of the book's languages is taken to that edition on a first visit and offered it
afterwards, one that names none is shown the four editions alike, a reader's own choice is kept,
and the page reads offline (from 127.0.0.1, from a file, under a path prefix), on a phone, with
or without JavaScript, in light and dark."""
from __future__ import annotations

import pathlib
import re

import axe_playwright_python
import pytest

from site_build import EDITIONS, HTML, PHONE, serve
from words import edition

DESKTOP = {"width": 1280, "height": 900}
#: axe-core's browser bundle and how it is run, as tests/test_site.py runs it on the editions.
AXE = pathlib.Path(axe_playwright_python.__file__).parent / "axe.min.js"
AXE_RUN = """async () => await axe.run(document, {resultTypes: ['violations'],
  rules: {'label-content-name-mismatch': {enabled: true}}})"""
#: The page a reader reaches through each edition's link: its front page.
FRONT = "{lang}/book/{lang}/index.html"
#: Long enough for a page that was going to move on by itself to have done so (the landing
#: page decides as it is parsed), and how long an expected arrival may take.
SETTLE_MS, ARRIVAL_MS = 700, 15_000
#: What the page shows, read in the page: the edition links, the "continue" link when shown,
#: every link's href as written, the widest element against the viewport.
SHOWN = """() => {
  const box = a => { const r = a.getBoundingClientRect();
                     return {width: r.width, height: r.height}; };
  const shown = a => a.getClientRects().length > 0 && getComputedStyle(a).visibility !== 'hidden';
  const go = document.getElementById('continue');
  return {
    editions: [...document.querySelectorAll('ul a')].map(a => ({
      hreflang: a.hreflang, lang: a.lang, href: a.getAttribute('href'), shown: shown(a),
      name: a.querySelector('.name').textContent, title: a.querySelector('.title').textContent,
      match: a.classList.contains('match'), ...box(a)})),
    go: go && shown(go) ? {href: go.getAttribute('href'), lang: go.lang, text: go.textContent,
                           ...box(go)} : null,
    hrefs: [...document.querySelectorAll('[href], [src]')]
      .map(e => e.getAttribute('href') ?? e.getAttribute('src')),
    links: [...document.querySelectorAll('a')].filter(shown).map(a => ({text: a.textContent.trim(),
                                                                         ...box(a)})),
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth};
}"""


class Tab:
    """A new browser profile (nothing stored yet: a first visit) with one tab, whose browser
    asks for ``locale``; records requests to any host other than the site's, console errors and
    warnings, page errors and failed responses."""

    def __init__(self, browser, base: str, locale: str, viewport: dict = DESKTOP,
                 mode: str | None = None, **options):
        self.base, self.context = base, browser.new_context(locale=locale, viewport=viewport,
                                                            **options)
        if mode is not None:   # the theme's mode, as an edition read before leaves it
            self.context.add_init_script(f"localStorage.setItem('mode', {mode!r})")
        self.page = self.context.new_page()
        self.external, self.errors = [], []
        self.page.on("request", lambda r: None if r.url.startswith((base + "/", "data:"))
                     else self.external.append(r.url))
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("response", lambda r: self.errors.append(f"{r.status} {r.url}")
                     if r.status >= 400 else None)

    def goes(self, to: str, path: str = "index.html", **goto) -> None:
        """Open ``path`` as a fresh visit (``goto``: Playwright's, such as a referer), or follow
        a link or go back before calling this with ``path=None``; wait until the tab is at
        ``to``, relative to the site."""
        if path is not None:
            self.page.goto(f"{self.base}/{path}", **goto)
        self.page.wait_for_url(f"{self.base}/{to}", timeout=ARRIVAL_MS)
        self.page.wait_for_load_state("load")

    def stays(self, path: str = "index.html", **goto) -> None:
        """Open ``path`` as ``goes`` does (or not, with ``path=None``) and check that the tab
        is still there once it has settled."""
        if path is not None:
            self.page.goto(f"{self.base}/{path}", **goto)
        self.page.wait_for_load_state("load")
        self.page.wait_for_timeout(SETTLE_MS)
        self.page.wait_for_load_state("load")
        assert self.page.url == f"{self.base}/{path or 'index.html'}", "the page moved on"

    def shown(self) -> dict:
        return self.page.evaluate(SHOWN)

    def close(self):
        self.context.close()


@pytest.fixture
def tabs(browser, site):
    """Opens Tabs on the served site; closes them after the test."""
    opened = []

    def tab(locale: str, viewport: dict = DESKTOP, mode: str | None = None, **options) -> Tab:
        opened.append(Tab(browser, site, locale, viewport, mode, **options))
        return opened[-1]
    yield tab
    for tab in opened:
        tab.close()


def test_a_spanish_browser_is_taken_to_spanish_once_then_offered_it(tabs):
    tab = tabs("es-ES")
    tab.goes(FRONT.format(lang="es"))
    # The landing page took no place in the history: Back returns to where the reader was.
    tab.page.go_back()
    assert tab.page.url == "about:blank"
    # A later visit offers Spanish first, with the other editions beside it, and waits.
    tab.stays()
    shown = tab.shown()
    assert shown["go"] is not None, "no 'continue' link for a Spanish browser"
    assert (shown["go"]["href"], shown["go"]["lang"]) == ("es/index.html", "es")
    assert shown["go"]["text"].startswith("Continuar en español")
    assert [e["hreflang"] for e in shown["editions"] if e["match"]] == ["es"]
    assert all(e["shown"] for e in shown["editions"]) and len(shown["editions"]) == len(EDITIONS)
    assert not tab.errors and not tab.external, tab.errors + tab.external


def test_the_readers_own_choice_wins_over_the_browsers(tabs):
    tab = tabs("es-ES")
    tab.stays(referer=f"{tab.base}/{FRONT.format(lang='es')}")
    tab.page.click("ul a[hreflang=en]")
    tab.goes(FRONT.format(lang="en"), path=None)
    # Chosen here, English is where the next visits go, though the browser asks for Spanish.
    tab.goes(FRONT.format(lang="en"))
    tab.goes(FRONT.format(lang="en"))


def test_a_browser_in_another_language_is_offered_every_edition_alike(tabs):
    tab = tabs("fr-FR")
    tab.stays()
    shown = tab.shown()
    assert shown["go"] is None and not any(e["match"] for e in shown["editions"])
    assert [(e["hreflang"], e["href"], e["name"], e["title"]) for e in shown["editions"]] == [
        (lang, f"{lang}/index.html", edition(lang)["edition"]["name"],
         edition(lang)["edition"]["title"]) for lang in EDITIONS]
    assert [e["lang"] for e in shown["editions"]] == list(EDITIONS.values())
    for lang in EDITIONS:
        tab.page.click(f"ul a[hreflang={lang}]")
        tab.goes(FRONT.format(lang=lang), path=None)
        tab.page.go_back()
        tab.goes("index.html", path=None)
    assert not tab.external, tab.external


def test_a_reader_who_came_to_choose_is_not_sent_on(tabs):
    """Reached by a link from a page of the book, or reloaded, the page offers and waits."""
    tab = tabs("es-ES")
    tab.stays(referer=f"{tab.base}/{FRONT.format(lang='en')}")
    assert tab.shown()["go"]["href"] == "es/index.html"
    tab.page.reload()
    tab.stays(path=None)
    # Back from an edition chosen here, then reloaded: the page stays, though it would take a
    # fresh visit straight to that edition.
    tab = tabs("es-ES")
    tab.goes(FRONT.format(lang="es"))
    tab.stays()
    tab.page.click("ul a[hreflang=en]")
    tab.goes(FRONT.format(lang="en"), path=None)
    tab.page.go_back()
    tab.stays(path=None)
    tab.page.reload()
    tab.stays(path=None)
    tab.goes(FRONT.format(lang="en"))


def test_without_javascript_the_page_is_the_editions_links(tabs):
    tab = tabs("es-ES", java_script_enabled=False)
    tab.stays()
    shown = tab.shown()
    assert shown["go"] is None
    assert [e["href"] for e in shown["editions"] if e["shown"]] == [f"{lang}/index.html"
                                                                    for lang in EDITIONS]


def test_the_page_opens_the_readers_language_from_a_file_and_under_a_path_prefix(browser,
                                                                                 tmp_path):
    (tmp_path / "some-prefix").symlink_to(HTML, target_is_directory=True)
    base, server = serve(tmp_path)
    try:
        for start in (f"{base}/some-prefix/", HTML.joinpath("index.html").as_uri()):
            tab = Tab(browser, base, "es-ES")
            try:
                tab.page.goto(start)
                tab.page.wait_for_url(start.removesuffix("index.html") + FRONT.format(lang="es"),
                                      timeout=ARRIVAL_MS)
            finally:
                tab.close()
    finally:
        server.shutdown()


#: The page's colours and fonts, and the editions' (the link: an edition's name here, a link in
#: an edition's text there).
LOOK = """link => { const body = getComputedStyle(document.body);
  return {background: body.backgroundColor, text: body.color, font: body.fontFamily,
          link: getComputedStyle(document.querySelector(link)).color}; }"""


@pytest.mark.parametrize("system, mode, look", [
    ("light", None, "light"), ("dark", None, "light"), ("light", "dark", "dark"),
    ("dark", "auto", "dark"), ("light", "auto", "light"), ("dark", "light", "light")])
def test_the_page_looks_as_the_editions_do(tabs, system, mode, look):
    """Light or dark as the editions are (the theme's mode kept in localStorage, else light,
    whatever the system's setting), in their colours and fonts."""
    tab = tabs("fr-FR", mode=mode, color_scheme=system)
    tab.stays()
    landing = tab.page.evaluate(LOOK, "ul a .name")
    tab.page.goto(f"{tab.base}/{FRONT.format(lang='en')}")
    assert landing == tab.page.evaluate(LOOK, ".bd-article a.reference")
    assert landing["background"] == {"light": "rgb(255, 255, 255)", "dark": "rgb(18, 18, 18)"}[look]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_page_reads_offline_and_accessibly(tabs, viewport, mode):
    """No request leaves the site, nothing is logged as an error, every link is relative, the
    page fits the screen, each link is a 24 px target at least (WCAG 2.5.8), and axe-core finds
    no serious violation: with no edition offered (French) and with one (Spanish)."""
    problems = []
    for locale in ("fr-FR", "es-ES"):
        tab = tabs(locale, viewport, mode)
        # Arrived from the book: the page offers the browser's language and stays.
        tab.stays(referer=f"{tab.base}/{FRONT.format(lang='en')}")
        shown = tab.shown()
        assert (shown["go"] is not None) == (locale == "es-ES")
        problems += [f"{locale}: requested {url}" for url in tab.external]
        problems += [f"{locale}: {error}" for error in tab.errors]
        problems += [f"{locale}: {href!r} is not relative" for href in shown["hrefs"]
                     if re.match(r"[a-z][a-z0-9+.-]*:|/", href, re.I)]
        if shown["scrollWidth"] > shown["innerWidth"]:
            problems.append(f"{locale}: {shown['scrollWidth']} px wide in {shown['innerWidth']}")
        problems += [f"{locale}: {link['text']!r} is {link['width']:.0f}×{link['height']:.0f} px"
                     for link in shown["links"] if min(link["width"], link["height"]) < 24]
        tab.page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        for violation in tab.page.evaluate(AXE_RUN)["violations"]:
            if violation["impact"] in ("serious", "critical"):
                problems.append(f"{locale}: axe {violation['id']} "
                                f"{[n['target'] for n in violation['nodes']][:3]}")
    assert not problems, "\n".join(problems)
