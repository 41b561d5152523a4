// Pyodide's standard library with its bytecode: `node compile-stdlib.mjs OUT` writes to OUT a copy
// of Pyodide's python_stdlib.zip in which each module that Pyodide imports as it starts has its
// bytecode (.pyc) beside its source (.py), compiled by Pyodide's own Python (run here in Node.js,
// so the bytecode is for the Python the reader's browser runs). Pyodide ships the sources alone,
// and its Python compiled those 125 modules on every page that started it: 0.7 s of the 1.8 s
// that the "your numbers" panel took to start (the book's own code imports five more, 30 ms;
// every module's bytecode would have made the file 7 MB instead of 2.5). The bytecode is
// "unchecked" (PEP 552): importing it reads nothing else; the sources stay for tracebacks. Entries keep the original's order and are dated
// 1980-01-01, so the same Pyodide gives the same file. tools/build_book.py runs this once per
// Pyodide version (kept in _build/pyodide-stdlib/).
import { writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const out = process.argv[2];
if (!out) {
  console.error("usage: node compile-stdlib.mjs OUT.zip");
  process.exit(2);
}
const pyodide = await loadPyodide();
pyodide.runPython(`
import importlib._bootstrap_external as bytecode, importlib.util, sys, zipfile

def with_bytecode(original, target, names):
    """Copy the zip at original to target, with an unchecked .pyc beside each .py of names."""
    def entry(name, info):
        made = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
        made.compress_type = info.compress_type   # as Pyodide packs its sources
        return made

    with zipfile.ZipFile(original) as source, zipfile.ZipFile(target, "w") as copy:
        for info in source.infolist():
            data = source.read(info)
            copy.writestr(entry(info.filename, info), data)
            if info.filename in names:
                code = compile(data, f"{original}/{info.filename}", "exec", dont_inherit=True)
                pyc = bytecode._code_to_hash_pyc(
                    code, importlib.util.source_hash(data), checked=False)
                copy.writestr(entry(info.filename + "c", info), pyc)

stdlib = next(p for p in sys.path if p.endswith(".zip"))
started = {module.__spec__.origin.removeprefix(stdlib + "/") for module in list(sys.modules.values())
           if getattr(module, "__spec__", None) and (module.__spec__.origin or "").startswith(stdlib + "/")}
with_bytecode(stdlib, "/tmp/python_stdlib.zip", started)
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/python_stdlib.zip"));
