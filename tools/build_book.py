"""Build the four editions of the book, one Sphinx build per language, plus the landing page.

Output: _build/html/index.html (choose a language) and _build/html/<lang>/ for zh, es, it, en,
each with the whole edition as one PDF: its pages printed by headless Chromium as one document,
again whenever a page changed (tools/pdf_edition.py).
Each edition gets its own Sphinx ``language`` (so <html lang>, the theme's interface strings
and the search index are in that language; Chinese search segments words with jieba) and its
own table of contents, derived from _toc.yml. No notebook is executed; warnings are errors.
With Pyodide installed (``npm ci --prefix tools/pyodide``), the site also carries _pyodide/:
Pyodide's runtime and the book's pure modules, which the "your numbers" panel runs in the
reader's browser (panel.py); without it the pages leave the panel out, and the build says so.
"""
from __future__ import annotations

import fnmatch
import functools
import gzip
import hashlib
import html
import io
import json
import logging
import multiprocessing
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import zipfile
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import panel  # noqa: E402
import words  # noqa: E402
from purge_css import purge_site  # noqa: E402
from pdf_edition import CHROMIUM_ARGS, Printer, print_edition  # noqa: E402,F401 (site_build reads the flags)
BUILD = ROOT / "_build"
#: Where Debian puts Chromium's headless shell (chromium-headless-shell: Chromium without the
#: browser's own interface layer) and full Chromium. The shell is taken where both are: the PDFs
#: it prints render pixel for pixel as full Chromium's, and a page load costs about two fifths
#: less CPU (a from-scratch build of the four editions, a third less).
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")


def chosen_chromium(environ=os.environ, exists=os.path.exists) -> str:
    """The Chromium that prints the PDF editions and reads the site in the tests: the one
    BOOK_CHROMIUM names (e.g. a full Chrome on macOS; it is run with --headless), else the first
    of CHROMIUMS there is, else the headless shell's path (which the notices then name)."""
    return environ.get("BOOK_CHROMIUM") or next((path for path in CHROMIUMS if exists(path)),
                                                CHROMIUMS[0])


CHROMIUM = chosen_chromium()

#: Each edition's words (title, name, captions, interface words): words/<lang>.toml [edition], [parts].
EDITIONS = {lang: words.edition(lang) for lang in words.LANGUAGES}
#: The keys of [parts], in the order of _toc.yml's parts.
PARTS = ("split", "tp", "theory", "about")
#: The source archive the site carries: the repository's files as the site was built from them.
SOURCE_ARCHIVE = "source/splitting-work-book.tar.gz"
#: Pyodide as npm installs it (pinned by tools/pyodide/package-lock.json), and the files of it
#: that run Python without packages: the loader, the runtime, the standard library, the lock
#: file it reads at start.
PYODIDE = ROOT / "tools" / "pyodide" / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The book's modules that the panel runs in the browser (pure Python, standard library only),
#: as patterns under the repository; the sections that show the panel add their code.py.
PANEL_MODULES = ("panel.py", "experiment.py", "present.py", "model/*.py", "words/__init__.py",
                 "words/*.toml")
#: Writes Pyodide's standard library with the bytecode of the modules Pyodide starts with.
COMPILE_STDLIB = ROOT / "tools" / "pyodide" / "compile-stdlib.mjs"


def repository_url() -> str | None:
    """The repository's public address: BOOK_REPOSITORY_URL, or the repository GitHub Actions
    builds (GITHUB_SERVER_URL/GITHUB_REPOSITORY), or an https remote named origin; else None."""
    if os.environ.get("BOOK_REPOSITORY_URL"):
        return os.environ["BOOK_REPOSITORY_URL"]
    if os.environ.get("GITHUB_REPOSITORY"):
        server = os.environ.get("GITHUB_SERVER_URL", "https://github.com")
        return f"{server}/{os.environ['GITHUB_REPOSITORY']}"
    remote = subprocess.run(["git", "remote", "get-url", "origin"], cwd=ROOT,
                            capture_output=True, text=True)
    url = remote.stdout.strip()
    return url.removesuffix(".git") if remote.returncode == 0 and url.startswith("https://") \
        else None


def repository_words(lang: str) -> str:
    """The reproducibility page's {{ repository }}: a link to the repository, or the edition's
    sentence saying that this build knows no public address."""
    url = repository_url()
    return f"<{url}>" if url else EDITIONS[lang]["edition"]["no_repository"]


