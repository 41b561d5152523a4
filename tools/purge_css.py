"""The themes' stylesheets cut, in a built site, to the rules that can match something in it.

pydata-sphinx-theme ships 390 kB of CSS (Bootstrap included), sphinx-design 55 kB and MyST-NB
43 kB; a page of this book uses about a tenth of it, yet every page must download and parse all
of it before it shows anything (Lighthouse counts it as render-blocking and unused), and Chromium
parses it again for each page it prints.

A rule is kept when one of its selectors names only classes and ids that occur as a word in
some page or script of the site: a class that a script adds (Bootstrap's ``show``, the theme's
``dark``) is a word of that script. Attribute selectors, element names and pseudo-classes never
remove a rule, nor do at-rules other than the blocks that hold rules (@media, @supports, @layer,
@container), which are cut inside and dropped when empty. So the cut errs towards keeping.

The theme's whole file is kept outside the site the first time it is seen there, so a rebuild
cuts from the whole file again; a file is rewritten only when its cut changed, and its source
map (which maps the whole file) is removed. Bootstrap's licence comment stays in the cut. What a
build read and cut is kept beside the whole files (MEMO), so that a rebuild reads again only
the pages and scripts whose bytes changed and cuts again only when the words or a whole file did.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import atomic  # noqa: E402

#: The stylesheets cut, relative to a site's _static/ (a name ending in "*" is a prefix: MyST-NB
#: names its file by a digest). The book's own site.css is written for its pages and stays whole.
SHEETS = ("styles/pydata-sphinx-theme.css", "sphinx-design.min.css", "mystnb.*",
          "styles/sphinx-book-theme.css", "basic.css")
#: How a cut file starts (a @charset must come first), so that the build tells it from a fresh
#: copy of the theme's; a @charset of the whole file, valid only there, is dropped from the rest.
MARK = '@charset "UTF-8";\n/* cut to this site\'s words by tools/purge_css.py */\n'
#: At-rules whose block holds rules, which are cut in turn.
NESTING = ("@media", "@supports", "@layer", "@container")

_WORD = re.compile(r"[A-Za-z_][\w-]*")
_NAMED = re.compile(r'\s(?:class|id)="([^"]*)"')
_SCRIPT = re.compile(r"<script[^>]*>(.*?)</script>", re.S)
_SPECIAL = re.compile(r"[{};\"'\\]")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LICENCE = re.compile(r"/\*!.*?\*/", re.S)
_ARGUMENT = re.compile(r":[\w-]+\([^()]*\)")     # :not(.x), :is(…), :has(…): never required
_ATTRIBUTE = re.compile(r"\[[^\]]*\]")
_NAMES = re.compile(r"[.#](-?[A-Za-z_][\w-]*)(\\?)")


def _digest(content: str | bytes) -> str:
    """What MEMO knows a file or a text by (text as UTF-8)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def site_words(site: pathlib.Path, memo: dict | None = None) -> set:
    """The names a stylesheet can select in ``site``: the classes and ids of its HTML pages, and
    every word (letters, digits, '_' and '-') of its scripts, inline or in files, that can add
    one. The search index is data, not a script that names classes, and prose words are never
    names: so a changed sentence leaves the cut, and the parts printed with it, as they were.

    With ``memo`` (a dict, filled here: file → [digest of its bytes, its words]), a file whose
    bytes are those the memo holds is not read for words again."""
    words, seen = set(), {}
    for path in sorted(site.rglob("*")):
        if path.suffix not in (".js", ".html") or path.name == "searchindex.js" \
                or not path.is_file():
            continue
        data = path.read_bytes()
        digest, name = _digest(data), path.relative_to(site).as_posix()
        known = (memo or {}).get(name)
        found = known[1] if known and known[0] == digest else sorted(_names_in(path.suffix, data))
        seen[name] = [digest, found]
        words.update(found)
    if memo is not None:
        memo.clear()
        memo.update(seen)
    return words


def _names_in(suffix: str, data: bytes) -> set:
    """The words of a script, or the classes, ids and inline scripts' words of a page."""
    text = data.decode("utf-8", errors="replace")
    if suffix == ".js":
        return set(_WORD.findall(text))
    words = set()
    for names in _NAMED.findall(text):
        words.update(names.split())
    for script in _SCRIPT.findall(text):
        words.update(_WORD.findall(script))
    return words


def rules(css: str) -> list:
    """The top-level items of a stylesheet, in order: (prelude, block) for a rule or a block
    at-rule, (statement, None) for a statement such as @import or @charset; comments dropped
    (``licences`` keeps those that must stay)."""
    items, prelude, depth, start, quote, skip = [], "", 0, 0, None, -1
    text = _COMMENT.sub("", css)
    for found in _SPECIAL.finditer(text):
        char, i = found.group(), found.start()
        if i == skip:
            continue
        if char == "\\":
            skip = i + 1
        elif quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "{":
            if depth == 0:
                prelude, start = text[start:i].strip(), i + 1
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                items.append((prelude, text[start:i]))
                start = i + 1
        elif depth == 0:   # ";"
            items.append((text[start:i].strip(), None))
            start = i + 1
    return items


