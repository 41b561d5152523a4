"""data/ is regenerated only by experiment.py: byte-stable, atomic, strict, and checked."""
import hashlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

import experiment
import figures
import regenerate
from measure.figure import MEASURED_FIGURES
from model.units import readable
from present import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "experiment.py"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def copy_of_data(folder):
    """The committed files of data/ (what `make data` wrote) copied into ``folder``: the
    same as a regeneration (test_committed_data_is_what_the_code_generates_and_check_mode_sees_drift)
    without its cost."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in snapshot(ROOT / "data").items():
        (folder / name).write_bytes(content)
    return folder


#: A figure's file for an edition: the comma variant, or a worded figure's own edition's file.
EDITION_SUFFIX = re.compile(r"\.(decimal-comma|zh|es|it)(?=\.svg$)")


def test_data_holds_every_figure_and_only_the_variants_needed():
    """data/ holds the file of each figure the code names (figures.FIGURES, and the committed
    records' figures of measure/figure.py), each figure's comma variant where it has one, a
    worded figure's file for each other edition, and nothing else."""
    files = set(snapshot(ROOT / "data"))
    named = {*figures.FIGURES, *MEASURED_FIGURES}
    others = files - named - {"results.json", "claims.json"}
    assert named <= files, f"data/ lacks {sorted(named - files)}: run `make data`"
    # es and it get their own file only where the decimal comma changes the figure (the log
    # axes' powers do not); a figure with words (its legend) has one per edition.
    assert "fig_versus_c.decimal-comma.svg" in others
    worded = {name for name, draw in figures.FIGURES.items() if draw.worded}
    assert worded == {"fig_tp_efficiency.svg", "fig_training_ledger.svg"}
    for name in worded:
        assert {name.replace(".svg", f".{lang}.svg") for lang in ("zh", "es", "it")} <= others
        assert name.replace(".svg", ".decimal-comma.svg") not in files
    stray = sorted(name for name in others if EDITION_SUFFIX.sub("", name) not in named)
    assert not stray, f"data/ holds {stray}, of no figure of figures.FIGURES or measure/figure.py"


def test_json_is_strict_and_sorted():
    text = (ROOT / "data" / "results.json").read_text(encoding="utf-8")
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard constant {c}"))
    assert text == json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def test_figures_carry_no_date():
    for svg in (ROOT / "data").glob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        assert "<dc:date>" not in text and "Date" not in text.split("</metadata>")[0]


def test_committed_data_is_what_the_code_generates_and_check_mode_sees_drift(tmp_path):
    """One regeneration in a fresh process (its own hash seed), compared by --check with a copy
    of data/ (written earlier by another process, `make data`) in which two files were broken:
    it names exactly those two and no other file, so every other file of data/ is, byte for
    byte, what the code generates (data/ is current and regeneration is deterministic across
    processes); it tells what to do, and writes nothing."""
    out = copy_of_data(tmp_path / "data")
    tampered = out / "results.json"
    tampered.write_text(tampered.read_text().replace('"two_ms": 9.22', '"two_ms": 9.23', 1))
    (out / "fig_ledger.svg").unlink()
    before = snapshot(out)
    result = cli("--check", "--out", str(out))
    assert result.returncode == 1
    assert "9.23" in result.stdout and "fig_ledger.svg: missing" in result.stdout
    assert "drift in 2 file(s)" in result.stdout, result.stdout
    # A copy of the defaults elsewhere is written again by the command for that folder;
    # `make data` would rewrite data/, not it.
    assert "the defaults, drift in 2 file(s)" in result.stdout
    assert f"write it again with `python experiment.py --out {out}`" in result.stdout
    assert "make data" not in result.stdout
    assert snapshot(out) == before


def test_overrides_go_elsewhere_and_are_validated(tmp_path):
    result = cli("--out", str(tmp_path), "--set", "c_ms=1", "--set", "q=8")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "a regeneration warns of nothing"
    params = json.loads((tmp_path / "results.json").read_text())["parameters"]
    assert params["c_ms"] == 1 and params["q"] == 8
    assert not (tmp_path / "claims.json").exists()  # the claims concern the article's own parameters


@pytest.mark.parametrize("args, words", [
    (["--set", "eta=-1"], "eta must be eta, the local efficiency of each half: a finite real "
                          "number in [0.01, 1]; got -1.0"),
    (["--set", "eta=nan"], "eta must be"),
    (["--set", "b_bytes_per_s=inf"], "b_bytes_per_s must be"),
    (["--set", "q=2.5"], "q must be Q, the number of communications: an integer in [1, 1e6]"),
    (["--set", "c_ms=1e308"], "c_ms must be C, the divisible time in ms: a finite real number "
                              "in [1e-6, 1e9]; got 1e+308"),
    (["--check", "--set", "c_ms=1"], "--check compares the defaults with data/; write a variant "
                                     "with --out DIR"),
    (["--set", "bandwidth=5"], "valid names are"),
    (["--set", "c_ms"], "expected NAME=VALUE"),
    (["--set", "=3"], "expected NAME=VALUE with NAME one of s_ms, c_ms"),
])
def test_bad_command_line_input_is_refused(tmp_path, args, words):
    result = cli("--out", str(tmp_path), *args)
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert not any(tmp_path.iterdir())


def test_an_integer_may_be_written_as_the_range_writes_it_and_minus_zero_is_zero(tmp_path):
    """--set q=1e3 is the integer 1000 (the message's own range says 1e6); s_ms=-0.0 is 0."""
    result = cli("--out", str(tmp_path), "--set", "q=1e3", "--set", "s_ms=-0.0")
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "results.json").read_text()
    params = json.loads(text)["parameters"]
    assert params["q"] == 1000 and isinstance(params["q"], int)
    assert params["s_ms"] == 0 and re.search(r"-0\.0(?![0-9])", text) is None


