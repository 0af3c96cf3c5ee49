"""Who should have received a message of a table, and why not: `explain_message`.

The message is read from the table once (one row, by its id), only the columns the subscriptions'
selectors read, and each name's typed value is taken from that row as every back end reads it (the
binder says where the name lives and of which type; `backends.arrow.columns` reads it, with the
header conversions and defaults). Each subscription's selector is then explained on those values by
the reference interpreter (`analysis.why.explain_values`): its answer is what `jms_filter` and
`route` compute for the row, and the trace says why.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..analysis.why import explain_values
from ..compiler import compile_selector
from ..language.dialects import Dialect, get_dialect
from ..language.errors import SelectorError
from ..semantics.values import TypedValue
from .routing.subscriptions import normalize_subscriptions, subscription_key

__all__ = ["MessageExplanation", "explain_message"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MessageExplanation:
    """Each subscription's answer on one message of a table, and why (see `explain_message`).

    ``deliveries``: subscription name → `Delivery` (``.value``, ``.reasons``, ``str()`` the trace);
    ``errors``: subscription name → why its selector cannot be evaluated on this table (invalid,
    or it does not bind). ``str()`` lists every subscription with its answer and first reason, then
    the traces of those that do not receive the message.

    Examples
    --------
    >>> from jms_selector_spark import explain_delivery
    >>> m = MessageExplanation("ID:1", "JMSMessageID",
    ...                        {"heavy": explain_delivery("weight > 2500", properties={"weight": 3000})})
    >>> m.receivers
    ['heavy']
    >>> print(str(m))
    message JMSMessageID = 'ID:1': selected by 1 of 1 subscription(s)
      yes  heavy
    """

    message_id: object
    id_column: str
    deliveries: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)

    @property
    def receivers(self) -> list:
        """The subscriptions whose selector is TRUE on the message."""
        return [name for name, d in self.deliveries.items() if d.delivered]

    def __str__(self) -> str:
        total = len(self.deliveries) + len(self.errors)
        lines = [f"message {self.id_column} = {self.message_id!r}: selected by {len(self.receivers)} of {total} "
                 f"subscription(s)"]
        for name, d in self.deliveries.items():
            if d.delivered:
                lines.append(f"  yes  {name}")
            else:
                first = d.reasons[0].text if d.reasons else ""
                more = f" (+{len(d.reasons) - 1} more)" if len(d.reasons) > 1 else ""
                lines.append(f"  no   {name}: {'UNKNOWN' if d.value is None else 'FALSE'} - {first}{more}")
        for name, err in self.errors.items():
            lines.append(f"  err  {name}: {err}")
        for name, d in self.deliveries.items():
            if not d.delivered:
                lines += ["", f"{name}:", str(d)]
        return "\n".join(lines)


def explain_message(messages, subscriptions, message_id, *, dialect: "str | Dialect" = "jms",
                    id_column: str = "JMSMessageID", **binding) -> MessageExplanation:
    """For one message of a table, every subscription's answer and why.

    Parameters
    ----------
    messages : DataFrame
        The messages, in any layout `jms_filter` reads (``headers=``, ``properties=``… as there).
    subscriptions
        As for `route`: ``{name: selector}``, a list of selectors, `Subscription` objects, or a
        DataFrame with ``name`` and ``selector`` columns. Only the selectors count here: routing
        rules (lifetimes, queues, dead letters) are `route`'s.
    message_id
        The value of ``id_column`` of the message (the first row with it, when several have it).
    dialect : str or Dialect, default "jms"
    id_column : str, default "JMSMessageID"

    Returns
    -------
    MessageExplanation

    Raises
    ------
    LookupError
        No row has ``id_column = message_id``.
    ValueError
        The table has no column ``id_column``.

    Examples
    --------
    >>> df = spark.createDataFrame([("ID:1", "car", 3000, None)],  # doctest: +SKIP
    ...                            "JMSMessageID string, JMSType string, weight long, color string")
    >>> print(explain_message(df, {"heavy": "weight > 2500", "blue": "color = 'blue'"}, "ID:1"))  # doctest: +SKIP
    message JMSMessageID = 'ID:1': selected by 1 of 2 subscription(s)
      yes  heavy
      no   blue: UNKNOWN - `color` is NULL → `color = 'blue'` is UNKNOWN
    ...
    """
    from pyspark.sql import functions as F

    d = get_dialect(dialect)
    if id_column not in messages.columns:
        raise ValueError(f"the messages have no column {id_column!r} (columns: {messages.columns}); "
                         "pass id_column=")
    compiled, errors = {}, {}
    for i, s in enumerate(normalize_subscriptions(subscriptions)):
        key = subscription_key(s, i)
        try:
            compiled[key] = compile_selector(s.selector or "", messages.schema, dialect=d, **binding)
        except SelectorError as e:
            errors[key] = f"{type(e).__name__}: {e}"
    columns = list(dict.fromkeys(col for c in compiled.values() for col in c.bound.source_columns()))
    table = (messages.where(F.col(id_column) == F.lit(message_id)).select(*(F.col(f"`{c}`") for c in columns),
                                                                         F.col(f"`{id_column}`").alias("__jms_id"))
             .limit(2).toArrow())
    if table.num_rows == 0:
        raise LookupError(f"no message with {id_column} = {message_id!r}")
    if table.num_rows > 1:
        log.warning("several messages have %s = %r; explaining the first", id_column, message_id)
    row = table.slice(0, 1).drop_columns(["__jms_id"]).to_struct_array() if columns else None
    deliveries = {}
    for key, c in compiled.items():
        values = _row_values(c.bound.refs, row) if row is not None else {}
        deliveries[key] = explain_values(c.selector, values)
    return MessageExplanation(message_id, id_column, deliveries, errors)


def _row_values(refs, row) -> dict:
    """Each name's `TypedValue` (or None) in the one-row struct array ``row``; a name the table
    cannot hold is left out (missing)."""
    from ..backends.arrow.columns import extract_columns  # pyarrow: imported when a row is read

    out = {}
    for name, col in extract_columns(refs, row).items():
        entries = col.items() if isinstance(col, dict) else [col]
        value = None
        for t, arr in entries:
            v = arr[0].as_py()
            if v is not None:
                value = TypedValue(t, v)
                break
        out[name] = value
    return out

