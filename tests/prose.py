"""Reading a notebook's prose: which numbers it types and which glued values it uses.

A number in prose must come from ``experiment.run()`` through ``{eval}`g.key``` (a glued value).
Allowed without glue: digits inside identifiers (T1, float32, GPT-3), dimensions (1 × 2),
years, code (a command a reader types, in backticks or a fenced block), and, inside math, the structural constants of the formulas (1, 2; 4, 18, 72 of
article 2: 4·b·s·h·d, 72·b·s·h², t·P·d/(18·h·B)).
"""
from __future__ import annotations

import ast
import json
import pathlib
import re

import nbformat

GLUE_ROLE = re.compile(r"\{eval\}`g\.(\w+)`")
OTHER_ROLE = re.compile(r"\{(?:cite(?::\w+)?|ref|doc|numref|eq|download)\}`[^`]*`|\{eval\}`cite\.\w+`")
CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)
LINK_TARGET = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)
MATH_ENV = re.compile(r"\\(?:begin|end)\{[a-z*]+\}")
HYPHENATED_NAME = re.compile(r"[A-Za-z]+-[0-9]+")   # GPT-3, Llama-2: names, not quantities
DIMENSION = re.compile(r"[0-9]+\s*[×x]\s*[0-9]+")
YEAR = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}(?![0-9])")
NUMBER = re.compile(r"(?<![A-Za-z_0-9])[0-9]+(?:[.,][0-9]+)*")
MATH_CONSTANTS = {"1", "2", "4", "6", "18", "72"}   # the articles' formulas' constants; 6 of s/(6h)


def markdown_cells(path: pathlib.Path) -> list:
    """The sources of a notebook's markdown cells."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def glued(nb) -> dict:
    """Glued values as the reader sees them, by key (the saved text is the repr of a str), from
    a notebook read by nbformat."""
    return {o["metadata"]["scrapbook"]["name"]:
            ast.literal_eval(o["data"]["application/papermill.record/text/plain"])
            for cell in nb.cells for o in cell.get("outputs", [])
            if "scrapbook" in o.get("metadata", {})}


def glued_keys(path: pathlib.Path) -> set:
    """The keys a notebook's saved outputs glue (MyST-NB's scrapbook metadata)."""
    return set(glued(nbformat.read(path, as_version=4)))


def used_keys(text: str) -> set:
    """The glue keys a piece of prose refers to."""
    return set(GLUE_ROLE.findall(text))


def stray_numbers(text: str) -> list:
    """Numbers typed into prose by hand (empty when every number is glued or allowed)."""
    text = GLUE_ROLE.sub(" ", text)
    text = OTHER_ROLE.sub(" ", text)
    text = CODE.sub(" ", text)
    text = LINK_TARGET.sub(" ", text)
    found = []
    for math in MATH.findall(text):
        body = MATH_ENV.sub(" ", math)
        found += [n for n in NUMBER.findall(body) if n not in MATH_CONSTANTS]
    text = MATH.sub(" ", text)
    text = HYPHENATED_NAME.sub(" ", text)
    text = DIMENSION.sub(" ", text)
    text = YEAR.sub(" ", text)
    return found + NUMBER.findall(text)
