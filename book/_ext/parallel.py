"""Sphinx extension: let an edition build on every core (tools/build_book.py passes ``jobs``).

Sphinx reads and writes in parallel only if every extension declares it safe. One that Jupyter
Book's table of contents (sphinx_external_toc) loads by itself declares nothing, so Sphinx
assumes it is not, and with warnings as errors a parallel build stops. It is safe for this
book's HTML build: ``sphinx_multitoc_numbering`` numbers sections across tables of contents; it
replaces a method of Sphinx's toctree collector, which runs in the main process once every page
is read, and the book numbers no section. (Jupyter Book's LaTeX extension, which declared
nothing either, is left out: _config.yml, ``use_jupyterbook_latex``.)

A few pages are written in the main process (``write_few_here``), as Sphinx itself reads a few.

tests/test_incremental.py builds an edition on two processes and checks that its pages are
the serial build's, byte for byte.
"""
from sphinx.application import Sphinx

#: The extensions that declare no parallel safety although they are safe here.
SAFE_UNDECLARED = ("sphinx_multitoc_numbering",)
#: At most this many pages to write are written in the main process, in a parallel build too:
#: the pages one changed notebook rewrites (itself and the pages whose contents list it).
#: Sphinx writes the first page here and forks a process for each further chunk, which it
#: polls every 20 ms: for a one-page change that took 0.2 s, against 0.1 s here. (Sphinx
#: reads at most five pages serially for the same reason.)
WRITTEN_HERE_AT_MOST = 3


def write_few_here(app: Sphinx) -> None:
    """Have the builder write ``WRITTEN_HERE_AT_MOST`` pages or fewer in this process."""
    builder = app.builder
    in_parallel = builder._write_parallel

    def write(docnames, nproc: int) -> None:
        if len(docnames) <= WRITTEN_HERE_AT_MOST:
            builder._write_serial(docnames)
        else:
            in_parallel(docnames, nproc)
    builder._write_parallel = write


def setup(app: Sphinx) -> dict:
    for name in SAFE_UNDECLARED:
        app.setup_extension(name)
        app.extensions[name].parallel_read_safe = True
        app.extensions[name].parallel_write_safe = True
    app.connect("builder-inited", write_few_here)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
