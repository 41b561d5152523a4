"""The book uses other packages through their public API only, so that it still builds when they
change their internals. Read from the sources (AST), in every Python file of the repository:

- no name starting with one underscore (not a dunder) taken from another package: imported
  (``from matplotlib._text_helpers import layout``, ``from jupyter_client import _x``), read as
  an attribute of anything but the book's own modules, ``self`` or ``cls``
  (``builder._write_serial``), or defined as a method of a subclass of another package's
  class, which overrides a private one (``def _async_wait(self)`` in a KernelManager);
- no assignment into another package's module or class (``yaml.safe_load = ...``,
  ``setattr(nbval.kernel, ...)``) outside the tests, whose ``monkeypatch`` undoes itself;
- nothing put into or taken out of ``sys.modules`` but the book's own modules;
- no ``.pth`` file, in the tree or written by the code.

Where a package leaves no public way, the smallest workaround is listed in EXCEPTIONS with the
upstream issue that would remove it; a new place fails, and so does a listed one that is gone.
"""
from __future__ import annotations

import ast
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: Each known place: (file, rule, what) -> the upstream issue that leaves no public way.
EXCEPTIONS = {
    ("conftest.py", "private override", "LoadScopeScheduling._split_scope"):
        "https://github.com/pytest-dev/pytest-xdist/issues/1386 (--dist loadgroup no longer "
        "groups with pytest 9.2; a notebook's cells must run in one kernel, in order)",
    ("measure/tp_layer.py", "private import", "torch.testing._internal.distributed.fake_pg"):
        "https://github.com/pytorch/pytorch/pull/191634 (PyTorch registers its \"fake\" process "
        "group, which counts tp-13's collectives in one process, only in a testing module)",
}


def python_files(root: pathlib.Path = ROOT) -> list:
    """The repository's tracked Python files, as paths relative to ``root``."""
    listed = subprocess.run(["git", "ls-files", "-z", "*.py"], cwd=root, capture_output=True,
                            check=True).stdout.decode()
    return sorted(name for name in listed.split("\0") if name and (root / name).is_file())


def own_modules(files: list) -> set:
    """The top-level names the book's own code is imported by: its root modules and packages,
    and the modules of the folders it puts on sys.path (tools, tests, book/_ext, measure)."""
    names = set()
    for name in files:
        parts = pathlib.PurePosixPath(name).parts
        names.add(pathlib.PurePosixPath(parts[0]).stem if len(parts) == 1 else parts[0])
        if parts[0] in {"tools", "tests", "book", "measure"}:
            names.add(pathlib.PurePosixPath(name).stem)
    return names


def private(name: str) -> bool:
    """Whether ``name`` is private: a leading underscore, not a dunder, and not ``_`` alone
    (gettext's translating function, such as Sphinx's ``sphinx.locale._``)."""
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


