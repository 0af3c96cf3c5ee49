"""AND / OR for the Spark SQL back end: the core's `KleeneAnd`/`KleeneOr` and
`LeftFirstAnd`/`LeftFirstOr` (`core`).

`SqlLogic` is a part of `sql.generator.SparkSqlGenerator` (a mixin: it uses the generator's
``_shared``). Kleene AND/OR are Spark's own. ActiveMQ r450141's left-first AND/OR (WSO2) have
exact Spark forms that keep what can push down:

- AND is the first operand that is not TRUE. Kleene AND gives that except when a NULL comes
  before a FALSE, so each later operand is ORed with "an earlier one is NULL":
  ``a AND (b OR a IS NULL) AND (c OR a IS NULL OR b IS NULL)``. The first conjunct stays plain.
  Operands that cannot be NULL need no test; a long operand read twice is bound once (`_shared`).
- OR is TRUE when any operand is, else the last operand: ``coalesce(a, FALSE) OR … OR z``.
"""
from __future__ import annotations

from .render import NULL_BOOL, V, and_, bool_v, or_

__all__ = ["SqlLogic"]


class SqlLogic:
    """The AND/OR renderings of `sql.generator.SparkSqlGenerator`; each returns a `V`."""

    def _logic_and(self, parts, left_first: bool) -> V:
        if not left_first:
            return and_(parts)
        kept = []
        for p in parts:
            if p.lit is True:
                continue
            kept.append(p)
            if p.sql in ("FALSE", NULL_BOOL):
                break  # what follows is never read
        if len(kept) < 2 or not any(p.nullable for p in kept[:-1]):
            return and_(kept)

        def make(*ps):
            pieces, earlier = [], []
            for p in ps:
                tests = [f"{e.op()} IS NULL" for e in earlier]
                pieces.append(bool_v("(" + " OR ".join([p.op()] + tests) + ")", p.nullable, True) if tests else p)
                if p.nullable:
                    earlier.append(p)
            return and_(pieces)

        return self._shared(make, *kept)

    def _logic_or(self, parts, left_first: bool) -> V:
        if not left_first:
            return or_(parts)
        head = [bool_v(f"coalesce({p.sql}, FALSE)", False, True) if p.nullable else p
                for p in parts[:-1] if p.sql != NULL_BOOL]
        return or_(head + [parts[-1]])
