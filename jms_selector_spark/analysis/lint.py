"""`lint`: what is legal in a selector but probably not what its author meant.

A linted selector is valid (an invalid one raises its `SelectorError`, caret included); each
warning is a `LintWarning` with a code, a message, the selector and a `Span`, rendered with the
same caret as errors::

    >>> for w in lint("JMSType = car AND a = 1 -- note"):
    ...     print(w)
    warning [header-vs-property] at line 1, column 11: JMSType is compared with car, a property name (NULL unless messages carry a property 'car'); a string is written 'car'
      JMSType = car AND a = 1 -- note
                ^^^
    warning [double-minus] at line 1, column 25: '--' is two minus signs in the jms dialect (1 - (-note)), not a comment
      JMSType = car AND a = 1 -- note
                              ^^

The checks are small functions over one `_Context` (`CHECKS`); a later check, such as a target
broker's rules, is one more function appended there. Without a schema only the
selector's text and tree are looked at; with one (a Spark StructType or ``{column: type}``) the
selector is bound as `jms_filter` would bind it, and the checks also see where each name lives:

- ``header-vs-property``: a header compared with a bare name (``JMSType = car``);
- ``double-minus``: ``--`` read as two minus signs (``jms``; in ``activemq`` only when no line
  break follows, else it is a comment);
- ``string-numeric``: a string property (every ``MAP<STRING,STRING>`` value is one) compared or
  computed with a number: FALSE (UNKNOWN when absent) on every message, by the JMS type rules;
- ``missing-property`` / ``missing-header``: a name the table cannot hold (always NULL);
- ``shadowed-column``: with a properties column, a top-level column named like a property, which
  is not what the selector reads;
- ``decimal-range``: a ``DECIMAL(p, 0)`` column with p > 18 read as a long: a value beyond the
  Java long range is NULL;
- ``length``: a selector within 10 % of the default length limit (`parser.MAX_LENGTH`, 65,536
  characters), or over it (parsed with a larger ``max_length``);
- for the IBM targets (`lint_ibm`): ``zero-id-wildcard``, ``constant-false``,
  ``extended-literal`` (ibmmq) and MQe's exact types (``mqe-literal-type``,
  ``mqe-header-type``, ``mqe-delivery-mode``).
- the target brokers' checks of `lint_wso2_solace` (``ignored-text``, ``fixed-header``,
  ``ne-missing``, ``not-filtered``, ``non-kleene``, ``alias``, ``broker-length``: any dialect's byte limit, IBM MQ's and RabbitMQ's too).

This module only reads: it uses `parse`, `binder.bind` and the dialect tables, never a back end,
and imports no Spark.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..language import nodes as n
from ..compiler import Compiled, compile_selector
from ..language.dialects import Dialect
from ..frontend.lexer import CONVERT_PREFIX, double_minus_positions
from .lint_ibm import IBM_CHECKS
from .lint_wso2_solace import CHECKS as _TARGET_CHECKS
from ..semantics.decisions import Order
from ..semantics.lowering import rules_for
from ..frontend.parser import MAX_LENGTH
from ..frontend.selector import Selector
from ..parsing import as_selector
from ..language.source import Located, Span, render_caret
from ..language.types import JmsType

__all__ = ["LintWarning", "lint", "CHECKS", "CONVERT_STRING_PREFIX"]

#: ActiveMQ's selector prefix that makes string properties compare as numbers (the lexer's).
CONVERT_STRING_PREFIX = CONVERT_PREFIX


@dataclass(frozen=True)
class LintWarning(Located):
    """One finding: ``code`` (stable, for filtering), ``message``, and where (``span``)."""

    code: str
    message: str
    selector: str
    span: Span

    def __str__(self) -> str:
        return (f"warning [{self.code}] at line {self.line}, column {self.column}: {self.message}\n"
                f"{render_caret(self.selector, self.span)}")


@dataclass
class _Context:
    """What the checks read: the selector, its parents map, and (with a schema) its binding."""

    selector: Selector
    schema: object = None
    bound: object = None  # BoundSelector, when a schema was given
    fields: dict = field(default_factory=dict)  # top-level column -> data type
    property_types: dict = field(default_factory=dict)
    parents: dict = field(default_factory=dict)  # id(node) -> parent node

    @property
    def text(self) -> str:
        return self.selector.text

    @property
    def dialect(self) -> Dialect:
        return self.selector.dialect

    def warn(self, code, message, span) -> LintWarning:
        return LintWarning(code, message, self.text, span)


# -- checks ---------------------------------------------------------------------------------------

def _check_double_minus(ctx: _Context):
    """``--`` lexed as two minus signs (``a = 1 -- note``), found by the selector's own lexer."""
    text, d = ctx.text, ctx.dialect
    positions, has_comments = double_minus_positions(text, d)
    for i in positions:
        rest = text[i + 2:].split(None, 1)[0] if text[i + 2:].strip() else ""
        left = _leading_operand(text, i)
        why = ("not a comment" if not has_comments
               else "a comment only when a line break ends it, and none follows")
        shown = f" ({left} - (-{rest}))" if left and rest and len(left + rest) <= 40 else ""
        yield ctx.warn("double-minus", f"'--' is two minus signs in the {d.name} dialect{shown}, {why}",
                       Span(i, i + 2))


