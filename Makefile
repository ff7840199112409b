# Two commands: `make run` installs studpoker with the card room and serves it on http://127.0.0.1:8000
# (`stud serve`); `make test` installs it with the test dependencies and runs the whole suite. Both create
# ./.venv on first use. `make play` opens the terminal game (`stud play`).
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
# pytest-xdist's processes for the suites below (`make test JOBS=0` runs them in one process, JOBS=auto on every core).
# One more than the reference machine's two cores: the room's tests spend much of their time waiting on timers,
# browsers and other processes (`make test` took 10.3 minutes on two, 8.5 on three). The engine's pure-Python
# tiers (test-pure, test-fast) are all computing: they keep to the CORES.
JOBS ?= 3
CORES ?= 2
PY := $(VENV)/bin/python

.PHONY: run play test test-fast test-pure test-postgres test-cluster test-thorough lint docs bench fuzz clean

# The engine is compiled once (`pip install -e .`, mypyc and three C kernels: one to four minutes), into a stamp
# file .venv/.built.BUILD, and again only when the build metadata or a Python or C source under src/ is newer than
# its stamp (static files need no reinstall: the editable install reads them from src/). BUILD is `compiled`, or
# `pure` under STUDPOKER_PURE=1 (which also deletes the compiled modules in src/, else Python would import them
# still); building one invalidates the other. Each set of extras is installed apart from the build, from the
# requirements tools/extras.py reads in pyproject.toml, into .venv/.installed-EXTRAS: a new extra (`make play` after
# `make run`) adds its packages and never compiles the engine again.
SOURCES := pyproject.toml setup.py $(shell find src -name '*.py' -not -path '*/__pycache__/*') $(shell find src -name '*.c')
BUILD := $(if $(filter 1,$(STUDPOKER_PURE)),pure,compiled)
OTHER_BUILD := $(if $(filter 1,$(STUDPOKER_PURE)),compiled,pure)
BUILT := $(VENV)/.built.$(BUILD)
installed = $(BUILT) $(VENV)/.installed-$(1)

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The stamp takes the time the build started, so a source edited during the build makes it stale. pip's verbose
# output is cut to the lines that show progress (one per module compiled), so a long first build is never silent.
$(BUILT): $(SOURCES) | $(PY)
	rm -f $(VENV)/.built.$(OTHER_BUILD)
	$(if $(filter pure,$(BUILD)),find src -name '*.so' -delete)
	@echo "studpoker: building the $(BUILD) engine into $(VENV) ($(if $(filter pure,$(BUILD)),pure Python,mypyc and C: one to four minutes the first time)); progress follows"
	touch $@.started
	set -o pipefail; $(PY) -m pip install -v -e . 2>&1 | \
		{ grep --line-buffered -E "^(Collecting|Installing|Successfully|ERROR|error)|building '|studpoker:" || true; } | \
		sed -u -e 's/^ *//' -e 's/^/  /'
	mv $@.started $@

$(VENV)/.installed-%: pyproject.toml tools/extras.py | $(PY)
	@echo "studpoker: installing the packages of the [$*] extra"
	$(PY) tools/extras.py $* > $@.txt
	set -o pipefail; $(PY) -m pip install --progress-bar off -r $@.txt 2>&1 | \
		{ grep --line-buffered -E "^(Collecting|Installing|Successfully|ERROR|error)" || true; } | sed -u 's/^/  /'
	rm $@.txt
	touch $@

run: $(call installed,server)
	$(VENV)/bin/stud serve $(ARGS)

play: $(call installed,tui)
	$(VENV)/bin/stud play $(ARGS)

# OpenBLAS one thread a test process: the workers already share the cores, and OpenBLAS's own threads, started by the
# first matrix product (the river solver's tests make many), spin between products and take the CPU the browser and
# server tests of the other workers wait for. A value the caller sets is kept.
test: $(call installed,test)
	OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} $(PY) -m pytest -n $(JOBS)

# The edit-test loop: the cards, the variants, the engine, evaluation, equity and histories (their tests, the doctests
# of their sources and of their docs pages), without the tests marked slow (they run in `make test`), browser or
# cluster; under a minute on the 2-core reference machine. ARGS passes options to pytest (`ARGS='-k phh'`, `--lf`).
FAST := tests/engine tests/evaluation tests/equity tests/history tests/solve tests/test_cards.py tests/test_variant.py \
	tests/test_deck.py tests/test_source_doctests.py src/studpoker/cards.py src/studpoker/variant.py \
	src/studpoker/engine src/studpoker/evaluation src/studpoker/equity src/studpoker/history src/studpoker/solve \
	docs/cards.md docs/engine.md docs/evaluation.md docs/equity.md docs/histories.md docs/solve.md
