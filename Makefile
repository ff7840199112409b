# Two commands: `make run` installs studpoker with the card room and serves it on http://127.0.0.1:8000
# (`stud serve`); `make test` installs it with the test dependencies and runs the whole suite. Both create
# ./.venv on first use. `make play` opens the terminal game (`stud play`).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run play test test-pure test-postgres lint bench fuzz clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

run: $(PY)
	$(PY) -m pip install --quiet -e '.[server]'
	$(VENV)/bin/stud serve $(ARGS)

play: $(PY)
	$(PY) -m pip install --quiet -e '.[tui]'
	$(VENV)/bin/stud play $(ARGS)

test: $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pytest

# The engine and history tests again on pure Python (a copy of src/ without compiled modules).
test-pure: $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	rm -rf build/pure && mkdir -p build/pure && cp -r src setup.py build/pure/
	find build/pure -name '*.so' -delete
	PYTHONPATH=build/pure/src $(PY) -c "import studpoker.engine.state as s; assert s.__file__.endswith('.py'), s.__file__"
	PYTHONPATH=build/pure/src $(PY) -m pytest -q -p no:cacheprovider tests/engine tests/history tests/test_source_doctests.py

# The card room's tests again on PostgreSQL: STUDPOKER_TEST_POSTGRES is the URL of a role that may create databases.
test-postgres: $(PY)
	@test -n "$(STUDPOKER_TEST_POSTGRES)" || { echo "set STUDPOKER_TEST_POSTGRES to a PostgreSQL URL"; exit 2; }
	$(PY) -m pip install --quiet -e '.[test]'
	STUDPOKER_TEST_POSTGRES='$(STUDPOKER_TEST_POSTGRES)' $(PY) -m pytest -q -p no:cacheprovider tests/server

lint: $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m ruff check src tests bench tools examples setup.py conftest.py
	$(PY) -m ruff format --check src tests bench tools examples setup.py conftest.py
	$(PY) -m mypy --strict src

bench: $(PY)
	$(PY) -m pip install --quiet -e '.[bench,server]'
	$(PY) bench/evaluate.py
	$(PY) bench/simulate.py
	$(PY) bench/replay.py
	$(PY) bench/bots.py
	$(PY) bench/equity.py
	$(PY) bench/load.py

# Soak the card room's API with Schemathesis (many more examples than the suite's tests/server/test_schema.py).
fuzz: $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) bench/fuzz_api.py --examples 500 --seeds 2

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis test-artifacts
