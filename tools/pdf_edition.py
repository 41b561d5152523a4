"""An edition's PDF, printed at once from one HTML document that holds all its pages.

``print_document`` puts every page's <main>, in reading order, into the first page's frame,
each from a new sheet; headless Chromium prints it through Playwright (``page.pdf``); pikepdf
adds a bookmark per page, the title and language, and takes the dates out (``finished``).
The edition is printed again, whole, when what it is printed from changed (``inputs_digest``):
_build/pdf/<lang>/printed.json keeps that digest and the pages the last build printed (all or
none; tests read it), beside the print document, book-<lang>.html.
"""
from __future__ import annotations

import hashlib
import html
import io
import json
import pathlib
import queue
import re
import threading
import urllib.parse

import pikepdf
from playwright.sync_api import sync_playwright

import atomic  # (tools/build_book.py puts the repository on the path)

#: Headless Chromium as root on a machine without network, as the machine's notes advise (no
#: sandbox, no background traffic); tests/site_build.py reads pages with the same flags. Text is
#: hinted slightly, as Debian's fontconfig has full Chromium do (10-hinting-slight.conf): the
#: headless shell takes its hinting from this switch alone, and without it drew Chinese a little
#: wider than Chromium does, so that some lines broke at another character.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--font-render-hinting=slight"]
#: How the edition is printed (Playwright's page.pdf): ISO A4, margins in millimetres,
#: backgrounds drawn; untagged (with its structure tree, the PDF was three times larger).
PDF_OPTIONS = {"format": "A4", "print_background": True,
               "margin": {"top": "18mm", "bottom": "18mm", "left": "16mm", "right": "16mm"}}
#: The media the document is laid out for from its load on (Playwright's emulate_media).
MEDIA = {"media": "print", "color_scheme": "light"}
#: Run before printing (the pages' own scripts do not run: site.css does in print what they
#: would): the claims ledger's folded groups open; the code cells' "show code" boxes stay shut.
OPEN_GROUPS = "document.querySelectorAll('details.ledger-group').forEach(d => d.open = true)"
#: What the print document adds to the pages' styles: each page from a new sheet, and the
#: theme's frame laid out as blocks (its flex boxes put the <main>s side by side, and keep a
#: page's last margin inside it, where it can fall onto a sheet of its own).
PAGE_BREAKS = ("<style>@media print { .bd-container__inner, .bd-main, .bd-main .bd-content, "
               ".bd-main .bd-article-container { display: block !important; } "
               "main + main { break-before: page; } }</style>")


def print_document(site: pathlib.Path, pages: list) -> str:
    """The HTML printed as the edition: the first page's frame (its <head>; its sidebars and
    footers, hidden in print) around the <main> of each of ``pages``, page n's with the id
    ``p<n>``, each id a link leads to prefixed ``p<n>-`` (pages share ids; the others stay, for
    the styles), links to pages of the edition led to their place, other addresses absolute,
    the stylesheets' without version (Sphinx adds one once the file is in _static). Hidden
    links lead to each page: Chromium writes a named destination where a link leads."""
    uris = [(site / f"{page}.html").resolve().as_uri() for page in pages]
    numbers = {uri: number for number, uri in enumerate(uris)}
    texts = [(site / f"{page}.html").read_text(encoding="utf-8") for page in pages]
    mains = [text[text.index("<main "):text.index("</main>") + len("</main>")] for text in texts]

    def led(number: int, address: str) -> str:
        """Where ``address``, written in page ``number``, leads in the print document."""
        absolute = urllib.parse.urljoin(uris[number], html.unescape(address))
        document, _, fragment = absolute.partition("#")
        if document not in numbers:
            return absolute
        fragment = urllib.parse.unquote(fragment)
        return f"#p{numbers[document]}" + (f"-{fragment}" if fragment else "")

    targets = {led(number, address) for number, main in enumerate(mains)
               for address in re.findall(r'\shref="([^"]*)"', main)}

    def printed_main(number: int) -> str:
        opening, rest = mains[number].split(">", 1)
        rest = re.sub(r'\sid="([^"]*)"', lambda found: f' id="p{number}-{found[1]}"' if
                      f"#p{number}-{html.unescape(found[1])}" in targets else found[0], rest)
        rest = re.sub(r'\s(href|src)="([^"]*)"', lambda found:
                      f' {found[1]}="{html.escape(led(number, found[2]))}"', rest)
        return re.sub(r'\sid="[^"]*"', f' id="p{number}"', opening, count=1) + ">" + rest

    first = texts[0]
    starts = "".join(f'<a href="#p{number}"></a>' for number in range(len(pages)))
    document = (first[:first.index("<main ")].replace("<head>", f'<head><base href="{uris[0]}">'
                                                      + PAGE_BREAKS, 1)
                + "".join(printed_main(number) for number in range(len(pages)))
                + f"<nav hidden>{starts}</nav>" + first[first.index("</main>") + len("</main>"):])
    return re.sub(r'\?(?:v|digest)=[0-9a-f]+"', '"', document)


