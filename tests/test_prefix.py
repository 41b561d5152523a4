"""The site under a path prefix, as GitHub Pages serves a project site
(https://<owner>.github.io/<repo>/): the built book served under /book-prefix/ only (any other
path answers 404), read in Debian's headless Chromium with every host but 127.0.0.1 blocked.
The landing page and its editions, the language switcher, each front page's PDF link and the
"your numbers" panel (Pyodide, the book's modules and the panel's service worker) must work
there: every request of each check stays under /book-prefix/ and none answers 4xx or 5xx, with
no console error or warning and no page error."""
from __future__ import annotations

import functools

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import words
from site_build import EDITIONS, built_site, needs_pyodide, serve

PREFIX = "/book-prefix"
#: The page the switcher and the panel are read on, in each edition's folder.
SECTION = "notebooks/{lang}/split-04-break-even.html"


@pytest.fixture(scope="module")
def site():
    """The built book served under PREFIX only; its base URL (http://127.0.0.1:PORT/book-prefix)."""
    with built_site(functools.partial(serve, prefix=PREFIX)) as base:
        assert base.endswith(PREFIX)
        yield base


class Visit:
    """A browser context of its own (by default a French reader's: the landing page matches
    none of the book's languages, so it stays put), recording every request of its pages and
    of their service worker with its response status, failed requests, console errors and
    warnings, and page errors."""

    def __init__(self, browser, base: str, locale: str = "fr-FR"):
        self.base = base
        self.context = browser.new_context(locale=locale)
        self.page = self.context.new_page()
        self.requests, self.statuses, self.failed, self.errors = [], [], [], []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.context.on("response", lambda r: self.statuses.append((r.status, r.url)))
        self.context.on("requestfailed", lambda r: None if r.failure == "net::ERR_ABORTED"
                        else self.failed.append(f"{r.failure} {r.url}"))
        self.context.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                        if m.type in ("error", "warning") else None)
        self.context.on("weberror", lambda e: self.errors.append(f"page error: {e.error}"))

    def open(self, url: str):
        """Load ``url`` (under the base, or relative to it); the page, once loaded."""
        response = self.page.goto(url if url.startswith("http") else f"{self.base}/{url}")
        assert response is not None and response.ok, url
        self.page.wait_for_load_state("load")
        return self.page

    def problems(self) -> list:
        """Everything wrong so far: a request outside the prefix (another host, another port,
        or this server outside /book-prefix/), a response 4xx or 5xx, a failed request, a
        console error or warning, a page error."""
        outside = [f"outside the prefix: {u}" for u in self.requests if u != self.base
                   and not u.startswith((self.base + "/", "data:", "blob:", "about:"))]
        return outside + [f"{status} {url}" for status, url in self.statuses if status >= 400] \
            + self.failed + self.errors

    def close(self):
        self.context.close()


@pytest.fixture
def visit(site, browser):
    """A Visit of the site under its prefix; what it recorded must be clean at the end."""
    visit = Visit(browser, site)
    try:
        yield visit
        visit.page.wait_for_load_state("networkidle")   # late requests (an icon) recorded too
        assert visit.requests, "nothing was requested"
        assert visit.problems() == []
    finally:
        visit.close()


def test_the_landing_page_and_its_four_editions_load_under_the_prefix(visit):
    """/book-prefix (no slash) leads to the landing page, /book-prefix/ and its index.html are
    it, and each of its four edition links leads to that edition's front page under the prefix,
    in the edition's language."""
    page = visit.open(visit.base)
    assert page.url == visit.base + "/"
    for landing in (visit.base + "/", visit.base + "/index.html"):
        page = visit.open(landing)
        assert page.url == landing, "a French reader's landing page moved on by itself"
        links = page.eval_on_selector_all("ul a[hreflang]",
                                          "as => as.map(a => [a.hreflang, a.href])")
        assert sorted(code for code, _ in links) == sorted(EDITIONS)
        for code, href in links:
            assert href == f"{visit.base}/{code}/index.html", href
    for code, href in links:
        page = visit.open(href)
        page.wait_for_url(f"{visit.base}/{code}/book/{code}/index.html")   # the edition's redirect
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == EDITIONS[code]


