"""Write the book's notebooks from their sources in sections/, and run them.

Each section (and each notebook page of book/) is a folder ``sections/<name>/``:

* ``code.py``: the section's code, once for the four editions, as cells that start at a line
  ``# %% <cell name> [tags]``. Its first line names the kind of head it takes,
  ``# %% parameters: <kind>``: the parameters cell and the setup cell that every notebook of
  that kind opens with, which this tool writes (from ``experiment``'s defaults, so they are
  stated once, in the models);
* ``<lang>.md`` for zh, es, it, en: that edition's prose. A line ``+++ <cell name>`` places a
  code cell, a bare ``+++`` ends one markdown cell and starts the next; anything else is the
  prose, MyST as on the site. Every code cell is placed once, in the order of code.py, so the
  figures and tables come in the same order in every edition; the paragraphs between them are
  the translator's;
* ``reviewed.json``: each edition's prose, block by block (hashes), when the section's editions
  were last brought in step (tests/test_sections.py fails when one edition changed since); and,
  under ``"changed_alone"``, the editions whose later change was recorded as needing nothing in
  the others (a typo, a word), which is all such a record says.

Commands (``make notebooks`` runs the first):

* ``python tools/notebooks.py [NAME ...]``: write every notebook (or those of the sections named)
  from its sources; a notebook whose code cells changed is executed again, one whose prose alone
  changed keeps its outputs, an unchanged one is not touched. A code cell added to code.py is
  placed in every edition's prose after the cell before it; a placement naming a cell that is
  gone is removed (both reported).
* ``--execute``: execute every notebook written (after a change to the models or to data/).
* ``--check``: write nothing; list the notebooks that differ from their sources, exit 1 if any.
* ``--reviewed NAME``: record the section's four editions as reviewed against each other, as
  they are now.
* ``--reviewed NAME --edition LANG``: record that LANG's prose changed alone and the other
  editions need nothing (refused if another edition changed too); it says nothing of them.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import multiprocessing
import os
import pathlib
import re
import sys
from concurrent.futures import ProcessPoolExecutor

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
SECTIONS = ROOT / "sections"
sys.path.insert(0, str(ROOT))

import atomic  # noqa: E402
import experiment  # noqa: E402
from measure import analysis, tp_analysis  # noqa: E402
from present import LANGUAGES, RESULT_PART, marked_errata  # noqa: E402

KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
CELL = re.compile(r"^# %% (?P<name>[\w-]+)(?::\s*(?P<kind>\w+))?(?: \[(?P<tags>[\w, -]*)\])?\s*$")
PLACE = re.compile(r"^\+\+\+(?: (?P<name>[\w-]+))?\s*$")
HEAD = ("parameters", "setup")
#: A citation in the prose. In the notebook it becomes ``{eval}`cite.key```: JupyterLab shows the
#: label the setup cell gives it ([Flynn, 1972]) and the site links it to the references, as
#: ``{cite}`` does (book/_ext/glued.py).
CITE = re.compile(r"\{cite\}`(\w+)`")
BIBLIOGRAPHY = ROOT / "book" / "references.bib"


# --- The head every notebook of a kind opens with -------------------------------------------

#: What the parameters cell says about its parameters, per kind of notebook.
PARAMETER_NOTES = {
    "split": ["The article's assumed parameters; papermill (or you) may change them.",
              "Units are in the names. Allowed ranges: experiment.RANGES."],
    "tp": ["The demo's parameters (article 2); papermill (or you) may change them.",
           "b, s, h: batch, sequence length, hidden size; d: bytes per value; P: FLOP/s; B: bytes/s."],
    "theory": ["The training scenario's parameters (article 3); papermill (or you) may change them."],
    "measured": ["Which measurement record this page shows: data/measurements/<record_name>.json,",
                 "or the path of a record file (record_name = \"/tmp/m/mine.json\").",
                 "`make measure` writes one for your machine; this page itself never measures."],
    "counted": ["Which tensor-parallel record this page shows: data/measurements/<record_name>.json,",
                "or the path of a record file (record_name = \"/tmp/m/tp-mine.json\").",
                "`make measure-tp` writes one for your machine; this page itself never measures."],
    "ledger": ["This page shows what the articles state, checked at their own parameters:",
               "it takes no parameter but its language."],
}
#: What the setup cell imports, per kind (all of it from this repository).
IMPORTS = {"measured": ["import experiment", "from measure import analysis",
                        "from measure.figure import figure_measured",
                        "from model.units import ring_factor"],
           "counted": ["import experiment", "from measure import tp_analysis",
                       "from measure.figure import figure_tp_measured",
                       "from model.units import ring_factor"]}
#: The setup cell's lines after the parameters are checked, per kind.
SETUP = {
    "measured": ["record = analysis.load(record_name)", "comparison = analysis.compare(record)",
                 'r = comparison["results"]', "page = Page(r, edition)",
                 'page.parameters("split", decimals=3)   # the ledger\'s parameters, measured on '
                 "this machine"],
    "counted": ["record = tp_analysis.load(record_name)",
                "page = Page(experiment.run(), edition)"],
    "ledger": ["page = Page(experiment.run(), edition)"],
}
LINE_WIDTH = 99


def literal(value) -> str:
    """A default as a reader would type it: 2_000_000, 1e10, 0.8."""
    if isinstance(value, int):
        return f"{value:_}" if value >= 10_000 else str(value)
    if isinstance(value, float) and value >= 1e6 and value == int(value):
        return f"{value:.0e}".replace("e+", "e")
    return repr(value)


def parameters_of(kind: str) -> dict:
    """The parameters (besides ``edition``) a kind of notebook takes, with their defaults."""
    if kind in experiment.PARAMETER_GROUPS:
        return {name: spec.default for name, spec in experiment.PARAMETER_GROUPS[kind].items()}
    return {"measured": {"record_name": analysis.COMMITTED},
            "counted": {"record_name": tp_analysis.COMMITTED}, "ledger": {}}[kind]


def call(prefix: str, arguments: list) -> str:
    """``prefix(a, b, …)`` wrapped at LINE_WIDTH, continuation lines aligned after the '('."""
    lines, line = [], prefix + "("
    for index, argument in enumerate(arguments):
        piece = argument + (")" if index == len(arguments) - 1 else ",")
        if len(line) + len(piece) + 1 > LINE_WIDTH and not line.endswith("("):
            lines.append(line)
            line = " " * (len(prefix) + 1) + piece
        else:
            line += ("" if line.endswith("(") else " ") + piece
    return "\n".join(lines + [line])


def citation_label(key: str) -> str:
    """An entry of book/references.bib as the site labels it (sphinxcontrib-bibtex's author-year
    style): "Flynn, 1972"; two authors joined by "and"; three or more as the first one's name and
    "et al."; an entry without authors by its organisation."""
    entry = bibliography().entries[key]
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [" ".join(person.last_names).replace("{", "").replace("}", "") for person in people]
    if not names:
        names = [entry.fields.get("organization", key)]
    who = names[0] if len(names) == 1 else (" and ".join(names) if len(names) == 2
                                            else f"{names[0]} et al.")
    return f"{who}, {entry.fields['year']}"


@functools.cache
def bibliography():
    """book/references.bib, parsed (once)."""
    import pybtex.database
    return pybtex.database.parse_file(str(BIBLIOGRAPHY))


def cited(name: str) -> list:
    """The keys a section's prose cites, in any edition (sorted), so that the four editions
    share one setup cell."""
    return sorted({key for lang in LANGUAGES
                   for key in CITE.findall(prose_text(name, lang))})


def head(kind: str, lang: str, draws: bool = False, cites: tuple = (), section: str = "") -> list:
    """The parameters cell and the setup cell of a notebook of ``kind`` in edition ``lang``
    (importing ``figures`` when ``draws``: when its code shows one of them; giving ``cite`` the
    labels of ``cites``, the keys its prose cites; gluing the markers of ``section``'s errata,
    when it has any: Page.mark_errata; marking the verdicts of ``section`` that the parameters
    can move, when it has any: Page.mark_verdicts)."""
    values = parameters_of(kind)
    parameters = [f"# {note}" for note in PARAMETER_NOTES[kind]]
    parameters += [f"{name} = {literal(value) if not isinstance(value, str) else json.dumps(value)}"
                   for name, value in values.items()]
    parameters.append(f'edition = "{lang}"   # the language of this page: '
                      f'{", ".join(LANGUAGES[:-1])} or {LANGUAGES[-1]}')
    imports = IMPORTS.get(kind, ["import experiment"]) + (["import figures"] if draws else []) + [
        "from present import " + ("Cited, " if cites else "") + "Page, refuse_unknown_parameters"]
    known = (f'[*experiment.PARAMETER_GROUPS["{kind}"], "edition"]'
             if kind in experiment.PARAMETER_GROUPS else json.dumps([*values, "edition"]))
    if kind in experiment.PARAMETER_GROUPS:
        body = [call("r = experiment.run", [f"{name}={name}" for name in values])]
        body += [f'{RESULT_PART[kind][0]} = r["{RESULT_PART[kind][1]}"]'] if kind in RESULT_PART else []
        body += ["page = Page(r, edition)", f'page.parameters("{kind}")']
        if marked_errata(experiment.claims(), section):
            body += ["# where the source states what does not hold, the prose shows a marker",
                     f'page.mark_errata(experiment.claims(), "{section}")']
        if experiment.verdicts(section, experiment.run()):
            body += ["# a sentence that these values overturn is marked where it stands",
                     f'page.mark_verdicts(experiment.verdicts("{section}", r))']
    else:
        body = list(SETUP[kind])
    body.append("g = page.glued   # the numbers the prose shows, by name (g.two_ms)")
    if cites:
        body.append(call("cite = Cited", [f"{key}={json.dumps(citation_label(key), ensure_ascii=False)}"
                                          for key in cites]))
    setup = (["try:"] + [f"    {line}" for line in imports] + [
        "except ModuleNotFoundError:",
        '    raise ModuleNotFoundError("this notebook needs the book\'s code: in a clone of the book\'s "',
        '                              "repository run `pip install .` (see its README), then run "',
        '                              "the notebook again") from None',
        "", f"refuse_unknown_parameters(In, {known})"] + body)
    return [Cell("parameters", "\n".join(parameters), ["parameters", "hide-input"]),
            Cell("setup", "\n".join(setup), ["hide-input"])]


# --- Reading the sources ---------------------------------------------------------------------

@dataclasses.dataclass
class Cell:
    """One code cell of a section: its name (what the prose places), source and tags."""
    name: str
    source: str
    tags: list


class SourceError(ValueError):
    """A section's sources are inconsistent; the message names the file and what to fix."""


