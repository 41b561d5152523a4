"""The four editions as a reader gets them: built without executing anything and without
warnings, each in its own language, with a working switcher, search and every glued number."""
import html
import json
import pathlib
import pickle
import re
import subprocess
import sys
import unicodedata

import pikepdf
import pytest

import words
from site_build import EDITIONS, HTML, ROOT, build_once, needs_pyodide, pages


@pytest.fixture(scope="module")
def built():
    return build_once()


def test_the_build_warns_about_nothing(built):
    assert "warning" not in (built["stdout"] + built["stderr"]).lower()


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_build_executes_no_notebook(built, lang):
    """MyST-NB records in the Sphinx environment every notebook it executed ("exec_data");
    the book shows the saved outputs, so no document of any edition has such a record."""
    with open(ROOT / "_build" / "doctrees" / lang / "environment.pickle", "rb") as stream:
        env = pickle.load(stream)
    notebooks = [doc for doc in env.found_docs if str(env.doc2path(doc)).endswith(".ipynb")]
    assert len(notebooks) == 33 + 2                       # every section, claims and errata
    executed = [doc for doc, data in getattr(env, "nb_metadata", {}).items() if "exec_data" in data]
    assert executed == []


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_page_exists_in_the_editions_language(built, lang):
    for page in pages(lang):
        text = page.read_text(encoding="utf-8")
        assert f'<html lang="{EDITIONS[lang]}"' in text, page
        assert "{glue" not in text and "{eval}" not in text, page


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_language_switcher_links_to_the_same_page_in_every_other_edition(built, lang):
    for page in pages(lang):
        text = page.read_text(encoding="utf-8")
        switcher = re.search(r'<nav class="language-switcher".*?</nav>', text, re.S).group()
        links = dict(re.findall(r'href="([^"]+)" hreflang="(\w+)"', switcher))
        assert sorted(links.values()) == sorted(set(EDITIONS) - {lang})
        for href, other in links.items():
            target = (page.parent / href).resolve()
            assert target.exists(), (page, href)
            assert target.name == page.name and f"/{other}/" in str(target)


