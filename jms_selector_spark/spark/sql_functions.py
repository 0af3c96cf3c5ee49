"""Selectors for ``spark.sql`` users: `register` (the vectorized ``jms_match``) and
`register_selector` (a literal selector as a SQL function: native SQL, Python only for the
pieces that have no native form).

Two ways to use a selector from SQL, with different costs:

- ``jms_match(selector, struct(...))`` — registered by `register` — evaluates any selector, a
  literal or a column (one selector per row: subscriptions joined to messages), in a vectorized
  Arrow UDF. Rows cross to a Python worker, which costs about 10× a native filter, and the UDF
  receives every field of the struct you pass: pass ``struct(JMSType, color, weight)`` rather
  than ``struct(*)`` when the table is wide (`selector_columns` lists what a selector reads).
- ``register_selector(spark, "blue_cars", "color = 'blue'", "messages")`` turns one literal
  selector into a temporary SQL function ``blue_cars(struct(*))`` (or a temporary view). Its
  body is the native fragment of `selector_to_sql`, which the analyzer inlines: the plan has no
  Python, filters push down to Parquet and unused columns are pruned. A selector with pieces
  that have no native form is split as `jms_filter` splits it (`hybrid`): the body calls a
  temporary Arrow UDF for each such piece, on just the fields it reads, with the selector
  compiled in the UDF's closure — the native conjuncts still push down, and no selector text
  travels with the rows (``jms_match('<literal>', …)`` ships the literal with every row, as
  Spark does with any UDF argument: ~20 % of the time on 10M rows, measured in bench_udf).

The SQL function takes the *whole row* as one struct, declared with exactly the row's type:
Spark inlines the body only when ``struct(*)`` needs no cast (measured on Spark 4.3: a struct
type whose fields are in another order, or of another nullability, gets a cast and loses all
pushdown). So the function belongs to one table schema; register it again for another table.
"""
from __future__ import annotations

import logging
import re

from ..backends.sql.limits import MAX_SQL_DEPTH, sql_depth
from ..backends.sql.render import sql_identifier
from ..binder import Binding
from ..compiler import Plan, compile_selector
from ..language.schema import column_collisions
from ..frontend.selector import Selector
from ..language.dialects import Dialect, get_dialect
from ..language.errors import SelectorError
from ..parsing import as_selector
from . import collisions
from .filtering import filter_column

__all__ = ["register", "register_selector", "register_route", "selector_columns", "struct_ddl", "create_function",
           "plan_sql"]

log = logging.getLogger(__name__)