def names() -> list:
    """Every section, as the names of its folder (which are its notebooks' names)."""
    return sorted(p.parent.name for p in SECTIONS.glob("*/code.py"))


def destination(name: str, lang: str) -> pathlib.Path:
    """Where a section's notebook in ``lang`` is saved: notebooks/ for the articles' sections,
    book/ for the other notebook pages (the claims ledger and the errata)."""
    folder = "notebooks" if name.split("-")[0] in ("split", "tp", "theory") else "book"
    return ROOT / folder / lang / f"{name}.ipynb"


def kind(name: str) -> str:
    """The kind of head a section's notebooks take, from code.py's first cell line."""
    for line in (SECTIONS / name / "code.py").read_text(encoding="utf-8").splitlines():
        match = CELL.match(line)
        if match:
            return match["kind"]
    raise SourceError(f"{rel(SECTIONS / name / 'code.py')} has no cell")


def code_cells(name: str, lang: str) -> list:
    """The section's code cells in ``lang``: the head of its kind, then code.py's cells."""
    path = SECTIONS / name / "code.py"
    cells, kind, current = [], None, None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = CELL.match(line)
        if match and match["kind"]:
            if cells or kind or match["name"] != "parameters":
                raise SourceError(f"{rel(path)}:{number}: only the first cell line may name a "
                                  "kind (# %% parameters: <kind>)")
            if match["kind"] not in PARAMETER_NOTES:
                raise SourceError(f"{rel(path)}:{number}: unknown kind {match['kind']!r}; one of "
                                  f"{', '.join(PARAMETER_NOTES)}")
            kind = match["kind"]
        elif match:
            if kind is None:
                raise SourceError(f"{rel(path)}:{number}: the first cell line must be "
                                  "# %% parameters: <kind>")
            if match["name"] in HEAD or any(c.name == match["name"] for c in cells):
                raise SourceError(f"{rel(path)}:{number}: cell name {match['name']!r} is taken")
            tags = [t.strip() for t in (match["tags"] or "").split(",") if t.strip()]
            current = Cell(match["name"], "", tags)
            cells.append(current)
        elif current is not None:
            current.source += line + "\n"
        elif line.strip() and not line.startswith("#"):
            raise SourceError(f"{rel(path)}:{number}: code before the first cell")
    if kind is None:
        raise SourceError(f"{rel(path)}: no cell; it must start with # %% parameters: <kind>")
    for cell in cells:
        cell.source = cell.source.strip("\n")
    return head(kind, lang, draws=any("figures." in c.source for c in cells),
                cites=tuple(cited(name)), section=name) + cells


