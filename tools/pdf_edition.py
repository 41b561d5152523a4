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

import base64
import fcntl
import functools
import hashlib
import html
import io
import json
import os
import pathlib
import queue
import re
import select
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import warnings

import pikepdf

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import atomic  # noqa: E402

#: Headless Chromium as root on a machine without network, as the machine's notes advise (no
#: sandbox, no background traffic); tests/site_build.py reads pages with the same flags. Text is
#: hinted slightly, as Debian's fontconfig has full Chromium do (10-hinting-slight.conf): the
#: headless shell takes its hinting from this switch alone, and without it drew Chinese a little
#: wider than Chromium does, so that some lines broke at another character.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--font-render-hinting=slight"]
#: Chromium's switches for printing besides those: no scrollbars (an element that overflows
#: by a pixel would print one on paper; Playwright, which printed before, hid them too), no
#: window but the printer's tab (a blank first one cost a fifth of a second of its start), and
#: each page loaded into the document the last one left rather than into a new one
#: (RenderDocument: a frame made anew for every page navigated to). Without RenderDocument, one
#: edition's 38 parts took about a fifth less time and a quarter less CPU (4.1-4.7 s against
#: 5.0-5.7 s, 5.5-6.2 against 7.5-8.0 CPU-s of the whole machine, in pairs run one after the
#: other), and the 152 parts of the four editions printed the same bytes but for their dates
#: (two parts differed in 60 bytes of a font's subset and drew the same pixels, pdftoppm at 60
#: dpi).
PRINT_ARGS = ["--headless", "--hide-scrollbars", "--no-startup-window",
              "--disable-features=RenderDocument"]
#: Inches in a millimetre.
MM = 1 / 25.4
#: How every part is printed (Chromium's Page.printToPDF: ISO A4, lengths in inches; untagged,
#: as the merge keeps no structure tree); part of each part's digest, so a change here reprints
#: them all.
PAGE_SETUP = {"paperWidth": 210 * MM, "paperHeight": 297 * MM, "printBackground": True,
              "marginTop": 18 * MM, "marginBottom": 18 * MM, "marginLeft": 16 * MM,
              "marginRight": 16 * MM, "generateTaggedPDF": False}
