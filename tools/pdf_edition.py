"""An edition's PDF, from the pages of its HTML build: each page printed by headless Chromium on
its own (a "part"), kept with the digest of what it was printed from, printed again only when
that changed, and the parts merged in reading order.

So one changed notebook reprints one part, not the edition; every part starts on a new page
(no blank first page, no section running into the next); the merged PDF has one bookmark per
page, links between pages that lead to the page they name, and the edition's language.

_build/pdf/<lang>/<page>.pdf       a part (the page's name with "/" written as "__")
_build/pdf/<lang>/<page>.sha256    the digest it was printed from (see ``part_digest``)
_build/pdf/<lang>/printed.json     the parts the last build printed (tests read it)
"""
from __future__ import annotations

import functools
import hashlib
import html
import json
import os
import pathlib
import queue
import re
import threading
import urllib.parse
import warnings

import pikepdf

#: Headless Chromium as root on a machine without network, as the machine's notes advise (no
#: sandbox, no background traffic); tests/site_build.py reads pages with the same flags.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: How every part is printed; part of each part's digest, so a change here reprints them all.
PAGE_SETUP = {"format": "A4", "print_background": True,
              "margin": {"top": "18mm", "bottom": "18mm", "left": "16mm", "right": "16mm"}}
#: The media the pages are laid out for, from their load on (part of each part's digest).
MEDIA = "print"
#: Whether the page's own scripts run as it is printed (part of each part's digest). They print
#: nothing of their own: site.css hides in print what sphinx-book-theme.js marks .noprint, and
#: every part of the four editions printed the same sheets, links and fonts with them and
#: without them (tests/test_book.py checks two pages); without them a part costs a fifth less
#: CPU (0.34 against 0.43 CPU-s).
SCRIPTS = False
#: Run on each page before it is printed: the folded groups of the claims ledger open (a
#: reader of the PDF cannot unfold them). The code cells' "show code" boxes stay folded.
OPEN_GROUPS = "() => document.querySelectorAll('details.ledger-group').forEach(d => d.open = true)"
#: The log of the last build's printing, beside the parts.
PRINTED_LOG = "printed.json"


def part_file(parts: pathlib.Path, page: str) -> pathlib.Path:
    """Where the part of ``page`` (a document name such as notebooks/en/split-04-break-even) is kept."""
    return parts / (page.replace("/", "__") + ".pdf")


def printed_html(html_page: str) -> str:
    """The part of a page's HTML that its print shows or depends on: its <head> and its <main>
    (the article, its figures named by their digest, the print-only title and contents, the
    links to the neighbouring pages), with the version queries of its links taken out (Sphinx
    writes one only once the file is in _static, so a page's first rewrite adds them; the
    stylesheets' own bytes are digested instead). The contents sidebar, which names every
    page's title, is left out: print hides it, and a retitled page would otherwise reprint the
    whole edition."""
    head = html_page[html_page.index("<head>"):html_page.index("</head>")]
    main = html_page[html_page.index("<main "):html_page.index("</main>")]
    return re.sub(r'\?(?:v|digest)=[0-9a-f]+"', '"', head + main)


def part_digest(site: pathlib.Path, page: str) -> str:
    """What a part is printed from: the page setup, the media and the script run before
    printing, the printed part of the page's HTML and the stylesheets it links."""
    path = site / f"{page}.html"
    printed = printed_html(path.read_text(encoding="utf-8"))
    digest = hashlib.sha256(json.dumps([PAGE_SETUP, OPEN_GROUPS, MEDIA, SCRIPTS],
                                       sort_keys=True).encode())
    digest.update(printed.encode())
    for sheet in re.findall(r'<link rel="stylesheet"[^>]*href="([^"]+)"', printed):
        digest.update((path.parent / sheet).resolve().read_bytes())
    return digest.hexdigest()


def outdated(site: pathlib.Path, pages: list, parts: pathlib.Path) -> list:
    """The pages whose part is missing or was printed from something else."""
    def current(page: str) -> bool:
        stamp = part_file(parts, page).with_suffix(".sha256")
        return part_file(parts, page).exists() and stamp.exists() and \
            stamp.read_text() == part_digest(site, page)
    return [page for page in pages if not current(page)]


def print_tab(browser, scripts: bool = SCRIPTS):
    """A tab of ``browser`` for printing: in print media, so that each page is laid out for
    print from its load on (otherwise it is laid out for the screen on load and again for
    print: the same PDF, about a quarter slower), with the page's scripts run or not
    (``SCRIPTS``; OPEN_GROUPS runs either way)."""
    tab = browser.new_context(java_script_enabled=scripts).new_page()
    tab.emulate_media(media=MEDIA)
    return tab