def test_a_reader_whose_language_the_book_has_is_led_to_it_under_the_prefix(site, browser):
    """A Spanish reader's fresh visits to /book-prefix/ (a browser that names "es" alone), the
    first and a later one: each time the landing page either goes on to the Spanish edition or
    offers it ("continue", followed here); either way, to /book-prefix/es/."""
    visit = Visit(browser, site, locale="es")
    try:
        front = f"{visit.base}/es/book/es/index.html"   # where es/index.html leads
        for _ in range(2):
            page = visit.open(visit.base + "/")
            page.wait_for_load_state("networkidle")
            if page.url == visit.base + "/":
                offered = page.eval_on_selector("#continue", "a => a.offsetParent ? a.href : null")
                assert offered == f"{visit.base}/es/index.html", "Spanish neither opened nor shown"
                page.click("#continue")
            try:
                page.wait_for_url(front, timeout=10000)
            except PlaywrightTimeout:
                pytest.fail(f"led to {page.url}, not {front}: {visit.problems()}")
            assert page.evaluate("document.documentElement.lang") == "es"
        assert visit.problems() == []
    finally:
        visit.close()


@pytest.mark.parametrize("lang", list(EDITIONS))
def test_the_language_switcher_leads_to_the_same_page_under_the_prefix(visit, lang):
    """On a section of the edition, each of the switcher's links is the same section in another
    edition under the prefix, and loads, in that edition's language."""
    page = visit.open(f"{lang}/{SECTION.format(lang=lang)}")
    links = page.eval_on_selector_all(".language-switcher a[hreflang]",
                                      "as => as.map(a => [a.hreflang, a.href])")
    assert sorted(code for code, _ in links) == sorted(set(EDITIONS) - {lang})
    for code, href in links:
        assert href == f"{visit.base}/{code}/{SECTION.format(lang=code)}", href
    for code, href in links:
        page = visit.open(f"{lang}/{SECTION.format(lang=lang)}")
        page.click(f".language-switcher a[hreflang={code}]")
        page.wait_for_url(href)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == EDITIONS[code]


#: Fetches each PDF link of the page as the browser would follow it: its address, status, type
#: and first bytes.
PDFS = """async () => await Promise.all([...document.querySelectorAll('article a[href$=".pdf"]')]
  .map(async (a) => { const r = await fetch(a.href);
    const head = new Uint8Array(await r.arrayBuffer()).slice(0, 5);
    return [a.href, r.status, r.headers.get('content-type'), String.fromCharCode(...head)]; }))"""


def test_each_front_pages_pdf_link_answers_under_the_prefix(visit):
    """Each edition's front page links its PDF, /book-prefix/<lang>/book-<lang>.pdf, which
    answers 200 with a PDF."""
    for lang in EDITIONS:
        page = visit.open(f"{lang}/book/{lang}/index.html")
        pdfs = page.evaluate(PDFS)
        assert pdfs, f"no PDF link on the {lang} front page"
        for href, status, kind, head in pdfs:
            assert (href, status, kind, head) == \
                (f"{visit.base}/{lang}/book-{lang}.pdf", 200, "application/pdf", "%PDF-")


@pytest.mark.long
def test_the_panel_starts_and_its_service_worker_is_scoped_under_the_prefix(visit):
    """Opened on a Spanish section, the panel starts the book's Python with Pyodide and book.zip
    fetched from /book-prefix/_pyodide/, and its service worker is registered from
    /book-prefix/your-numbers-sw.js for the scope /book-prefix/, with what it keeps (Pyodide
    and each edition's panel script) all under the prefix."""
    needs_pyodide()
    page = visit.open(f"es/{SECTION.format(lang='es')}")
    page.locator("details.your-numbers > summary").click()
    said = words.edition("es")["panel"]
    # Started, or given up (its status says why): not still loading.
    page.wait_for_function("s => !['', s].includes(document.querySelector('.your-numbers-status')"
                           ".textContent)", arg=said["loading"], timeout=180000)
    assert page.text_content(".your-numbers-status") == said["article_values"], visit.problems()
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "book.zip"):
        assert f"{visit.base}/_pyodide/{name}" in visit.requests, name
    worker = page.evaluate("""() => Promise.race([navigator.serviceWorker.ready.then(async (r) => ({
      scope: r.scope, script: r.active.scriptURL,
      kept: (await Promise.all((await caches.keys()).map(async (name) =>
        (await (await caches.open(name)).keys()).map((k) => k.url)))).flat()})),
      new Promise((done) => setTimeout(() => done({scope: 'none ready after 30 s'}), 30000))])""")
    assert worker["scope"] == visit.base + "/"
    assert worker["script"] == visit.base + "/your-numbers-sw.js"
    meant = {f"{visit.base}/_pyodide/{name}" for name in ("pyodide.mjs", "pyodide.asm.wasm",
                                                          "python_stdlib.zip", "book.zip")}
    meant |= {f"{visit.base}/{lang}/_static/your-numbers.js" for lang in EDITIONS}
    assert meant <= set(worker["kept"]), worker["kept"]
    assert [url for url in worker["kept"] if not url.startswith(visit.base + "/")] == []
