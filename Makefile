# The README's quick start: `make run` and `make test` each set up .venv on their own.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench docs clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(STAMP)

# Development: DEBUG on (plain HTTP, static files served from the app's folders). The demo: a club night,
# then a Swiss in its third round and a finished double elimination. On SQLite (the default) jobs run in the
# web process; with DATABASE_URL (PostgreSQL) a job worker runs beside the web server and stops with it.
run: export DEBUG = 1
run: $(STAMP) docs
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py load_demo_events
	@if [ -n "$$DATABASE_URL" ]; then \
	  echo "Starting the job worker (PostgreSQL queue) beside the web server"; \
	  $(PY) manage.py run_jobs & worker=$$!; \
	  trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	  $(PY) manage.py runserver 127.0.0.1:8000; \
	else \
	  $(PY) manage.py runserver 127.0.0.1:8000; \
	fi

lint: export DEBUG = 1
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run

# The suite runs in WORKERS pytest processes at once (pytest-xdist, each with its own test database): one
# process keeps one core busy, and the CI machine has 2. The tests are handed out one at a time
# (--maxschedchunk 1) so that both processes share the slow browser tests. WORKERS=auto for one per core,
# WORKERS=0 for a single process (a debugger, pytest's own order of output).
WORKERS ?= 2
test: lint
	scripts/ensure-chromium
	$(PY) -m pytest -n $(WORKERS) --maxschedchunk 1

# The guide (docs/, Markdown): Sphinx with MyST and Furo; every warning (a broken internal link, a page in no
# table of contents) fails the build. The app serves the built site at /help/.
docs: $(STAMP)
	$(VENV)/bin/sphinx-build -W --keep-going -q -b html docs docs/_build/html

# NIGHT=--big: the 1,000-player night (bench/night.py) instead of the small one.
bench: $(STAMP)
	$(PY) bench/run.py
	$(PY) bench/events.py
	$(PY) bench/ratings_recompute.py
	$(PY) bench/webhooks.py
	NIGHT="$(NIGHT)" bench/run_api.sh

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles docs/_build
