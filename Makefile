# The two commands a new user needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The real-stack tests (PostgreSQL + Redis + a Celery worker) run in a second pytest invocation.
# Each run gets its own database name and Redis database, so runs side by side do not collide.
RUN_ID := $(shell echo $$$$)
PG_URL ?= postgres://postgres@127.0.0.1:5432/callbreak_$(RUN_ID)
REDIS_TEST_URL ?= redis://127.0.0.1:6379/$(shell echo $$(( $(RUN_ID) % 11 + 5 )))
# With PostgreSQL reachable at PG_URL (always under CI), the database-sensitive site tests (marked
# `db_sensitive` in tests/site/conftest.py) run once, on PostgreSQL, as production does; without it, on SQLite.
PG_REACHABLE = $(shell $(PY) -c "import socket, sys; from urllib.parse import urlsplit; u = urlsplit(sys.argv[1]); \
	socket.create_connection((u.hostname, u.port or 5432), 1).close(); print(1)" '$(PG_URL)' 2>/dev/null)
EMBEDDED_MARKS = $(if $(PG_REACHABLE),not realstack and not db_sensitive,not realstack)
# Test processes (pytest-xdist): the browser tests mostly wait on a server and Chromium, the site tests on one
# core each, so three processes keep two cores busy without starving the browser tests. TEST_PROCS=0 runs everything in one process.
TEST_PROCS ?= 3
# the slowest tests of each part, printed at its end (where CI time goes)
DURATIONS ?= --durations=12
XDIST = $(if $(filter 0,$(TEST_PROCS)),,-n $(TEST_PROCS) --dist worksteal)

SHELL := /bin/bash
.PHONY: serve load run test install lint contracts typecheck test-engine test-site test-site-pg test-realstack test-embedded-then-pg bench migrate worker beat cluster

$(STAMP): pyproject.toml setup.py engine/bots/_kernel.c
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# The offline play's files (frontend/static/vendor/, git-ignored): the pyodide npm package's core and engine.zip.
OFFLINE := frontend/static/vendor/engine.zip

$(OFFLINE): bin/build-offline $(wildcard engine/*.py engine/*/*.py)
	PY=$(PY) bin/build-offline

install: $(STAMP) $(OFFLINE)

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

run: migrate $(OFFLINE)
	@echo ""
	@echo "Call Break is at http://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	@echo ""
	$(BIN)/daphne -b $(HOST) -p $(PORT) callbreak_site.asgi:application

# Production web server: gunicorn with Uvicorn workers (WEB_CONCURRENCY processes, default one per CPU),
# HTTP and WebSockets; static files served by WhiteNoise from `collectstatic`.
serve: $(STAMP) $(OFFLINE)
	PATH="$(CURDIR)/$(BIN):$$PATH" HOST=$(HOST) PORT=$(PORT) bin/serve

# One worker for every queue on a developer's machine; production runs a worker per queue (docker-compose.yml),
# so a review (a minute of CPU) never delays a bot's move. Both run under bin/supervise: a worker or beat that
# exits by itself is started again (with a growing pause); Ctrl-C or SIGTERM stops it for good.
worker: $(STAMP)
	bin/supervise $(BIN)/celery -A callbreak_site worker -l info -Q celery,analysis,push

beat: $(STAMP)
	bin/supervise $(BIN)/celery -A callbreak_site beat -l info

# The site as it runs across machines, on this one: two web nodes behind HAProxy, PgBouncer in front of
# PostgreSQL, a worker node for bots and pushes, one for analyses, one beat (bench/cluster.py; needs Debian's
# haproxy and pgbouncer, PostgreSQL and Redis on 127.0.0.1). Ctrl-C stops it.
cluster: $(STAMP) $(OFFLINE)
	$(BIN)/python bench/cluster.py

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The architecture: engine free of Django, the layers inside games (pyproject.toml [tool.importlinter]).
contracts: $(STAMP)
	$(BIN)/lint-imports

test-engine: $(STAMP)
	$(BIN)/pytest -q tests/engine

test-site: $(STAMP)
	$(BIN)/pytest -q tests/site -m "not realstack"

# The database-sensitive part of the site suite again on PostgreSQL (tasks still eager, in-memory channel
# layer): the tests tests/site/conftest.py marks `db_sensitive` (locks, constraints, collation, queries).
# The test process itself runs without the connection pool (tests hold connections in many threads);
# servers the tests start (e2e, two web processes) run with it, as in production.
test-site-pg: $(STAMP)
	DATABASE_URL=$(PG_URL) DATABASE_POOL_MAX=0 $(BIN)/pytest -q $(DURATIONS) tests/site -m "db_sensitive and not realstack" -p no:cacheprovider $(XDIST)

test-realstack: $(STAMP)
	DATABASE_URL=$(PG_URL) REDIS_URL=$(REDIS_TEST_URL) DATABASE_POOL_MAX=0 $(BIN)/pytest -q $(DURATIONS) tests/site -m realstack -p no:cacheprovider

test: $(STAMP) $(OFFLINE) lint contracts typecheck
	@# The real-stack tests wait on servers and sockets far more than they compute: they run beside the rest
	@# (everything else on SQLite, then the database-sensitive part on PostgreSQL, which is CPU-bound: beside the
	@# SQLite run it slowed both); each part is printed when it ends.
	$(MAKE) --no-print-directory -j2 --output-sync=target test-embedded-then-pg test-realstack

test-embedded-then-pg: $(STAMP) $(OFFLINE)
	$(BIN)/pytest -q $(DURATIONS) tests -m "$(EMBEDDED_MARKS)" $(XDIST)
	$(MAKE) --no-print-directory test-site-pg

bench: $(STAMP)
	$(BIN)/python -m engine bench

# The crowd benchmark (bench/load.py): starts the real stack on loopback (PostgreSQL, Redis, `make serve`'s
# server, a worker and beat), plays 10, 50 and 200 concurrent matches, prints the tables.
load: $(STAMP)
	$(BIN)/python bench/load.py --start --matches 10 --think 0
	$(BIN)/python bench/load.py --start --matches 50 --think 0-5
	$(BIN)/python bench/load.py --start --matches 200 --think 0-5
	$(BIN)/python bench/load.py --start --matches 50 --think 0
