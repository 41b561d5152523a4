"""The files of data/ and the command line that writes them (``python experiment.py``).

``artefacts(results)`` gives every file of data/ as text: the results and the claims as strict
JSON (``experiment``), the figures as SVG (``figures``) and the committed measurement records'
figures (``measure``); ``main`` regenerates data/ atomically, checks it (``--check``, writing
nothing) or writes a variant elsewhere (``--out DIR --set NAME=VALUE``).
"""
from __future__ import annotations

import argparse
import difflib
import json
import pathlib
import sys

import atomic
from experiment import DEFAULTS, RANGES, SPECS, claims, run, to_json
from figures import DECIMAL_MARKS, FIGURES, editions, variants
from measure import analysis, tp_analysis
from measure.figure import MEASURED_FIGURES, figure_measured, figure_tp_measured
from model.units import readable


def artefacts(results: dict) -> dict:
    """Every file of data/ by name, as text: the results, the claims (at the defaults), the
    figures, and the figures of the committed measurement records (data/measurements/). A
    figure gets a second file, with the decimal comma, only where the comma changes it; a worded
    figure (its legend in words) gets one file per edition, the English one under its plain
    name and the others as <name>.<lang>.svg."""
    files = {"results.json": to_json(results)}
    if results["parameters"] == DEFAULTS:
        counted = tp_analysis.ledger_values(tp_analysis.load())   # PyTorch's count (tp-13)
        files["claims.json"] = to_json(claims(results, counted))
    records = {figure_measured: analysis.figure_data(analysis.load()),
               figure_tp_measured: tp_analysis.figure_data(tp_analysis.load())}
    drawings = [(name, draw, records[draw]) for name, draw in MEASURED_FIGURES.items()]
    drawings += [(name, draw, results) for name, draw in FIGURES.items()]
    for name, draw, data in drawings:
        if getattr(draw, "worded", False):
            for lang, text in editions(draw, data).items():
                files[name if lang == "en" else name.replace(".svg", f".{lang}.svg")] = text
            continue
        texts = variants(draw, data)
        point, comma = texts["."], texts[","]
        files[name] = point
        if comma != point:
            files[name.replace(".svg", DECIMAL_MARKS[","] + ".svg")] = comma
    return files


def write_atomically(out_dir: pathlib.Path, files: dict) -> None:
    """Write each file through a temporary file and an atomic rename; drop stale ones."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        atomic.write_text(out_dir / name, text)
    for stale in out_dir.iterdir():
        if stale.suffix in {".json", ".svg"} and stale.name not in files:
            stale.unlink()


def drift(out_dir: pathlib.Path, files: dict) -> list:
    """Human-readable differences between ``files`` and what ``out_dir`` holds."""
    problems = []
    present = {p.name for p in out_dir.glob("*") if p.suffix in {".json", ".svg"}} \
        if out_dir.is_dir() else set()
    for name in sorted(present - set(files)):
        problems.append(f"{name}: in {out_dir} but no longer generated")
    for name, text in sorted(files.items()):
        path = out_dir / name
        if not path.exists():
            problems.append(f"{name}: missing from {out_dir}")
            continue
        old = path.read_text(encoding="utf-8")
        if old != text and name.endswith(".svg"):   # path data says nothing to a reader
            problems.append(f"{name}: differs from the figure the defaults draw")
        elif old != text:
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), f"{name} (saved)",
                                        f"{name} (regenerated)", n=0, lineterm="")
            problems.append("\n".join(list(diff)[:20]))
    return problems


def written_with(out_dir: pathlib.Path) -> dict:
    """The overrides a folder of results was written with: the parameters its results.json
    records that differ from the defaults (none for data/, or for a folder without one)."""
    path = out_dir / "results.json"
    if not path.is_file():
        return {}
    saved = json.loads(path.read_text(encoding="utf-8")).get("parameters", {})
    return {name: value for name, value in saved.items()
            if name in DEFAULTS and value != DEFAULTS[name]}


def parse_assignment(text: str) -> tuple:
    """Parse NAME=VALUE from the command line (integer parameters as int, the rest as float).

    An integer parameter takes any spelling of a whole number (8, 1e3, 8.0); a fraction stays
    a float, for validate() to refuse with the parameter's range."""
    name, equals, raw = (part.strip() for part in text.partition("="))
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with NAME one of "
                                         f"{', '.join(SPECS)}; got {text!r}")
    try:
        value = float(raw)
    except ValueError:
        allowed = RANGES.get(name, "a number")
        raise argparse.ArgumentTypeError(f"{name} must be {allowed}; got {raw!r}") from None
    if name in SPECS and SPECS[name].integer and value.is_integer():
        value = int(value)
    return name, value


def parameter_help() -> str:
    """One line per parameter, by name: its default and its allowed range."""
    return "\n".join(f"  {name} (default {readable(DEFAULTS[name])}): {RANGES[name]}" for name in SPECS)


def main(argv=None) -> int:
    """Command line: regenerate data/, check it, or write a variant elsewhere."""
    root = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Regenerate the book's canonical data: data/results.json, data/claims.json "
                    "and the SVG figures, written atomically.",
        epilog="parameters (for --set NAME=VALUE):\n" + parameter_help())
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory what the output directory holds (the "
                             "defaults, or a variant with the values its results.json records), "
                             "print the differences, write nothing; exit 1 on drift")
    parser.add_argument("--out", type=pathlib.Path, default=root / "data",
                        help="output directory (default: data/ next to this file)")
    parser.add_argument("--set", dest="overrides", metavar="NAME=VALUE", action="append",
                        type=parse_assignment, default=[],
                        help="override a parameter (repeatable); only allowed with --out "
                             "elsewhere than data/, which holds the defaults")
    args = parser.parse_args(argv)
    overrides = dict(args.overrides)
    if overrides and args.check:
        parser.error("--check compares the defaults with data/; write a variant with "
                     "--out DIR --set NAME=VALUE (without --check)")
    if overrides and args.out.resolve() == (root / "data").resolve():
        parser.error("data/ holds the canonical defaults; write overridden results with --out DIR")
    if args.check:
        overrides = written_with(args.out)
    try:
        results = run(**overrides)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    files = artefacts(results)
    if args.check:
        problems = drift(args.out, files)
        for problem in problems:
            print(problem)
        what = "a variant (" + " ".join(f"--set {name}={readable(value)}" for name, value
                                        in overrides.items()) + ")" if overrides else "the defaults"
        if problems:
            again = "`make data` (then `make notebooks`)" if \
                args.out.resolve() == (root / "data").resolve() else \
                f"`python experiment.py --out {args.out}" + "".join(
                    f" --set {name}={readable(value)}" for name, value in overrides.items()) + "`"
            print(f"{args.out}: {what}, drift in {len(problems)} file(s): the code changed "
                  f"since it was written; write it again with {again}")
            return 1
        print(f"{args.out}: {what}, up to date")
        return 0
    write_atomically(args.out, files)
    print(f"wrote {len(files)} files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