def print_with(tab, site: pathlib.Path, pages: list, parts: pathlib.Path) -> None:
    """Print each of ``pages`` to its part in ``tab`` (``print_tab``), each written whole
    (through a temporary file) with the digest it was printed from. (Several browsers at once
    print no faster on this machine: most of each page's time is loading the theme's styles
    and scripts.)"""
    for page in pages:
        target, digest = part_file(parts, page), part_digest(site, page)
        tab.goto((site / f"{page}.html").resolve().as_uri())
        tab.evaluate(OPEN_GROUPS)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tab.pdf(path=str(tmp), **PAGE_SETUP)
        tmp.replace(target)
        target.with_suffix(".sha256").write_text(digest)


class Printer:
    """Headless Chromium, started in a thread of its own as soon as the printer is made, so that
    its start (about a second) overlaps what the caller does meanwhile: the Sphinx build whose
    pages it will print. ``start`` hands it the pages once and ``finish`` waits for them, not for
    Chromium to end, so that the caller merges the parts while it ends; ``close`` waits for that
    (a printer given nothing to print ignores a browser that failed to start: nothing needed
    it; and once the parts are written, Chromium failing as it ends loses nothing). Playwright's
    synchronous API stays on the thread that started it."""

    def __init__(self, chromium: str):
        self.jobs, self.done, self.given = queue.Queue(), queue.Queue(), False
        self.thread = threading.Thread(target=self._run, args=(chromium,), daemon=True)
        self.thread.start()

    def _run(self, chromium: str) -> None:
        from playwright.sync_api import sync_playwright
        answered = False
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                try:
                    tab = print_tab(browser)
                    job = self.jobs.get()
                    if job is not None:
                        print_with(tab, *job)
                    self.done.put(None)
                    answered = True
                finally:
                    browser.close()
        except BaseException as error:     # handed to the caller's thread, raised there
            if not answered:
                self.done.put(error)

    def start(self, site: pathlib.Path, pages: list, parts: pathlib.Path) -> None:
        """Start printing ``pages`` (``print_with``) in the printer's thread."""
        self.given = True
        self.jobs.put((site, pages, parts))

    def finish(self) -> None:
        """Wait for the pages ``start`` gave; raise what went wrong in the printer's thread."""
        error = self.done.get()
        if error is not None:
            self.thread.join()
            raise error

    def close(self) -> None:
        """End the printer (telling it first that there is nothing to print, if it was given
        nothing) and wait for Chromium to end."""
        if not self.given:
            self.given = True
            self.jobs.put(None)
            self.done.get()
        self.thread.join()


