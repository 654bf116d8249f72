# Two commands matter (see README): `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-postgres lint bench clean

# The venv also holds the competitor client (clients/python), editable: `make test` runs its tests.
$(STAMP): requirements.txt requirements-dev.txt clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV) || { echo "Could not create a virtual environment: on Debian/Ubuntu install python3-venv"; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet -e ./clients/python
	touch $(STAMP)

## Set up everything and run the demo (web server + task worker) until Ctrl-C.
demo: $(STAMP)
	GAUNTLET_DEBUG=1 $(PY) manage.py demo

## Run the whole test suite (SQLite unless DATABASE_URL is set).
test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadgroup -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