_PARAM = "message"
_SIMPLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def register(spark, *, dialect: "str | Dialect" = "jms", name: str = "jms_match", **binding) -> dict:
    """Register ``jms_match`` and ``jms_selector_error`` for ``spark.sql``.

    - ``<name>(selector STRING, message STRUCT) -> BOOLEAN``: TRUE when the message matches;
      UNKNOWN and an invalid selector give FALSE (one bad selector in a subscriptions table
      never fails the query). A NULL selector is "no selector": every message matches.
    - ``<name>_3vl(selector, message) -> BOOLEAN``: the three-valued value (NULL = UNKNOWN, and
      NULL for an invalid selector), for use under NOT / OR in your own SQL.
    - ``jms_selector_error(selector STRING) -> STRING``: the error, with its position and caret,
      for an invalid selector; NULL for a valid one. ``jms_selector_error(selector, message)``
      also reports what binding the selector to that message struct fails on (an ARRAY or DATE
      column, a header column of the wrong type…): exactly the selectors for which
      ``jms_match(selector, message)`` is FALSE on every row. With another ``name`` it is
      ``<name>_selector_error``, so that a second dialect registered under its own name leaves
      the first one's error function alone.

    Parameters
    ----------
    spark : SparkSession
    dialect : str or Dialect, default "jms"
    name : str, default "jms_match"
    **binding
        ``headers={"JMSType": "msg_type"}``, ``properties="props"``: how the message struct holds
        headers and properties (see `selector_to_sql`).

    Returns
    -------
    dict
        SQL name → the registered UDF (usable from the DataFrame API too).

    Notes
    -----
    Spark sends every argument of a Python UDF with every row, a literal too: with
    ``jms_match('<literal>', struct(…))`` the selector text crosses to Python 10M times for 10M
    rows (measured: ~20 % of the time on the complex selector of ``benchmarks/bench_udf.py``).
    For a literal selector, `register_selector` is the fast path: native SQL where the selector
    maps, a UDF holding the compiled selector (no text per row) for the pieces that do not.

    Examples
    --------
    >>> fns = register(spark)
    >>> spark.createDataFrame([("car", "blue", 3000), ("car", "red", 3000)],
    ...                       "JMSType string, color string, weight long").createOrReplaceTempView("m")
    >>> spark.sql("SELECT color FROM m WHERE jms_match('color = ''blue'' AND weight > 2500', "
    ...           "struct(*))").show()
    +-----+
    |color|
    +-----+
    | blue|
    +-----+
    <BLANKLINE>
    >>> spark.sql("SELECT jms_selector_error('color = ''blue'' AND AND weight > 2500') AS e"
    ...           ).first().e.splitlines()[0]
    "SelectorSyntaxError: unexpected 'AND' at line 1, column 20"
    """
    from ..backends.udf import match_udf, selector_error_udf

    d = get_dialect(dialect)
    b = Binding.of(**binding)
    fns = {
        name: match_udf(d, binding=b),
        f"{name}_3vl": match_udf(d, binding=b, three_valued=True),
        "jms_selector_error" if name == "jms_match" else f"{name}_selector_error": selector_error_udf(d, binding=b),
    }
    for sql_name, fn in fns.items():
        spark.udf.register(sql_name, fn)
    log.info("registered %s for dialect %s", ", ".join(fns), d.name)
    return fns


def struct_ddl(data_type) -> str:
    """Spark DDL for a data type, nested nullability included (``STRUCT<`a`: BIGINT NOT NULL>``)."""
    kind = data_type.typeName()
    if kind == "struct":
        fields = ", ".join(
            f"{sql_identifier(f.name)}: {struct_ddl(f.dataType)}{'' if f.nullable else ' NOT NULL'}"
            for f in data_type.fields)
        return f"STRUCT<{fields}>"
    if kind == "array":
        return f"ARRAY<{struct_ddl(data_type.elementType)}>"
    if kind == "map":
        return f"MAP<{struct_ddl(data_type.keyType)}, {struct_ddl(data_type.valueType)}>"
    return data_type.simpleString().upper()


def _schema_of(spark, source):
    if isinstance(source, str):
        return spark.table(source)
    return source


