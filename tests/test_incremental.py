"""What a build redoes, in a copy of the book cut down to seven pages of the English edition (so
that each build takes seconds): after one changed sentence, the page that holds it is written
again (with the page whose table of contents lists it, as Sphinx does) and the edition's PDF
is printed again; after no change, nothing is. And a warning fails the build. The build
says what it printed in _build/pdf/<lang>/printed.json and the written pages are told by their
file times; no seconds are asserted."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile

import pytest

from site_build import ROOT

#: The cut-down table of contents: pages that link no page outside it (a page with a source's
#: erratum marker links the errata page, which links every section, so none of those).
SMALL_TOC = """format: jb-book
root: notebooks/en/split-02-split
parts:
  - chapters:
      - file: notebooks/en/split-04-break-even
  - chapters:
      - file: notebooks/en/split-05-latency
      - file: notebooks/en/split-09-network
  - chapters:
      - file: notebooks/en/split-10-answer
      - file: notebooks/en/theory-05-flynn
  - chapters:
      - file: book/en/references
"""
PAGES = ["notebooks/en/split-02-split", "notebooks/en/split-04-break-even",
         "notebooks/en/split-05-latency", "notebooks/en/split-09-network",
         "notebooks/en/split-10-answer", "notebooks/en/theory-05-flynn", "book/en/references"]
CHANGED = "notebooks/en/split-04-break-even"


def small_book(folder):
    """A copy of the book's files in ``folder`` with the seven-page table of contents."""
    copy = folder / "book"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".venv", "_build", ".git", "__pycache__", "*.pyc", ".pytest_cache", "node_modules"))
    (copy / "_toc.yml").write_text(SMALL_TOC, encoding="utf-8")
    return copy


def build(book):
    """Build the English edition of ``book``; its output."""
    result = subprocess.run([sys.executable, "tools/build_book.py", "en"], cwd=book,
                            capture_output=True, text=True, timeout=900)
    return result


def add_sentence(book, page, sentence):
    """Append ``sentence`` to the first markdown cell of the notebook ``page`` of ``book``."""
    path = book / f"{page}.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "markdown")
    cell["source"] = "".join(cell["source"]) + f"\n\n{sentence}"
    path.write_text(json.dumps(notebook, ensure_ascii=False, indent=1), encoding="utf-8")


def printed(book):
    return json.loads((book / "_build" / "pdf" / "en" / "printed.json").read_text())["printed"]


def page_times(book):
    """The file time (ns) of every page of the book's English site."""
    site = book / "_build" / "html" / "en"
    return {page: (site / f"{page}.html").stat().st_mtime_ns for page in PAGES}


def archived(book, name: str) -> str:
    """The file ``name`` of the repository as the built site's source archive holds it."""
    with tarfile.open(book / "_build" / "html" / "source" / "splitting-work-book.tar.gz") as archive:
        return archive.extractfile(f"splitting-work-book/{name}").read().decode("utf-8")


def pdf_text(book):
    pdf = book / "_build" / "html" / "en" / "book-en.pdf"
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def test_a_changed_sentence_rewrites_its_page_and_reprints_the_edition(tmp_path):
    book = small_book(tmp_path)
    first = build(book)
    assert first.returncode == 0, first.stdout + first.stderr
    assert sorted(printed(book)) == sorted(PAGES), "a first build prints every page"
    before = page_times(book)
    add_sentence(book, CHANGED, "A sentence added by the incremental-build test.")
    second = build(book)
    assert second.returncode == 0, second.stdout + second.stderr
    assert printed(book) == PAGES, "the edition is printed again, whole"
    rewritten = {page for page, time in page_times(book).items() if time != before[page]}
    assert rewritten == {CHANGED, PAGES[0]}, "the changed page, and the root whose contents list it"
    assert "A sentence added by the incremental-build test." in pdf_text(book), \
        "the reprinted PDF holds the sentence"
    assert "A sentence added by the incremental-build test." in archived(book, CHANGED + ".ipynb"), \
        "the site's source archive holds the notebook as it was built (written beside the build)"
    before = page_times(book)
    third = build(book)
    assert third.returncode == 0, third.stdout + third.stderr
    assert printed(book) == [] and page_times(book) == before, "nothing changed, nothing redone"


