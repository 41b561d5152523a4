# The book's two commands (see README): `make book` and `make test`.
# Both create .venv from the pinned requirements.txt on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.requirements-installed

.PHONY: book test data notebooks clean

$(READY): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(READY)

## book: build the four editions into _build/html (landing page: _build/html/index.html)
book: $(READY)
	$(BIN)/python tools/build_book.py

## test: model, data, prose, notebooks (nbval + papermill) and the four builds
test: $(READY)
	$(BIN)/python -m pytest tests -n 2 --dist load
	$(BIN)/python -m pytest --nbval notebooks book -p no:cacheprovider  # one kernel at a time

## data: regenerate data/ (canonical JSON and SVG figures) from experiment.py
data: $(READY)
	$(BIN)/python experiment.py

## notebooks: re-execute every notebook in place after a change to the model or the prose
notebooks: $(READY)
	$(BIN)/python tools/refresh_notebooks.py

clean:
	rm -rf _build
