"""Keeps what `pip install .` builds out of the clone: setuptools writes build/ and
splitting_work_book.egg-info/ next to pyproject.toml unless told otherwise, and a reader who
installs the book's code finds them left in their copy. They go into _build/ (ignored, and
removed by `make clean`) instead. Everything else about the project is in pyproject.toml."""
import pathlib

import setuptools

SCRATCH = pathlib.Path(__file__).resolve().parent / "_build" / "setuptools"
SCRATCH.mkdir(parents=True, exist_ok=True)     # egg_info refuses a folder that does not exist
setuptools.setup(options={"build": {"build_base": str(SCRATCH)},
                          "egg_info": {"egg_base": str(SCRATCH)}})
