# trapoula — one entry point for every task.  `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TS := clients/ts
NODE_STAMP := $(TS)/node_modules/.installed
BUF := $(TS)/node_modules/.bin/buf
WEB := clients/web
WEB_STAMP := $(WEB)/node_modules/.installed
WEB_PAGE := service/trapoula/service/web/index.html
WEB_SOURCES := $(WEB)/index.html $(WEB)/vite.config.ts $(wildcard $(WEB)/src/*) $(wildcard $(TS)/src/*.ts) protos/trapoula/api/v1/*.proto

.PHONY: help install tsinstall web webinstall webtest screenshots wheel proto test test-fast check imports lint fmt typecheck protolint protoimage tsclient demo serve play golden docs bench bench-instructions clean image compose-config

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml hatch_build.py protos/trapoula/api/v1/*.proto
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "trapoula needs Python 3.11 or newer")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install trapoula with the server, PostgreSQL and dev extras; and build the web page where npm is (`make web`)
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory web; \
	else echo "install: no npm here, so the web page is not built (Node.js 20 or newer, then \`make web\`)"; fi

tsinstall: $(NODE_STAMP)  ## install the TypeScript client's packages (and buf) from clients/ts/package-lock.json (npm ci)

$(NODE_STAMP): $(TS)/package.json $(TS)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed for the TypeScript client and buf (Node.js 20 or newer)"; exit 1; }
	cd $(TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

webinstall: $(WEB_STAMP)  ## install the web page's packages (Vite, playwright-core) from clients/web/package-lock.json (npm ci)

$(WEB_STAMP): $(WEB)/package.json $(WEB)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed to build the web page (Node.js 20 or newer)"; exit 1; }
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error
	touch $(WEB_STAMP)

web: $(WEB_PAGE)  ## build the web page (lobby, tables) with Vite into the Python package; `trapoula serve` serves it at / of the Connect endpoint

$(WEB_PAGE): $(NODE_STAMP) $(WEB_STAMP) $(WEB_SOURCES)
	cd $(TS) && npm run --silent generate
	cd $(WEB) && npm run --silent build

webtest: $(STAMP) web  ## the web page's tests: a real server and Debian's headless Chromium (/usr/bin/chromium, or $$CHROMIUM) driven by playwright-core; screenshots to a temporary folder
	cd $(WEB) && npm run --silent e2e

screenshots: $(STAMP) web  ## the web page's tests, saving their screenshots into docs/screenshots/ (the README's pictures)
	cd $(WEB) && TRAPOULA_SCREENSHOTS=docs npm run --silent e2e

wheel: $(STAMP) web  ## build the wheel (with the web page) into dist/
	$(PY) -m pip wheel --quiet --no-deps -w dist .

proto: $(STAMP)  ## regenerate the gRPC/protobuf and Connect code from protos/ (never edit it by hand)
	$(PY) hatch_build.py

PYTEST := $(PY) -m pytest -q -o console_output_style=count -n 2 --dist loadscope --no-loadscope-reorder

test: $(STAMP)  ## run the whole test suite, about 7 minutes on 2 cores (PostgreSQL tests use TEST_DATABASE_URL, else a container where Docker runs)
	@echo "pytest: the whole suite, about 7 minutes on a quiet 2-core machine ([done/total] at the end of each row; make test-fast: about 2½)"
	$(PYTEST) tests
	$(PY) -m pytest -q --doctest-modules domain

test-fast: $(STAMP)  ## run every test but the long runs and the server processes (markers slow, process), about 2½ minutes on 2 cores
	@echo "pytest: all but the slow and process tests, about 2½ minutes on a quiet 2-core machine ([done/total] at the end of each row)"
	$(PYTEST) -m "not slow and not process" tests
	$(PY) -m pytest -q --doctest-modules domain

lint: $(STAMP)  ## ruff check and format check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fmt: $(STAMP)  ## format the code
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: $(STAMP)  ## mypy --strict over domain, service, clients and examples
	$(VENV)/bin/mypy

imports: $(STAMP)  ## import-linter: the domain is pure, clients stay thin
	$(VENV)/bin/lint-imports

protolint: $(NODE_STAMP)  ## buf lint of protos/, and buf breaking against the v1 image (protos/v1.image.json) and the main branch
	$(BUF) lint protos
	$(BUF) breaking protos --against protos/v1.image.json
	@if git rev-parse -q --verify refs/heads/main >/dev/null 2>&1; then \
		echo "$(BUF) breaking protos --against <protos/ of the main branch>"; \
		main=$$(mktemp -d) && git archive main protos | tar -x -C "$$main" && \
		$(BUF) breaking protos --against "$$main/protos"; status=$$?; rm -rf "$$main"; exit $$status; \
	else echo "protolint: no main branch here; checked against protos/v1.image.json only"; fi

protoimage: $(NODE_STAMP)  ## rewrite protos/v1.image.json, the contract buf breaking checks against (after a compatible change)
	$(BUF) build protos --exclude-source-info -o protos/v1.image.json

tsclient: $(STAMP) $(NODE_STAMP)  ## the TypeScript client: generate from protos/, type-check, run its tests against a real server
	cd $(TS) && npm test

check: lint typecheck imports protolint test tsclient webtest  ## everything CI runs

demo: $(STAMP)  ## play a full Agonia match between four bots over gRPC on SQLite and verify its record
	$(VENV)/bin/trapoula demo

serve: install  ## run the server with the web page on http://127.0.0.1:8080/ (TRAPOULA_ADDRESS, TRAPOULA_DATABASE_URL, TRAPOULA_CONNECT_ADDRESS)
	TRAPOULA_CONNECT_ADDRESS=$${TRAPOULA_CONNECT_ADDRESS:-127.0.0.1:8080} $(VENV)/bin/trapoula serve

play: $(STAMP)  ## play Agonia in the terminal against three bots
	$(VENV)/bin/trapoula play

golden: $(STAMP)  ## rewrite the golden playthrough files
	$(PY) -m pytest -q tests/golden --update-golden

docs: $(STAMP)  ## rewrite the generated docs (docs/record-events.md: every event of every built-in game, field by field; docs/schemas/<game>.json: each game's JSON Schema; docs/schemas/table.json: the table's part)
	$(PY) -m trapoula.domain.catalogue agonia crazy_eights giminaiciai mau_mau romis vida > docs/record-events.md
	$(PY) -m trapoula.domain.schema docs/schemas agonia crazy_eights giminaiciai mau_mau romis vida
	$(PY) -m trapoula.service.served docs/schemas

bench: $(STAMP)  ## measure domain, replay, Act over gRPC, fan-out, paced load, saturation, memory beside bare baselines and bounds (docs/benchmarks.md; BENCH_FLAGS=--quick or --full)
	@$(PY) -c 'import pyspiel' 2>/dev/null || $(PY) -m pip install --quiet --disable-pip-version-check \
		--only-binary :all: --timeout 20 --retries 1 open_spiel >/dev/null 2>&1 || \
		echo "bench: open_spiel did not install (no network, or no wheel for this Python): its reference is skipped"
	PYTHONPATH=tests $(PY) -m bench $(BENCH_FLAGS)

bench-instructions: $(STAMP)  ## count the server's instructions per Act and per bare call under valgrind (steady where CPU time drifts; about 4 minutes; docs/benchmarks.md)
	PYTHONPATH=tests $(PY) -m bench.instructions $(BENCH_FLAGS)

image:  ## build the server image (needs a Docker engine)
	docker build -f deploy/Dockerfile -t trapoula .

compose-config: $(STAMP)  ## check deploy/compose.yaml with `docker compose config` (else the Compose v2 binary of the dev extras)
	@if docker compose version >/dev/null 2>&1; then docker compose -f deploy/compose.yaml config --quiet; \
	else "$$($(PY) -c 'import compose, pathlib; print(pathlib.Path(compose.__file__).parent / "docker-compose")')" \
	  -f deploy/compose.yaml config --quiet; fi
	@echo "deploy/compose.yaml: valid"

clean:  ## remove the virtualenv and caches
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find protos -name '*_pb2*' -delete
	find protos -name '*_connect.py' -delete
	rm -rf clients/ts/node_modules clients/ts/src/gen clients/web/node_modules service/trapoula/service/web