def search_terms(lang):
    text = (HTML / lang / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    return set(index["terms"]) | set(index.get("titleterms", {}))


def test_chinese_search_finds_words_of_the_chinese_pages(built):
    terms = search_terms("zh")
    assert "带宽" in terms          # "bandwidth", segmented by jieba
    assert "bandwidth" in search_terms("en")


@pytest.mark.parametrize("lang, word", [("zh", "搜索"), ("es", "Búsqueda"), ("it", "Cerca"),
                                        ("en", "Search")])
def test_the_themes_interface_is_translated(built, lang, word):
    assert word in pages(lang)[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("lang, right, wrong", [
    ("es", "Descargar esta página", "Descarga esta pagina"),   # the theme's, without its accent
    ("zh", "打印为 PDF", "列印成 PDF"),                           # the theme's, Taiwan's usage
])
def test_the_themes_words_are_the_editions_where_its_catalogue_errs(built, lang, right, wrong):
    """book/locales/<lang>/LC_MESSAGES/booktheme.po comes before sphinx-book-theme's catalogue."""
    page = pages(lang)[0].read_text(encoding="utf-8")
    assert right in page and wrong not in page


def test_the_copy_buttons_say_copy_in_italian_as_an_imperative(built):
    """sphinx-copybutton's script says 'Copiare' (to copy); the built copy says 'Copia'."""
    script = (HTML / "it" / "_static" / "copybutton.js").read_text(encoding="utf-8")
    assert "'copy': 'Copia'" in script and "Copiare" not in script


def test_landing_page_offers_every_edition(built):
    text = (HTML / "index.html").read_text(encoding="utf-8")
    for lang in EDITIONS:
        assert f'href="{lang}/index.html"' in text
        assert (HTML / lang / "index.html").exists()


@pytest.mark.parametrize("lang", EDITIONS)
def test_glued_numbers_reach_the_page_in_the_editions_notation(built, lang):
    text = html.unescape((HTML / lang / "notebooks" / lang / "split-03-ledger.html")
                         .read_text(encoding="utf-8"))
    two_ms = "9,22" if lang in {"es", "it"} else "9.22"   # T2 = 0.8 + 7.5 + 0.92 ms
    # each value carries its key, for the "your numbers" panel to write the reader's values there
    assert f'<span class="pasted-text" data-key="two_ms">{two_ms}</span>' in text


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_figures_the_site_shows_are_the_files_of_data(built, lang):
    """MyST-NB copies each SVG output to _images/; every one is byte for byte a file of data/."""
    data = {p.read_bytes() for p in (ROOT / "data").glob("*.svg")}
    shown = sorted((HTML / lang / "_images").glob("*.svg"))
    assert len(shown) >= 3
    for image in shown:
        assert image.read_bytes() in data, f"{image.name} is not a file of data/"


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_figure_says_what_it_shows_in_the_editions_language_and_has_its_size(built, lang):
    """Each figure's alt text is its description in words/<lang>.toml [figures] (not the image's
    path), and its width and height are the SVG's own, in CSS pixels (4/3 of a point)."""
    described = words.edition(lang)["figures"]
    data = {p.read_bytes(): p.name.split(".")[0] for p in (ROOT / "data").glob("*.svg")}
    seen = set()
    for page in pages(lang):
        for tag in re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8")):
            src = re.search(r'src="([^"]+)"', tag).group(1)
            if not src.endswith(".svg"):
                continue
            image = (page.parent / src).resolve()
            name = data[image.read_bytes()]
            alt = html.unescape(re.search(r'alt="([^"]*)"', tag).group(1))
            assert alt == described[name], (page.name, name, alt)
            width_pt, height_pt = re.search(r'width="([\d.]+)pt" height="([\d.]+)pt"',
                                            image.read_text(encoding="utf-8")).groups()
            assert f'width="{round(float(width_pt) * 4 / 3)}"' in tag, (page.name, tag)
            assert f'height="{round(float(height_pt) * 4 / 3)}"' in tag, (page.name, tag)
            seen.add(name)
    # the figures the sections draw (page.figure(figures.figure_x) shows data/fig_x.svg)
    drawn = {"fig_" + name for code in (ROOT / "sections").glob("*/code.py")
             for name in re.findall(r"page\.figure\((?:figures\.)?figure_(\w+)", code.read_text())}
    assert seen == drawn, seen ^ drawn


#: Characters that PDF text extraction returns for Noto CJK glyphs shared with radicals, mapped
#: back to the characters on the page (NFKC maps the Kangxi radicals; these it leaves alone).
RADICALS = str.maketrans("⻅⻓⻚⻔⻆⻥⻬⻋⻛⻜", "见长页门角鱼齐车风飞")
#: Each edition's T₂ of the base case (0.8 + 7.5 + 0.92 ms), in its notation.
T2_MS = {"zh": "9.22", "es": "9,22", "it": "9,22", "en": "9.22"}


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(RADICALS))


@pytest.mark.parametrize("lang", EDITIONS)
def test_each_edition_is_one_pdf_with_every_section_linked_from_its_front_page(built, lang):
    """The PDF holds the title of every page of the edition (Chinese glyphs included, so the
    CJK font was there when Chromium printed it), the edition's own numbers in its notation,
    and formulas as text; the front page links it."""
    pdf = HTML / lang / f"book-{lang}.pdf"
    assert len(pikepdf.Pdf.open(pdf).pages) >= 40
    # Poppler's pdftotext (in content order: a fraction reads as numerator, then denominator)
    # reads the text faster than a Python PDF library.
    text = squeeze(subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(pdf), "-"], check=True,
                                  capture_output=True, text=True).stdout)
    for page in pages(lang):
        title = re.search(r'<h1>([^<]*)<a class="headerlink"', page.read_text(encoding="utf-8"))
        assert squeeze(html.unescape(title.group(1))) in text, (pdf.name, title.group(1))
    assert T2_MS[lang] in text
    assert "T2=S+C2η+" in text   # the ledger formula, C over 2η drawn as a MathML fraction
    front = (HTML / lang / "book" / lang / "index.html").read_text(encoding="utf-8")
    assert f'href="../../{pdf.name}"' in front


