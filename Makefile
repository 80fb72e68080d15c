# Two commands do everything on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check tools venv bench clean dist

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

# the package's bytecode is written once first: where PYTHONDONTWRITEBYTECODE is set (as in this
# project's sandboxes), each of the suite's peer processes would otherwise compile p2ptarot anew
# (0.2 s of CPU each)
test: $(STAMP) tools
	$(BIN)/python -m compileall -q p2ptarot
	$(BIN)/python -m pytest -n 2 -q

# a fast inner loop for developers: no browser, no multi-process tests (make test is the suite)
check: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m 'not slow' --ignore=tests/web

# the player's install: a wheel and an sdist in $(DIST) (README, "Play": pipx install the wheel)
DIST ?= dist
dist: $(STAMP)
	$(BIN)/python -m pip install --quiet build
	rm -rf $(DIST)
	$(BIN)/python -m build --outdir $(DIST) .

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info