test-fast: $(call installed,test)
	$(PY) -m pytest -q -n $(CORES) -m "not slow and not browser and not cluster" $(ARGS) $(FAST)

# The engine, history, evaluation and equity tests again on pure Python (a copy of src/ without compiled modules),
# without the tests marked slow (long random runs that `make test` runs on the same code, compiled).
test-pure: $(call installed,test)
	rm -rf build/pure && mkdir -p build/pure && cp -r src setup.py build/pure/
	find build/pure -name '*.so' -delete
	PYTHONPATH=build/pure/src $(PY) -c "import studpoker.engine.state as s; assert s.__file__.endswith('.py'), s.__file__"
	PYTHONPATH=build/pure/src $(PY) -c "import importlib.util as u; assert u.find_spec('studpoker.evaluation._kernel') is None"
	PYTHONPATH=build/pure/src $(PY) -c "import importlib.util as u; assert u.find_spec('studpoker.equity._sample') is None"
	PYTHONPATH=build/pure/src $(PY) -m pytest -q -p no:cacheprovider -n $(CORES) -m "not slow" \
		tests/engine tests/history tests/evaluation tests/equity tests/test_source_doctests.py

# The card room's tests again on PostgreSQL: STUDPOKER_TEST_POSTGRES is the URL of a role that may create databases.
# The files of DB_FREE test what sits in front of the database (the proxy, the HTTP edge, the origin check), the same
# on either: they run once, in `make test`.
DB_FREE := test_edge.py test_forwarded.py test_nginx.py test_close_handshake.py test_origin.py
test-postgres: $(call installed,test)
	@test -n "$(STUDPOKER_TEST_POSTGRES)" || { echo "set STUDPOKER_TEST_POSTGRES to a PostgreSQL URL"; exit 2; }
	STUDPOKER_TEST_POSTGRES='$(STUDPOKER_TEST_POSTGRES)' $(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) tests/server tests/tracker/test_import.py \
		$(foreach f,$(DB_FREE),--deselect tests/server/$(f))

# The room on several processes (tests/cluster): table workers and gateways as real processes, on PostgreSQL
# (STUDPOKER_TEST_POSTGRES, as above) and a private redis-server each test starts (Debian's redis-server package),
# which asks for a password as docs/server.md's recipe does. One process: each test runs several servers already, and
# on two a killed supervisor's workers once took more than 30 s to stop (to be looked into, issue 29).
test-cluster: $(call installed,test)
	@test -n "$(STUDPOKER_TEST_POSTGRES)" || { echo "set STUDPOKER_TEST_POSTGRES to a PostgreSQL URL"; exit 2; }
	@command -v redis-server >/dev/null || { echo "the cluster tests need redis-server (apt install redis-server)"; exit 2; }
	STUDPOKER_TEST_POSTGRES='$(STUDPOKER_TEST_POSTGRES)' $(PY) -m pytest -q -p no:cacheprovider tests/cluster tests/server/test_lease.py

# The hypothesis tests (hypothesis marks them) under the `thorough` profile of tests/conftest.py, with a new random
# seed each run (printed; `make test-thorough SEED=N` runs that seed again).
test-thorough: $(call installed,test)
	@seed=$${SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; echo "hypothesis seed: $$seed (make test-thorough SEED=$$seed repeats it)"; \
	$(PY) -m pytest -q -p no:cacheprovider -m hypothesis --hypothesis-profile=thorough --hypothesis-seed=$$seed tests

lint: $(call installed,test+lint)
	$(PY) -m ruff check src tests bench tools examples setup.py conftest.py
	$(PY) -m ruff format --check src tests bench tools examples setup.py conftest.py
	$(PY) -m mypy --strict src

# The documentation site (mkdocs.yml) into site/, strict: a broken link, anchor or API reference fails it. Only the
# [docs] extra: mkdocstrings reads src/ without importing it, so the engine is not compiled for this.
# NO_MKDOCS_2_WARNING silences Material's banner about MkDocs 2.0 (mkdocs.yml pins nothing it changes).
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

bench: $(call installed,bench+server+ray+rl)
	$(PY) bench/evaluate.py
	$(PY) bench/coldstart.py
	$(PY) bench/simulate.py
	$(PY) bench/simulate.py --part parallel
	$(PY) bench/rl.py
	$(PY) bench/replay.py
	$(PY) bench/bots.py
	$(PY) bench/equity.py
	$(PY) bench/load.py

# Soak the card room's API with Schemathesis (many more examples than the suite's tests/server/test_schema.py).
fuzz: $(call installed,test)
	$(PY) bench/fuzz_api.py --examples 500 --seeds 2

clean:
	rm -rf $(VENV) build site src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis test-artifacts