def test_an_editions_pdf_printed_again_is_the_same_bytes(built, tmp_path):
    """The English edition printed again now, from the pages the build wrote, is byte for byte
    the PDF the build wrote: no date, and an /ID that is a digest of its content
    (tools/pdf_edition.py), so the same pages give the same PDF."""
    import build_book
    import pdf_edition

    own = build_book.EDITIONS["en"]["edition"]
    again = tmp_path / "book-en.pdf"
    printer = pdf_edition.Printer(build_book.CHROMIUM)
    try:
        printed = pdf_edition.print_edition(
            HTML / "en", build_book.edition_pages(build_book.edition_toc("en")), tmp_path, again,
            own["title"], own["sphinx_language"].replace("_", "-"), printer)
    finally:
        printer.close()
    assert printed, "printed afresh"
    assert again.read_bytes() == (HTML / "en" / "book-en.pdf").read_bytes()


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_page_describes_itself_by_its_first_words(built, lang):
    """Each page's <meta name="description"> (book/_ext/description.py) is there, at most 160
    characters, and opens with the page's own first words of prose (the search page, which
    has none, with the edition's title)."""
    problems = []
    for page in pages(lang) + [HTML / lang / "search.html"]:
        text = page.read_text(encoding="utf-8")
        found = re.findall(r'<meta name="description" content="([^"]*)"', text)
        if len(found) != 1 or not found[0].strip():
            problems.append(f"{page.name}: {len(found)} descriptions")
            continue
        description = html.unescape(found[0])
        prose = squeeze(html.unescape(re.sub(r"<[^>]+>", "", text[text.index("<body"):])))
        if len(description) > 160 or squeeze(description.rstrip("…"))[:20] not in prose:
            problems.append(f"{page.name}: {description!r}")
    assert not problems, problems