#: The window the pages are laid out in before print (what Playwright's pages had), in CSS px.
WINDOW = {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False}
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
OPEN_GROUPS = "document.querySelectorAll('details.ledger-group').forEach(d => d.open = true)"
#: How a part is kept (part of each part's digest): a change of form prints them all again.
PART_FORM = "without its trailing blank sheets"
#: The log of the last build's printing, beside the parts.
PRINTED_LOG = "printed.json"
#: The longest wait for one answer of Chromium (a page's load, its print), in seconds.
ANSWER_S = 120


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
    printing, the form it is kept in, the printed part of the page's HTML and the stylesheets
    it links."""
    path = site / f"{page}.html"
    printed = printed_html(path.read_text(encoding="utf-8"))
    digest = hashlib.sha256(json.dumps([PAGE_SETUP, OPEN_GROUPS, MEDIA, SCRIPTS, PART_FORM],
                                       sort_keys=True).encode())
    digest.update(printed.encode())
    for sheet in re.findall(r'<link rel="stylesheet"[^>]*href="([^"]+)"', printed):
        with open(os.path.join(path.parent, sheet), "rb") as stylesheet:
            digest.update(stylesheet.read())
    return digest.hexdigest()


def outdated(site: pathlib.Path, pages: list, parts: pathlib.Path) -> list:
    """The pages whose part is missing or was printed from something else."""
    def current(page: str) -> bool:
        stamp = part_file(parts, page).with_suffix(".sha256")
        return part_file(parts, page).exists() and stamp.exists() and \
            stamp.read_text() == part_digest(site, page)
    return [page for page in pages if not current(page)]


def _above_9(fd: int) -> int:
    """The same open file at a descriptor above 9 (``fd`` closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Printer:
    """Headless Chromium, driven through its DevTools pipe (``--remote-debugging-pipe``: the
    protocol's JSON messages, each ended by a NUL byte, on the browser's file descriptors 3 and
    4). It starts, and opens the tab it prints in, as the printer is made, so that its start
    overlaps the caller's Sphinx build; ``end`` asks it to end and ``close`` waits for that. A
    printer that never prints ignores a Chromium that failed to start: nothing needed it.
    (Playwright, which printed before, cost a quarter of a second to import and a Node.js
    process of its own in every build, for the three calls a part needs: a full build of one
    edition took a tenth less time, and the parts print the same sheets.)"""

    def __init__(self, chromium: str, scripts: bool = SCRIPTS):
        self.chromium, self.scripts, self.tab = chromium, scripts, None
        self.log = tempfile.TemporaryFile()
        self.profile = tempfile.TemporaryDirectory(prefix="printer-")   # a profile of its own
        to_browser, self.writer = os.pipe()
        self.reader, from_browser = os.pipe()
        # The shell puts the pipe's ends where Chromium looks for them, then becomes Chromium;
        # they are moved above 9 first, so that neither is 3 or 4 already.
        to_browser, from_browser = (_above_9(fd) for fd in (to_browser, from_browser))
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_browser} 4>&{from_browser} '
                           f'{to_browser}<&- {from_browser}>&-', chromium,
             *PRINT_ARGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile.name}",
             *CHROMIUM_ARGS],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            pass_fds=(to_browser, from_browser))
        os.close(to_browser)
        os.close(from_browser)
        self.unread, self.asked, self.events = b"", 0, []
        # The tab is opened as Chromium starts, beside the caller's build (Chromium's answers
        # are waited for outside the GIL); a failure is raised only if something is printed.
        self.failure = None
        self.opening = threading.Thread(target=self._open_tab, daemon=True)
        self.opening.start()

    def _message(self) -> dict:
        """Chromium's next message; an error naming what it said if it ended or fell silent."""
        while b"\0" not in self.unread:
            if not select.select([self.reader], [], [], ANSWER_S)[0]:
                raise TimeoutError(f"{self.chromium} gave no answer in {ANSWER_S} s")
            chunk = os.read(self.reader, 1 << 20)
            if not chunk:
                raise self._ended()
            self.unread += chunk
        message, self.unread = self.unread.split(b"\0", 1)
        return json.loads(message)

    def _send(self, command: dict) -> None:
        """Write one command to Chromium (BrokenPipeError if it has ended)."""
        os.write(self.writer, json.dumps(command).encode() + b"\0")

    def _ended(self) -> RuntimeError:
        """The error of a Chromium that ended while asked something, with what it said."""
        self.log.seek(0)
        said = self.log.read().decode(errors="replace").strip()[-2000:]
        return RuntimeError(f"{self.chromium} ended before it printed (exit code "
                            f"{self.process.wait()}): {said or 'it wrote nothing'}")

    def call(self, method: str, params: dict | None = None) -> dict:
        """Send one command (to the printer's tab, once it has one) and return its result; the
        events that arrive meanwhile are kept for ``wait_for``."""
        self.asked += 1
        command = {"id": self.asked, "method": method, "params": params or {}}
        if self.tab is not None:
            command["sessionId"] = self.tab
        try:
            self._send(command)
        except BrokenPipeError:
            raise self._ended() from None
        while True:
            message = self._message()
            if message.get("id") == self.asked:
                if "error" in message:
                    raise RuntimeError(f"Chromium's {method}: {message['error']}")
                return message["result"]
            self.events.append(message)

    def wait_for(self, event: str) -> None:
        """Wait for ``event`` of the printer's tab (one kept by ``call`` first)."""
        while True:
            message = self.events.pop(0) if self.events else self._message()
            if message.get("method") == event and message.get("sessionId") == self.tab:
                return

    def _open_tab(self) -> None:
        """The tab every part is printed in: its pages laid out for print from their load on
        (MEDIA: laid out for the screen, a page is laid out again for print, the same PDF about
        a quarter slower), in WINDOW, light, their scripts run or not (``scripts``; OPEN_GROUPS
        runs either way). Without scripts, the tab draws no frames of its own
        (``enableBeginFrameControl``: it draws one only when asked, and nothing asks): no one
        sees its screen, and a print is laid out and painted by the print itself. The 38 parts
        of one edition cost about half a CPU second less (4.7-5.2 against 5.1-5.7 CPU-s of the
        whole machine, in four more pairs with RenderDocument off), the same bytes. With
        scripts, it draws them, so that a script waiting for the next frame
        (requestAnimationFrame) runs as in a browser."""
        try:
            target = self.call("Target.createTarget", {
                "url": "about:blank", "enableBeginFrameControl": not self.scripts})["targetId"]
            self.tab = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            self.call("Page.enable")
            self.call("Emulation.setDeviceMetricsOverride", WINDOW)
            self.call("Emulation.setEmulatedMedia", {"media": MEDIA, "features": [
                {"name": "prefers-color-scheme", "value": "light"}]})
            self.call("Emulation.setScriptExecutionDisabled", {"value": not self.scripts})
        except Exception as error:   # raised by print_pages, if it is called
            self.failure = error

    def print_pages(self, site: pathlib.Path, pages: list, parts: pathlib.Path,
                    written=lambda page: None) -> None:
        """Print each of ``pages`` to its part, each written whole (atomic.write_bytes) with the
        digest it was printed from, then told to ``written``. (Two browsers printing half the
        pages each were no faster on this machine: a page's load and its print take about a
        tenth of a second each, on both cores.)"""
        self.opening.join()
        if self.failure is not None:
            raise self.failure
        for page in pages:
            target, digest = part_file(parts, page), part_digest(site, page)
            self.events.clear()   # (what the last page sent after its print)
            went = self.call("Page.navigate", {"url": (site / f"{page}.html").resolve().as_uri()})
            if went.get("errorText"):
                raise RuntimeError(f"Chromium could not open {page}: {went['errorText']}")
            self.wait_for("Page.loadEventFired")
            opened = self.call("Runtime.evaluate", {"expression": OPEN_GROUPS})
            if "exceptionDetails" in opened:
                raise RuntimeError(f"OPEN_GROUPS failed on {page}: {opened['exceptionDetails']}")
            printed = self.call("Page.printToPDF", PAGE_SETUP)["data"]
            atomic.write_bytes(target, without_blank_tail(base64.b64decode(printed)))
            target.with_suffix(".sha256").write_text(digest)
            written(page)

    def end(self) -> None:
        """Ask Chromium to end, without waiting for it (it ends while the caller merges)."""
        if self.process.poll() is None:
            try:
                self._send({"id": 0, "method": "Browser.close"})
            except BrokenPipeError:
                pass

    def close(self) -> None:
        """End Chromium, if ``end`` has not, and wait for it."""
        self.opening.join()
        self.end()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.writer)
        os.close(self.reader)
        self.log.close()
        self.profile.cleanup()


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


