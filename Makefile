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

# Rebuild models/cards.onnx + labels.json from the SVG card decks (26 min measured from nothing on 2 cores; see models/MODEL_CARD.md).
DECKS := /usr/share/carddecks
model: $(STAMP)
	$(BIN)/pip install -q -e '.[train]'
	@if [ ! -d $(DECKS)/svg-standard ] || ! command -v rsvg-convert >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && apt-get install -y -q kdegames-card-data-kf5 librsvg2-bin; \
	  else echo "make model needs the card decks and rsvg-convert; run:"; \
	    echo "  sudo apt-get install kdegames-card-data-kf5 librsvg2-bin"; exit 2; fi; fi
	$(BIN)/python -m models.training

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