def sheet_texts(pdf: pathlib.Path, order: str = "-raw") -> list:
    """The text of each sheet of a PDF, in content order (``-raw``) or from the top of the
    sheet down (``-layout``) (Poppler's pdftotext ends each sheet with a form feed)."""
    return subprocess.run(["pdftotext", order, "-enc", "UTF-8", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout.split("\f")[:-1]


def page_sheets(pdf: pathlib.Path) -> list:
    """Each bookmark of a PDF as (its title, the numbers from 0 of the sheets from the one it
    leads to until the next bookmark's)."""
    with pikepdf.open(pdf) as document:
        number = {sheet.objgen: n for n, sheet in enumerate(document.pages)}
        with document.open_outline() as outline:
            starts = [(item.title, number[item.destination[0].objgen]) for item in outline.root]
        ends = [start for _, start in starts[1:]] + [len(document.pages)]
    return [(title, range(start, end)) for (title, start), end in zip(starts, ends)]


def sheets_of(lang: str, page_name: str) -> list:
    """The text of each sheet that one page of the edition's site (its HTML file's name) takes
    in the edition's PDF, found by its bookmark: the page's place among the edition's pages."""
    pdf = HTML / lang / f"book-{lang}.pdf"
    place = [page.name for page in pages(lang)].index(page_name)
    texts = sheet_texts(pdf)
    return [texts[n] for n in page_sheets(pdf)[place][1]]


def claims_sheets(lang: str) -> list:
    """The text of each sheet of the claims ledger in the edition's PDF."""
    return sheets_of(lang, "claims.html")


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_pdf_keeps_a_code_cell_with_the_start_of_its_output(built, lang):
    """split-11's visible cell, the one a reader copies to rerun the first article
    (``from experiment import run``), is printed on the sheet where its output begins: the full
    output of the tiny network, as data/results.json gives it (a cell was once printed alone at
    the foot of a sheet, its output on the next)."""
    results = json.loads((ROOT / "data" / "results.json").read_text(encoding="utf-8"))
    first = squeeze(str(results["matrix"]["full"]))
    sheets = [squeeze(text) for text in sheets_of(lang, "split-11-reproducibility.html")]
    holding = [n for n, text in enumerate(sheets, 1) if "fromexperimentimportrun" in text]
    assert len(holding) == 1, holding
    assert first in sheets[holding[0] - 1][sheets[holding[0] - 1].index("fromexperimentimportrun"):], \
        f"sheet {holding[0]} lacks the output's start {first!r} after the cell"


@pytest.mark.parametrize("lang", ["es", "it", "en"])
def test_the_pdf_prints_every_claim_of_the_ledger_whose_page_folds_them(built, lang):
    """The claims page folds its claims into groups by status and article; its sheets in the
    PDF (printed with the groups open, tools/pdf_edition.py) hold the source's own words of
    every claim of data/claims.json (quoted under each claim outside the Chinese edition)."""
    claims = json.loads((ROOT / "data" / "claims.json").read_text(encoding="utf-8"))
    text = squeeze("".join(claims_sheets(lang)))
    missing = [c["id"] for c in claims if squeeze(html.unescape(c["source_text"]))[:12] not in text]
    assert not missing, f"{lang}: {len(missing)} of {len(claims)} claims missing, {missing[:5]}"


@pytest.mark.parametrize("lang", EDITIONS)
def test_no_pdf_page_is_blank(built, lang, tmp_path):
    """Every sheet of the PDF shows something: drawn by Poppler at 12 dpi in grey, some pixel is
    not white (the one-page print used to open on a white sheet, and some pages ended on one)."""
    from PIL import Image

    pdf = HTML / lang / f"book-{lang}.pdf"
    subprocess.run(["pdftoppm", "-r", "12", "-gray", str(pdf), str(tmp_path / "sheet")], check=True)
    sheets = sorted(tmp_path.glob("sheet*.pgm"))
    assert len(sheets) == len(pikepdf.Pdf.open(pdf).pages)
    blank = [sheet.stem for sheet in sheets if Image.open(sheet).getextrema()[0] >= 250]
    assert not blank, f"{pdf.name}: blank sheets {blank}"


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_pdf_is_a4_and_its_text_fills_it_to_its_margins(built, lang):
    """Every sheet is ISO A4 (210 × 297 mm), and the words printed on the sheets, as Poppler's
    pdftotext -bbox places them, reach to within 2 mm of the margins' edges and no further
    (tools/pdf_edition.PDF_OPTIONS: 16 mm left, the theme's indent of 2 rem, 8.3 mm, inside
    it; 16 mm right; 18 mm top and bottom)."""
    mm = 72 / 25.4   # points
    boxes = subprocess.run(["pdftotext", "-bbox", str(HTML / lang / f"book-{lang}.pdf"), "-"],
                           check=True, capture_output=True, text=True).stdout
    sizes = set(re.findall(r'<page width="([\d.]+)" height="([\d.]+)"', boxes))
    assert {(round(float(w) / mm), round(float(h) / mm)) for w, h in sizes} == {(210, 297)}
    words = [[float(x) / mm for x in box] for box in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"', boxes)]
    reach = [min(w[0] for w in words), min(w[1] for w in words), max(w[2] for w in words),
             max(w[3] for w in words)]
    edges = [16 + 8.3, 18, 210 - 16, 297 - 18]
    assert all(abs(got - edge) < 2 for got, edge in zip(reach, edges)), reach


def printed(pdf: pathlib.Path) -> list:
    """What each sheet of a PDF shows: its content stream's digest, its links (kind, place,
    address or destination) and its fonts by name."""
    import hashlib

    sheets = []
    with pikepdf.open(pdf) as document:
        for sheet in document.pages:
            streams = sheet.obj.Contents
            streams = streams if isinstance(streams, pikepdf.Array) else [streams]
            links = [(str(a.get("/Subtype")), [round(float(x), 2) for x in a.get("/Rect", [])],
                      str(a.A.get("/URI")) if "/A" in a else str(a.get("/Dest")))
                     for a in sheet.obj.get("/Annots", [])]
            fonts = sorted(str(font.get("/BaseFont"))
                           for font in sheet.obj.Resources.get("/Font", {}).values())
            sheets.append((hashlib.sha256(b"".join(s.read_bytes() for s in streams)).hexdigest(),
                           links, fonts))
    return sheets


#: The pages printed with and without their scripts: the one whose sheets the theme's script
#: changed (its sidebars and headers left in the flow: three sheets became four), and a ledger
#: whose groups fold, in Chinese.
SCRIPTLESS_PAGES = [("en", "notebooks/en/split-03-ledger"), ("zh", "book/zh/claims")]


def test_a_page_prints_the_same_sheets_without_its_scripts(built, tmp_path):
    """The editions are printed with the pages' scripts off (pdf_edition.Printer): each page of
    SCRIPTLESS_PAGES, in a print document of its own (pdf_edition.print_document) printed as
    the build prints one, gives the same sheets, links and fonts with its scripts run and not."""
    from playwright.sync_api import sync_playwright

    import pdf_edition
    from build_book import CHROMIUM

    differ = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=pdf_edition.CHROMIUM_ARGS)
        for lang, page in SCRIPTLESS_PAGES:
            document, sheets = tmp_path / f"{lang}.html", {}
            document.write_text(pdf_edition.print_document(HTML / lang, [page]), encoding="utf-8")
            for scripts in (True, False):
                tab = browser.new_page(java_script_enabled=scripts)
                tab.emulate_media(**pdf_edition.MEDIA)
                tab.goto(document.as_uri())
                tab.evaluate(pdf_edition.OPEN_GROUPS)
                (tmp_path / f"{lang}-{scripts}.pdf").write_bytes(tab.pdf(**pdf_edition.PDF_OPTIONS))
                sheets[scripts] = printed(tmp_path / f"{lang}-{scripts}.pdf")
            if sheets[True] != sheets[False]:
                differ.append(f"{lang}/{page}: {len(sheets[True])} sheets with its scripts, "
                              f"{len(sheets[False])} without, other marks")
        browser.close()
    assert not differ, differ


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_pdf_embeds_every_font_by_name(built, lang):
    """No Type 3 font (Chromium embeds Noto CJK, an OpenType/CFF font, as hundreds of unnamed
    Type 3 fonts, whose text copies and searches unreliably); the Chinese PDF's Chinese is in a
    named TrueType font; the theme's icon font is not embedded (its icons are drawn as SVG)."""
    pdf = HTML / lang / f"book-{lang}.pdf"
    listing = subprocess.run(["pdffonts", str(pdf)], check=True, capture_output=True,
                             text=True).stdout.splitlines()[2:]
    kinds = {" ".join(line.split()[1:3]) for line in listing}
    assert not [line for line in listing if " Type 3 " in line], f"{pdf.name}: Type 3 fonts"
    assert not [line for line in listing if "FontAwesome" in line], f"{pdf.name}: the icon font"
    assert "CID TrueType" in kinds
    if lang == "zh":
        assert any("WenQuanYiMicroHei" in line for line in listing)


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_pdf_links_lead_inside_it_or_to_the_web_and_it_has_a_bookmark_per_page(built, lang):
    """The edition is printed from a file on disk, so Chromium writes its links to other files
    as file:// addresses of the machine that built it: in the PDF each link to a page, or to a
    place in one, leads to that page in the PDF itself (pdf_edition names page n's start "p<n>"
    and its places "p<n>-<id>"), and one to a download, which the PDF cannot hold, is gone.
    Every page of the edition has a bookmark, its title, in reading order, leading to the sheet
    that opens with that title (so each page starts a sheet); the PDF says its language."""
    pdf = pikepdf.Pdf.open(HTML / lang / f"book-{lang}.pdf")
    spans = page_sheets(HTML / lang / f"book-{lang}.pdf")
    number = {sheet.objgen: n for n, sheet in enumerate(pdf.pages)}
    places = {str(name): number[place[0].objgen] for name, place in pdf.Root.Dests.items()}
    inside, within, across, local, astray = 0, 0, 0, [], []
    for n, sheet in enumerate(pdf.pages):
        for link in sheet.obj.get("/Annots", []):
            if link.get("/Subtype") != pikepdf.Name.Link:
                continue
            if "/Dest" in link:
                inside += 1
                page, place = re.match(r"/p(\d+)(-?)", str(link.Dest)).groups()
                page, within = int(page), within + bool(place)
                across += n not in spans[page][1]
                if places.get(str(link.Dest)) not in spans[page][1]:
                    astray.append(str(link.Dest))
            action = link.get("/A")
            if action is not None and "/URI" in action and not str(action.URI).startswith("http"):
                local.append(str(action.URI))
    assert inside > 100 and not local and not astray, (local[:3], astray[:3])
    assert within > 100, "links to sections, figures and references lead to them"
    assert across >= len(spans) - 1, "the front page's contents lead to every other page"
    texts = sheet_texts(HTML / lang / f"book-{lang}.pdf", "-layout")
    titles = [squeeze(html.unescape(re.search(r'<h1>([^<]*)<a class="headerlink"', page.read_text(
        encoding="utf-8")).group(1))) for page in pages(lang)]
    assert [squeeze(title) for title, _ in spans] == titles
    assert all(len(sheets) > 0 for _, sheets in spans), "the bookmarks in reading order"
    astray = [title for title, sheets in spans if not squeeze(texts[sheets.start]).startswith(
        squeeze(title))]
    assert not astray, f"bookmarks not on the sheet their page opens: {astray[:3]}"
    assert str(pdf.Root.Lang) == EDITIONS[lang]


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_reproducibility_page_links_the_canonical_files_copied_into_the_site(built, lang):
    page = HTML / lang / "book" / lang / "reproducibility.html"
    links = re.findall(r'href="(\.\./\.\./\.\./data/[^"]+)"', page.read_text(encoding="utf-8"))
    targets = {(page.parent / link).resolve() for link in links}
    assert {t.name for t in targets} == {"results.json", "claims.json", "index.html"}
    listing = (HTML / "data" / "index.html").read_text(encoding="utf-8")
    for path in (ROOT / "data").iterdir():
        if path.suffix in {".json", ".svg"}:
            assert (HTML / "data" / path.name).read_bytes() == path.read_bytes()
            assert f'href="{path.name}"' in listing


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_reproducibility_page_gives_the_repository_and_the_source_the_site_was_built_from(
        built, lang):
    import tarfile

    from build_book import SOURCE_ARCHIVE, repository_url, source_files
    page = (HTML / lang / "book" / lang / "reproducibility.html").read_text(encoding="utf-8")
    url = repository_url()
    if url:
        assert f'href="{url}"' in page
    else:   # this build knows no public address, and the page says so in its language
        from words import edition
        assert edition(lang)["edition"]["no_repository"] in page
    assert f'href="../../../{SOURCE_ARCHIVE}"' in page
    with tarfile.open(HTML / SOURCE_ARCHIVE) as archive:
        names = archive.getnames()
        assert names == [f"splitting-work-book/{name}" for name in source_files()]
        for name in ("experiment.py", "Makefile", "requirements.txt", "notebooks/en/split-03-ledger.ipynb"):
            assert archive.extractfile(f"splitting-work-book/{name}").read() == (ROOT / name).read_bytes()


def test_a_copy_without_git_publishes_the_same_source_files(tmp_path):
    """The site's source archive, unpacked and rebuilt without git, lists the same files; what
    a build or an install leaves behind is not source."""
    from bench import copy_of_book
    from build_book import source_files
    tracked = source_files()
    copy_of_book(tmp_path)
    for left_behind in (".venv/bin/python", "_build/html/index.html", "model/__pycache__/split.pyc",
                        "splitting_work_book.egg-info/PKG-INFO", "book/locales/zh/LC_MESSAGES/sphinx.mo"):
        (tmp_path / left_behind).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / left_behind).write_text("not source")
    assert source_files(tmp_path) == tracked


def test_the_repository_address_comes_from_the_environment(monkeypatch):
    from build_book import repository_url
    monkeypatch.setenv("BOOK_REPOSITORY_URL", "https://example.org/book")
    assert repository_url() == "https://example.org/book"
    monkeypatch.delenv("BOOK_REPOSITORY_URL")
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "someone/splitting-work")
    assert repository_url() == "https://github.com/someone/splitting-work"