def root_name(node: ast.AST) -> str | None:
    """The name an attribute chain starts from (``a`` of ``a.b.c``, ``a`` of ``a().b``)."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def imported_from(tree: ast.AST) -> dict:
    """Each name a module binds by import -> the top-level package it comes from ("" for a
    relative import, which is the book's own)."""
    origin = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                origin[alias.asname or alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                origin[alias.asname or alias.name] = "" if node.level else node.module.split(".")[0]
    return origin


def violations(source: str, path: str, own: set) -> list:
    """The places in ``source`` (the file ``path``) that break the rule, as (path, rule, what)."""
    tree = ast.parse(source, filename=path)
    origin = imported_from(tree)
    in_tests = path.startswith("tests/")

    def foreign(name: str | None) -> bool:
        """Whether ``name`` is bound by importing another package."""
        return name in origin and origin[name] not in own and origin[name] != ""

    def own_name(name: str | None) -> bool:
        return name in {"self", "cls"} or (name in origin and (origin[name] in own or not origin[name]))

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top not in own and any(private(part) for part in alias.name.split(".")):
                    found.append((path, "private import", alias.name))
        elif isinstance(node, ast.ImportFrom) and not node.level:
            top = node.module.split(".")[0]
            if top not in own:
                if any(private(part) for part in node.module.split(".")):
                    found.append((path, "private import", node.module))
                else:
                    found += [(path, "private import", f"{node.module}.{alias.name}")
                              for alias in node.names if private(alias.name)]
        elif isinstance(node, ast.Attribute) and private(node.attr):
            if not own_name(root_name(node.value)):
                found.append((path, "private attribute", f"{ast.unparse(node.value)}.{node.attr}"))
        elif isinstance(node, ast.ClassDef):
            bases = [root_name(base) for base in node.bases]
            if any(foreign(base) for base in bases):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(item.name):
                        base = next(ast.unparse(b) for b, n in zip(node.bases, bases) if foreign(n))
                        found.append((path, "private override", f"{base}.{item.name}"))
        if in_tests:
            continue
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in {"setattr", "delattr"} and node.args:
            targets = [ast.Attribute(value=node.args[0], attr="?")]
        for target in targets:
            if isinstance(target, ast.Attribute) and foreign(root_name(target)) \
                    and root_name(target) not in {"self", "cls"}:
                found.append((path, "patch", ast.unparse(target)))
        if sys_modules_written(node, own):
            found.append((path, "sys.modules", ast.unparse(node)[:80]))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.endswith(".pth"):
            found.append((path, ".pth file", node.value))
    return found


def sys_modules_written(node: ast.AST, own: set) -> bool:
    """Whether ``node`` puts into or takes out of ``sys.modules`` anything but an own module
    (named by a string constant)."""
    def is_sys_modules(expr):
        return isinstance(expr, ast.Attribute) and expr.attr == "modules" \
            and isinstance(expr.value, ast.Name) and expr.value.id == "sys"

    def own_key(key):
        return isinstance(key, ast.Constant) and isinstance(key.value, str) \
            and key.value.split(".")[0] in own
    if isinstance(node, (ast.Assign, ast.Delete)):
        return any(isinstance(t, ast.Subscript) and is_sys_modules(t.value) and not own_key(t.slice)
                   for t in node.targets)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and is_sys_modules(node.func.value) and node.func.attr in {
                "setdefault", "update", "pop", "popitem", "clear", "__setitem__", "__delitem__"}:
        return not (node.args and own_key(node.args[0]) and node.func.attr != "update")
    return False


def test_the_book_uses_other_packages_public_api_only():
    files = python_files()
    own = own_modules(files)
    found = [v for name in files
             for v in violations((ROOT / name).read_text(encoding="utf-8"), name, own)]
    new = [v for v in found if v not in EXCEPTIONS]
    assert not new, "private API of another package, or a patch of one: " + "; ".join(
        f"{path}: {rule}: {what}" for path, rule, what in new)
    gone = [place for place in EXCEPTIONS if place not in found]
    assert not gone, f"listed exceptions no longer in the code (remove them): {gone}"


def test_no_pth_file_is_in_the_tree():
    listed = subprocess.run(["git", "ls-files", "*.pth"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    assert listed == []


OWN = {"figures", "build_book"}


@pytest.mark.parametrize("source, rule", [
    ("from matplotlib._text_helpers import layout", "private import"),
    ("from jupyter_client.manager import _private", "private import"),
    ("import torch.testing._internal.fake_pg", "private import"),
    ("def f(app):\n    app.builder._write_serial([])", "private attribute"),
    ("import soupsieve\nsoupsieve.css_parser._cached_css_compile(1)", "private attribute"),
    ("from jupyter_client import KernelManager\nclass K(KernelManager):\n"
     "    async def _async_wait(self): pass", "private override"),
    ("import yaml\nyaml.safe_load = print", "patch"),
    ("import nbval.kernel\nnbval.kernel.KernelManager = object", "patch"),
    ("from pybtex.style.formatting import BaseStyle\nBaseStyle.format_entry = print", "patch"),
    ("import nbval\nsetattr(nbval.kernel, 'pformat', str)", "patch"),
    ("import sys\nsys.modules.setdefault('rfc3987_syntax', None)", "sys.modules"),
    ("import sys\nsys.modules['IPython'] = object()", "sys.modules"),
    ("open('site-packages/lean.pth', 'w')", ".pth file"),
])
def test_each_rule_finds_what_it_forbids(source, rule):
    assert [found[1] for found in violations(source, "tools/example.py", OWN)] == [rule]


@pytest.mark.parametrize("source", [
    "import figures\nfigures._stable_ids('')",                 # the book's own private names
    "class A:\n    def _x(self):\n        return self._y",   # its own classes
    "import sys\nsys.modules.setdefault('figures', sys.modules['__main__'])",
    "import matplotlib\nmatplotlib.rcParams.update({})",       # public API
    "from traitlets import default\nclass K:\n    @default('ip')\n    def ip(self): pass",
])
def test_what_the_rule_allows(source):
    assert violations(source, "tools/example.py", OWN) == []


def test_the_tests_may_patch_with_monkeypatch_but_not_read_private_names():
    """In tests/, pytest's monkeypatch (undone after each test) may replace another package's
    attribute; a private name of another package is still refused."""
    assert violations("import os\nos.replace = print", "tests/test_x.py", OWN) == []
    assert violations("import os\nos._exit(0)", "tests/test_x.py", OWN) == [
        ("tests/test_x.py", "private attribute", "os._exit")]