def licences(css: str) -> str:
    """The comments a stylesheet marks to be kept (``/*! … */``: Bootstrap's copyright and
    licence), one a line."""
    return "".join(comment + "\n" for comment in _LICENCE.findall(css))


def selectors(prelude: str) -> list:
    """A rule's selector list split at its own commas (not those inside :is(…) or […])."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(prelude):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    return parts + [prelude[start:]]


def selector_needed(selector: str, words: set) -> bool:
    """Whether every class and id a selector requires is among ``words`` (an escaped name, which
    this reading does not decode, counts as present)."""
    previous = None
    while previous != selector:
        previous, selector = selector, _ARGUMENT.sub("", selector)
    for name, escaped in _NAMES.findall(_ATTRIBUTE.sub("", selector)):
        if not escaped and name not in words:
            return False
    return True


def cut(css: str, words: set) -> str:
    """``css`` with the rules that cannot match dropped, one item a line."""
    out = []
    for prelude, block in rules(css):
        if block is None:
            if not prelude.startswith("@charset"):
                out.append(prelude + ";")
        elif prelude.startswith(NESTING):
            inner = cut(block, words)
            if inner:
                out.append(f"{prelude}{{\n{inner}}}")
        elif prelude.startswith("@") or any(selector_needed(s, words) for s in selectors(prelude)):
            out.append(f"{prelude}{{{block}}}")
    return "".join(line + "\n" for line in out)


def sheets(static: pathlib.Path) -> list:
    """The stylesheets of ``SHEETS`` that a site's _static/ holds."""
    found = []
    for name in SHEETS:
        found += sorted(static.glob(name)) if name.endswith("*") else [static / name]
    return [path for path in found if path.is_file() and path.suffix == ".css"]


#: What purge_site keeps of its last run beside the whole files (under ``originals``): the words
#: of each page and script (site_words' memo) and, for each stylesheet, what it was last cut from
#: (the digests of the whole file and of the words) and the digest of the cut.
MEMO = "purge-memo.json"
#: Beside each whole file, its last cut (the whole file's name and this): Sphinx copies the
#: theme's whole files over the cut ones in every build, and a rebuild whose words did not
#: change writes the kept cut back (a hundredth of a second) instead of cutting again (the
#: five files took six hundredths).
CUT = ".cut"
#: This file's own digest, part of what a cut is known by: a change to how it cuts cuts again.
CUTTER = hashlib.blake2b(pathlib.Path(__file__).read_bytes(), digest_size=8).hexdigest()


def purge_site(site: pathlib.Path, originals: pathlib.Path) -> list:
    """Cut each stylesheet of ``SHEETS`` in ``site`` to the site's words, from the whole file
    kept under ``originals`` (saved there when the site's copy is not a cut one). Returns the
    files rewritten. A stylesheet whose whole file and words are those it was last cut from,
    and which still holds that cut, is left as it is without cutting it again (a rebuild after
    a changed sentence: a tenth of a second of each)."""
    memo_path = originals / MEMO
    try:
        memo_text = memo_path.read_text(encoding="utf-8")
        memo = json.loads(memo_text)
    except (OSError, ValueError):
        memo_text, memo = "", {}
    words_memo = memo.get("words", {})
    words, cuts, written = site_words(site, words_memo), {}, []
    words_digest = _digest("\n".join(sorted(words)))
    for path in sheets(site / "_static"):
        name = path.relative_to(site).as_posix()
        whole, kept_cut = originals / name, originals / (name + CUT)
        current = path.read_text(encoding="utf-8")
        if not current.startswith(MARK) and not (whole.is_file() and
                                                 whole.read_text(encoding="utf-8") == current):
            atomic.write_text(whole, current)
        css = current if not current.startswith(MARK) else whole.read_text(encoding="utf-8")
        source, last = f"{_digest(css)} {words_digest} {CUTTER}", memo.get("cuts", {}).get(name)
        if last and last[0] == source and last[1] == _digest(current):
            cuts[name] = last
            continue
        text = kept_cut.read_text(encoding="utf-8") if last and last[0] == source and \
            kept_cut.is_file() else None
        if text is None or _digest(text) != last[1]:   # no cut kept of this whole and words
            text = MARK + licences(css) + cut(css, words)
            atomic.write_text(kept_cut, text)
        if text != current:
            atomic.write_text(path, text)
            written.append(path)
        cuts[name] = [source, _digest(text)]
        path.with_name(path.name + ".map").unlink(missing_ok=True)   # it maps the whole file
    kept = json.dumps({"words": words_memo, "cuts": cuts}, sort_keys=True)
    if kept != memo_text:
        atomic.write_text(memo_path, kept)
    return written