def register_selector(spark, name: str, selector, source, *, dialect: "str | Dialect | None" = None,
                      kind: str = "function", **binding) -> str:
    """Register a literal selector for ``spark.sql``: a temporary function or view.

    Native SQL wherever the selector maps (then the plan has no Python); the pieces that do not
    map (see `hybrid`) run in temporary Arrow UDFs named ``__jms_<name>_<k>``, each holding its
    compiled sub-selector and called on just the struct fields it reads, so the native conjuncts
    still push down and only the surviving rows reach Python.

    Parameters
    ----------
    spark : SparkSession
    name : str
        The SQL name to create (letters, digits and ``_``).
    selector : str or Selector
    source : str or DataFrame
        The messages table (a table/view name) or DataFrame whose schema the selector is bound to.
    dialect : str or Dialect, optional
        The dialect of a selector given as text (default ``"jms"``); a `Selector` keeps its own
        (a different ``dialect`` raises ``ValueError``).
    kind : {"function", "view"}
        ``"function"``: ``CREATE TEMPORARY FUNCTION <name>(message STRUCT<the row type>) RETURNS
        BOOLEAN``, called as ``<name>(struct(*))`` on that table. ``"view"``: ``CREATE TEMPORARY
        VIEW <name>`` holding the matching rows of ``source``.
    **binding
        ``headers=``, ``properties=`` as in `selector_to_sql`.

    Returns
    -------
    str
        The SQL statement (function) or fragment (view) that was registered; for a view that
        needs the vectorized evaluator, the hybrid plan (as `explain_filter` prints it).

    Raises
    ------
    SelectorError
        The selector is invalid or does not bind to ``source``'s schema.

    Examples
    --------
    >>> df = spark.createDataFrame([("car", "blue", 3000), ("bike", "blue", 10)],
    ...                            "JMSType string, color string, weight long")
    >>> df.createOrReplaceTempView("messages")
    >>> _ = register_selector(spark, "heavy_blue", "color = 'blue' AND weight > 2500", "messages")
    >>> spark.sql("SELECT JMSType FROM messages WHERE heavy_blue(struct(*))").show()
    +-------+
    |JMSType|
    +-------+
    |    car|
    +-------+
    <BLANKLINE>

    An ActiveMQ ``SPLIT`` has no native form; ``color = 'blue'`` still pushes down:

    >>> print(register_selector(spark, "blue_pair", "color = 'blue' AND INLIST(SPLIT(JMSType, 'k'), 'bi')",
    ...                         "messages", dialect="activemq").split(" RETURN ")[1])
    ((`message`.`color` = decode(X'626C7565', 'UTF-8')) AND (`__jms_blue_pair_0`(`message`.`JMSType`)))
    >>> spark.sql("SELECT JMSType FROM messages WHERE blue_pair(struct(*))").show()
    +-------+
    |JMSType|
    +-------+
    |   bike|
    +-------+
    <BLANKLINE>
    """
    if not _SIMPLE_NAME.match(name):
        raise ValueError(f"a SQL name of letters, digits and _ is needed, not {name!r}")
    if kind not in ("function", "view"):
        raise ValueError(f"kind must be 'function' or 'view', not {kind!r}")
    selector = as_selector(selector, dialect)  # a conflicting dialect= fails before the table is read
    df = _schema_of(spark, source)
    qualifier = () if kind == "view" else (_PARAM,)
    compiled = compile_selector(selector, df.schema, qualifier=qualifier, collisions="caller", **binding)
    if kind == "view":
        target, original = collisions.hide(df, compiled)
        column, plan = filter_column(compiled)
        collisions.restore(target.where(column), original).createOrReplaceTempView(name)
        fragment = plan.sql if plan.is_native else compiled.describe(plan)
        log.info("temporary view %s: %s", name, fragment)
        return fragment
    if compiled.selector.root is not None:
        column_collisions(df.columns, compiled.bound.source_columns(), compiled.text,
                          case_sensitive=collisions.case_sensitive(spark), refuse=True,
                          how="register it as kind='view' (which resolves them)")
    return create_function(spark, name, compiled, df.schema)


def create_function(spark, name: str, compiled, row_type, *, whole_fallback: bool = False) -> str:
    """``CREATE TEMPORARY FUNCTION name(message STRUCT<row type>)`` for ``compiled`` (compiled with
    the qualifier ``("message",)``): its plan, each fallback piece a temporary Arrow UDF
    ``__jms_<name>_<k>`` (the piece compiled once, in the closure) called on just the struct fields
    it reads. ``whole_fallback``: the whole selector as one fallback piece (the benchmarks' way of
    measuring the fallback alone)."""
    from ..backends.udf import piece_udf

    udfs = []

    def fallback_sql(leaf) -> str:
        udf, columns = piece_udf(leaf.piece)
        udf_name = f"__jms_{name}_{len(udfs)}"
        udfs.append((udf_name, udf))
        args = ", ".join(sql_identifier(_PARAM, c) for c in columns) or "CAST(NULL AS BOOLEAN)"
        return f"{sql_identifier(udf_name)}({args})"

    plan = Plan("fallback", compiled.core, piece=compiled.piece(compiled.core)) if whole_fallback else compiled.plan
    body = plan_sql(plan, fallback_sql)
    if sql_depth(body) > MAX_SQL_DEPTH:  # the skeleton of NOT/AND/OR alone is too deep to parse
        udfs.clear()
        plan = Plan("fallback", compiled.core, piece=compiled.piece(compiled.core))
        body = plan_sql(plan, fallback_sql)
    for udf_name, udf in udfs:
        spark.udf.register(udf_name, udf)
    statement = (f"CREATE OR REPLACE TEMPORARY FUNCTION {sql_identifier(name)}"
                 f"({_PARAM} {struct_ddl(row_type)}) RETURNS BOOLEAN RETURN {body}")
    spark.sql(statement)
    if udfs:
        log.info("temporary function %s(struct(*)): %d piece(s) run in the vectorized UDF:\n%s",
                 name, len(udfs), compiled.describe(plan))
    else:
        log.info("temporary function %s(struct(*)): %s", name, body)
    return statement


