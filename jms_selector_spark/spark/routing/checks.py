"""What a broker refuses of well-formed subscriptions: reported, never raised, the rest still route.

A NULL or empty name, a name used twice other than as versions (`versions.version_errors`), a
kind that does not fit the route's mode, a selector on a Direct-transport subscription where the
rule set refuses it (R13) — and, per dialect, an invalid selector (R17).
"""
from __future__ import annotations

from ...language.dialects import Dialect, get_dialect
from ...language.errors import SelectorError
from ...parsing import parse
from .rules import RoutingRules, resolve_rules
from .subscriptions import normalize_subscriptions, subscription_key
from .versions import version_errors

__all__ = ["check_mode", "check_subscriptions", "subscription_errors"]


def check_subscriptions(subs: list, mode: str, rules: RoutingRules):
    """(subscriptions that can be created, {key: error}) — every check but the selector's."""
    errors = {}
    versions = version_errors(subs)  # a name used more than once: the versions of one subscription
    want_kinds = ("topic",) if mode == "topic" else ("queue", "exclusive_queue")
    ok = []
    for i, s in enumerate(subs):
        key = subscription_key(s, i)
        kind = s.kind or ("topic" if mode == "topic" else "queue")
        if s.name is None or not s.name.strip():
            errors[key] = f"subscription #{i + 1} has no name ({s.name!r}): not created"
        elif s.name in versions:
            errors[key] = versions[s.name]
        elif kind not in want_kinds:
            errors[key] = f"kind {kind!r} is not a {mode} subscription (route mode={mode!r})"
        elif s.transport == "direct" and rules.direct_selectors == "refused" and (s.selector or "").strip():
            errors[key] = f"a selector on a Direct-transport subscription is refused ({rules.why('direct_selectors')})"
        else:
            ok.append(s)
    if mode == "queue" and ok:
        first = ok[0].kind or "queue"
        for s in ok[1:]:
            if (s.kind or "queue") != first:
                errors[s.name] = (f"kind {(s.kind or 'queue')!r} on a queue whose first consumer {ok[0].name!r} is "
                                  f"{first!r}: one queue is shared or exclusive")
        ok = [s for s in ok if s.name not in errors]
    return ok, errors


def check_mode(mode):
    """``ValueError`` unless ``mode`` is ``"topic"`` or ``"queue"``."""
    if mode not in ("topic", "queue"):
        raise ValueError(f"mode must be 'topic' or 'queue', not {mode!r}")


def subscription_errors(subscriptions, *, dialect: "str | Dialect" = "jms", mode: str = "topic",
                        routing: "str | RoutingRules | None" = None) -> dict:
    """{subscription name (``#position`` when it has none): error} for the subscriptions `route`
    does not create: invalid selector (with position), NULL/empty name, a name repeated other than
    as valid versions (`jms_selector_spark.spark.routing.versions.version_errors`), a selector
    on Direct transport where the rule set refuses it, a kind that does not fit ``mode``."""
    check_mode(mode)
    d = get_dialect(dialect)
    subs = normalize_subscriptions(subscriptions)
    ok, out = check_subscriptions(subs, mode, resolve_rules(routing, d))
    for s in ok:
        try:
            if s.selector is not None:
                parse(s.selector, dialect=d)
        except SelectorError as exc:
            out[s.name] = f"{type(exc).__name__}: {exc}"
    return out
