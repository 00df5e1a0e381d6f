# One entry point for newcomers, CI and benchmarks. Every target installs what it needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# Security lint: a medium or high finding fails the build unless its line is
# marked "# nosec B<id>  # reason" (docs/deploy.md, "Security checks").
BANDIT := $(PY) -m bandit --quiet --recursive --severity-level medium surveys estimation config

.PHONY: setup run test test-twice lint messages bench bench-first-view bench-stat-files bench-export bench-submit bench-regression bench-ledger bench-load bench-inline-trade golden core-wheel clean serve cluster docker-check lock restore-drill soak

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Test-only JavaScript tools (axe-core), exactly as package-lock.json pins them.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

setup: $(STAMP)
	mkdir -p var/static
	$(PY) manage.py migrate --noinput

## Set up, seed the demo and serve the platform on http://$(HOST):$(PORT)/.
run: setup
	$(PY) manage.py seed_demo
	@echo
	@echo "  Respondent page:  http://$(HOST):$(PORT)/s/demo/"
	@echo "  Researchers:      http://$(HOST):$(PORT)/surveys/  (log in as demo; password above)"
	@echo "                    the demo's results show 600 simulated answers next to their truth"
	@echo
	@if [ -n "$$REDIS_URL" ]; then \
		echo "  Job worker: Celery on $$REDIS_URL (with the periodic sweep)"; \
		$(VENV)/bin/celery -A config worker --beat --schedule $${VAR_DIR:-var}/celerybeat-schedule --loglevel=WARNING & \
		worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
		$(PY) manage.py runserver $(HOST):$(PORT); \
	else \
		echo "  Jobs run inside the web process (set REDIS_URL to use a Celery worker)"; \
		$(PY) manage.py runserver $(HOST):$(PORT); \
	fi

## Run every test and the linters.
## The test suite's processes: one per CPU, at most 4 (each is a run of its own
## on the shared PostgreSQL and Redis, as another copy of the suite would be);
## TEST_WORKERS=0 runs it in this one process.
TEST_WORKERS ?= auto

