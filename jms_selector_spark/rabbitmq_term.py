"""A selector as the Erlang term RabbitMQ's JMS topic exchange evaluates.

The RabbitMQ JMS client does not send the exchange the selector's text: it parses it, type-checks
it and compiles it to an Erlang term (``SqlCompilerVisitor``), passed as the binding argument
``rjms_erlang_selector`` of a queue bound to an ``x-jms-topic`` exchange; the exchange's
``sjx_evaluator`` evaluates that term against each message's AMQP headers. `to_rabbitmq_term` is
that compiler, for applications that bind queues without the JMS client (any AMQP 0-9-1 client can
bind with the argument and publish with typed headers).

It reads selectors the way the client does (the ``rabbitmq-jms`` dialect's grammar:
`frontend.rabbitmq_client`), so a selector the client rejects is rejected here with the same
`SelectorError`, and the term keeps the client's shapes: right-nested ``and``/``or`` and
arithmetic, a sign as ``{'-', X}``, ``{'like', X, Pattern, no_escape | Escape}``, string lists
for IN, ``'is_null'``/``'not_null'``, ``'not_like'``/``'not_in'``/``'not_between'``. Doubles are
printed as Java's ``Double.toString`` prints them (the shortest form, JDK 19 and later); an older
JDK's digits differ only where both read back as the same double.

It needs no Spark: the front end, and Java's ``Double.toString`` (`semantics.javanum`).
"""
from __future__ import annotations

from .language import nodes as n
from .frontend.rabbitmq_client import reads_as_the_client
from .frontend.selector import Selector
from .parsing import as_selector
from .semantics.javanum import java_double_str
from .language.types import JmsType

__all__ = ["to_rabbitmq_term"]

_OPS = {n.CompareOp.EQ: "=", n.CompareOp.NE: "<>", n.CompareOp.LT: "<", n.CompareOp.GT: ">",
        n.CompareOp.LE: "<=", n.CompareOp.GE: ">=", n.ArithOp.PLUS: "+", n.ArithOp.MINUS: "-",
        n.ArithOp.TIMES: "*", n.ArithOp.DIVIDE: "/", n.UnaryOp.PLUS: "+", n.UnaryOp.MINUS: "-"}


def to_rabbitmq_term(selector: "str | Selector", *, dialect: str = "rabbitmq-jms") -> "str | None":
    """The ``rjms_erlang_selector`` binding argument the RabbitMQ JMS client sends for ``selector``.

    Parameters
    ----------
    selector : str or Selector
        The selector text, or a `Selector` parsed with a dialect that reads selectors as the
        RabbitMQ JMS client does.
    dialect : str or Dialect, default "rabbitmq-jms"
        Such a dialect (`Dialect.rabbitmq_client_grammar`): ``"rabbitmq-jms"``, the JMS client with
        the JMS topic exchange. ``"rabbitmq"`` (the broker's AMQP 1.0 SQL filter) takes selector
        text, not a term, and is refused.

    Returns
    -------
    str or None
        The term, ending with ``.`` as the exchange reads it; None for an empty or blank selector
        (no selector: the client binds the queue without one).

    Raises
    ------
    SelectorSyntaxError, SelectorTypeError
        The client rejects the selector (its tokenizer, grammar or type checker).
    ValueError
        ``dialect`` does not read selectors as the RabbitMQ JMS client does.

    See Also
    --------
    jms_selector_spark.evaluate : the same selector evaluated with ``dialect="rabbitmq-jms"``.

    Examples
    --------
    1. A comparison, as in the exchange's own tests:

    >>> print(to_rabbitmq_term("colour = 'blue'"))
    {'=',{'ident',<<"colour">>},<<"blue">>}.

    2. The client's shapes: right-nested arithmetic, signs and LIKE with its escape:

    >>> print(to_rabbitmq_term("a - b - 2 > -1.5 AND s LIKE 'x!_%' ESCAPE '!'"))
    {'and',{'>',{'-',{'ident',<<"a">>},{'-',{'ident',<<"b">>},2}},{'-',1.5}},{'like',{'ident',<<"s">>},<<"x!_%">>,<<"!">>}}.

    3. What the client rejects is rejected here:

    >>> to_rabbitmq_term("JMSPriority = 'high'")
    Traceback (most recent call last):
      ...
    jms_selector_spark.language.errors.SelectorTypeError: a number cannot be compared with a string (RabbitMQ JMS client) at line 1, column 1
      JMSPriority = 'high'
      ^^^^^^^^^^^^^^^^^^^^
    """
    parsed = as_selector(selector, dialect)
    if not reads_as_the_client(parsed.dialect):
        raise ValueError(f"the {parsed.dialect.name!r} dialect does not read selectors as the RabbitMQ JMS client"
                         " does; only such a dialect (rabbitmq-jms) has an Erlang term")
    if parsed.root is None:
        return None
    return _term(parsed.root) + "."


def _term(node: n.Node) -> str:
    t = type(node)
    if t is n.Literal:
        return _literal(node)
    if t is n.Identifier:
        return "{'ident'," + _binary(node.name) + "}"
    if t in (n.And, n.Or):
        left, right = node.operands
        return "{'" + ("and" if t is n.And else "or") + "'," + _term(left) + "," + _term(right) + "}"
    if t is n.Not:
        return "{'not'," + _term(node.operand) + "}"
    if t in (n.Comparison, n.Arithmetic):
        return "{'" + _OPS[node.op] + "'," + _term(node.left) + "," + _term(node.right) + "}"
    if t is n.Unary:
        return "{'" + _OPS[node.op] + "'," + _term(node.operand) + "}"
    if t is n.Between:
        op = "not_between" if node.negated else "between"
        return "{'" + op + "'," + ",".join(map(_term, (node.operand, node.low, node.high))) + "}"
    if t is n.IsNull:
        return "{'" + ("not_null" if node.negated else "is_null") + "'," + _term(node.operand) + "}"
    if t is n.InList:
        values = "[" + ",".join(_binary(v.value) for v in node.values) + "]"
        return "{'" + ("not_in" if node.negated else "in") + "'," + _term(node.operand) + "," + values + "}"
    if t is n.Like:
        escape = "'no_escape'" if node.escape is None else _binary(node.escape)
        return ("{'" + ("not_like" if node.negated else "like") + "'," + _term(node.operand) + ","
                + _binary(node.pattern) + "," + escape + "}")
    raise TypeError(f"not a node of the RabbitMQ JMS client's grammar: {node!r}")


def _literal(node: n.Literal) -> str:
    if node.type is JmsType.BOOLEAN:
        return "'true'" if node.value else "'false'"
    if node.type is JmsType.STRING:
        return _binary(node.value)
    if node.type is JmsType.DOUBLE:
        return java_double_str(node.value)
    return str(node.value)


def _binary(text: str) -> str:
    """An Erlang binary literal: ``"`` and ``\\`` escaped with a backslash, as the client writes it."""
    return '<<"' + text.replace("\\", "\\\\").replace('"', '\\"') + '">>'