def source_files(root: pathlib.Path = ROOT) -> list:
    """The book's source files under ``root``, as sorted relative names. In a git checkout, the
    tracked files (git ls-files, as they are in the working tree); in a copy without git (such
    as the site's own source archive, unpacked), every file that .gitignore does not exclude,
    which is the same list."""
    if not (root / ".git").exists():
        return unignored_files(root)
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                            check=True).stdout.decode()
    return sorted(name for name in listed.split("\0") if name and (root / name).is_file())


def unignored_files(root: pathlib.Path) -> list:
    """The files under ``root`` that its .gitignore (folder patterns ending in "/", file-name
    patterns otherwise) does not exclude, as sorted relative names. An excluded folder (such as
    .venv or _build) is not walked."""
    patterns = [line.strip() for line in (root / ".gitignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    folders = [p.rstrip("/") for p in patterns if p.endswith("/")]
    names = [p for p in patterns if not p.endswith("/")]
    found = []
    for here, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders
                         if not any(fnmatch.fnmatch(d, folder) for folder in folders)]
        relative = pathlib.Path(here).relative_to(root)
        found += [(relative / f).as_posix() for f in files
                  if not any(fnmatch.fnmatch(f, name) for name in names)]
    return sorted(found)


def publish_source() -> None:
    """_build/html/SOURCE_ARCHIVE: the repository's files in a byte-stable .tar.gz (sorted
    names, no dates or owners), so that the site carries the code that built it."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for name in source_files():
            data = (ROOT / name).read_bytes()
            info = tarfile.TarInfo(f"splitting-work-book/{name}")
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            if os.access(ROOT / name, os.X_OK):
                info.mode = 0o755
            archive.addfile(info, io.BytesIO(data))
    target = BUILD / "html" / SOURCE_ARCHIVE
    target.parent.mkdir(parents=True, exist_ok=True)
    # compression level 6: half the time of 9 for 1 % more bytes
    with open(target, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="",
                                                    compresslevel=6) as packed:
        packed.write(buffer.getvalue())


def edition_toc(lang: str) -> dict:
    """_toc.yml with the English folder swapped for ``lang`` and each part captioned in
    ``lang`` (words/<lang>.toml [parts], in the order of ``PARTS``)."""
    text = (ROOT / "_toc.yml").read_text(encoding="utf-8").replace("/en/", f"/{lang}/")
    toc = yaml.safe_load(text)
    if len(PARTS) != len(toc["parts"]):
        raise SystemExit(f"_toc.yml has {len(toc['parts'])} parts; words name {len(PARTS)}")
    for part, key in zip(toc["parts"], PARTS):
        part["caption"] = EDITIONS[lang]["parts"][key]
    return toc


def quiet_word_segmenter(sphinx_language: str) -> None:
    """Keep jieba (Sphinx's Chinese search segments words with it) from logging its dictionary
    loading to stderr on every build of the Chinese edition; its warnings still show. The other
    editions' builds do not import it."""
    if not sphinx_language.startswith("zh"):
        return
    try:
        import jieba
    except ImportError:
        return
    jieba.setLogLevel(logging.WARNING)


def build_edition(lang: str, html_only: bool = False) -> None:
    """One Sphinx build of one language into _build/html/<lang>."""
    from jupyter_book.sphinx import build_sphinx

    own = EDITIONS[lang]["edition"]
    quiet_word_segmenter(own["sphinx_language"])
    work = BUILD / "editions"
    work.mkdir(parents=True, exist_ok=True)
    toc = edition_toc(lang)
    toc_path = work / f"_toc_{lang}.yml"
    toc_path.write_text(yaml.safe_dump(toc, allow_unicode=True, sort_keys=False),
                        encoding="utf-8")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config["exclude_patterns"] += [f"{folder}/{other}/**" for other in EDITIONS if other != lang
                                   for folder in ("notebooks", "book")]
    # Only the table of contents' pages are built: the rest are excluded here (outside_the_toc),
    # and sphinx_external_toc is told not to look for them (external_toc_exclude_missing below).
    config["exclude_patterns"] += outside_the_toc(toc, config["exclude_patterns"])
    sphinx = config["sphinx"]
    sphinx["local_extensions"] = {name: str(ROOT / path)
                                  for name, path in sphinx["local_extensions"].items()}
    sphinx["config"]["html_theme_options"]["search_bar_text"] = own["search_bar_text"]
    sphinx["config"]["html_context"].update(
        byline=own["byline"], edition=lang, editions=[(code, e["edition"]["name"], e["edition"]["short_name"])
                                for code, e in EDITIONS.items()], your_numbers=has_pyodide())
    config_path = work / f"_config_{lang}.yml"
    config_path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False),
                           encoding="utf-8")
    overrides = {
        "latex_individualpages": False,
        "external_toc_exclude_missing": False,
        "language": own["sphinx_language"],
        "html_title": own["title"],
        "external_toc_path": str(toc_path.relative_to(ROOT)),
        **{key: own[key] for key in ("author", "nb_code_prompt_show", "nb_code_prompt_hide")},
        "myst_substitutions": {"repository": repository_words(lang)},
    }
    # Incremental where Sphinx allows it: a changed notebook rebuilds its own page; a change
    # to what every page shares (templates, styles, extensions, catalogues, configuration, table
    # of contents) rebuilds the whole edition from a fresh environment.
    stamp, inputs = BUILD / "doctrees" / lang / "site-inputs.sha256", site_inputs_digest()
    fresh = not stamp.exists() or stamp.read_text() != inputs
    printing = not html_only and pathlib.Path(CHROMIUM).exists()
    # Chromium starts while Sphinx builds (pdf_edition.Printer), ready for the pages it wrote.
    printer = Printer(CHROMIUM) if printing else None
    try:
        status = build_sphinx(ROOT, BUILD / "html" / lang, path_config=str(config_path),
                              noconfig=True, confoverrides=overrides, builder="html",
                              doctreedir=BUILD / "doctrees" / lang, freshenv=fresh,
                              force_all=fresh, warningiserror=True, quiet=True)
        if status:
            from notebooks import with_source_places   # (a failure only: it reads notebooks)
            raise SystemExit(f"{lang}: Sphinx html build failed ({with_source_places(str(status))})")
        stamp.write_text(inputs)
        prune_images(BUILD / "html" / lang)
        purge_site(BUILD / "html" / lang, BUILD / "whole-css" / lang)
        if not html_only and not printing:
            print(no_printer_notice(lang), file=sys.stderr)
        elif not html_only:
            print_edition(BUILD / "html" / lang, edition_pages(toc), BUILD / "pdf" / lang,
                          BUILD / "html" / lang / pdf_name(lang), own["title"],
                          own["sphinx_language"].replace("_", "-"), printer)
    finally:
        if printer is not None:
            printer.close()