def page_title(site: pathlib.Path, page: str) -> str:
    """The page's first heading, as text (its bookmark in the PDF)."""
    found = re.search(r"<h1>(.*?)<a class=\"headerlink\"", (site / f"{page}.html").read_text(
        encoding="utf-8"), re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else page


@functools.lru_cache(maxsize=None)
def _local_target(uri: str) -> pathlib.Path | None:
    """The file a link of a part leads to, when it is a local file (Chromium writes the links
    of a page printed from disk as file:// addresses); kept, since the parts repeat their
    links (the contents on every page)."""
    parsed = urllib.parse.urlparse(uri)
    if parsed.scheme != "file":
        return None
    return pathlib.Path(urllib.parse.unquote(parsed.path)).resolve()


def _named_destinations(part: pikepdf.Pdf) -> dict:
    """A part's named destinations (the anchors of its page), as name → (page index, top)."""
    names = part.Root.get("/Names")
    if names is None or "/Dests" not in names:
        return {}
    index = {page.objgen: i for i, page in enumerate(part.pages)}
    found = {}
    for name, target in pikepdf.NameTree(names.Dests).items():
        array = target.get("/D", target) if isinstance(target, pikepdf.Dictionary) else target
        top = array[3] if len(array) > 3 and array[1] == pikepdf.Name.XYZ else None
        found[str(name)] = (index.get(array[0].objgen, 0), top)
    return found


#: The content-stream operators that put something on a sheet: text, images and forms, strokes,
#: shadings (Chromium starts every sheet by filling it white, one rectangle and one fill).
MARKS = {"Tj", "TJ", "'", '"', "Do", "S", "s", "B", "B*", "b", "b*", "sh"}


#: The operators ``blank`` reads: the marks and the fills (qpdf leaves the others out as it parses).
_READ = " ".join(sorted(MARKS | {"f", "f*"}))


def blank(sheet: pikepdf.Page) -> bool:
    """Whether a printed sheet shows nothing: no mark but the white fill of its background."""
    operators = [str(operator) for _, operator in pikepdf.parse_content_stream(sheet, _READ)]
    return not MARKS.intersection(operators) and operators.count("f") + operators.count("f*") <= 1


def merge(site: pathlib.Path, pages: list, parts: pathlib.Path, pdf: pathlib.Path, title: str,
          language: str) -> None:
    """Merge the parts of ``pages`` into ``pdf`` (written whole, through a temporary file): one
    bookmark per page; a part's trailing blank sheets (Chromium ends some pages with one) left
    out; a link to another page of the edition leads to that page's start; a link
    to an anchor of its own page, to the anchor; a link to any other file of the site (a
    download, data/), which a PDF cannot follow, is taken out and its words kept."""
    merged = pikepdf.Pdf.new()
    first_page, links, opened = {}, [], []
    for page in pages:
        part = pikepdf.Pdf.open(part_file(parts, page))
        opened.append(part)
        first_page[(site / f"{page}.html").resolve()] = len(merged.pages)
        while len(part.pages) > 1 and blank(part.pages[-1]):
            del part.pages[-1]
        anchors = _named_destinations(part)
        for offset, sheet in enumerate(part.pages):
            for number, annotation in enumerate(sheet.obj.get("/Annots", [])):
                if annotation.get("/Subtype") != pikepdf.Name.Link:
                    continue
                action = annotation.get("/A")
                uri = str(action.URI) if action is not None and "/URI" in action else None
                dest = annotation.get("/Dest")
                if isinstance(dest, (pikepdf.String, pikepdf.Name)) and str(dest) in anchors:
                    index, top = anchors[str(dest)]
                    links.append((len(merged.pages) + offset, number, ("at", len(merged.pages) + index, top)))
                elif uri is not None and (local := _local_target(uri)) is not None:
                    links.append((len(merged.pages) + offset, number, ("file", local)))
        with warnings.catch_warnings():   # named destinations are carried over above
            warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
            merged.pages.extend(part.pages)
    removed = {}
    for sheet, number, target in links:
        annotation = merged.pages[sheet].obj.Annots[number]
        if target[0] == "file":
            if target[1] not in first_page:
                removed.setdefault(sheet, set()).add(number)
                continue
            target = ("at", first_page[target[1]], None)
        _, index, top = target
        for key in ("/A", "/Dest"):
            if key in annotation:
                del annotation[key]
        annotation.Dest = pikepdf.Array([merged.pages[index].obj, pikepdf.Name.XYZ, None,
                                         top, None])
    for sheet, numbers in removed.items():
        annotations = merged.pages[sheet].obj.Annots
        merged.pages[sheet].obj.Annots = pikepdf.Array(
            [a for i, a in enumerate(annotations) if i not in numbers])
    with merged.open_outline() as outline:
        outline.root.extend(pikepdf.OutlineItem(page_title(site, page), first_page[
            (site / f"{page}.html").resolve()]) for page in pages)
    merged.Root.Lang = pikepdf.String(language)
    merged.docinfo[pikepdf.Name.Title] = title
    tmp = pdf.with_suffix(".pdf.tmp")
    merged.save(tmp)
    for part in opened:
        part.close()
    tmp.replace(pdf)


def print_edition(site: pathlib.Path, pages: list, parts: pathlib.Path, pdf: pathlib.Path,
                  title: str, language: str, printer: Printer, meanwhile=lambda: None) -> list:
    """Bring ``pdf`` up to date with the HTML pages of ``site``: print the parts of the pages
    that changed (with ``printer``, which the caller then closes: the merge runs while Chromium
    ends), merge when anything was printed or the PDF is missing, and log which parts were
    printed. ``meanwhile`` (the caller's other work) runs while Chromium prints. Returns those
    pages."""
    parts.mkdir(parents=True, exist_ok=True)
    kept = {part_file(parts, page).name for page in pages}
    for old in parts.glob("*.pdf"):   # the parts of pages the edition no longer has
        if old.name not in kept:
            old.unlink()
            old.with_suffix(".sha256").unlink(missing_ok=True)
    stale = outdated(site, pages, parts)
    if stale:
        printer.start(site, stale, parts)
    try:
        meanwhile()
    finally:
        if stale:
            printer.finish()
    if stale or not pdf.exists():
        merge(site, pages, parts, pdf, title, language)
    (parts / PRINTED_LOG).write_text(json.dumps({"printed": stale}, indent=1) + "\n")
    return stale
