# The book's two commands (see README): `make book` and `make test`.
# Both create .venv from the pinned requirements.txt on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.requirements-installed

# Python keeps the bytecode of the book's own modules (in __pycache__, which git ignores) even
# where the environment asks it not to (PYTHONDONTWRITEBYTECODE, set on the machines lent to
# this project): otherwise every process compiles them again, each notebook kernel, test
# worker and build among them (about 0.03 s each; pytest's rewritten tests likewise).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: book test check data notebooks reviewed audit bench measure measure-tp measure-tp-counts lab lock latest clean distclean

# A .venv whose Python is missing, broken or older than 3.11 (made by another Python, or moved)
# is removed here and remade below.
ifneq ($(wildcard $(VENV)),)
ifneq ($(shell $(BIN)/python -c 'import sys; print(sys.version_info >= (3, 11))' 2>/dev/null),True)
$(info make: $(VENV) is broken or not Python 3.11+; remaking it)
$(shell rm -rf $(VENV))
endif
endif

$(READY): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "make: the book needs Python 3.11+, but $(PYTHON) is $$($(PYTHON) --version 2>&1 | head -n 1)."; \
	  echo "      Run it with a newer one, e.g. make PYTHON=python3.11"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(READY)

LAB_READY := $(VENV)/.lab-installed
$(LAB_READY): requirements-lab.txt $(READY)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-lab.txt -c requirements.txt
	touch $(LAB_READY)

## book: build the four editions into _build/html (landing page: _build/html/index.html), with
## their PDFs (installing Chromium and the fonts with apt-get where missing: tools/system-packages.sh);
## incremental: a changed notebook rebuilds its own page and reprints its edition's PDF
book: $(READY)
	@bash tools/system-packages.sh
	@$(MAKE) --no-print-directory $(PYODIDE) $(PURGECSS)
	$(BIN)/python tools/build_book.py

# Pyodide for the "your numbers" panel, pinned by tools/pyodide/package-lock.json and copied into
# the site by tools/build_book.py; without npm (or offline) the site leaves the panel out, and
# says so.
PYODIDE := tools/pyodide/node_modules/pyodide/package.json
$(PYODIDE): tools/pyodide/package-lock.json
	@if ! command -v npm >/dev/null; then \
	   echo "make: npm is missing, so the site leaves out the \"your numbers\" panel (Debian: apt-get install npm)"; \
	 elif npm ci --prefix tools/pyodide --no-audit --no-fund --silent; then touch $@; \
	 else echo "make: npm ci could not install Pyodide, so the site leaves out the \"your numbers\" panel"; fi

# purgecss, pinned by tools/purgecss/package-lock.json, cuts the themes' stylesheets of each
# edition to the rules its pages and scripts use (tools/purge_css.py); without npm (or offline)
# the site ships them whole, and the build says so.
PURGECSS := tools/purgecss/node_modules/purgecss/package.json
$(PURGECSS): tools/purgecss/package-lock.json
	@if command -v npm >/dev/null && npm ci --prefix tools/purgecss --no-audit --no-fund --silent; \
	 then touch $@; else echo "make: purgecss is not installed (no npm, or npm ci failed), so the site ships the themes' whole stylesheets"; fi

# Lighthouse for the browser suite, pinned by tools/lighthouse/package-lock.json (npm, which
# tools/system-packages.sh installs where missing; without it the Lighthouse test says so).
LIGHTHOUSE := tools/lighthouse/node_modules/.bin/lighthouse
$(LIGHTHOUSE): tools/lighthouse/package-lock.json
	@if command -v npm >/dev/null; then npm ci --prefix tools/lighthouse --no-audit --no-fund --silent && touch $@; \
	 else echo "make: npm is missing, so Lighthouse is not installed (Debian: apt-get install npm)"; fi

# cffconvert validates CITATION.cff (tests/test_licence.py), in a venv of its own: it requires
# jsonschema<4, which the book's lock cannot take (jupyterlab_server needs >=4.18).
CFFCONVERT := _build/cff-tools/bin/cffconvert
$(CFFCONVERT):
	$(PYTHON) -m venv _build/cff-tools
	_build/cff-tools/bin/python -m pip install --quiet --disable-pip-version-check cffconvert==2.0.0

## test: model, parameter space, data, prose, notebooks (papermill and nbval), the four builds
## read in a browser, Lighthouse on two pages; one session on three workers (a notebook's cells
## stay on one: conftest.py), no timing
# (JupyterLab's packages, Lighthouse and Pyodide are installed side by side: 8 s on a fresh clone
# against 13 s one after the other.)
test: $(READY)
	@bash tools/system-packages.sh --tests
	@$(MAKE) --no-print-directory -j3 $(LAB_READY) $(LIGHTHOUSE) $(PYODIDE) $(PURGECSS) $(CFFCONVERT)
	$(BIN)/python -m pytest tests notebooks book --nbval -n 3 --dist load -p no:cacheprovider -rs \
	  --durations=12

## check: the inner loop (about a minute): data/ and the notebooks against their sources, the
## models, the sections, the prose numbers and the layout, and the four editions' HTML, each
## rebuilt where its sources changed (no notebook executed, no browser, no PDF); `make test` is
## the whole gate
check: $(READY) $(PURGECSS)
	$(BIN)/python experiment.py --check
	$(BIN)/python tools/notebooks.py --check
	$(BIN)/python -m pytest tests/test_model.py tests/test_articles_2_3.py tests/test_sections.py \
	  tests/test_prose_numbers.py tests/test_layout.py tests/test_words.py \
	  tests/test_parameter_space.py::test_every_figure_is_shown_by_an_articles_section -q -n 2 -p no:cacheprovider
	$(BIN)/python tools/build_book.py --html-only