test: $(STAMP) $(NODE_STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(BANDIT)
	$(PY) manage.py makemigrations --check --dry-run
	node --test tests/js/
	$(PY) -m pytest -n $(TEST_WORKERS) --maxprocesses 4

## make test in two clean clones at once, on the same PostgreSQL and Redis
## (.ci/twin): fails if either copy fails, i.e. if two runs interfere.
test-twice:
	.ci/twin

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(BANDIT)

## Extract every translatable string into locale/<lang>/LC_MESSAGES/django.po,
## then compile the catalogues (needs gettext; docs/languages.md).
LOCALES ?= es
messages: $(STAMP)
	$(PY) manage.py makemessages $(addprefix --locale ,$(LOCALES)) --no-obsolete \
		--add-location file --ignore '.venv/*' --ignore 'node_modules/*' \
		--ignore 'tests/*' --ignore 'benchmarks/*' --ignore 'var/*'
	$(PY) manage.py compilemessages $(addprefix --locale ,$(LOCALES)) \
		--ignore '.venv/*' --ignore 'node_modules/*'

## Timings and sizes written up in docs/benchmarks.md. Each benchmark exits
## non-zero when it misses a target; the leading "-" lets the others still run
## (make reports each miss as "Error 1 (ignored)").
bench: $(STAMP)
	-$(PY) -m benchmarks.estimate
	-$(PY) -m benchmarks.unary
	-$(PY) -m benchmarks.regression
	-$(PY) -m benchmarks.page_weight
	-$(PY) -m benchmarks.load_time $(LOAD_PROXY)
	-$(PY) -m benchmarks.inline_trade
	-$(PY) -m benchmarks.estimate_run
	-$(PY) -m benchmarks.export
	-$(PY) -m benchmarks.stat_files
	-$(PY) -m benchmarks.first_view
	-$(PY) -m benchmarks.submission
	-$(PY) -m benchmarks.submission --access invitation
	-$(PY) -m benchmarks.submission --access panel
	-$(PY) -m benchmarks.ledger

## Time to answer and to the receipt on throttled 3G with a 4x slower CPU,
## in Chromium against the production layout (PostgreSQL and Redis); also
## through nginx in front (TLS, HTTP/2) where nginx is installed.
LOAD_PROXY = $(if $(wildcard /usr/sbin/nginx),--proxy,)
bench-load: $(STAMP)
	$(PY) -m benchmarks.load_time $(LOAD_PROXY)

## What carrying its code inside the page buys on throttled 3G: the demo and
## the twenty questions as served (every script inside), with only the page
## script and style sheet inside, and with every script and the style sheet
## as files, the last two rebuilt from the page as served.
bench-inline-trade: $(STAMP)
	$(PY) -m benchmarks.inline_trade

## What a controlled survey's ledger costs a submission, empty to 10^6 ids (PostgreSQL).
bench-ledger: $(STAMP)
	$(PY) -m benchmarks.ledger

## A logistic regression fit on 10^6 responses against estimating the prevalence.
bench-regression: $(STAMP)
	$(PY) -m benchmarks.regression

## The first view of a run's results page in fresh processes at 10^6 (PostgreSQL;
## Redis, REDIS_URL or the local server, for the drawing shared between processes).
bench-first-view: $(STAMP)
	$(PY) -m benchmarks.first_view

## Memory of the SPSS, Stata and bundle exports at 10^5 and 10^6 rows (no database).
bench-stat-files: $(STAMP)
	$(PY) -m benchmarks.stat_files

## Export of 10^6 responses over HTTP against a bare COPY (PostgreSQL).
bench-export: $(STAMP)
	$(PY) -m benchmarks.export

## Backup and restore drill (PostgreSQL): pg_dump while submissions arrive,
## pg_restore into a new database, check it is consistent, at 10^5 and 10^6
## responses (docs/deploy.md, "Back up and restore"). DRILL_ARGS="--sizes 2000"
## for a quick one.
restore-drill: $(STAMP)
	$(PY) -m benchmarks.restore_drill $(DRILL_ARGS)

## Regenerate the golden fixtures after changing a design (estimation/kinds/).
golden: $(STAMP)
	$(PY) -m estimation golden > tests/fixtures/designs.json
	$(PY) -m estimation golden --instructed > tests/fixtures/instructed_designs.json
	$(PY) -m estimation golden-unary > tests/fixtures/unary_designs.json
	$(PY) -m estimation golden-list > tests/fixtures/list_designs.json

## The statistical core alone as a wheel in dist/ (NumPy and SciPy only;
## packaging/rr-estimation): pip install dist/rr_estimation-*.whl
core-wheel: $(STAMP)
	$(PY) -m pip wheel --quiet --no-deps -w dist ./packaging/rr-estimation

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache

## The production process layout without containers: gunicorn and a Celery
## worker (with the periodic sweep) on DATABASE_URL and REDIS_URL; see docs/deploy.md.
serve: $(STAMP)
	PYTHON=$(abspath $(PY)) BIND=$(HOST):$(PORT) docker/serve.sh all

## Several nodes on one machine: two gunicorn processes (WEB_PORTS), two Celery
## workers and a beat on DATABASE_URL and REDIS_URL (needs SECRET_KEY).
cluster: $(STAMP)
	PYTHON=$(abspath $(PY)) WEB_HOST=$(HOST) docker/serve.sh cluster

## Pin what a production install gets, transitive dependencies included.
lock: $(STAMP)
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	$(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > .lock-venv/requirements.txt
	.lock-venv/bin/python -m pip install --quiet -r .lock-venv/requirements.txt
	{ sed -n '/^#/p' docker/constraints.txt; .lock-venv/bin/python -m pip freeze; } > docker/constraints.new && mv docker/constraints.new docker/constraints.txt
	rm -rf .lock-venv

## Build the image and run the Compose stack end to end (needs Docker, Compose v2).
docker-check:
	docker/check.sh

## Ten minutes of simulated respondents and researchers on the production
## layout, with a PostgreSQL and a Redis of its own, while PostgreSQL restarts,
## Redis stops, a Celery worker and a web process are killed (docs/reliability.md).
SOAK_ARGS ?=
soak: $(STAMP)
	$(PY) -m benchmarks.soak $(SOAK_ARGS)

## Submission throughput under load, on the production layout (docs/benchmarks.md).
bench-submit: $(STAMP)
	$(PY) -m benchmarks.submission
