# jms_selector_spark: `make demo` (the main job on local Spark) and `make test` set everything up.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
# Python workers must use the virtualenv's interpreter, or every pandas_udf fails (no pandas).
export PYSPARK_PYTHON := $(abspath $(PY))
export PYSPARK_DRIVER_PYTHON := $(abspath $(PY))
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup demo test test-unit test-spark bench dist doctest clean

setup: $(VENV)/.installed

$(VENV)/.installed: setup.cfg constraints.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c constraints.txt -e '.[spark,dev]'
	touch $@

demo: setup
	$(PY) examples/route_demo.py

test: setup
	$(PY) -m pytest -q $(PYTEST_ARGS)

test-unit: setup
	$(PY) -m pytest -q -m "not spark" $(PYTEST_ARGS)

test-spark: setup
	$(PY) -m pytest -q -m spark $(PYTEST_ARGS)

bench: setup
	$(PY) benchmarks/run_all.py

dist: setup
	rm -rf dist build
	$(PIP) install -q -c constraints.txt build==1.3.0 || $(PIP) install -q build
	$(PY) -m build --no-isolation --wheel --sdist --outdir dist . >/dev/null
	$(PY) tools/make_pyfiles_zip.py dist

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis spark-warehouse metastore_db
	find . -name __pycache__ -prune -exec rm -rf {} + ; find . \( -name parsetab.py -o -name parser.out -o -name lextab.py \) -delete