def prose(name: str, lang: str) -> list:
    """An edition's prose: a list of markdown cells (strings) and placed code cells (names,
    as ``Cell`` names wrapped in a 1-tuple)."""
    return [item for _, item in numbered_prose(name, lang)]


def numbered_prose(name: str, lang: str) -> list:
    """``prose`` with the line (from 1) of the prose file each item starts on: a placement's
    own line, a markdown cell's first line that is not empty."""
    items, block, start = [], [], None

    def close():
        text = "\n".join(block).strip("\n")
        if text:
            items.append((start, text))
        block.clear()

    for number, line in enumerate(prose_text(name, lang).splitlines(), 1):
        match = PLACE.match(line)
        if match:
            close()
            start = None
            if match["name"]:
                items.append((number, (match["name"],)))
        else:
            if start is None and line != "":
                start = number
            block.append(line)
    close()
    return items


def prose_path(name: str, lang: str) -> pathlib.Path:
    return SECTIONS / name / f"{lang}.md"


def prose_text(name: str, lang: str) -> str:
    """The text of an edition's prose file; a missing one (a language being added) is refused,
    naming it."""
    path = prose_path(name, lang)
    if not path.is_file():
        raise SourceError(f"{rel(path)} is missing: every section needs the prose of every "
                          f"edition (CONTRIBUTING.md, \"Add a language\")")
    return path.read_text(encoding="utf-8")


