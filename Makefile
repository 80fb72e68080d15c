# Two commands do everything on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

LOCK := requirements/lock.txt

.PHONY: demo test check tools venv bench clean dist lock lock-upgrade test-latest

# the environment is the lock of tested versions (exact versions, hash-checked), then the package
# itself, editable, with no resolution of its own: a new release on PyPI changes nothing here
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
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

# the player's install: a wheel and an sdist in $(DIST) (README, "Play": pipx install the wheel),
# built by PyPA's `build` from the locked environment (its setuptools and wheel, the tested ones:
# --no-isolation, so nothing is fetched and the environment is left as it is)
DIST ?= dist
dist: $(STAMP)
	rm -rf $(DIST)
	$(BIN)/python -m build --no-isolation --outdir $(DIST) .

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

# the lock, resolved again from pyproject.toml's ranges: `make lock` after a change of the ranges
# (locked versions the ranges still allow are kept); `make lock-upgrade` takes the newest releases
lock:
	$(PYTHON) scripts/lock

lock-upgrade:
	$(PYTHON) scripts/lock --upgrade

# the ranges' newest releases in a throwaway environment, the fast suite against them, and what
# differs from the lock: run it before `make lock-upgrade`
test-latest: tools
	scripts/test-latest

clean:
	rm -rf $(VENV) $(BUILDER) build dist *.egg-info