def test_a_sphinx_warning_fails_the_build(tmp_path):
    """A prose reference to a value no cell glues is a Sphinx warning, and so a failed build."""
    book = small_book(tmp_path)
    add_sentence(book, CHANGED, "See {eval}`g.no_such_key`.")
    result = build(book)
    assert result.returncode != 0
    assert "no_such_key" in result.stdout + result.stderr


def test_a_build_whose_chromium_cannot_start_fails_when_it_has_pages_to_print(tmp_path):
    """The printer's Chromium starts beside Sphinx (pdf_edition.Printer): one that cannot start
    (BOOK_CHROMIUM names a program that exits at once) fails a build with pages to print, with
    Playwright's error naming the program and its exit code, rather than leave the PDF behind
    its pages."""
    book = small_book(tmp_path)
    result = subprocess.run([sys.executable, "tools/build_book.py", "en"], cwd=book,
                            capture_output=True, text=True, timeout=900,
                            env=dict(os.environ, BOOK_CHROMIUM="/bin/false"))
    assert result.returncode != 0
    assert "<launching> /bin/false" in result.stderr and "exitCode=1" in result.stderr, \
        result.stderr[-2000:]
    assert not (book / "_build" / "html" / "en" / "book-en.pdf").exists()


@pytest.mark.parametrize("there, named, chosen", [
    ({"/usr/bin/chromium-headless-shell", "/usr/bin/chromium"}, None, "/usr/bin/chromium-headless-shell"),
    ({"/usr/bin/chromium"}, None, "/usr/bin/chromium"),
    (set(), None, "/usr/bin/chromium-headless-shell"),
    ({"/usr/bin/chromium-headless-shell"}, "/opt/chrome/chrome", "/opt/chrome/chrome")])
def test_the_book_takes_chromiums_headless_shell_where_it_is_there(there, named, chosen):
    """Debian's headless shell where it is installed; full Chromium where only it is (where the
    shell could not be installed, tools/system-packages.sh goes on with it); the shell's path,
    which the build's notice names, where neither is; and always the one BOOK_CHROMIUM names."""
    from build_book import chosen_chromium
    environ = {"BOOK_CHROMIUM": named} if named else {}
    assert chosen_chromium(environ, there.__contains__) == chosen


def test_the_browser_checks_leave_playwrights_disabled_features_alone():
    """The switches the browser checks launch Chromium with (tests/site_build.CHROMIUM_ARGS,
    the printer's CHROMIUM_ARGS and more) turn off no feature: Chromium reads only the last
    --disable-features switch of its command line (one more brought back WebHID and WebXR,
    which a first had turned off), so one here would turn Playwright's own list back on, in
    every check, and in the printer's."""
    from site_build import CHROMIUM_ARGS

    assert not [switch for switch in CHROMIUM_ARGS if switch.startswith("--disable-features")]