#: The suffixes Sphinx reads sources by in this book: its own .rst and MyST-NB's .md and .ipynb.
SOURCE_SUFFIXES = (".rst", ".md", ".ipynb")
#: What Jupyter Book adds to every configuration's exclude_patterns (jupyter_book.config).
JUPYTER_BOOK_EXCLUDES = ("_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints")


def outside_the_toc(toc: dict, exclude: list, root: pathlib.Path = ROOT) -> list:
    """The source files (SOURCE_SUFFIXES) under ``root`` (the repository) that the edition's
    table of contents leaves out and ``exclude`` (Sphinx's exclude_patterns) does not already
    exclude: what sphinx_external_toc's ``external_toc_exclude_missing`` (Jupyter Book's
    ``only_build_toc_files``) adds to exclude_patterns, found by Sphinx's own walk, which does
    not enter the excluded folders. sphinx_external_toc globbed the whole checkout once per
    suffix, _build's pages and PDFs and tools' node_modules included, to find one file
    (words/README.md): 0.2 s of every build, against 2 ms."""
    from sphinx.util.matching import get_matching_files

    listed = set(edition_pages(toc))
    return [path for path in get_matching_files(root, [f"**{suffix}" for suffix in SOURCE_SUFFIXES],
                                                [*JUPYTER_BOOK_EXCLUDES, *exclude])
            if path.rsplit(".", 1)[0] not in listed]


def edition_pages(toc: dict) -> list:
    """The edition's pages in reading order (its front page, then every chapter of _toc.yml),
    as document names without suffix."""
    return [toc["root"]] + [chapter["file"] for part in toc["parts"] for chapter in part["chapters"]]


def prune_images(site: pathlib.Path) -> None:
    """Remove from ``site``/_images the files no page shows any more: Sphinx adds the images of
    the pages it rewrites but never removes one, so an incremental build would otherwise keep
    every figure an earlier build drew."""
    folder = site / "_images"
    if not folder.is_dir():
        return
    shown = "\n".join(page.read_text(encoding="utf-8") for page in site.rglob("*.html"))
    for image in folder.iterdir():
        if image.name not in shown:
            image.unlink()


