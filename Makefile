# Every target sets up what it needs: a virtual environment in .venv with the project installed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench model clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

demo: $(STAMP)
	$(BIN)/muggins demo --speed fast

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