#: A place in a notebook as MyST-NB names it in a warning: the notebook's path, then (the cell's
#: index + 1) times 10 000 plus the cell's line counted from 2 (MyST-NB counts from 1, and
#: docutils adds 1 again): a paragraph on the cell's first line reads 70002 in cell 6.
NOTEBOOK_PLACE = re.compile(
    r"(?P<path>[^\s:]*(?:notebooks|book)/(?P<lang>[a-z]+)/(?P<name>[\w-]+)\.ipynb):(?P<at>\d+)")


def source_place(notebook: str, lang: str, name: str, at: int) -> str | None:
    """Where in sections/ the text at MyST-NB's place ``notebook``:``at`` was written:
    ``sections/<name>/<lang>.md:<line>`` for a line of a markdown cell; None for a code cell or a
    notebook that sections/ does not hold."""
    cell, line = divmod(at, 10_000)
    cell -= 1
    path = pathlib.Path(notebook)
    if not prose_path(name, lang).is_file() or not path.is_file():
        return None
    cells = nbformat.read(path, as_version=4).cells
    if not 0 <= cell < len(cells) or cells[cell].cell_type != "markdown":
        return None
    starts = [start for start, item in numbered_prose(name, lang) if isinstance(item, str)]
    index = sum(1 for c in cells[:cell] if c.cell_type == "markdown")
    return f"{rel(prose_path(name, lang))}:{starts[index] + max(line - 2, 0)}" \
        if index < len(starts) else None


