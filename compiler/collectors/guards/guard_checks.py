"""One old cache entry's guards read against the values of the call that recompiles ([Note: every failing guard] in
``collectors/guards/guard_failures.py``): a leaf's code parts split into check and comment, the tensor check's properties,
a check evaluated in the guard's scope (``L``, ``G``, Dynamo's helpers) or its source path stepped value by value,
values shown short; ``Call`` holds the call's values and each check's result, read once for every entry.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import json
import math
import re
import types
import weakref
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import torch

from ...model import GuardFailure
from . import guard_failures_torch
from .guards import user_line

__all__ = ["REASON_WORDS", "Call", "Leaf", "entry_leaves", "show", "split_part"]

#: ``check_tensor(L['x'], Tensor, DispatchKeySet(CPU, ...), torch.float32, device=None, requires_grad=False,
#: size=[2, 3], stride=[3, 1])``, as ``guards.get_tensor_guard_code_part`` writes it.
_TENSOR = re.compile(
    r"^check_tensor\((?P<name>.+), (?P<type>[\w.]+), (?P<dispatch_keys>DispatchKeySet\([^)]*\)), "
    r"(?P<dtype>[\w.]+), device=(?P<device>[^,]+), requires_grad=(?P<requires_grad>\w+), "
    r"size=(?P<size>\[[^\]]*\]), stride=(?P<stride>\[[^\]]*\])\)$"
)
_TENSOR_PROPERTIES = ("type", "dispatch_keys", "dtype", "device", "requires_grad", "size", "stride")
#: Dynamo's words for a tensor property in its reason (``tensor 'x' dtype mismatch``).
REASON_WORDS = {
    "type": "type mismatch",
    "dispatch_keys": "dispatch key set mismatch",
    "dtype": "dtype mismatch",
    "device": "device mismatch",
    "requires_grad": "requires_grad mismatch",
    "size": "size mismatch",
    "stride": "stride mismatch",
}
#: the guarded value's type Dynamo writes after an id check: ``, type=<class 'int'>`` after a type-id check (2.11,
#: 2.13); 2.11 also writes it after an object-id check, the object's repr: ``, type=<built-in method relu of ...>``
_TYPE_SUFFIX = re.compile(r", type=<(?:class '(?P<type>[^']*)'|[^<>]*)>$")
_HINT = re.compile(r" \(HINT: .*\)$")
_CHECK_ID = re.compile(r"^___check_(?P<kind>obj|type)_id\((?P<source>.+), (?P<id>\d+)\)$")
_FLIP = {ast.Lt: ">", ast.LtE: ">=", ast.Gt: "<", ast.GtE: "<=", ast.Eq: "==", ast.NotEq: "!="}
_OP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not"}


_MISSING = object()


class _Unreadable(Exception):
    """A check whose value could not be read: it no longer exists (``L['xs'][2]`` of a shorter list)."""


class _NotPython(Exception):
    """A check only Dynamo's C++ guard runs: its text is a description (``... ids == None``) or calls a helper
    that is not in the scope (``___check_torch_function_mode_stack()``)."""


def split_part(part: str) -> tuple[str, str]:
    """A verbose code part as ``(check, comment)``: ``L['n'] == 2    # y = x * n  # f.py:3 in f`` gives
    ``("L['n'] == 2", "y = x * n  # f.py:3 in f")``; a hint without a comment is dropped from the check."""
    check, sep, comment = part.partition("  # ")
    check = check.rstrip()
    if not sep:
        check = _HINT.sub("", check)
    return check, comment


@lru_cache(maxsize=4096)
def _tensor_text(check: str) -> re.Match[str] | None:
    """A TENSOR_MATCH check parsed (an old entry's check is read again at each later recompile of its code)."""
    return _TENSOR.match(check)


@lru_cache(maxsize=16384)
def _compiled(check: str) -> types.CodeType:
    return compile(check, "<guard>", "eval")


def _eval(check: str, scope: tuple[dict[str, Any], Mapping[str, Any]]) -> Any:
    try:
        code = _compiled(check)
    except SyntaxError as exc:
        raise _NotPython(check) from exc
    try:
        return eval(code, scope[0], scope[1])  # type: ignore[arg-type]  # Dynamo's own guard code, Dynamo's way
    except NameError as exc:
        raise _NotPython(check) from exc
    except Exception as exc:  # any failure to read the value
        raise _Unreadable(check) from exc


#: The name a guarded value takes in a check once its source is read ([Note: every failing guard]).
_V = "___value"
#: A step of a source that is plain attribute and item access: ``._modules['0']._parameters['weight']``, ``[2]``.
_STEP = re.compile(r"\.([A-Za-z_]\w*)|\['((?:[^'\\]|\\.)*)'\]|\[(-?\d+)\]")


def _step(parent: Any, suffix: str, globals_: dict[str, Any]) -> Any:
    """``parent`` followed along ``suffix``: attribute and item access done directly (what Dynamo's guard
    accessors do), anything else evaluated as ``___value<suffix>``."""
    pos, value = 0, parent
    steps = []
    while pos < len(suffix):
        m = _STEP.match(suffix, pos)
        if m is None or "\\" in m.group(0):  # not plain access, or an escaped key: Python reads it
            return _eval(_V + suffix, (globals_, {_V: parent}))
        steps.append(m)
        pos = m.end()
    try:
        for m in steps:
            attr, key, index = m.groups()
            if attr is not None:
                value = getattr(value, attr)
            elif key is not None:
                value = value[key]
            else:
                value = value[int(index)]
    except Exception as exc:  # the value is gone (a shorter list, a removed attribute)
        raise _Unreadable(suffix) from exc
    return value


def show(value: Any, limit: int = 120) -> str:
    """A value as a person reads it: a function or class by its qualified name, a tensor by its dtype and size,
    an ``nn.Module`` by its class, anything else by ``repr`` (cut at ``limit`` characters)."""
    if isinstance(value, torch.Tensor):
        return f"{type(value).__name__}(dtype={value.dtype}, size={list(value.size())}, device={value.device})"
    if isinstance(value, torch.nn.Module):
        return f"{type(value).__qualname__} module"
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if callable(value):
        builtin = isinstance(value, types.BuiltinFunctionType)  # torch.relu's __qualname__ names a private class
        name = getattr(value, "__name__" if builtin else "__qualname__", None) or getattr(value, "__name__", None)
        module = getattr(value, "__module__", None)
        if isinstance(name, str):
            return f"{module}.{name}" if isinstance(module, str) and module not in ("builtins", "__main__") else name
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _type_name(t: Any) -> str:
    module = getattr(t, "__module__", "builtins")
    name = getattr(t, "__qualname__", str(t))
    return name if module == "builtins" else f"{module}.{name}"


def _is_constant(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


#: One leaf guard prepared once per cache entry: (kind, source, its verbose code parts, each part as
#: (check, comment), the type its value had at compile time).
Leaf = tuple[str, str, list[str], list[tuple[str, str]], Any]
_LEAVES: weakref.WeakKeyDictionary[Any, list[Leaf]] = weakref.WeakKeyDictionary()


def entry_leaves(guard_manager: Any) -> list[Leaf]:
    """The leaves of an entry's guard tree with their parts split, read once per entry (an entry is explained
    again at every later recompile of its code)."""
    try:
        return _LEAVES[guard_manager]
    except (KeyError, TypeError):
        pass
    leaves = [
        (k, s, parts, [split_part(p) for p in parts], t) for k, s, parts, t in guard_failures_torch.guard_leaves(guard_manager)
    ]
    with contextlib.suppress(TypeError):  # not weakly referable: read each time
        _LEAVES[guard_manager] = leaves
    return leaves


class Call:
    """The values of the call that recompiles, shared by every old cache entry Dynamo explains for it (it
    explains them one after the other, with the same frame locals): each source is read once and each check
    evaluated once, however many entries hold it. Keep it only while Dynamo explains that call."""

    def __init__(self, guard_manager: Any, f_locals: dict[str, object], filename: str) -> None:
        self.f_locals = f_locals
        self.scope = guard_failures_torch.guard_scope(guard_manager, f_locals)
        self.filename = filename
        self.id_matched: list[Any] = []
        self.values: dict[str, Any] = {}  # source -> its value, or the _Unreadable it raised
        #: (kind, source, check) -> its failures, or the error that kept it from being evaluated
        self.results: dict[tuple[str, str, str], list[tuple[str | None, str, str | None]] | type[Exception]] = {}
        self.lines: dict[str, int | None] = {}  # a guard's comment -> its user line
        self.tensors: dict[str, re.Match[str] | None] = {}  # source -> its check_tensor(...) text now, parsed
        self.with_value: dict[str, Any] = dict(self.scope[1])  # the scope with ___value, the value being checked

    def serves(self, guard_manager: Any, f_locals: dict[str, object], filename: str) -> bool:
        """Is this the same call (the same locals and globals) seen through another entry of the same code?"""
        return (
            f_locals is self.f_locals
            and filename == self.filename
            and (guard_manager.global_scope or {}).get("G") is self.scope[1].get("G")
        )

    def line(self, comment: str) -> int | None:
        if comment not in self.lines:
            self.lines[comment] = user_line(comment, self.filename) if comment else None
        return self.lines[comment]

    def value(self, source: str) -> Any:
        """The value of a source (``L['self']._modules['0']._parameters['weight']``), read once and from its
        longest source prefix read before when there is one (the tree reads a parent before its children): a
        check compiles only the step (``___value._parameters['weight']``), which recurs, not the whole path."""
        if source in self.values:
            found = self.values[source]
            if isinstance(found, _Unreadable):
                raise found
            return found
        value: Any = _MISSING
        for cut in range(len(source) - 1, 0, -1):
            if source[cut] in ".[" and source[:cut] in self.values:
                parent = self.values[source[:cut]]
                if isinstance(parent, _Unreadable):  # its parent is gone: so is it
                    self.values[source] = parent
                    raise parent
                # a step that needs a helper, or a cut inside a call: the whole path is read below
                with contextlib.suppress(_NotPython):
                    value = _step(parent, source[cut:], self.scope[0])
                break
        try:
            if value is _MISSING:
                value = _eval(source, self.scope)
        except _Unreadable as exc:
            self.values[source] = exc
            raise
        self.values[source] = value
        return value

    def holds(self, code: str, source: str) -> Any:
        """Evaluate ``code`` with its source's value read once (``L['n'] == 2`` as ``___value == 2``)."""
        if source and source in code:
            self.with_value[_V] = self.value(source)
            return _eval(code.replace(source, _V), (self.scope[0], self.with_value))
        return _eval(code, self.scope)

    def leaf(self, leaf: Leaf) -> tuple[list[GuardFailure], int]:
        """The failures of one leaf guard, and how many of its checks could not be read."""
        kind, source, _, parts, compiled_type = leaf
        out: list[GuardFailure] = []
        unreadable = 0
        for check, comment in parts:
            key = (kind, source, check)
            found = self.results.get(key)
            if found is None:
                try:
                    found = self._check(kind, check, source, compiled_type)
                except (_Unreadable, _NotPython) as exc:
                    found = type(exc)
                self.results[key] = found
            if not isinstance(found, list):  # _NotPython: Dynamo's own check still names it if it fails first
                unreadable += found is _Unreadable
                continue
            for prop, expected, actual in found:
                out.append(
                    GuardFailure(
                        guard_type=kind,
                        source=source,
                        property=prop,
                        check=check,
                        expected=expected,
                        actual=actual,
                        line=self.line(comment),
                        in_reason=False,
                    )
                )
        return out, unreadable

    def _check(self, kind: str, check: str, source: str, compiled_type: Any) -> list[tuple[str | None, str, str | None]]:
        """``(property, expected, actual)`` of each way ``check`` fails now; [] when it holds."""
        if kind == "TENSOR_MATCH":
            return self._tensor(check)
        if kind == "GLOBAL_STATE":
            return self._global_state(check)
        typed = _TYPE_SUFFIX.search(check)
        code = check[: typed.start()] if typed else check
        m = _CHECK_ID.match(code)
        if m:
            return self._check_id(m, typed.group("type") if typed else None, compiled_type)
        result = self.holds(code, source)
        if isinstance(result, str):  # a helper that explains itself, as ___check_tensors did
            return [(None, code, result)]
        try:
            holds = bool(result)
        except Exception:  # noqa: BLE001 - no truth (``L['k'] == 3`` on a tensor): the check does not hold for it
            holds = False
        return [] if holds else [(None, *self._describe(code))]

    def _tensor(self, check: str) -> list[tuple[str | None, str, str | None]]:
        expected = _tensor_text(check)
        if expected is None:  # not the text this torch writes
            raise _NotPython(check)
        name = expected.group("name")
        value = self.value(name)
        if not isinstance(value, torch.Tensor):
            return [("type", expected.group("type"), _type_name(type(value)))]
        if name not in self.tensors:  # one tensor, many entries: its own text is written once
            self.tensors[name] = _TENSOR.match(guard_failures_torch.tensor_check(value, name))
        actual = self.tensors[name]
        if actual is None:
            raise _NotPython(check)
        out: list[tuple[str | None, str, str | None]] = []
        for prop in _TENSOR_PROPERTIES:
            want, got = expected.group(prop), actual.group(prop)
            if prop in ("size", "stride"):
                dims_want, dims_got = want[1:-1].split(", "), got[1:-1].split(", ")
                same = len(dims_want) == len(dims_got) and all(w in ("None", g) for w, g in zip(dims_want, dims_got, strict=True))
            else:
                same = want == got
            if not same:
                out.append((prop, want, got))
        return out

    def _global_state(self, check: str) -> list[tuple[str | None, str, str | None]]:
        _, sep, blob = check.partition(" against ")
        if not sep:
            raise _NotPython(check)
        try:
            was = json.loads(blob)
            now = guard_failures_torch.global_state_now()
        except Exception as exc:  # another torch's blob
            raise _NotPython(check) from exc
        return [
            (key, json.dumps(value), json.dumps(now.get(key)) if key in now else None)
            for key, value in was.items()
            if now.get(key) != value
        ]

    def _check_id(self, m: re.Match[str], type_text: str | None, compiled_type: Any) -> list[tuple[str | None, str, str | None]]:
        value = self.value(m.group("source"))
        want = int(m.group("id"))
        if m.group("kind") == "type":
            if id(type(value)) == want:
                return []
            name = type_text or (_type_name(compiled_type) if compiled_type is not None else f"type id {want:#x}")
            return [(None, name, _type_name(type(value)))]
        if id(value) == want:
            return []
        known = self._by_id(want)
        kind = type_text or (_type_name(compiled_type) if compiled_type is not None else "object")
        expected = f"{show(known)} (id {want:#x})" if known is not None else f"the {kind} with id {want:#x}"
        return [(None, expected, f"{show(value)} (id {id(value):#x})")]

    def _by_id(self, want: int) -> Any:
        """The live object an ID_MATCH expects, when it is one Dynamo kept (an ``nn.Module`` local), a global of
        the frame or a name of torch, ``torch.nn.functional``, ``math`` or the builtins; else None. Only the
        names of live objects are compared, never an address read back."""
        for obj in self.id_matched:
            if obj is not None and id(obj) == want:
                return obj
        spaces = [self.scope[1].get("G") or {}, vars(torch), vars(torch.nn.functional), vars(math), vars(builtins)]
        for space in spaces:
            for obj in list(space.values()) if isinstance(space, dict) else []:
                if id(obj) == want:
                    return obj
        return None

    def _describe(self, code: str) -> tuple[str, str | None]:
        """``(expected, actual)`` of a failing check: the constant side of a comparison as expected and the
        value of the other side as actual (``len(L['xs']) == 2`` -> ``2``, ``3``); else the check itself and
        the values it reads."""
        try:
            node = ast.parse(code, mode="eval").body
        except SyntaxError:
            return code, None
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right, op = node.left, node.comparators[0], type(node.ops[0])
            left_const, right_const = _is_constant(left), _is_constant(right)
            if right_const and not left_const:
                subject, word, const = left, _OP.get(op), right
            elif left_const and not right_const and op in _FLIP:
                subject, word, const = right, _FLIP[op], left
            else:
                values = [f"{ast.unparse(n)} = {show(_eval(ast.unparse(n), self.scope))}" for n in (left, right)]
                return code, "; ".join(values)
            value = show(_eval(ast.unparse(subject), self.scope))
            shown = ast.unparse(const)
            return (shown if word in ("==", "is") else f"{word} {shown}"), value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):  # `not L['items']`: it was empty
            value = _eval(ast.unparse(node.operand), self.scope)
            try:
                return "empty", f"{type(value).__name__} of length {len(value)}"
            except TypeError:
                return "falsy", show(value)
        return code, None
