"""A selector's Spark SQL without Spark: `selector_to_sql`, and `explain_filter` (how `jms_filter` runs it).

Both compile the selector once (`compiler.compile_selector`) and read the compiled stages: the whole
selector as one native fragment, or its plan of native and fallback pieces.
"""
from __future__ import annotations

import warnings

from .compiler import compile_selector
from .language.dialects import Dialect

__all__ = ["selector_to_sql", "explain_filter"]


def selector_to_sql(selector, schema=None, *, dialect=None, headers=None, properties=None,
                    property_types=None, unknown_properties="warn", layout=None, case_sensitive: bool = False) -> str:
    """Translate a JMS selector into a Spark SQL boolean expression (for ``WHERE`` / ``F.expr``).

    Parameters
    ----------
    selector : str or Selector
        The selector (parsed with ``dialect`` when a string).
    schema : pyspark StructType or dict, optional
        The table the fragment will run on (``df.schema``), or ``{column: jms type}`` for a flat
        table. None: flat columns whose types are guessed from use (a warning names them).
    dialect : str or Dialect, optional
        The dialect of a selector given as text (default ``"jms"``); a `Selector` keeps its own
        (a different ``dialect`` raises ``ValueError``).
    headers : dict, optional
        JMS header name → column name (``{"JMSType": "msg_type"}``).
    properties : str, optional
        The column holding application properties (STRUCT, MAP or VARIANT). Default: a column
        named ``properties`` if the table has one, else one column per property (flat).
    property_types : dict, optional
        Declared JMS types of string-valued properties (``{"qty": "long"}`` for a
        ``MAP<STRING,STRING>``): read with Java's ``valueOf``, as ``getLongProperty`` would;
        text Java cannot read is NULL (see `Binding`).
    unknown_properties : {"warn", "null", "error"}, default "warn"
        A property the table cannot hold is NULL; "warn" logs it, "error" raises (see `Binding`).
    layout : {None, "kafka-connect-jms", "kafka-headers"}
        Where connectors land messages: the Kafka Connect JMS record value (typed properties), or
        Spark's Kafka source with JMS headers and properties as UTF-8 record headers. A table of
        exactly such a shape is read as it without naming it.
    case_sensitive : bool, default False
        Pass True when the session sets ``spark.sql.caseSensitive=true``: columns that differ
        only in case are then told apart. Otherwise a selector reading such a column raises
        `SelectorBindingError` naming both (Spark would reject the SQL as ambiguous).

    Returns
    -------
    str
        A boolean SQL expression: TRUE where the selector is TRUE, FALSE where FALSE, NULL where
        UNKNOWN. ``TRUE`` for an empty selector.

    Raises
    ------
    SelectorSyntaxError, SelectorTypeError, SelectorBindingError
    BindingOptionError
        ``headers`` or ``properties`` names a column ``schema`` does not have, or the table does not
        have the shape ``layout`` names.
    UnsupportedSelectorError
        A construct with no exact Spark SQL form; evaluate it with `jms_filter`, which runs
        such pieces in the vectorized fallback.

    Examples
    --------
    >>> selector_to_sql("JMSType = 'car' AND weight > 2500", {"JMSType": "string", "weight": "long"})
    "(`JMSType` = decode(X'636172', 'UTF-8') AND `weight` > 2500)"
    """
    compiled = compile_selector(selector, schema, dialect=dialect, headers=headers, properties=properties,
                                property_types=property_types, unknown_properties=unknown_properties,
                                layout=layout, case_sensitive=case_sensitive)
    if compiled.assumed_schema:
        warnings.warn("selector_to_sql without a schema assumes flat columns of types "
                      + ", ".join(f"{k}: {v}" for k, v in compiled.assumed_schema.items()), stacklevel=2)
    return compiled.sql()


def explain_filter(selector, schema, *, dialect: "str | Dialect | None" = None, extended: bool = False,
                   **binding) -> str:
    """How `jms_filter` runs ``selector`` on a table of ``schema``: one line per piece.

    >>> print(explain_filter("JMSType = 'car' AND SPLIT(s, ',') IS NOT NULL",
    ...                      {"JMSType": "string", "s": "string"}, dialect="activemq"))
    native    JMSType = 'car'
              -> `JMSType` = decode(X'636172', 'UTF-8')
    fallback  SPLIT(s, ',') IS NOT NULL
              -> vectorized Arrow UDF

    ``extended=True`` prints each stage's value first (`compiler.Compiled.explain`):

    >>> print(explain_filter("JMSType = 'car' AND weight > 2500 AND INLIST(SPLIT(region, '-'), 'EU')",
    ...                      {"JMSType": "string", "weight": "long", "region": "string"},
    ...                      dialect="activemq", extended=True))
    == Selector ==
    JMSType = 'car' AND weight > 2500 AND INLIST(SPLIT(region, '-'), 'EU')  [dialect activemq]
    == Bound ==
    JMSType -> `JMSType` string (header, column)
    weight -> `weight` long (property, column)
    region -> `region` string (property, column)
    == Core ==
    KleeneAnd
      Compare op='=' types=(string, string)
        Identifier name='JMSType'
        Literal value='car' type=string
      Compare op='>' types=(long, int)
        Identifier name='weight'
        Literal value=2500 type=int
      Call name='INLIST'
        Call name='SPLIT'
          Identifier name='region'
          Literal value='-' type=string
        Literal value='EU' type=string
    == Plan ==
    native    JMSType = 'car'
              -> `JMSType` = decode(X'636172', 'UTF-8')
    native    weight > 2500
              -> `weight` > 2500
    fallback  INLIST(SPLIT(region, '-'), 'EU')
              -> vectorized Arrow UDF
    """
    return compile_selector(selector, schema, dialect=dialect, collisions="caller", warn=False,
                            **binding).explain(extended)
