"""A cache's ``guard_miss`` explained: the guards of the entry torch tried (``cache_status_guard_expr``) evaluated
against this compile's hints, the conjuncts that are false named in the frame's own symbols.

[Note: a guard miss] FX graph and AOTAutograd cache entries of a graph with dynamic shapes keep the shape guards they
were compiled under, as Python over ``L['t0']``, ``L['t1']``, ... (``ShapeEnv.produce_guards_expression``: ``t<i>``
is the i-th backed ``SymInt`` among the graph's example inputs). A lookup evaluates them with the current hints and
misses with ``guard_miss`` when none holds; the trace keeps the last entry's expression, never the hints. The hints
are this compile's symbols (``create_symbol``'s values: ``report.symbols``), and ``t<i>``'s symbol is read from the
record's own components (``example_inputs[k]: ('s77',)``, inductor's always; AOTAutograd's on torch 2.15 use
placeholder names such as ``s_0``, no symbol) or else from the frame's Dynamo graph (its ``Sym`` placeholders, in
order: AOTAutograd's inputs are that graph's). The expression is parsed, never ``eval``-ed (a trace is data): only
arithmetic, comparisons, ``and``/``or``/``not`` and the functions torch's ``PythonPrinter`` writes are evaluated; a
conjunct with anything else is left unevaluated, said so by ``failed`` being ``None`` when none could be.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["GuardCheck", "check", "input_symbols"]

_T = re.compile(r"""L\[(['"])t(\d+)\1\]""")
_SYMBOL_INPUT = re.compile(r"""^\(['"](?P<name>[A-Za-z_]\w*)['"],?\)$""")
#: the largest exponent or base a ``**`` is evaluated with (a guard's numbers are sizes)
_POW_LIMIT = (64, 2**64)

_BIN: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Div: operator.truediv,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}
_CMP: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_CALLS: dict[str, Callable[..., Any]] = {  # what torch's PythonPrinter writes (torch/utils/_sympy/printers.py)
    "abs": abs,
    "max": max,
    "min": min,
    "int": int,
    "float": float,
    "round": round,
    "math.floor": math.floor,
    "math.ceil": math.ceil,
    "math.trunc": math.trunc,
    "math.sqrt": math.sqrt,
    "torch.sym_float": float,
    "torch._sym_sqrt": math.sqrt,
}
_CONSTANTS = {"math.inf": math.inf, "math.nan": math.nan}


class _Unknown(Exception):
    """A part of the expression this evaluator does not evaluate."""


@dataclass(slots=True)
class GuardCheck:
    """An entry's guards against this compile's hints."""

    #: the expression with each ``L['t<i>']`` written as its symbol where known
    expr: str
    #: the hints of the symbols the expression names (those with one)
    hints: dict[str, int]
    #: the conjuncts that are false for the hints, in the expression's words; ``[]``: every conjunct it could
    #: evaluate holds; ``None``: none could be evaluated
    failed: list[str] | None


def input_symbols(components: dict[str, tuple[str, str]], symbols: set[str]) -> list[str]:
    """``t<i>``'s symbol for each i, from a record's ``example_inputs[k]`` components (``('s77',)``: a SymInt input),
    when each names one of the frame's symbols; ``[]`` otherwise."""
    out = []
    for name, (_hash, text) in components.items():
        if not name.startswith("example_inputs["):
            continue
        m = _SYMBOL_INPUT.match(text.strip())
        if m is None:
            continue
        if m.group("name") not in symbols:  # AOTAutograd's own names (s_0, torch 2.15), an unbacked u0
            return []
        out.append(m.group("name"))
    return out


def check(expr: str, names: list[str], hints: dict[str, int]) -> GuardCheck:
    """``expr`` (torch's, over ``L['t<i>']``) with ``t<i>`` as ``names[i]`` evaluated with ``hints`` (by symbol),
    conjunct by conjunct."""
    shown = _T.sub(lambda m: _name(names, int(m.group(2))) or m.group(0), expr)
    try:
        tree = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        return GuardCheck(shown, {}, None)
    parts = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    values: dict[int, int] = {}
    for i, name in enumerate(names):
        if name in hints:
            values[i] = hints[name]
    failed: list[str] = []
    evaluated = False
    for part in parts:
        try:
            holds = bool(_eval(part, values))
        except (_Unknown, ArithmeticError, ValueError, TypeError, OverflowError):
            continue
        evaluated = True
        if not holds:
            text = ast.get_source_segment(expr.strip(), part) or ast.unparse(part)
            failed.append(_T.sub(lambda m: _name(names, int(m.group(2))) or m.group(0), text))
    used = {_name(names, int(m.group(2))) for m in _T.finditer(expr)}
    return GuardCheck(shown, {n: hints[n] for n in names if n in used and n in hints}, failed if evaluated else None)


def _name(names: list[str], i: int) -> str | None:
    return names[i] if i < len(names) else None


def _eval(node: ast.AST, values: dict[int, int]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):  # bool is an int
        return node.value
    if isinstance(node, ast.Subscript):
        m = _T.fullmatch(ast.unparse(node))
        if m is None or int(m.group(2)) not in values:
            raise _Unknown
        return values[int(m.group(2))]
    if isinstance(node, ast.BoolOp):
        results = [bool(_eval(v, values)) for v in node.values]
        return all(results) if isinstance(node.op, ast.And) else any(results)
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, values)
        if isinstance(node.op, ast.Not):
            return not operand
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return +operand
        return ~int(operand)
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, values), _eval(node.right, values)
        if isinstance(node.op, ast.Pow):
            if abs(right) > _POW_LIMIT[0] or abs(left) > _POW_LIMIT[1]:
                raise _Unknown
            return left**right
        fn = _BIN.get(type(node.op))
        if fn is None:
            raise _Unknown
        return fn(left, right)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, values)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            cmp = _CMP.get(type(op))
            if cmp is None:  # is, in
                raise _Unknown
            right = _eval(comparator, values)
            if not cmp(left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call) and not node.keywords:
        fn = _CALLS.get(ast.unparse(node.func))
        if fn is None:
            raise _Unknown
        return fn(*(_eval(a, values) for a in node.args))
    if isinstance(node, ast.Attribute) and ast.unparse(node) in _CONSTANTS:
        return _CONSTANTS[ast.unparse(node)]
    raise _Unknown
