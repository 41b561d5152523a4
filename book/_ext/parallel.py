"""Sphinx extension: let an edition build on every core (tools/build_book.py passes ``jobs``).

Sphinx reads and writes in parallel only if every extension declares it safe. One that Jupyter
Book's table of contents (sphinx_external_toc) loads by itself declares nothing, so Sphinx
assumes it is not, and with warnings as errors a parallel build stops. It is safe for this
book's HTML build: ``sphinx_multitoc_numbering`` numbers sections across tables of contents; it
replaces a method of Sphinx's toctree collector, which runs in the main process once every page
is read, and the book numbers no section. (Jupyter Book's LaTeX extension, which declared
nothing either, is left out: _config.yml, ``use_jupyterbook_latex``.)

tests/test_incremental.py builds an edition on two processes and checks that its pages are
the serial build's, byte for byte.
"""
from sphinx.application import Sphinx

#: The extensions that declare no parallel safety although they are safe here.
SAFE_UNDECLARED = ("sphinx_multitoc_numbering",)


def setup(app: Sphinx) -> dict:
    for name in SAFE_UNDECLARED:
        app.setup_extension(name)
        app.extensions[name].parallel_read_safe = True
        app.extensions[name].parallel_write_safe = True
    return {"parallel_read_safe": True, "parallel_write_safe": True}
