# Two commands do everything on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check tools venv bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/p2ptarot demo --game sinople --players 4 --interface 127.0.0.1

# the programs the tests drive (Chromium, iproute2, nftables, coturn): installed once, or one
# clear sentence saying what to install
tools:
	scripts/ensure-test-tools

test: $(STAMP) tools
	$(BIN)/python -m pytest -n 2 -q

# a fast inner loop for developers: no browser, no multi-process tests (make test is the suite)
check: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m 'not slow' --ignore=tests/web

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