def test_jupyter_book_itself_builds_the_english_edition(tmp_path):
    """`jupyter-book build .`, which docs/site.md says also works, builds the seven-page copy,
    figures described in English: the book's extensions do without the settings
    tools/build_book.py gives each edition (the figure words' extension needed one)."""
    book = small_book(tmp_path)
    result = subprocess.run([str(pathlib.Path(sys.executable).parent / "jupyter-book"), "build",
                             ".", "--path-output", str(tmp_path / "out")], cwd=book,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    page = tmp_path / "out" / "_build" / "html" / "notebooks" / "en" / "split-04-break-even.html"
    assert 'alt="Line chart' in page.read_text(encoding="utf-8")


def test_the_build_excludes_what_its_table_of_contents_leaves_out_as_jupyter_book_would(tmp_path):
    """build_book.outside_the_toc stands in for sphinx_external_toc's exclude_missing, which
    globbed the whole checkout: in a tree holding pages of the English table of contents, stray
    pages beside them, and pages in excluded folders (_build, tools' node_modules, sections, a
    hidden one), it gives what that glob gives, read as sphinx_external_toc reads it: every .rst,
    .md and .ipynb that the table of contents does not list and that no exclude pattern covers,
    itself or a folder above it."""
    import glob

    import yaml
    from sphinx.util.matching import Matcher

    import build_book

    toc = build_book.edition_toc("en")
    listed = build_book.edition_pages(toc)
    for name in [f"{page}.ipynb" for page in listed[:3]] + [
            "notebooks/en/scratch.ipynb", "notes.md", "words/README.md", "book/en/draft.rst",
            "notebooks/zh/split-01-problem.ipynb", "_build/html/en/index.md",
            "tools/lighthouse/node_modules/pkg/README.md", "sections/split-04/notes.md",
            ".git/info.md", "README.md", "data/measurements/README.md"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    exclude = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["exclude_patterns"]
    exclude += [f"{folder}/{other}/**" for other in build_book.EDITIONS if other != "en"
                for folder in ("notebooks", "book")]
    excluded = Matcher([*build_book.JUPYTER_BOOK_EXCLUDES, *exclude])
    globbed = set()
    for suffix in (".rst", ".md", ".ipynb"):
        for found in glob.iglob(str(tmp_path / "**" / f"*{suffix}"), recursive=True):
            path = pathlib.Path(found).relative_to(tmp_path).as_posix()
            parts = path.split("/")
            if path.removesuffix(suffix) not in listed and not any(
                    excluded("/".join(parts[:i + 1])) for i in range(len(parts))):
                globbed.add(path)
    assert globbed == {"notebooks/en/scratch.ipynb", "notes.md", "words/README.md", "book/en/draft.rst"}
    assert sorted(build_book.outside_the_toc(toc, exclude, tmp_path)) == sorted(globbed)


def test_pyodides_compiled_standard_library_is_made_once_per_pyodide_and_script(tmp_path, monkeypatch):
    """build_book.compiled_stdlib runs Node.js only when _build/pyodide-stdlib/ holds nothing made
    from this Pyodide's python_stdlib.zip by this tools/pyodide/compile-stdlib.mjs: a second
    build reuses it, another script (or Pyodide) makes it again and replaces the old one."""
    import build_book

    pyodide, script = tmp_path / "pyodide", tmp_path / "compile-stdlib.mjs"
    pyodide.mkdir()
    (pyodide / "python_stdlib.zip").write_bytes(b"Pyodide's standard library")
    script.write_text("// one script")
    runs = []

    def node(command, **kwargs):
        runs.append(command)
        pathlib.Path(command[-1]).write_bytes(b"compiled by " + script.read_bytes())
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(build_book, "BUILD", tmp_path / "_build")
    monkeypatch.setattr(build_book, "PYODIDE", pyodide)
    monkeypatch.setattr(build_book, "COMPILE_STDLIB", script)
    monkeypatch.setattr(build_book, "ROOT", tmp_path)
    monkeypatch.setattr(build_book.subprocess, "run", node)
    first = build_book.compiled_stdlib()
    assert build_book.compiled_stdlib() == first and len(runs) == 1
    assert first.read_bytes() == b"compiled by // one script"
    script.write_text("// another script")
    second = build_book.compiled_stdlib()
    assert len(runs) == 2 and second != first and not first.exists()
    assert [p.name for p in second.parent.iterdir()] == [second.name]


def test_a_broken_role_in_one_editions_prose_fails_its_build_naming_the_prose_file(tmp_path):
    """A mistyped directive in the Italian prose of split-04 (written into its notebook by
    tools/notebooks.py) fails the Italian build, and the error names sections/…/it.md and the
    line where the directive was written, not only the generated notebook."""
    book = small_book(tmp_path)
    prose = book / "sections" / "split-04-break-even" / "it.md"
    lines = prose.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("```{"))
    lines[number - 1] = "```{notte}"
    prose.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = subprocess.run([sys.executable, "tools/notebooks.py", "split-04-break-even"],
                             cwd=book, capture_output=True, text=True, timeout=600)
    assert written.returncode == 0, written.stderr
    result = subprocess.run([sys.executable, "tools/build_book.py", "--html-only", "it"], cwd=book,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode != 0
    assert f"sections/split-04-break-even/it.md:{number}" in result.stderr, result.stderr[-2000:]