def _leading_operand(text: str, i: int) -> str:
    """The token just before position ``i`` (for the message), or ''."""
    j = i
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    k = j
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_$.'"):
        k -= 1
    return text[k:j]


def _check_header_vs_property(ctx: _Context):
    """``JMSType = car``: a header compared with a bare property name, probably meant as a string."""
    d = ctx.dialect
    for node in n.walk(ctx.selector.root):
        if not isinstance(node, n.Comparison):
            continue
        sides = (node.left, node.right)
        if not all(isinstance(s, n.Identifier) for s in sides):
            continue
        headers = [s for s in sides if d.header_for(s.name) is not None]
        props = [s for s in sides if d.header_for(s.name) is None]
        if len(headers) != 1 or len(props) != 1:
            continue
        prop = props[0]
        if ctx.bound is not None and ctx.bound.refs[prop.name].access == "column":
            continue  # the table has such a column or field: comparing two columns is deliberate
        yield ctx.warn(
            "header-vs-property",
            f"{headers[0].name} is compared with {prop.name}, a property name (NULL unless messages carry a "
            f"property {prop.name!r}); a string is written {_quote(prop.name)}",
            prop.span,
        )


def _quote(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _static_type(ctx: _Context, node) -> "JmsType | None":
    if isinstance(node, n.Literal):
        return node.type
    if isinstance(node, n.Identifier) and ctx.bound is not None:
        return ctx.bound.refs[node.name].type
    if isinstance(node, (n.Arithmetic, n.Unary)):
        return JmsType.DOUBLE  # numeric (or, in activemq, a string concatenation: see below)
    return None


def _numeric_use(ctx: _Context, ident: n.Identifier) -> "n.Node | None":
    """The node that uses ``ident`` as a number, if any."""
    parent = ctx.parents.get(id(ident))
    if isinstance(parent, n.Comparison):
        other = parent.right if parent.left is ident else parent.left
        rules = rules_for(ctx.dialect)
        if (isinstance(other, n.Arithmetic) and other.op is n.ArithOp.PLUS
                and rules.arithmetic(n.ArithOp.PLUS, JmsType.STRING, JmsType.STRING) is JmsType.STRING):
            return None  # a string concatenation (ActiveMQ)
        t = _static_type(ctx, other)
        if t is JmsType.STRING and rules.compare(n.CompareOp.LT, JmsType.STRING, JmsType.STRING) is not Order.FALSE:
            return None  # ActiveMQ orders two strings lexically
        if parent.op.is_ordering or (t is not None and t.is_numeric):
            return parent
    if isinstance(parent, n.Between):
        return parent
    if isinstance(parent, n.Unary):
        return parent
    if isinstance(parent, n.Arithmetic):
        if (parent.op is n.ArithOp.PLUS
                and rules_for(ctx.dialect).arithmetic(n.ArithOp.PLUS, JmsType.STRING, JmsType.STRING) is JmsType.STRING):
            return None
        return parent
    return None


def _check_string_numeric(ctx: _Context):
    """A string property used as a number: FALSE (UNKNOWN when absent) on every message."""
    if ctx.bound is None or rules_for(ctx.dialect).converts_strings:
        return
    d = ctx.dialect
    seen = set()
    for node in n.walk(ctx.selector.root):
        if not isinstance(node, n.Identifier) or node.name in seen:
            continue
        ref = ctx.bound.refs[node.name]
        if ref.type is not JmsType.STRING or ref.header or node.name in ctx.property_types:
            continue
        use = _numeric_use(ctx, node)
        if use is None:
            continue
        seen.add(node.name)
        if ref.access == "map":
            where = f"every value of the MAP<STRING,STRING> column {ref.path[0]!r} is a string"
            fix = (f"; declare its type with property_types={{{node.name!r}: 'long'}} (converted as JMS "
                   "getLongProperty does)")
        else:
            where = f"{node.name!r} is a string column"
            fix = ""
        if d.name == "activemq" or "activemq" in d.name:
            fix += f", or prefix the selector with ActiveMQ's {CONVERT_STRING_PREFIX!r}"
        yield ctx.warn(
            "string-numeric",
            f"{node.name} is used as a number but {where}: by the JMS type rules this is FALSE on every "
            f"message (UNKNOWN where it is absent){fix}",
            use.span,
        )


def _case_twin(name: str, names) -> "str | None":
    low = name.lower()
    for other in names:
        if other != name and other.lower() == low:
            return other
    return None


def _check_missing(ctx: _Context):
    """A name the table cannot hold: NULL on every message."""
    if ctx.bound is None:
        return
    props = ctx.fields.get(ctx.bound.binding.properties)
    layout_names = list(ctx.fields)
    where = "the table has no such column"
    if props is not None and props.typeName() == "struct":
        layout_names = [f.name for f in props.fields]
        where = f"the struct column {ctx.bound.binding.properties!r} has no such field"
    for name, ref in ctx.bound.refs.items():
        if ref.access != "missing":
            continue
        span = _first_span(ctx.selector, name)
        if ref.header:
            header = ctx.dialect.header_for(name)
            column = ctx.bound.binding.column_of(header)
            yield ctx.warn("missing-header",
                           f"header {header} reads column {column!r}, which the table does not have: NULL on "
                           f"every message (map it with headers={{{header!r}: '<column>'}})", span)
            continue
        twin = _case_twin(name, layout_names)
        hint = f"; did you mean {twin!r}? (names are case-sensitive)" if twin else ""
        yield ctx.warn("missing-property",
                       f"property {name!r} cannot be held by this table ({where}): NULL on every message{hint}",
                       span)


def _check_shadowed_column(ctx: _Context):
    """With a properties column, a top-level column named like a property is not what is read."""
    if ctx.bound is None:
        return
    props = ctx.bound.binding.properties
    if props not in ctx.fields:
        return
    for name, ref in ctx.bound.refs.items():
        if ref.header or name == props or name not in ctx.fields:
            continue
        yield ctx.warn("shadowed-column",
                       f"{name!r} is read from the properties column {props!r}, not from the top-level column "
                       f"{name!r} (with a properties column, top-level columns are not properties)",
                       _first_span(ctx.selector, name))


def _check_decimal_range(ctx: _Context):
    """A DECIMAL(p, 0) with p > 18 read as a Java long: values beyond the long range are NULL."""
    if ctx.bound is None:
        return
    for name, ref in ctx.bound.refs.items():
        if ref.conversion != "decimal" or ref.type is not JmsType.LONG:
            continue
        dt = _data_type(ctx, ref.path)
        precision = getattr(dt, "precision", None)
        if precision is None or precision <= 18:
            continue
        yield ctx.warn(
            "decimal-range",
            f"{name!r} is a DECIMAL({precision},0) column, read as a Java long: a value beyond "
            f"-9223372036854775808..9223372036854775807 is NULL (UNKNOWN in the selector)",
            _first_span(ctx.selector, name),
        )


def _check_length(ctx: _Context):
    """Near or over the default length limit: one more IN item makes the text invalid, and the
    entry points that parse text themselves (`route`, `jms_match`) use the default limit."""
    size, span = len(ctx.text), Span(0, len(ctx.text))
    if size > MAX_LENGTH:
        yield ctx.warn("length", f"the selector is {size:,} characters, over the default limit of {MAX_LENGTH:,}: "
                       "pass this parsed Selector, not its text (route, register's jms_match and "
                       "subscription tables parse text with the default limit)", span)
    elif size > 0.9 * MAX_LENGTH:
        yield ctx.warn("length", f"the selector is {size:,} characters, close to the limit of {MAX_LENGTH:,} "
                       "(parse(text, max_length=N) takes a larger one)", span)


#: The checks, in order; each takes a `_Context` and yields `LintWarning`s. The target brokers'
#: checks are in `lint_ibm` (IBM MQ, MQe) and `lint_wso2_solace` (WSO2, Solace, byte limits).
CHECKS = (_check_double_minus, _check_header_vs_property, _check_string_numeric, _check_missing,
          _check_shadowed_column, _check_decimal_range, _check_length) + IBM_CHECKS + _TARGET_CHECKS


# -- helpers ----------------------------------------------------------------------------------------

def _first_span(selector: Selector, name: str) -> Span:
    for node in n.walk(selector.root):
        if isinstance(node, n.Identifier) and node.name == name:
            return node.span
    return Span(0, 0)


def _data_type(ctx: _Context, path: tuple):
    dt = ctx.fields.get(path[0]) if path else None
    for part in path[1:]:
        if dt is None:
            return None
        dt = {f.name: f.dataType for f in dt.fields}.get(part)
    return dt


def _parents(root) -> dict:
    parents = {}
    for node in n.walk(root):
        for child in n.children(node):
            parents[id(child)] = node
    return parents


def lint(selector, dialect: "str | Dialect | None" = None, schema=None, **binding) -> "list[LintWarning]":
    """Warnings about what is legal in ``selector`` but probably not meant.

    Parameters
    ----------
    selector : str, Selector or Compiled
        A `Compiled` (`compile_selector`) is linted against the table it was compiled for.
    dialect : str or Dialect, optional
        The dialect of a selector given as text (default ``"jms"``); a `Selector` keeps its own
        (a different ``dialect`` raises ``ValueError``).
    schema : Spark StructType or dict, optional
        The table the selector will run on (``df.schema``, or ``{column: jms type}`` for a flat
        table). With it, names are bound as `jms_filter` binds them and the schema checks run
        (missing properties, string properties used as numbers, wide DECIMALs).
    **binding
        ``headers=``, ``properties=`` (and ``property_types=``), as for `jms_filter`.

    Returns
    -------
    list of LintWarning
        By position in the selector; empty when nothing looks wrong.

    Raises
    ------
    SelectorError
        The selector is invalid (the same error, caret included, as `parse`), or a name cannot be
        bound to ``schema`` at all (`SelectorBindingError`).

    Examples
    --------
    >>> [w.code for w in lint("qty > 4", schema={"qty": "string"})]
    ['string-numeric']
    >>> lint("JMSType = 'car'")
    []
    """
    if isinstance(selector, Compiled):
        compiled = None if selector.assumed_schema is not None else selector
        sel = selector.selector
    else:
        sel = as_selector(selector, dialect)
        compiled = None if schema is None or sel.root is None else compile_selector(
            sel, schema, collisions="caller", warn=False, **binding)
    if sel.root is None:
        return []
    ctx = _Context(sel, None if compiled is None else compiled.schema, parents=_parents(sel.root))
    if compiled is not None:
        ctx.property_types = dict(compiled.binding.property_types)
        ctx.bound = compiled.bound
        ctx.fields = compiled.schema.field_types()
    out = []
    for check in CHECKS:
        out.extend(check(ctx))
    return sorted(out, key=lambda w: w.span.start)