def without_blank_tail(printed: bytes) -> bytes:
    """A part as Chromium printed it, less the blank sheets it ends some pages with (its first
    sheet always kept): trimmed once as it is printed, rather than in every merge."""
    with pikepdf.Pdf.open(io.BytesIO(printed)) as part:
        sheets = len(part.pages)
        while len(part.pages) > 1 and blank(part.pages[-1]):
            del part.pages[-1]
        if len(part.pages) == sheets:
            return printed
        trimmed = io.BytesIO()
        part.save(trimmed)
        return trimmed.getvalue()


class _Merge:
    """An edition's PDF being merged from its parts, each placed where its page stands in the
    edition whatever the order in which the parts come (those printed before, while the others
    are printed). A link of a placed part leads, at once or as soon as the part it names is
    placed: to that page's start, or to an anchor of its own page; a link to any other file of
    the site (a download, data/), which a PDF cannot follow, is taken out and its words kept."""

    def __init__(self, site: pathlib.Path, pages: list):
        self.pdf, self.site, self.pages = pikepdf.Pdf.new(), site, pages
        self.order = {page: number for number, page in enumerate(pages)}
        self.page_of = {(site / f"{page}.html").resolve(): page for page in pages}
        self.sheets = {}       # a placed page's sheets, as objects of self.pdf
        self.waiting = {}      # a page not yet placed → the links that lead to its start
        self.opened = []

    def place(self, page: str, part_path: pathlib.Path) -> None:
        """Put the sheets of ``page``'s part after those of the placed pages before it, and
        lead its links (and those that waited for it)."""
        part = pikepdf.Pdf.open(part_path)
        self.opened.append(part)
        at = sum(len(sheets) for placed, sheets in self.sheets.items()
                 if self.order[placed] < self.order[page])
        with warnings.catch_warnings():   # named destinations are carried over below
            warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
            for offset, sheet in enumerate(part.pages):
                self.pdf.pages.insert(at + offset, sheet)
        sheets = self.sheets[page] = [self.pdf.pages[at + offset].obj
                                      for offset in range(len(part.pages))]
        anchors = _named_destinations(part)
        for sheet in sheets:
            kept = []
            for annotation in sheet.get("/Annots", []):
                kept.append(annotation)
                if annotation.get("/Subtype") != pikepdf.Name.Link:
                    continue
                action, dest = annotation.get("/A"), annotation.get("/Dest")
                uri = str(action.URI) if action is not None and "/URI" in action else None
                if isinstance(dest, (pikepdf.String, pikepdf.Name)) and str(dest) in anchors:
                    index, top = anchors[str(dest)]
                    _lead(annotation, sheets[index], top)
                elif uri is not None and (local := _local_target(uri)) is not None:
                    named = self.page_of.get(local)
                    if named is None:
                        kept.pop()
                    elif named in self.sheets:
                        _lead(annotation, self.sheets[named][0], None)
                    else:
                        self.waiting.setdefault(named, []).append(annotation)
            if "/Annots" in sheet and len(kept) != len(sheet.Annots):
                sheet.Annots = pikepdf.Array(kept)
        for annotation in self.waiting.pop(page, []):
            _lead(annotation, sheets[0], None)

    def write(self, pdf: pathlib.Path, title: str, language: str) -> None:
        """Write the merged edition (every page placed) to ``pdf``, whole (atomic.write_bytes),
        with a bookmark per page, the edition's title and language."""
        first, sheets_before = {}, 0
        for page in self.pages:
            first[page] = sheets_before
            sheets_before += len(self.sheets[page])
        with self.pdf.open_outline() as outline:
            outline.root.extend(pikepdf.OutlineItem(page_title(self.site, page), first[page])
                                for page in self.pages)
        self.pdf.Root.Lang = pikepdf.String(language)
        self.pdf.docinfo[pikepdf.Name.Title] = title
        written = io.BytesIO()
        self.pdf.save(written, deterministic_id=True)   # no date; its /ID a digest of its content
        atomic.write_bytes(pdf, written.getvalue())

    def close(self) -> None:
        for part in self.opened:
            part.close()
        self.pdf.close()


