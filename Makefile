# jms_selector_spark: `make demo` (the main job on local Spark) and `make test` set everything up.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
# Python workers must use the virtualenv's interpreter, or every pandas_udf fails (no pandas).
export PYSPARK_PYTHON := $(abspath $(PY))
export PYSPARK_DRIVER_PYTHON := $(abspath $(PY))
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup demo test test-fast test-unit test-spark test-bench lint-imports bench dist golden dialect-table doctest docs plots clean

setup: $(VENV)/.installed

$(VENV)/.installed: setup.cfg constraints.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c constraints.txt -e '.[spark,connect,dev,docs]'
	touch $@

# DEMO_ARGS, e.g. make demo DEMO_ARGS="--rows 1000000 --dialect jms"
demo: setup
	@$(PY) examples/route_demo.py $(DEMO_ARGS)

# Every test of the package: the layer contract (.importlinter), then the tests, but for the tests
# of the benchmarks' own code (marker `bench`: `make test-bench`; CI runs both).
test: setup lint-imports
	$(PY) -m pytest -q -m "not bench" $(PYTEST_ARGS)

# The inner loop: no Spark, no JVM, no real broker, no slow generated batteries (under a minute).
test-fast: setup
	$(PY) -m pytest -q -m "not spark and not oracle and not broker and not slow and not bench" $(PYTEST_ARGS)

lint-imports: setup
	$(VENV)/bin/lint-imports

test-unit: setup
	$(PY) -m pytest -q -m "not spark" $(PYTEST_ARGS)

test-spark: setup
	$(PY) -m pytest -q -m spark $(PYTEST_ARGS)

# The benchmarks' own code (benchmarks/*.py) at a tiny scale: what they report, not how fast.
test-bench: setup
	$(PY) -m pytest -q -m bench $(PYTEST_ARGS)

doctest: setup
	$(PY) -m pytest -q tests/test_docs.py $(PYTEST_ARGS)

# BENCH_ARGS, e.g. make bench BENCH_ARGS="native -- --rows 200000 --reps 2"
bench: setup
	$(PY) benchmarks/run_all.py $(BENCH_ARGS)

# The wheel is built from the sdist (so a file missing from the sdist fails here), without build
# isolation: the pinned build tools are installed in the venv (pyproject wants setuptools>=68, wheel).
DIST ?= dist
dist: setup
	rm -rf $(DIST) build
	$(PIP) install -q build==1.3.0 setuptools==80.9.0 wheel==0.45.1
	$(PY) -m build --no-isolation --outdir $(DIST) . >/dev/null
	$(PY) tools/make_pyfiles_zip.py $(DIST)
	@ls -1 $(DIST)

# Rewrite sql/golden/*.sql with today's translations (on purpose; review with git diff sql/golden).
golden: setup
	$(PY) sql/regen.py

# Rewrite the dialect table (a column per dialect of DIALECTS, a row per dialect_table.ROWS) in the
# README and in the docs' dialect overview.
dialect-table: setup
	$(PY) -m jms_selector_spark.analysis.dialect_table --write README.md
	$(PY) -m jms_selector_spark.analysis.dialect_table --write docs/dialects/index.md

# The documentation site (site/): --strict fails on a broken link, reference or anchor.
# tests/test_docs.py builds it too, so make test checks it.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

# Redraw docs/performance/*.png from the benchmark figures committed in docs/performance/data/
# (PLOTS_ARGS="--from-results bench-data/results" takes them from a fresh make bench instead).
plots: setup
	$(PY) tools/plot_benchmarks.py $(PLOTS_ARGS)

clean:
	rm -rf build dist site *.egg-info .pytest_cache .hypothesis spark-warehouse metastore_db
	find . -name __pycache__ -prune -exec rm -rf {} + ; find . \( -name parsetab.py -o -name parser.out -o -name lextab.py \) -delete