def no_printer_notice(lang: str) -> str:
    """What the build says when it cannot print an edition's PDF: the site is built, the PDF is
    not, and how to get it (make test needs it, so it installs nothing silently)."""
    return (f"{lang}: the site is built, but not {pdf_name(lang)}: the PDF editions are printed "
            f"by Chromium, and {CHROMIUM} is missing (Debian: apt-get install "
            "chromium-headless-shell fonts-noto-cjk; then make book again)")


#: What every page of an edition depends on besides its own source.
SITE_INPUTS = ("_config.yml", "_toc.yml", "tools/build_book.py", "book/_templates", "book/_static",
               "book/_ext", "book/locales", "book/references.bib", "panel.py")


def site_inputs_digest() -> str:
    """A digest of SITE_INPUTS (compiled catalogues excluded: they are rebuilt from the .po)."""
    digest = hashlib.sha256()
    for name in SITE_INPUTS:
        path = ROOT / name
        for file in sorted([path] if path.is_file() else path.rglob("*")):
            if file.is_file() and file.suffix != ".mo" and "__pycache__" not in file.parts:
                digest.update(str(file.relative_to(ROOT)).encode() + b"\0" + file.read_bytes())
    digest.update((repository_url() or "").encode())   # shown on the reproducibility pages
    # the "your numbers" panel or none, and its words
    digest.update(json.dumps([has_pyodide(), {lang: e["panel"] for lang, e in EDITIONS.items()}],
                             sort_keys=True).encode())
    return digest.hexdigest()


def has_pyodide() -> bool:
    """Whether Pyodide is installed, so that the site carries the "your numbers" panel."""
    return all((PYODIDE / name).is_file() for name in PYODIDE_FILES)


def compiled_stdlib() -> pathlib.Path:
    """Pyodide's python_stdlib.zip with the bytecode of the modules it imports as it starts
    (COMPILE_STDLIB, run by Node.js: 5 s, once): kept in _build/pyodide-stdlib/ under a digest
    of the original and of the script, so that it is made again only for another Pyodide or
    another script. The panel then starts in a third of the time (0.5 s against 1.9 s on this
    machine, once the browser has compiled Pyodide's runtime)."""
    digest = hashlib.sha256((PYODIDE / "python_stdlib.zip").read_bytes()
                            + COMPILE_STDLIB.read_bytes()).hexdigest()[:16]
    kept = BUILD / "pyodide-stdlib" / f"python_stdlib-{digest}.zip"
    if kept.is_file():
        return kept
    kept.parent.mkdir(parents=True, exist_ok=True)
    tmp = kept.with_suffix(f".{os.getpid()}.tmp")
    try:
        made = subprocess.run(["node", str(COMPILE_STDLIB), str(tmp)], capture_output=True,
                              text=True)
    except FileNotFoundError:
        raise SystemExit(f"Node.js (node) is missing: {COMPILE_STDLIB.relative_to(ROOT)} needs it "
                         f"for the panel's Pyodide (Debian: apt-get install nodejs npm)") from None
    if made.returncode:
        tmp.unlink(missing_ok=True)
        raise SystemExit(f"{COMPILE_STDLIB.relative_to(ROOT)} failed (exit code {made.returncode}): "
                         f"{made.stderr.strip()[-1500:]}")
    for old in kept.parent.glob("python_stdlib-*.zip"):   # another Pyodide's or script's
        old.unlink()
    tmp.replace(kept)
    return kept


def publish_pyodide(stdlib: pathlib.Path) -> None:
    """_build/html/_pyodide/: PYODIDE_FILES (the standard library as ``stdlib``, from
    compiled_stdlib) and book.zip, the book's modules that the panel runs (PANEL_MODULES and
    each panel section's code.py) in a byte-stable zip. One folder for
    the four editions, so that a reader's browser caches it once; and the panel's service
    worker beside the editions (book/your-numbers-sw.js), which keeps that folder once the
    panel has started, under a cache named after Pyodide's version and the digest of book.zip
    and the standard library."""
    target = BUILD / "html" / "_pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(stdlib if name == "python_stdlib.zip" else PYODIDE / name, target / name)
    names = sorted({path.relative_to(ROOT).as_posix() for pattern in PANEL_MODULES
                    for path in ROOT.glob(pattern)}
                   | {f"sections/{section}/code.py" for section in panel.PAGES})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)),
                             (ROOT / name).read_bytes(), zipfile.ZIP_DEFLATED)
    (target / "book.zip").write_bytes(buffer.getvalue())
    version = json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    # (the standard library's file is named by the digest of what it was made from)
    cache = f"your-numbers-{version}-" + hashlib.sha256(
        buffer.getvalue() + stdlib.name.encode()).hexdigest()[:12]
    worker = (ROOT / "book" / "your-numbers-sw.js").read_text(encoding="utf-8")
    (BUILD / "html" / "your-numbers-sw.js").write_text(
        worker.replace("__CACHE__", cache).replace(
            "__FILES__", json.dumps([f"_pyodide/{name}" for name in (*PYODIDE_FILES, "book.zip")]
                                    + [f"{lang}/_static/your-numbers.js" for lang in EDITIONS])),
        encoding="utf-8")