def test_a_python_without_the_books_packages_gets_one_sentence_not_a_traceback():
    """python -S: no site-packages, so no matplotlib (the figures need it)."""
    result = subprocess.run([sys.executable, "-S", str(ROOT / "experiment.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "lacks 'matplotlib'" in result.stderr and "make data" in result.stderr


def test_check_on_a_variant_checks_it_against_the_values_it_was_written_with(tmp_path):
    """A variant is checked against its own parameters (read from its results.json), not the
    defaults: up to date as written; a changed number is drift, and the step given is the
    command that writes that variant again, never `make data`."""
    assert cli("--out", str(tmp_path), "--set", "c_ms=1", "--set", "q=8").returncode == 0
    result = cli("--check", "--out", str(tmp_path))
    assert result.returncode == 0, result.stdout
    assert "a variant (--set c_ms=1 --set q=8), up to date" in result.stdout
    results = tmp_path / "results.json"
    results.write_text(results.read_text().replace('"break_even"', '"break_even_"', 1))
    result = cli("--check", "--out", str(tmp_path))
    assert result.returncode == 1 and "a variant (--set c_ms=1 --set q=8), drift in 1 file(s)" \
        in result.stdout
    assert f"python experiment.py --out {tmp_path} --set c_ms=1 --set q=8" in result.stdout
    assert "make data" not in result.stdout and "<path" not in result.stdout


def test_overrides_cannot_overwrite_the_canonical_data():
    result = cli("--set", "c_ms=1")
    assert result.returncode == 2 and "canonical" in result.stderr


def test_help_explains_every_mode_and_parameter():
    text = cli("--help").stdout
    for words in ("--check", "--out", "--set"):
        assert words in text
    for name, spec in experiment.SPECS.items():   # one line per parameter, by its name
        assert [line for line in text.splitlines() if line.strip().startswith(name + " ")] == [
            f"  {name} (default {readable(spec.default)}): {spec.allowed}"]


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    before = snapshot(copy_of_data(tmp_path))
    files = {name: content.decode("utf-8") for name, content in before.items()}
    files["results.json"] = files["results.json"].replace("9.22", "9.25")
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        regenerate.write_atomically(tmp_path, files)
    assert calls and snapshot(tmp_path) == before  # no temporary left behind, nothing truncated


def test_a_missing_glyph_fails_the_figure():
    @figures.figure
    def hieroglyph_title(results, fig, ax):
        ax.set_title("\U00013000")  # in neither of the figures' fonts (Latin, and Chinese)

    with pytest.raises(UserWarning, match="Glyph .* missing"):
        hieroglyph_title({})


def svg_outputs(notebook: pathlib.Path) -> list:
    """The SVG figures a saved notebook shows, as text."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            svg = output.get("data", {}).get("image/svg+xml")
            if svg is not None:
                found.append("".join(svg) if isinstance(svg, list) else svg)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_figure_the_book_shows_is_a_file_of_data_in_the_editions_notation(lang):
    """At the default parameters a notebook's figure is byte for byte a file of data/: the
    edition's own file of a worded figure, else the decimal-comma file where one exists for es
    and it, else the plain one."""
    data = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "data").glob("*.svg")}
    comma = lang in ("es", "it")
    shown = [svg for nb in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")) for svg in svg_outputs(nb)]
    assert len(shown) >= 9
    for svg in shown:
        names = [name for name, text in data.items() if text == svg]
        assert names, "a figure in the notebooks is not in data/: run `make data` and `make notebooks`"
        plain = EDITION_SUFFIX.sub("", names[0])
        own = plain.replace(".svg", f".{lang}.svg")
        expected = own if own in data else plain.replace(".svg", ".decimal-comma.svg") \
            if comma and plain.replace(".svg", ".decimal-comma.svg") in data else plain
        assert names == [expected], (names, expected)


def test_decimal_comma_figures_use_the_comma_in_their_tick_labels():
    """Independent of the code under test: matplotlib writes each label's text in a comment
    before its glyph paths, so the tick labels of E(t) read 0.2 … 1.0 in one file and 0,2 … 1,0
    in the other, and no label keeps the other mark."""
    labels = {}
    for name in ("fig_tp_efficiency.svg", "fig_tp_efficiency.es.svg"):
        text = (ROOT / "data" / name).read_text(encoding="utf-8")
        labels[name] = set(re.findall(r"<!-- (\d+[.,]\d+) -->", text))
    assert {"0.2", "0.4", "0.6", "0.8", "1.0"} <= labels["fig_tp_efficiency.svg"]
    assert {"0,2", "0,4", "0,6", "0,8", "1,0"} <= labels["fig_tp_efficiency.es.svg"]
    assert not any("," in label for label in labels["fig_tp_efficiency.svg"])
    assert not any("." in label for label in labels["fig_tp_efficiency.es.svg"])


def test_log_axes_write_their_powers_as_text():
    """The log axes' tick labels are plain text (matplotlib's mathtext parser is the slowest
    part of drawing them): 10⁻¹ … 10¹ on B's axis, 2⁰ … 2¹⁰ on Amdahl's N, and no label in
    mathtext. Independent of the code under test: matplotlib writes each label's text in a
    comment before its glyphs."""
    def labels(name):
        return re.findall(r"<!-- (.*?) -->", (ROOT / "data" / name).read_text(encoding="utf-8"))
    assert {"10⁻¹", "10⁰", "10¹"} <= set(labels("fig_versus_b.svg"))
    assert {"2⁰", "2⁴", "2¹⁰"} <= set(labels("fig_amdahl.svg"))
    for name in figures.FIGURES:
        assert not any("$" in label for label in labels(name)), name


def test_a_log_axis_over_two_decades_or_more_leaves_out_its_unlabelled_minor_ticks():
    """A log axis's minor ticks (eight unlabelled marks a decade) were about a quarter of the
    drawing's time; an axis that labels three powers or more shows its scale without them, a
    shorter one keeps them. Counted on the figure as drawn (the minor tick locations matplotlib
    draws): over 0.1 to 1000 (five powers labelled) none; over 1 to 10 (two powers) the eight
    of 2, 3, …, 9; over 2 to 8 (under a decade, minor ticks labelled) the seven of 2, 3, …, 8."""
    @figures.figure
    def spans(data, fig, ax):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.plot(data["x"], data["y"])
        ax.set_xlim(*data["x"])
        ax.set_ylim(*data["y"])

    def minor_ticks(x, y):
        with figures.drawn(spans, {"x": x, "y": y}) as fig:
            figures._svg_text(fig)
            return tuple(sum(1 for x in axis.get_minorticklocs()
                             if low * 0.999 <= x <= high * 1.001)
                         for axis in (fig.axes[0].xaxis, fig.axes[0].yaxis)
                         for low, high in [sorted(axis.get_view_interval())])

    assert minor_ticks([0.1, 1000], [1, 10]) == (0, 8)
    assert minor_ticks([2, 8], [0.01, 100]) == (7, 0)


#: Latin letters a figure may write as a word: the notation of the sources (max[…], T_comm and
#: T_calc), the same in every edition.
NOTATION_WORDS = {"max", "comm", "calc", "ReLU"}   # ReLU: the activation, named as in every edition


def test_no_figure_writes_a_word_of_one_language():
    """The figures shared by the four editions (only their decimal mark differs) write symbols,
    numbers and units, no word of any language: every run of three or more Latin letters in a
    label is notation (a figure said "V (bytes)" and "all-reduce (ms)", English in the zh, es
    and it editions). matplotlib writes each label's text in a comment. A worded figure, drawn
    once per edition, is the exception (test_a_worded_figure_speaks_its_editions_words)."""
    worded = {EDITION_SUFFIX.sub("", p.name).split(".")[0] for p in (ROOT / "data").glob("*.svg")
              if EDITION_SUFFIX.search(p.name) and "decimal-comma" not in p.name}
    words = {}
    for path in sorted((ROOT / "data").glob("*.svg")):
        if path.name.split(".")[0] in worded:
            continue
        for label in re.findall(r"<!-- (.*?) -->", path.read_text(encoding="utf-8")):
            for word in re.findall(r"[A-Za-z]{3,}", label):
                if word not in NOTATION_WORDS:
                    words.setdefault(path.name, set()).add(word)
    assert not words, words


def contrast_on_white(colour: str) -> float:
    """WCAG's contrast ratio of an sRGB colour "#rrggbb" against white."""
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 1.05 / (0.2126 * red + 0.7152 * green + 0.0722 * blue + 0.05)


def test_every_line_and_text_of_a_figure_stands_out_from_the_page():
    """Every line and every text a figure draws stands at least 3:1 against the white page
    (WCAG's minimum for graphics): theory-03 drew f = 0.9 in Okabe–Ito orange, 2.2:1. The grid's
    light grey is left out on purpose (it is there to be faint), and so is white, which the
    figures draw only on coloured bars and cells."""
    faint = {figures.STYLE["grid.color"].lower(), "#ffffff"}
    weak = {}
    for path in sorted((ROOT / "data").glob("*.svg")):
        svg = path.read_text(encoding="utf-8")
        colours = set(re.findall(r"stroke: (#[0-9a-fA-F]{6})", svg))
        colours |= set(re.findall(r'<g id="text_\d+">.*?style="fill: (#[0-9a-fA-F]{6})', svg, re.S))
        low = {c for c in colours if c.lower() not in faint and contrast_on_white(c) < 3}
        if low:
            weak[path.name] = sorted(low)
    assert not weak, f"lines or text under 3:1 against white: {weak}"


@pytest.mark.parametrize("colour, ratio", [("#000000", 21.0), ("#ffffff", 1.0), ("#767676", 4.54)])
def test_the_contrast_ratio_itself(colour, ratio):
    assert contrast_on_white(colour) == pytest.approx(ratio, abs=0.01)


def test_a_figure_keeps_its_ids_when_matplotlib_hashes_them_otherwise():
    """matplotlib names clip paths and markers by a hash of their coordinates at full
    precision, whose last bits differ from one CPU to another: on another machine the same
    figure, every printed coordinate equal, came with other ids. Two such SVGs (the second's
    ids rehashed, as that machine did) are the same figure once written; and two figures still
    name their clip paths apart."""
    def drawn(title):
        fig, ax = figures.new_figure(figsize=(4, 3))
        ax.plot([0, 1, 2], [0, 1, 4], marker="o")
        ax.set_title(title)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        return buffer.getvalue()

    here = drawn("a")
    hashed = sorted(set(re.findall(r'id="([pm][0-9a-f]{10})"', here)))
    assert hashed, "matplotlib's hashed ids"
    elsewhere = here
    for old in hashed:
        elsewhere = elsewhere.replace(old, old[0] + hashlib.sha256(old.encode()).hexdigest()[:10])
    assert elsewhere != here
    assert figures._stable_ids(elsewhere) == figures._stable_ids(here)
    ids = lambda svg: set(re.findall(r'<clipPath id="([^"]+)"', figures._stable_ids(svg)))  # noqa: E731
    assert ids(here) and not ids(here) & ids(drawn("b"))


def test_an_axis_offset_is_kept_with_the_comma():
    """A tick formatter relabelled for the comma (figures._relabelled) keeps the axis's offset
    ("+1e5" above values near 100 000), as the point's drawing writes it."""
    @figures.figure
    def near_100_000(data, fig, ax):
        ax.plot([0, 1], [100000.1, 100000.5])

    for mark in figures.DECIMAL_MARKS:
        comments = re.findall(r"<!-- (.*?) -->", near_100_000({}, mark))
        assert "+1e5" in comments, (mark, comments)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_worded_figure_speaks_its_editions_words(lang):
    """Issue 49, item 5: tp-05's E(t) and theory-04's ledger name their lines and parts in the
    edition's words (words/<lang>.toml [figure_words]), each edition's file its own: every word
    of the edition's legend is written in it (matplotlib keeps each text in a comment), and no
    legend word of another edition that this one does not share."""
    from words import edition
    said = {other: set(edition(other)["figure_words"].values()) for other in LANGUAGES}
    for name, draw in figures.FIGURES.items():
        if not draw.worded:
            continue
        path = ROOT / "data" / (name if lang == "en" else name.replace(".svg", f".{lang}.svg"))
        texts = set(re.findall(r"<!-- (.*?) -->", path.read_text(encoding="utf-8")))
        own = {w for w in said[lang] if w in texts}
        assert own, f"{path.name} writes none of the {lang} legend"
        foreign = {w for other in LANGUAGES if other != lang for w in said[other] - said[lang]}
        assert not texts & foreign, f"{path.name} writes {sorted(texts & foreign)}"
