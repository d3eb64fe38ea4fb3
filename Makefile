# Every target sets up what it needs: a virtual environment in .venv with the project installed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench model arm64 clean

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

# Rebuild models/cards.onnx + labels.json (the classifier), models/whole_card.onnx + whole_card.json (the
# whole-card network, trained on the same render) and models/corners.onnx + corners.json (the index-corner
# detector) from the SVG card decks and system fonts; see models/MODEL_CARD.md for the time.
# The Debian packages it needs (decks, rsvg-convert, fonts) are listed by models/training/apt.py.
# The detector also learns from views of the licensed real photos (models/MODEL_CARD.md), which
# bench.real.build copies out of their fetched repositories; where they are missing it names them and
# stops before any training, and REAL_VIEWS=0 trains it on rendered views alone. The classifier draws
# index crops cut from the same photos as REAL_CROPS of every batch (models/HISTORY.md, section 22), and
# the whole-card network their whole faces as REAL_FACES (section 26: the committed file is that
# recipe's seed 0, chosen among three); REAL_VIEWS=0 REAL_CROPS=0 REAL_FACES=0 trains all three on
# rendered decks alone. FOUR_COLOUR of the training font decks are printed with clubs green and diamonds
# blue, as many poker decks are, for both networks (section 41); FOUR_COLOUR=0 prints none so.
# Both renders run first; the three networks then train on wall-time budgets (16, 22 and 4 minutes), each
# cut by the same share where the time left no longer holds them, so that the whole rebuild ends within
# MODEL_MINUTES of `make model` starting (models/training/deadline.py): on a slow day the renders take
# longer and the networks train a little less. The detector's --after is the minutes planned after it.
REAL_VIEWS ?= 4
REAL_CROPS ?= 0.15
REAL_FACES ?= 0.15
FOUR_COLOUR ?= 0.25
MODEL_MINUTES ?= 58
CLASSIFIER := $(BIN)/python -m models.training --real-crops $(REAL_CROPS) --real-faces $(REAL_FACES) \
  --four-colour $(FOUR_COLOUR)
model: MODEL_DEADLINE := $(shell $(PYTHON) -c 'import time; print(int(time.time() + 60 * $(MODEL_MINUTES)))')
model: $(STAMP)
	$(BIN)/pip install -q -e '.[train]'
	@missing="$$($(BIN)/python -m models.training.apt)"; if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && apt-get install -y -q --no-install-recommends $$missing; \
	  else echo "make model needs the card decks, rsvg-convert and fonts; run:"; \
	    echo "  sudo apt-get install $$missing"; exit 2; fi; fi
	-$(BIN)/python -m bench.real.build
	$(BIN)/python -m models.training.corners --real-views-per-photo $(REAL_VIEWS) --render-only
	$(CLASSIFIER) --render-only
	$(BIN)/python -m models.training.corners --real-views-per-photo $(REAL_VIEWS) \
	  --deadline $(MODEL_DEADLINE) --after 30
	$(CLASSIFIER) --deadline $(MODEL_DEADLINE)

# Install and run Muggins in an emulated arm64 Debian root, as on a Raspberry Pi (hardware/arm64/check.sh):
# as root. The first run makes the root and installs on it bare (about 35 minutes here); later runs install
# over that (about 7 minutes). ARM64=--fresh installs bare again (about 19). Not part of `make test`.
arm64: $(STAMP)
	hardware/arm64/check.sh $(ARM64)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
