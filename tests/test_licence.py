"""The book's licence and citation: LICENSE holds both licences in full and says which files each
covers, pyproject.toml and CITATION.cff name the same licences, cffconvert (what GitHub's "Cite
this repository" reads the file by) finds CITATION.cff valid, and the book names its licence
where a reader looks: every page's footer, in each edition's words, and the front page of each
PDF edition (the footer is not printed)."""
from __future__ import annotations

import html
import pathlib
import re
import subprocess
import sys
import tomllib
import unicodedata

import pytest
import yaml

from site_build import EDITIONS, HTML, ROOT, build_once, pages
from words import LANGUAGES, edition

LICENSE = ROOT / "LICENSE"
#: Lines that only the full text of each licence has, by SPDX identifier.
FULL_TEXTS = {
    "MIT": ("Permission is hereby granted, free of charge, to any person obtaining a copy",
            'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND'),
    "CC-BY-4.0": ("Creative Commons Attribution 4.0 International Public License",
                  *(f"Section {n} -- " for n in range(1, 9)),
                  "Creative Commons may be contacted at creativecommons.org."),
}
#: What each slot of an edition's licence sentence shows, and where its link leads.
SLOTS = {"{cc_by}": ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
         "{mit}": ("MIT", "LICENSE.txt")}
#: Where cffconvert may be: beside this Python, or in the tool venv of its own that it needs
#: (cffconvert 2.0.0 requires jsonschema<4, which the book's lock and JupyterLab cannot take).
CFFCONVERT = [pathlib.Path(sys.executable).parent / "cffconvert",
              ROOT / "_build" / "cff-tools" / "bin" / "cffconvert"]


def cffconvert() -> pathlib.Path:
    found = next((path for path in CFFCONVERT if path.is_file()), None)
    if found is None:
        pytest.fail("cffconvert is not installed: python3 -m venv _build/cff-tools && "
                    "_build/cff-tools/bin/pip install cffconvert==2.0.0")
    return found


def citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as stream:
        return tomllib.load(stream)["project"]


def preamble_ids() -> dict:
    """What LICENSE's preamble puts under which licence: {"text": id, "code": id}."""
    text = LICENSE.read_text(encoding="utf-8")
    text_id = re.search(r"^Text and figures: .*?SPDX identifier ([\w.-]+)\)", text, re.M | re.S)
    code_id = re.search(r"^Code: .*?SPDX identifier ([\w.-]+)\)", text, re.M | re.S)
    assert text_id and code_id, "LICENSE says which licence covers the text and which the code"
    return {"text": text_id[1], "code": code_id[1]}


def spdx_ids(expression: str) -> set:
    """The licences of an SPDX expression that joins them with AND (each applies to part of the
    work); an OR would offer a choice this repository does not give."""
    ids = [part.strip() for part in expression.split(" AND ")]
    assert all(re.fullmatch(r"[\w.-]+", part) for part in ids), expression
    return set(ids)


