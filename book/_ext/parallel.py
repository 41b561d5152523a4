"""Sphinx extension: let an edition build on every core (tools/build_book.py passes ``jobs``).

Sphinx reads and writes in parallel only if every extension declares it safe. Two that Jupyter
Book adds by itself declare nothing, so Sphinx assumes they are not, and with warnings as errors
a parallel build stops. Both are safe for this book's HTML build:

- ``sphinx_multitoc_numbering`` numbers sections across tables of contents. It replaces a method
  of Sphinx's toctree collector, which runs in the main process once every page is read, and
  the book numbers no section;
- ``sphinx_jupyterbook_latex`` adds nodes and transforms for the LaTeX builder, which the book
  does not run; it keeps no state between pages.

tests/test_incremental.py builds an edition on two processes and checks that its pages are
the serial build's, byte for byte.
"""
from sphinx.application import Sphinx

#: Jupyter Book's extensions that declare no parallel safety although they are safe here.
SAFE_UNDECLARED = ("sphinx_multitoc_numbering", "sphinx_jupyterbook_latex")


def setup(app: Sphinx) -> dict:
    for name in SAFE_UNDECLARED:
        app.setup_extension(name)
        app.extensions[name].parallel_read_safe = True
        app.extensions[name].parallel_write_safe = True
    return {"parallel_read_safe": True, "parallel_write_safe": True}