@pytest.mark.parametrize("lang", EDITIONS)
def test_a_citation_reads_on_the_site_as_the_notebook_labels_it_in_jupyterlab(built, lang):
    """The site's citation labels (sphinxcontrib-bibtex, author-year) are the labels that
    tools/notebooks.py gives the notebooks' ``cite`` for JupyterLab: for each key this edition's
    prose cites, the page shows that label, linked to the references."""
    sys.path.insert(0, str(ROOT / "tools"))
    import notebooks
    citation = re.compile(r'<span class="bibtex-citation"[^>]*>\[(.*?)\]</span>')
    checked = 0
    for name in notebooks.names():
        cited = notebooks.CITE.findall(notebooks.prose_path(name, lang).read_text(encoding="utf-8"))
        if not cited:
            continue
        folder = "book" if name in ("claims", "errata") else "notebooks"
        page = (HTML / lang / folder / lang / f"{name}.html").read_text(encoding="utf-8")
        shown = {re.sub("<[^>]+>", "", label) for label in citation.findall(page)}
        assert shown == {notebooks.citation_label(key) for key in cited}, name
        assert "cite." not in re.sub(r"<[^>]+>", "", page), f"{name}: a citation left as code"
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_footer_names_the_authors_in_one_sentence_of_the_edition(built, lang):
    """The footer says who wrote the book in a line written whole per edition (the theme's
    "By" + author read "Di Gli autori del libro", "By The book's authors")."""
    from words import edition
    for page in pages(lang):
        text = page.read_text(encoding="utf-8")
        line = re.search(r'<p class="component-author">\s*(.*?)\s*</p>', text, re.S)
        assert line and html.unescape(line[1]) == edition(lang)["edition"]["byline"], page
        assert not re.search(r"\b(?:By|Por|Di) (?:The|Los|Gli)\b", text), page