def test_cffconvert_finds_the_citation_valid():
    """GitHub's "Cite this repository" shows nothing for a CITATION.cff that does not validate."""
    run = subprocess.run([cffconvert(), "--validate", "-i", "CITATION.cff"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "valid" in run.stdout, run.stdout


def test_licence_pyproject_and_citation_name_the_same_licences():
    """LICENSE has the full text of each licence it names, pyproject.toml's expression names
    those, and CITATION.cff gives the book (text and figures) and the software (code) each its
    own, as LICENSE's preamble divides them; the version cited is the version installed."""
    text = LICENSE.read_text(encoding="utf-8")
    full = {spdx for spdx, lines in FULL_TEXTS.items() if all(line in text for line in lines)}
    division = preamble_ids()
    expression = project()["license"]
    assert "LICENSE" in project()["license-files"]
    assert f"(SPDX expression: {expression})" in text, \
        "LICENSE's preamble states pyproject.toml's expression"
    assert full == set(division.values()) == spdx_ids(expression), (full, division, expression)
    cff = citation()
    book = cff["preferred-citation"]
    assert (cff["type"], cff["license"]) == ("software", division["code"])
    assert (book["type"], book["license"]) == ("book", division["text"])
    assert cff["version"] == book["version"] == project()["version"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_edition_has_a_sentence_naming_both_licences(lang):
    """words/<lang>.toml [edition] licence: each licence's slot once, no other slot, and words
    of its own (the Chinese sentence in Chinese, the others not the English one)."""
    sentence = edition(lang)["edition"]["licence"]
    assert sorted(re.findall(r"\{[^}]*\}", sentence)) == sorted(SLOTS), sentence
    words = re.sub(r"\{[^}]*\}", "", sentence)
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", words) and not re.search(r"[A-Za-z]", words), sentence
    elif lang != "en":
        assert sentence != edition("en")["edition"]["licence"], sentence


def shown(lang: str) -> str:
    """The edition's licence sentence as a reader reads it: each slot its licence's name."""
    sentence = edition(lang)["edition"]["licence"]
    for slot, (name, _) in SLOTS.items():
        sentence = sentence.replace(slot, name)
    return sentence


def named_licence(page: pathlib.Path, paragraph: str) -> list:
    """What is wrong with a paragraph of ``page`` that should name the licence (HTML): its text
    not the edition's sentence, a licence's name not linked to its text."""
    lang = page.relative_to(HTML).parts[0]
    problems = []
    text = html.unescape(re.sub(r"<[^>]+>", "", paragraph)).strip()
    if text != shown(lang):
        problems.append(f"{page.relative_to(HTML)}: reads {text!r}, not {shown(lang)!r}")
    links = {html.unescape(name): html.unescape(href) for href, name in
             re.findall(r'<a href="([^"]+)" rel="license">([^<]+)</a>', paragraph)}
    for name, target in SLOTS.values():
        href = links.get(name)
        if href is None:
            problems.append(f"{page.relative_to(HTML)}: {name} is not a link")
        elif target.startswith("https://"):
            if href != target:
                problems.append(f"{page.relative_to(HTML)}: {name} leads to {href}")
        elif (page.parent / href).resolve() != HTML / lang / target or \
                not (HTML / lang / target).is_file() or \
                (HTML / lang / target).read_bytes() != LICENSE.read_bytes():
            problems.append(f"{page.relative_to(HTML)}: {name} leads to {href}, "
                            "not a copy of LICENSE")
    return problems


def footer_problems(lang: str) -> list:
    """Every page of the edition whose footer does not name the licence in its words."""
    problems = []
    for page in pages(lang):
        text = page.read_text(encoding="utf-8")
        footer = re.search(r'<footer class="bd-footer-content">.*?</footer>', text, re.S)
        line = footer and re.search(r'<p class="component-licence">(.*?)</p>', footer[0], re.S)
        problems += named_licence(page, line[1]) if line else [f"{page}: no licence in the footer"]
    return problems


def squeeze(text: str) -> str:
    """Text without its spaces and line breaks, in the characters Poppler reads back (NFKC: a
    CJK radical as its ideograph)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def front_matter_problems(lang: str) -> list:
    """The front page prints the licence sentence (the footer is not printed): its last
    paragraph, printed only, is the sentence, in the <main> the PDF edition is printed from; and
    the edition's PDF has the sentence on a sheet before the first section's."""
    front = pages(lang)[0]
    text = front.read_text(encoding="utf-8")
    main = text[text.index("<main "):text.index("</main>")]
    note = re.search(r'<p class="licence-in-print onlyprint">(.*?)</p>\s*</article>', main, re.S)
    if note is None:
        return [f"{front.relative_to(HTML)}: the front page ends with no printed licence"]
    problems = named_licence(front, note[1])
    pdf = HTML / lang / f"book-{lang}.pdf"
    sheets = [squeeze(sheet) for sheet in subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True,
        text=True).stdout.split("\f")]
    first = re.search(r'<h1>([^<]*)<a class="headerlink"',
                      pages(lang)[1].read_text(encoding="utf-8"))
    title = squeeze(html.unescape(first[1]))
    named = [number for number, sheet in enumerate(sheets) if squeeze(shown(lang)) in sheet]
    section = next((number for number, sheet in enumerate(sheets) if sheet.startswith(title)), None)
    if not named or section is None or named[0] >= section:
        problems.append(f"{pdf.name}: the licence on sheets {named}, the first section from "
                        f"sheet {section}")
    return problems


@pytest.fixture(scope="module")
def built():
    return build_once()


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_pages_footer_names_the_licence_in_the_editions_words(built, lang):
    problems = footer_problems(lang)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", EDITIONS)
def test_each_pdf_names_the_licence_in_its_front_matter(built, lang):
    problems = front_matter_problems(lang)
    assert not problems, "\n".join(problems)