def _lead(annotation: pikepdf.Dictionary, sheet: pikepdf.Object, top) -> None:
    """Make a link annotation lead to ``sheet`` of the merged PDF, at ``top`` (None: its top)."""
    for key in ("/A", "/Dest"):
        if key in annotation:
            del annotation[key]
    annotation.Dest = pikepdf.Array([sheet, pikepdf.Name.XYZ, None, top, None])


def merge(site: pathlib.Path, pages: list, parts: pathlib.Path, pdf: pathlib.Path, title: str,
          language: str, printing: list = (), printed: queue.Queue | None = None) -> None:
    """Merge the parts of ``pages`` into ``pdf`` (the same bytes from the same parts, whenever
    they were printed and in whatever order they were placed: a part's own dates are not kept,
    and the PDF's objects are numbered as they are written): one bookmark per page (each part
    is kept without its trailing blank sheets, without_blank_tail); links as ``_Merge`` leads
    them. The parts of ``printing`` are still being printed: each is placed as its page comes
    out of ``printed`` (None once printing ended; an exception if it failed), the others first,
    meanwhile."""
    merging = _Merge(site, pages)
    try:
        for page in pages:
            if page not in printing:
                merging.place(page, part_file(parts, page))
        for _ in printing:
            page = printed.get()
            if page is None:
                raise RuntimeError("printing ended before every part was printed")
            if isinstance(page, BaseException):
                raise page
            merging.place(page, part_file(parts, page))
        merging.write(pdf, title, language)
    finally:
        merging.close()


def print_edition(site: pathlib.Path, pages: list, parts: pathlib.Path, pdf: pathlib.Path,
                  title: str, language: str, printer: Printer) -> list:
    """Bring ``pdf`` up to date with the HTML pages of ``site``: print the parts of the pages
    that changed (with ``printer``, then told to end; the caller closes it), merge when anything
    was printed or the PDF is missing, and log which parts were printed. Returns those pages."""
    parts.mkdir(parents=True, exist_ok=True)
    kept = {part_file(parts, page).name for page in pages}
    for old in parts.glob("*.pdf"):   # the parts of pages the edition no longer has
        if old.name not in kept:
            old.unlink()
            old.with_suffix(".sha256").unlink(missing_ok=True)
    stale = outdated(site, pages, parts)
    printed = queue.Queue()
    printing = threading.Thread(target=_print_then_end, args=(printer, site, stale, parts, printed))
    printing.start()
    try:
        if stale or not pdf.exists():
            merge(site, pages, parts, pdf, title, language, stale, printed)
    finally:
        printing.join()
    (parts / PRINTED_LOG).write_text(json.dumps({"printed": stale}, indent=1) + "\n")
    return stale


def _print_then_end(printer: Printer, site: pathlib.Path, pages: list, parts: pathlib.Path,
                    printed: queue.Queue) -> None:
    """Print ``pages`` (a thread of print_edition's, beside the merge): each page into
    ``printed`` once its part is written, then None; the exception, if printing failed. Then
    ask Chromium to end (it ends while the merge finishes)."""
    try:
        if pages:
            printer.print_pages(site, pages, parts, printed.put)
        printed.put(None)
    except BaseException as error:
        printed.put(error)
    finally:
        printer.end()