## data: regenerate data/ (canonical JSON and SVG figures) from experiment.py
data: $(READY)
	$(BIN)/python experiment.py

## notebooks: write the notebooks from sections/ (a section's code once, each edition's prose);
## those whose code changed are executed again; ALL=1 executes them all (after a change to the
## models or data/); SECTIONS="split-04-break-even …" for some
notebooks: $(READY)
	$(BIN)/python tools/notebooks.py $(if $(ALL),--execute) $(SECTIONS)

## reviewed: record that SECTION's four editions say the same again (tests/test_sections.py
## names the editions that must follow when one edition's prose changed since); EDITION=it
## records instead that only it changed and the others need nothing (a typo, a word)
reviewed: $(READY)
	$(BIN)/python tools/notebooks.py --reviewed $(SECTION) $(if $(EDITION),--edition $(EDITION))

## audit: Lighthouse (mobile, the site served gzip-compressed as GitHub Pages serves it) on four
## pages of each edition beside the theme's near-empty page, written into docs/performance.md; after make book
audit: $(READY) $(LIGHTHOUSE)
	$(BIN)/python tools/audit.py

## bench: the times a reader or maintainer feels, against their budgets, written into
## docs/performance.md (never fails on a number; QUICK=1 skips the fresh clones, whose rows keep their date)
bench: $(READY)
	$(BIN)/python tools/bench.py $(if $(QUICK),--quick)

## measure: run article 1's measurement protocol on torch.distributed (two CPU ranks with gloo)
## into _build/measurements; NAME=cpu-gloo-2x1 replaces the book's record of that name in
## data/measurements (only a run asked for by name does); QUICK=1 for a one-minute run (never into
## data/measurements, except under a NAME ending in -quick); OUT=DIR elsewhere;
## ARGS="--backend nccl --nproc-per-node 8" on GPUs (see README). Installs requirements-measure.txt.
MEASURE_READY := $(VENV)/.measure-installed
$(MEASURE_READY): requirements-measure.txt $(READY)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-measure.txt
	touch $(MEASURE_READY)

measure: $(MEASURE_READY)
	$(BIN)/python -m measure $(if $(QUICK),--quick) $(if $(OUT),--out $(OUT)) \
	  $(if $(NAME),--name $(NAME)) $(ARGS)

## measure-tp: article 2 on PyTorch's own tensor parallelism: a transformer layer split by
## parallelize_module, its collectives counted by CommDebugMode, its compute and communication
## timed; NAME=tp-cpu-gloo-2x1 replaces the book's record (same QUICK, OUT, NAME and ARGS as measure)
measure-tp: $(MEASURE_READY)
	$(BIN)/python -m measure --tp $(if $(QUICK),--quick) $(if $(OUT),--out $(OUT)) \
	  $(if $(NAME),--name $(NAME)) $(ARGS)

## measure-tp-counts: article 2's collectives counted through a whole training step (the
## reduction of the gradients sequence parallelism leaves partial, and the optimizer's update) on
## t = 2, 4 and 8 gloo ranks, every gradient checked against the whole layer's; replaces
## data/measurements/tp-counts-gloo.json (tp-13 shows it)
measure-tp-counts: $(MEASURE_READY)
	$(BIN)/python -m measure.tp_counts

## lab: open the notebooks in JupyterLab (pinned in requirements-lab.txt, installed on first
## use), trusted so that their saved SVG figures show; it opens on notebooks/ and serves book/
## too (the claims ledger and errata); LAB_ARGS="--no-browser --port 8890" passes options to
## jupyter lab, and as root it adds --allow-root
lab: $(LAB_READY)
	$(BIN)/jupyter trust notebooks/*/*.ipynb book/*/*.ipynb
	$(BIN)/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

## lock: compile requirements.txt, requirements-lab.txt and requirements-measure.txt from their
## .in files with pip-tools (pinned here, in a venv of its own under _build); existing pins are
## kept where the .in files allow them; UPGRADE=1 takes the newest releases they allow
PIP_COMPILE := _build/lock-tools/bin/pip-compile
$(PIP_COMPILE):
	$(PYTHON) -m venv _build/lock-tools
	_build/lock-tools/bin/python -m pip install --quiet --disable-pip-version-check pip-tools==7.7.0

lock: $(PIP_COMPILE)
	for name in requirements requirements-lab requirements-measure; do \
	  CUSTOM_COMPILE_COMMAND="make lock" $(PIP_COMPILE) --quiet --allow-unsafe --strip-extras \
	    --no-emit-find-links --no-emit-index-url $(if $(UPGRADE),--upgrade) \
	    --output-file $$name.txt $$name.in || exit 1; \
	done

## latest: the book with the newest releases requirements.in allows, in a venv of its own
## (_build/latest/venv, not the lock) and a copy of the repository: data/ regenerated, every
## notebook executed, the English edition built; lists the files that differ from the committed
## ones (a difference is reported, a failure fails). WITH="matplotlib==3.10.8" pins releases besides
LATEST_VENV := _build/latest/venv
latest:
	rm -rf $(LATEST_VENV)
	$(PYTHON) -m venv $(LATEST_VENV)
	$(LATEST_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade \
	  -r requirements.in $(WITH)
	$(LATEST_VENV)/bin/python tools/latest.py

clean:
	rm -rf _build

## distclean: also remove .venv
distclean: clean
	rm -rf $(VENV)