def pdf_name(lang: str) -> str:
    """The file name of an edition's PDF, at the root of its site (book/<lang>/index.md links it)."""
    return f"book-{lang}.pdf"


def landing() -> None:
    """_build/html/index.html: one link per edition, with the edition's name and the book's
    title in its own words (book/landing.html styles them and opens the reader's language)."""
    own = {code: e["edition"] for code, e in EDITIONS.items()}
    links = "\n".join(
        f'      <li><a href="{code}/index.html" hreflang="{code}" '
        f'lang="{said["sphinx_language"].replace("_", "-")}">'
        f'<span class="name">{html.escape(said["name"])}</span> '
        f'<span class="title">{html.escape(said["title"])}</span></a></li>'
        for code, said in own.items())
    # The page's own language is English (book/landing.html): its title first.
    titles = " · ".join(html.escape(own[code]["title"])
                        for code in sorted(own, key=lambda code: code != "en"))
    template = (ROOT / "book" / "landing.html").read_text(encoding="utf-8")
    (BUILD / "html" / "index.html").write_text(
        template.replace("{{ links }}", links).replace("{{ titles }}", titles), encoding="utf-8")


def publish_data() -> None:
    """_build/html/data/: the canonical JSON and figures of data/, byte for byte, with a plain
    index (the reproducibility pages link them)."""
    target = BUILD / "html" / "data"
    target.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in (ROOT / "data").iterdir() if p.suffix in {".json", ".svg"})
    for path in files:
        shutil.copyfile(path, target / path.name)
    items = "\n".join(f'    <li><a href="{html.escape(p.name)}">{html.escape(p.name)}</a> '
                      f"({p.stat().st_size:,} bytes)</li>" for p in files)
    (target / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n'
        '  <meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "  <title>data/</title>\n</head>\n<body>\n  <h1>data/</h1>\n"
        "  <p>Written by <code>python experiment.py</code>; the book's numbers and figures.</p>\n"
        f"  <ul>\n{items}\n  </ul>\n</body>\n</html>\n", encoding="utf-8")


def main(argv: list) -> int:
    """``build_book.py [--html-only] [LANG ...]``: the editions named (default: all four);
    ``--html-only`` skips the one-page build and its PDF (``make check``)."""
    html_only = "--html-only" in argv
    langs = [a for a in argv if a != "--html-only"] or list(EDITIONS)
    for lang in langs:
        if lang not in EDITIONS:
            raise SystemExit(f"unknown edition {lang!r}; choose from {', '.join(EDITIONS)}")
    # Pyodide's compiled standard library (Node.js, once per Pyodide) is made beside the build.
    stdlib = ThreadPoolExecutor(max_workers=1).submit(compiled_stdlib) if has_pyodide() else None
    # One process per edition: Sphinx caches translation catalogues per process, so a second
    # build in the same process would keep the first edition's interface language. One edition
    # is built here, without starting a process.
    if len(langs) == 1:
        build_edition(langs[0], html_only=html_only)
    else:
        with ProcessPoolExecutor(max_workers=2, max_tasks_per_child=1,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(functools.partial(build_edition, html_only=html_only), langs))
    publish_source()
    landing()
    publish_data()
    if stdlib is not None:
        publish_pyodide(stdlib.result())
    else:
        (BUILD / "html" / "your-numbers-sw.js").unlink(missing_ok=True)
        shutil.rmtree(BUILD / "html" / "_pyodide", ignore_errors=True)   # an earlier build's
        print(f"the pages leave out the \"your numbers\" panel: Pyodide is not installed in "
              f"{PYODIDE.parent} (npm ci --prefix tools/pyodide; make book runs it where npm is)",
              file=sys.stderr)
    print(f"built {', '.join(langs)} into {BUILD / 'html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
