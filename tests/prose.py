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
#: The articles' formulas' constants (6 of s/(6h)), and those of tp-04's derivation of
#: 72·b·s·h²: 12·h² weights (3h² + h² + 4h² + 4h²), 24 forward and 48 backward.
MATH_CONSTANTS = {"1", "2", "3", "4", "6", "12", "18", "24", "48", "72"}


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


#: Number words by language, for the numbers a glue key's name can carry (t8, ring_factor_8,
#: efficiency_2_last): a sentence that glues such a value and also types its number as a word
#: (or as "= 2" in maths) states by hand what the code decides.
NUMBER_WORDS = {
    "en": {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
           9: "nine", 10: "ten", 12: "twelve", 16: "sixteen", 32: "thirty-two"},
    "es": {2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete", 8: "ocho",
           9: "nueve", 10: "diez", 12: "doce", 16: "dieciséis", 32: "treinta y dos"},
    "it": {2: "due", 3: "tre", 4: "quattro", 5: "cinque", 6: "sei", 7: "sette", 8: "otto",
           9: "nove", 10: "dieci", 12: "dodici", 16: "sedici", 32: "trentadue"},
    "zh": {2: "[二两]", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十",
           12: "十二", 16: "十六", 32: "三十二"},
}
#: What follows a Chinese number word that counts something (个, 张, 块, 台 …): 八 in 八卡 or
#: 八块 GPU is a count, 八 inside another word is not.
ZH_COUNTED = "(?:个|張|张|块|台|卡|路|倍|次|条|层|份)"
#: The limit of the ring factor 2(t − 1)/t, two messages, is the formula's constant (as 2 is
#: in maths), not the degree t = 2 that a key such as ``ring_t2`` names.
RING_LIMIT = {"en": r"two messages", "es": r"dos mensajes", "it": r"due messaggi|tende a due",
              "zh": r"两份"}
KEY_NUMBER = re.compile(r"(?:^|_)[a-z]?([0-9]+)(?=_|$)")
SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z¿¡])|(?<=[。！？；：])|\n\n|\n- ")


def numbers_named_by_hand(text: str, lang: str) -> list:
    """(key, word) for each sentence of ``text`` that glues a value whose key names a number
    (``ring_factor_8`` → 8, ``t32`` → 32) and types that same number by hand: as a number word
    of ``lang``, or as "= N" in maths ($t = 2$)."""
    found = []
    for sentence in SENTENCE_END.split(text):
        rest = GLUE_ROLE.sub(" ", OTHER_ROLE.sub(" ", CODE.sub(" ", sentence)))
        rest = re.sub(RING_LIMIT[lang], " ", rest)
        prose, maths = MATH.sub(" ", rest), MATH.findall(rest)
        for key in GLUE_ROLE.findall(sentence):
            for digits in KEY_NUMBER.findall(key):
                n = int(digits)
                word = NUMBER_WORDS[lang].get(n)
                if lang == "zh" and word:
                    pattern = rf"(?<![一二三四五六七八九十两]){word}{ZH_COUNTED}"
                elif word:
                    pattern = rf"(?<![\w-]){word}(?![\w-])"
                else:
                    pattern = None
                typed = re.search(pattern, prose, re.I) if pattern else None
                if typed:
                    found.append((key, typed.group(0)))
                if any(re.search(rf"=\s*{n}(?![0-9.,])", m) for m in maths):
                    found.append((key, f"= {n}"))
    return found


GREEK = {r"\eta": "η", r"\ell": "ℓ", r"\mu": "μ", r"\alpha": "α", r"\beta": "β", r"\tau": "τ",
         r"\varepsilon": "ε", r"\epsilon": "ε", r"\ast": "*"}
MATH_WORDS = re.compile(r"\\(?:mathrm|text|operatorname|mathit|textrm)\{[^{}]*\}")
MATH_SYMBOL = re.compile(r"([A-Za-zηℓμαβτε])(?:_\{?(?:[0-9½]+|[a-z])\}?|[₀-₉½ᵢ])?(\^\{?\*\}?|\*)?")


def math_symbols(text: str) -> set:
    """The symbols a piece of prose writes in math ($…$ and $$…$$): one letter each, with a
    star when it carries one (C*, t*) and with a subscript that numbers or indexes it dropped
    (T₁ and T₂ are both T, the symbol of a time; τ_i is τ); words in \\mathrm{} or \\text{} (T_calc's "calc") are names, not
    symbols."""
    found = set()
    for math in MATH.findall(GLUE_ROLE.sub(" ", text)):
        math = MATH_WORDS.sub(" ", math.strip("$"))
        for command, letter in GREEK.items():
            math = math.replace(command, letter)
        math = re.sub(r"\\[A-Za-z]+", " ", math)   # \frac, \cdot, \left: layout, not symbols
        found |= {letter + ("*" if star else "") for letter, star in MATH_SYMBOL.findall(math)}
    return found