def plan_sql(plan, fallback_sql) -> str:
    """The plan as one SQL boolean expression (NULL = UNKNOWN): native fragments as they are,
    each fallback piece as ``fallback_sql(plan)`` (the caller's UDF call), joined by Spark's own
    Kleene AND / OR / NOT."""
    if plan.kind == "native":
        return plan.sql
    if plan.kind == "fallback":
        return fallback_sql(plan)
    if plan.kind == "not":
        return f"(NOT ({plan_sql(plan.parts[0], fallback_sql)}))"
    op = " AND " if plan.kind == "and" else " OR "
    return "(" + op.join(f"({plan_sql(p, fallback_sql)})" for p in plan.parts) + ")"


def selector_columns(selectors, schema, *, dialect: "str | Dialect | None" = None, **binding) -> list:
    """The top-level columns of a table that selectors read: what to pass to ``jms_match``.

    ``selectors`` is one selector (text or `Selector`) or an iterable of them: for a column of
    per-row selectors, pass its distinct values and the UDF gets the union of the columns they
    read, never the whole row. In an iterable, invalid selectors (they match nothing; see
    ``jms_selector_error``) and NULLs are skipped; a single invalid selector raises its
    `SelectorError`.

    >>> schema = {"JMSType": "string", "weight": "long", "color": "string", "note": "string"}
    >>> selector_columns("JMSType = 'car' AND weight > 2500", schema)
    ['JMSType', 'weight']
    >>> selector_columns(["color = 'blue'", "weight >", None, "JMSType = 'car' AND color <> 'red'"], schema)
    ['color', 'JMSType']
    """
    def columns(sel) -> tuple:
        return compile_selector(sel, schema, dialect=dialect, collisions="caller", warn=False,
                                **binding).bound.source_columns()

    if isinstance(selectors, (str, Selector)):
        return list(columns(selectors))
    out: dict = {}
    for text in selectors:
        if text is None:
            continue
        try:
            out.update(dict.fromkeys(columns(text)))
        except SelectorError as exc:
            log.debug("selector_columns: skipping invalid selector %r: %s", text, exc)
    return list(out)


def register_route(spark, name: str, messages, subscriptions, *, mode: str = "topic",
                   dialect: "str | Dialect" = "jms", **options) -> dict:
    """`route` as a temporary view for ``spark.sql``; returns the invalid subscriptions' errors.

    ``messages`` and ``subscriptions`` are table names or DataFrames (subscriptions: columns
    ``name``, ``selector`` and optionally ``durable``); ``options`` are `route`'s (``order_by``,
    ``headers``, ``properties``).

    >>> msgs = spark.createDataFrame([("ID:1", 1, "car"), ("ID:2", 2, "bike")],
    ...                              "JMSMessageID string, JMSTimestamp long, JMSType string")
    >>> subs = spark.createDataFrame([("cars", "JMSType = 'car'"), ("bad", "JMSType =")],
    ...                              "name string, selector string")
    >>> sorted(register_route(spark, "routed", msgs, subs))
    ['bad']
    >>> spark.sql("SELECT JMSMessageID, subscription FROM routed ORDER BY 1").show()
    +------------+------------+
    |JMSMessageID|subscription|
    +------------+------------+
    |        ID:1|        cars|
    |        ID:2|        NULL|
    +------------+------------+
    <BLANKLINE>
    """
    from .routing import route, subscription_errors

    if not _SIMPLE_NAME.match(name):
        raise ValueError(f"a SQL name of letters, digits and _ is needed, not {name!r}")
    messages = _schema_of(spark, messages)
    subscriptions = _schema_of(spark, subscriptions)
    d = get_dialect(dialect)
    route(messages, subscriptions, mode=mode, dialect=d, **options).createOrReplaceTempView(name)
    return subscription_errors(subscriptions, dialect=d)
