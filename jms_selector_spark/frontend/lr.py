"""A compact driver for the LALR tables PLY builds (``ply.yacc``), used by `parser`.

PLY's own loop (``LRParser.parseopt_notrack``) creates a symbol object per token and per reduction,
and calls a Python action for every production, also for the unit productions the layered
grammar is full of (``additive_expression : multiplicative_expression`` …: six of every ten
reductions of a typical selector). This driver runs the very same tables (``action``, ``goto``,
``productions``), with these differences, none visible to the grammar:

- a *unit* production whose action only passes its operand's value on (`UNIT_ACTIONS`) is reduced
  without calling it;
- the grammar's actions see a `Production`: ``p[i]``, ``p[0] = value``, ``len(p)``,
  ``p.lexpos(i)`` (0 for a nonterminal, as PLY's untracked mode answers);
- there is no error recovery: the grammar's ``p_error`` raises (a selector has no ``error``
  productions), and if it returns, `SelectorSyntaxError` is raised here.
"""
from __future__ import annotations

from ..language.errors import SelectorSyntaxError
from ..language.source import Span

__all__ = ["LRTables", "Production", "UNIT_ACTIONS"]

#: Names of the grammar actions that are exactly ``p[0] = p[1]`` (a unit production's value is its
#: operand's): reduced by the driver without a call.
UNIT_ACTIONS = frozenset({"p_selector", "p_pass", "p_arithmetic_pass", "p_unary_pass", "p_primary_literal"})


class Production:
    """What a grammar action sees of the production being reduced (PLY's ``YaccProduction``
    interface, the part the grammar uses)."""

    __slots__ = ("values", "positions")

    def __init__(self, values: list, positions: list):
        self.values, self.positions = values, positions

    def __getitem__(self, i):
        return self.values[i]

    def __setitem__(self, i, value):
        self.values[i] = value

    def __len__(self):
        return len(self.values)

    def lexpos(self, i) -> int:
        return self.positions[i]


class _End:
    """The end-of-input lookahead."""

    type = "$end"
    value = None
    lexpos = 0


_END = _End()


class LRTables:
    """PLY's tables for one grammar object, ready to parse token streams (not thread-safe: one
    parse at a time, as `parser` holds its lock)."""

    __slots__ = ("action", "goto", "productions", "error", "chains")

    def __init__(self, ply_parser, grammar):
        self.action = ply_parser.action
        self.goto = ply_parser.goto
        # (nonterminal, length, action or None for a unit production)
        self.productions = [(p.name, p.len, None if p.func in UNIT_ACTIONS and p.len == 1 else p.callable)
                            for p in ply_parser.productions]
        self.error = grammar.p_error
        #: (state below, state, lookahead) -> the state a run of unit reductions ends in
        #: (`_unit_chain`), filled as parses meet them: a pure function of the tables.
        self.chains: dict = {}

    def _unit_chain(self, below: int, state: int, kind: str) -> int:
        """The state reached from ``state`` (just pushed on ``below``) by the unit reductions the
        lookahead ``kind`` calls for: a unit production pops one state and pushes one, so the
        state below stays ``below`` all along the run."""
        while True:
            t = self.action[state].get(kind)
            if t is None or t >= 0 or self.productions[-t][2] is not None:
                return state
            state = self.goto[below][self.productions[-t][0]]

    def parse(self, next_token):
        """The value of the start symbol for the tokens ``next_token()`` returns (None at the end)."""
        action, goto, productions, chains = self.action, self.goto, self.productions, self.chains
        states, values, positions = [0], [None], [0]
        state = 0
        look = next_token() or _END
        kind = look.type
        while True:
            t = action[state].get(kind)
            if t is None:
                self.error(None if look is _END else look)
                raise SelectorSyntaxError(f"unexpected {kind}", "", Span(look.lexpos, look.lexpos))
            if t > 0:  # shift; the next token is always read before the next action
                states.append(t)
                values.append(look.value)
                positions.append(look.lexpos)
                state = t
                look = next_token() or _END
                kind = look.type
                continue
            if t == 0:  # accept
                return values[-1]
            name, length, act = productions[-t]
            if act is None:  # a unit production: the value stays where it is, the state is replaced
                below = states[-2]
                key = (below, state, kind)
                end = chains.get(key)
                if end is None:
                    end = chains[key] = self._unit_chain(below, goto[below][name], kind)
                state = states[-1] = end
                positions[-1] = 0
                continue
            if length:
                p = Production([None, *values[-length:]], [0, *positions[-length:]])
                act(p)
                del states[-length:], values[-length:], positions[-length:]
            else:
                p = Production([None], [0])
                act(p)
            values.append(p.values[0])
            positions.append(0)
            state = goto[states[-1]][name]
            states.append(state)
