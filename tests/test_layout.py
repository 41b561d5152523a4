"""The house has one floor per job and no circle: compute (experiment.py, over model/), figures
(figures.py), the files of data/ and the command line (regenerate.py); measure/ builds on the
compute part, and nothing imports upwards."""
import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: Each of the book's own modules, and the floors it may import from (stdlib and third-party
#: packages aside). Names are module paths: "measure.analysis" is measure/analysis.py.
ALLOWED = {
    "model": {"model"},
    "experiment": {"model"},
    "figures": {"atomic", "model", "words"},     # a worded figure's legend (issue 49)
    "measure.analysis": {"atomic", "experiment", "model"},
    "measure.figure": {"figures"},
    "present": {"words", "model"},
    "panel": {"experiment", "model", "present", "words"},
    "words": set(),
    "regenerate": {"atomic", "experiment", "figures", "measure", "model"},
    "atomic": set(),
}


def module_files() -> dict:
    files = {"experiment": ROOT / "experiment.py", "figures": ROOT / "figures.py",
             "regenerate": ROOT / "regenerate.py", "present": ROOT / "present.py",
             "words": ROOT / "words" / "__init__.py", "atomic": ROOT / "atomic.py",
             "panel": ROOT / "panel.py",
             "measure.analysis": ROOT / "measure" / "analysis.py",
             "measure.figure": ROOT / "measure" / "figure.py"}
    files |= {f"model.{p.stem}": p for p in (ROOT / "model").glob("*.py")}
    return files


OWN = ("model", "experiment", "figures", "regenerate", "present", "words", "measure", "atomic",
       "panel")


def imports_of(path: pathlib.Path) -> set:
    """The book's modules that a file imports at load time (an ``if __name__ == "__main__":``
    block runs only as a script, so it is not a load-time import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                found |= {a.name for a in inner.names}
            elif isinstance(inner, ast.ImportFrom) and inner.level == 0 and inner.module:
                found.add(inner.module)
    return {name for name in found if name.split(".")[0] in OWN}


def floor(module: str) -> str:
    return "model" if module.startswith("model") else module


def test_each_module_imports_only_the_floors_below_it():
    for module, path in module_files().items():
        allowed = ALLOWED[floor(module)]
        for name in imports_of(path):
            assert name.split(".")[0] in allowed or name in allowed, \
                f"{path.relative_to(ROOT)} imports {name}, outside {sorted(allowed)}"


def test_the_import_graph_has_no_circle():
    graph = {module: {n for n in imports_of(path)} for module, path in module_files().items()}

    def reach(start, seen):
        for name in graph.get(start, ()):
            targets = [m for m in graph if m == name or m.startswith(name + ".")]
            for target in targets:
                assert target != seen[0], f"circle through {' → '.join(seen + [target])}"
                if target not in seen:
                    reach(target, seen + [target])

    for module in graph:
        reach(module, [module])


def test_running_experiment_py_loads_it_once():
    """``python experiment.py --check`` runs the file as __main__; regenerate.py's
    ``import experiment`` must find that run rather than load the file a second time."""
    result = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "experiment.py"),
                             "--check"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    loaded = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()
              if line.startswith("import time:")]
    assert "regenerate" in loaded and "experiment" not in loaded