@pytest.mark.parametrize("lang", EDITIONS)
def test_a_section_opens_with_one_code_toggle_not_three(built, lang):
    """A section's parameters, set-up and glue cells are folded under one "Show code" bar
    (book/_ext/interface.py): three bars in a row filled a phone's first screen (issue 20). The
    code of all three is inside it, and the parameter line is still shown openly after it."""
    for page in pages(lang):
        if "/notebooks/" not in str(page):
            continue
        text = page.read_text(encoding="utf-8")
        body = text[text.index('<article class="bd-article"'):]
        first_heading = body.find("<h2")
        head = body[:first_heading if first_heading > 0 else len(body)]
        toggles = head.count('<details class="admonition hide')
        assert toggles == 1, f"{page}: {toggles} code toggles before the first heading"
        details = re.search(r'<details class="admonition hide.*?</details>', head, re.S).group()
        assert "refuse_unknown_parameters" in details, page      # the set-up cell's code
        assert "<strong>" not in details, page    # the parameter line stays outside, shown


def test_the_sites_standard_library_is_pyodides_with_bytecode_beside_its_sources(built):
    """The site's python_stdlib.zip (build_book.compiled_stdlib) holds every file of Pyodide's,
    byte for byte and in its order, and besides them only bytecode: a .pyc beside a .py,
    unchecked (PEP 552 flags 0b01: the import reads nothing else, and the sources stay for
    tracebacks); tests/test_site.py checks that Pyodide starts from it without compiling."""
    import zipfile

    from build_book import PYODIDE

    needs_pyodide()
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as original, \
            zipfile.ZipFile(HTML / "_pyodide" / "python_stdlib.zip") as site:
        names = site.namelist()
        assert [n for n in names if not n.endswith(".pyc")] == original.namelist()
        assert all(site.read(n) == original.read(n) for n in original.namelist())
        compiled = [n for n in names if n.endswith(".pyc")]
        assert len(compiled) >= 100 and all(n[:-1] in original.namelist() for n in compiled)
        assert {int.from_bytes(site.read(n)[4:8], "little") for n in compiled} == {0b01}