def with_source_places(message: str) -> str:
    """``message`` (a build's error) with each notebook place that comes from a section's prose
    followed by the place in sections/ to edit."""
    def named(found: re.Match) -> str:
        source = source_place(found["path"], found["lang"], found["name"], int(found["at"]))
        return found[0] + (f" (written in {source})" if source else "")
    return NOTEBOOK_PLACE.sub(named, message)


def blocks(name: str, lang: str) -> list:
    """The markdown cells of an edition's prose, the units that reviewed.json hashes."""
    return [item for item in prose(name, lang) if isinstance(item, str)]


def merged_placements(name: str, lang: str, cells: list) -> tuple:
    """The edition's prose with every code cell placed once, in code.py's order: a cell the
    prose does not place goes right after the cell before it; a placement of a cell that does
    not exist is dropped. Returns (items, what changed, in words). A placement out of order is
    an error: the translator must move it."""
    wanted = [c.name for c in cells]
    written = prose(name, lang)
    items = [i for i in written if isinstance(i, str) or i[0] in wanted]
    changes = [f"dropped the placement of {i[0]!r}, no such cell"
               for i in written if isinstance(i, tuple) and i[0] not in wanted]
    placed = [i[0] for i in items if isinstance(i, tuple)]
    if len(set(placed)) != len(placed):
        raise SourceError(f"{rel(prose_path(name, lang))}: a code cell is placed twice: {placed}")
    if placed != [n for n in wanted if n in placed]:
        raise SourceError(f"{rel(prose_path(name, lang))}: code cells placed as {placed}; "
                          f"code.py orders them {wanted}")
    for index, cell_name in enumerate(wanted):
        if cell_name not in placed:
            after = [k for k, i in enumerate(items) if isinstance(i, tuple) and i[0] in wanted[:index]]
            items.insert(after[-1] + 1 if after else 0, (cell_name,))
            changes.append(f"placed the new cell {cell_name!r}")
    return items, changes


def render_prose(items: list) -> str:
    """The text of a prose file holding ``items`` (inverse of ``prose``)."""
    parts = []
    for index, item in enumerate(items):
        if isinstance(item, tuple):
            parts.append(f"+++ {item[0]}")
        else:
            if index and isinstance(items[index - 1], str):
                parts.append("+++")
            parts.append(item)
    return "\n\n".join(parts) + "\n"


def assemble(name: str, lang: str) -> tuple:
    """The notebook (without outputs) that a section's sources give in ``lang``, and what the
    prose needed merging (see merged_placements)."""
    cells = code_cells(name, lang)
    by_name = {c.name: c for c in cells}
    items, changes = merged_placements(name, lang, cells)
    nb = nbformat.v4.new_notebook()
    for item in items:
        if isinstance(item, str):
            nb.cells.append(nbformat.v4.new_markdown_cell(CITE.sub(r"{eval}`cite.\1`", item)))
        else:
            cell = by_name[item[0]]
            new = nbformat.v4.new_code_cell(cell.source)
            if cell.tags:
                new.metadata["tags"] = list(cell.tags)
            nb.cells.append(new)
    return normalize(nb), items, changes


# --- Notebooks -------------------------------------------------------------------------------