def inputs_digest(site: pathlib.Path, pages: list, document: str) -> str:
    """What the edition is printed from: this file (the printer, its settings included), the
    print document and the bytes of the stylesheets it links (whose addresses name no version)."""
    digest = hashlib.sha256(pathlib.Path(__file__).read_bytes())
    digest.update(document.encode())
    for address in re.findall(r'<link (?=[^>]*rel="stylesheet")[^>]*href="([^"]+)"', document):
        digest.update((site / pages[0]).parent.joinpath(address).read_bytes())
    return digest.hexdigest()


def page_title(site: pathlib.Path, page: str) -> str:
    """The page's title: its heading with a permalink (the print-only one before it has none)."""
    found = re.search(r'<h1>((?:(?!</?h1>).)*?)<a class="headerlink"',
                      (site / f"{page}.html").read_text(encoding="utf-8"), re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found[1])).strip() if found else page


def finished(printed: bytes, titles: list, title: str, language: str) -> bytes:
    """The PDF Chromium ``printed``, with a bookmark per page (``titles`` in reading order, page
    n's leading to the named destination ``p<n>``), less its links to files that are not pages
    (a download, another edition: file:// addresses of this machine; their words stay), with
    the edition's ``title`` and ``language``, no date, and an /ID digested from its content."""
    with pikepdf.Pdf.open(io.BytesIO(printed)) as pdf:
        for sheet in pdf.pages:
            if "/Annots" in sheet.obj:
                sheet.obj.Annots = pikepdf.Array([link for link in sheet.obj.Annots if not str(
                    link.get("/A", {}).get("/URI", "")).startswith("file:")])
        with pdf.open_outline() as outline:
            outline.root.extend(pikepdf.OutlineItem(name, pdf.Root.Dests[f"/p{number}"])
                                for number, name in enumerate(titles))
        pdf.Root.Lang = pikepdf.String(language)
        del pdf.docinfo
        pdf.docinfo[pikepdf.Name.Title] = title
        written = io.BytesIO()
        pdf.save(written, deterministic_id=True)
        return written.getvalue()


class Printer:
    """Headless Chromium through Playwright, in a thread of its own (the synchronous API serves
    the thread that started it alone), started as the printer is made: its start, about 0.4 s,
    overlaps the caller's Sphinx build. A Chromium that cannot start fails ``print``, not the
    printer: a build with nothing to print does not need it."""

    def __init__(self, chromium: str):
        self.documents, self.results = queue.Queue(), queue.Queue()
        self.thread = threading.Thread(target=self._serve, args=(chromium,), daemon=True)
        self.thread.start()

    def _serve(self, chromium: str) -> None:
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                for document in iter(self.documents.get, None):
                    page = browser.new_page(java_script_enabled=False)
                    page.emulate_media(**MEDIA)
                    page.goto(document.as_uri())
                    page.evaluate(OPEN_GROUPS)
                    self.results.put(page.pdf(**PDF_OPTIONS))
                    page.close()
                browser.close()
        except Exception as error:   # raised by print, if it is called
            self.results.put(error)

    def print(self, document: pathlib.Path) -> bytes:
        """The PDF Chromium prints from the HTML file ``document`` (as PDF_OPTIONS say)."""
        self.documents.put(document)
        if isinstance(printed := self.results.get(), Exception):
            raise printed
        return printed

    def close(self) -> None:
        """End Chromium and the printer's thread."""
        self.documents.put(None)
        self.thread.join()


def print_edition(site: pathlib.Path, pages: list, folder: pathlib.Path, pdf: pathlib.Path,
                  title: str, language: str, printer: Printer) -> list:
    """Bring ``pdf`` up to date with the HTML ``pages`` of ``site`` (document names, in reading
    order): print the edition with ``printer`` if the PDF is missing or what it is printed from
    changed, and log in ``folder`` what was printed. Returns the pages printed: all, or none."""
    document = print_document(site, pages)
    digest, log = inputs_digest(site, pages, document), folder / "printed.json"
    current = pdf.exists() and log.exists() and json.loads(log.read_text()).get("digest") == digest
    if not current:
        source = folder / f"{pdf.stem}.html"
        atomic.write_text(source, document)
        titles = [page_title(site, page) for page in pages]
        atomic.write_bytes(pdf, finished(printer.print(source), titles, title, language))
    printed = [] if current else pages
    atomic.write_text(log, json.dumps({"digest": digest, "printed": printed}, indent=1) + "\n")
    return printed