def normalize(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Stable notebook metadata: fixed kernel, numbered cell ids and counts, no timings."""
    nb.metadata = nbformat.from_dict({"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    count = 0
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index:02d}"
        tags = cell.metadata.get("tags", [])
        cell.metadata = nbformat.from_dict({"tags": tags} if tags else {})
        if cell.cell_type == "code":
            count += 1
            cell.execution_count = count
            for output in cell.outputs:
                if "execution_count" in output:
                    output.execution_count = count
    nb.nbformat, nb.nbformat_minor = 4, 5
    return nb


def sources_of(nb) -> list:
    """What a notebook's sources decide: each cell's type, text and tags (not its outputs)."""
    return [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in nb.cells]


def code_of(nb) -> list:
    return [s for s in sources_of(nb) if s[0] == "code"]


def with_saved_outputs(new, saved) -> nbformat.NotebookNode:
    """``new`` with the outputs of ``saved``, whose code cells are the same."""
    outputs = iter([c.outputs for c in saved.cells if c.cell_type == "code"])
    for cell in new.cells:
        if cell.cell_type == "code":
            cell.outputs = next(outputs)
    return normalize(new)


def execute(nb: nbformat.NotebookNode, folder: pathlib.Path) -> nbformat.NotebookNode:
    """Run a notebook in ``folder``, in a kernel on private sockets (kernel_sockets.py), so that
    several can run at once."""
    from nbclient import NotebookClient

    from kernel_sockets import with_private_kernels
    os.environ.update(with_private_kernels(os.environ))
    NotebookClient(nb, kernel_name="python3", timeout=120, startup_timeout=120,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return normalize(nb)


def status(name: str, lang: str) -> tuple:
    """(what writing would do: 'current', 'prose' or 'code', the assembled notebook, the
    merged prose items, the merge's changes)."""
    new, items, changes = assemble(name, lang)
    path = destination(name, lang)
    if not path.exists():
        return "code", new, items, changes
    saved = nbformat.read(path, as_version=4)
    if code_of(saved) != code_of(new):
        return "code", new, items, changes
    if sources_of(saved) != sources_of(new):
        return "prose", with_saved_outputs(new, saved), items, changes
    return "current", saved, items, changes


def write(job: tuple) -> str:
    """Write one notebook (executing it when its code changed or ``force``); say what was done."""
    name, lang, force = job
    state, nb, items, changes = status(name, lang)
    path = destination(name, lang)
    for change in changes:
        print(f"{rel(prose_path(name, lang))}: {change}")
    if changes:
        atomic.write_text(prose_path(name, lang), render_prose(items))
    if state == "current" and not force:
        return f"current  {rel(path)}"
    if state == "code" or force:
        nb = execute(nb, path.parent)
    atomic.write_text(path, nbformat.writes(nb) + "\n")
    return f"{'executed' if state == 'code' or force else 'prose   '} {rel(path)}"


def out_of_date(selected: list) -> list:
    """The notebooks that differ from their sources, each with what differs."""
    stale = []
    for name in selected:
        for lang in LANGUAGES:
            state, _, _, changes = status(name, lang)
            stale += [f"{rel(prose_path(name, lang))}: {change}" for change in changes]
            if state != "current":
                stale.append(f"{rel(destination(name, lang))}: its {state} differs")
    return stale


# --- Review state ----------------------------------------------------------------------------

def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def reviewed_path(name: str) -> pathlib.Path:
    return SECTIONS / name / "reviewed.json"


def current_review(name: str) -> dict:
    """Each edition's prose, as hashes of its markdown blocks."""
    return {lang: [digest(b) for b in blocks(name, lang)] for lang in LANGUAGES}


def recorded_review(name: str) -> dict:
    """What the section's reviewed.json holds (nothing where it has none yet)."""
    path = reviewed_path(name)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def behind(name: str) -> str | None:
    """None when no edition's prose changed since the section was last reviewed; otherwise a
    sentence naming the editions that changed (and where) and those that must follow."""
    recorded = recorded_review(name)
    now = current_review(name)
    changed = {}
    for lang in LANGUAGES:
        old = recorded.get(lang)
        if old != now[lang]:
            texts = blocks(name, lang)
            where = [i for i, h in enumerate(now[lang]) if old is None or h not in old]
            changed[lang] = ", ".join(f"block {i + 1} ({texts[i][:40]!r}…)" for i in where) \
                or "blocks removed"
    if not changed:
        return None
    follow = [lang for lang in LANGUAGES if lang not in changed]
    return (f"{name}: " + "; ".join(f"{lang} ({rel(prose_path(name, lang))}) changed since the "
                                     f"last review: {where}"
                                     for lang, where in changed.items())
            + (f". {', '.join(follow)} must follow" if follow else "")
            + f"; when the editions say the same again, run `make reviewed SECTION={name}`"
            + (f" (or, where {next(iter(changed))}'s change needs nothing in the others, "
               f"such as a typo, `make reviewed SECTION={name} EDITION={next(iter(changed))}`)"
               if len(changed) == 1 else ""))


def mark_reviewed(name: str) -> None:
    """Record the section's editions as reviewed against each other, as they are now."""
    atomic.write_text(reviewed_path(name), json.dumps(current_review(name), indent=1) + "\n")


def mark_changed_alone(name: str, lang: str) -> None:
    """Record that ``lang``'s prose changed alone and needs nothing in the other editions (a
    typo, a word): its hashes are recorded as they are now and ``lang`` is listed under
    "changed_alone"; the other editions' hashes stay as their last review left them. Refused,
    naming them, where another edition changed too."""
    recorded = recorded_review(name)
    now = current_review(name)
    others = [other for other in LANGUAGES if other != lang and recorded.get(other) != now[other]]
    if others:
        raise SourceError(f"{name}: {', '.join(others)} changed too; bring the editions in step "
                          f"and run `make reviewed SECTION={name}`")
    recorded[lang] = now[lang]
    recorded["changed_alone"] = sorted(set(recorded.get("changed_alone", [])) | {lang},
                                       key=LANGUAGES.index)
    atomic.write_text(reviewed_path(name), json.dumps(recorded, indent=1) + "\n")


def rel(path: pathlib.Path) -> str:
    """A path as the messages name it: from the repository's root (or from sections/'s parent,
    for a copy of sections/ elsewhere)."""
    for base in (ROOT, SECTIONS.parent):
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="sections to write (default: all)")
    parser.add_argument("--execute", action="store_true", help="execute every notebook written")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    parser.add_argument("--reviewed", metavar="NAME", help="record NAME's editions as reviewed")
    parser.add_argument("--edition", choices=LANGUAGES,
                        help="with --reviewed: record that this edition's prose changed alone "
                             "and the others need nothing (a typo, a word)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(names()))
    if unknown or (args.reviewed and args.reviewed not in names()):
        parser.error(f"unknown section(s) {', '.join(unknown or [args.reviewed])}; "
                     f"one of: {', '.join(names())}")
    selected = args.names or names()
    try:
        if args.edition and not args.reviewed:
            parser.error("--edition goes with --reviewed NAME")
        if args.reviewed and args.edition:
            mark_changed_alone(args.reviewed, args.edition)
            print(f"recorded that {args.reviewed}'s {args.edition} prose changed alone; "
                  "the other editions need nothing")
            return 0
        if args.reviewed:
            mark_reviewed(args.reviewed)
            print(f"recorded {args.reviewed}'s four editions as reviewed")
            return 0
        if args.check:
            stale = out_of_date(selected)
            for line in stale:
                print(line)
            if stale:
                print("run `make notebooks` to write them from sections/")
            return 1 if stale else 0
        jobs = [(name, lang, args.execute) for name in selected for lang in LANGUAGES]
        with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
            for done in pool.map(write, jobs):
                print(done)
    except SourceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
