"""Scope ``calls``: ``torch.compile`` on each function and ``nn.Module`` the cell calls, nothing else.

Holds ``compile_target`` (the rule: which callees
are compiled and what object Dynamo starts on) and ``CallCompiler`` (the ``__dynamo_call__`` the
rewritten cell calls at run time, with the record of what it compiled and what it ran plain).

[Note: calls scope] ``cell.prepare`` rewrites every call of the cell's own scope (not inside ``def``,
``class`` or ``lambda``) ``f(args)`` into ``__dynamo_call__(f, 'f', line)(args)``; the callee expression is
evaluated once, in the original order. At run time the callee is compiled when it is
- an ``nn.Module`` instance (any, a library model included), as ``torch.compile(model)`` does;
- a Python function or bound method whose code lives outside the installed libraries;
- an object of such a class with its own ``__call__``.
A function the user already wrapped with ``torch.compile`` is compiled from its original callable with
the run's options. Everything else runs as plain Python: classes (construction), builtins, library
functions and methods (``model.generate``, ``opt.step``, ``loss.backward``), ``torch._dynamo.disable``d
functions. The wrapper is ``torch._dynamo.optimize(...)(callee)``, the very call ``torch.compile``
makes, built once per callee per run, so Dynamo starts exactly where ``torch.compile(callee)`` starts
and compiles what it would compile from there (resume functions, frames run after a break or skip).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from .cell import CALL_NAME, is_user_file
from .reset import code_of, forget_memory

__all__ = ["CALL_NAME", "CallCompiler", "compile_target"]


def _orig_of_compiled(obj: Any) -> Any | None:
    """The callable the user passed to ``torch.compile``, when ``obj`` is its result."""
    if isinstance(obj, torch._dynamo.eval_frame.OptimizedModule):
        return obj._orig_mod
    orig = getattr(obj, "_torchdynamo_orig_callable", None)
    return orig if orig is not None and orig is not obj else None


def compile_target(obj: Any) -> tuple[Any | None, str]:
    """``(what Dynamo starts on, why)``, or ``(None, why not)`` for a callee that runs plain."""
    if getattr(obj, "_torchdynamo_disable", False):
        return None, "disabled with torch._dynamo.disable"
    orig = _orig_of_compiled(obj)
    if orig is not None:
        target, _ = compile_target(orig)
        return (
            target if target is not None else orig
        ), "already wrapped with torch.compile: its original is compiled with this run's options"
    if isinstance(obj, torch.nn.Module):
        return obj, "an nn.Module"
    if isinstance(obj, type):
        return None, "a class (construction runs plain)"
    fn = obj.__func__ if isinstance(obj, types.MethodType) else obj
    if isinstance(fn, types.FunctionType):
        if any(is_user_file(f.__code__.co_filename) for f in _wrapped_chain(fn)):
            return obj, "a function you defined"  # a decorated one too (@torch.no_grad(), functools.wraps)
        return None, f"library code ({fn.__module__ or fn.__code__.co_filename})"
    call = getattr(type(obj), "__call__", None)  # noqa: B004 - the function itself, to see where it is defined
    if isinstance(call, types.FunctionType) and is_user_file(call.__code__.co_filename):
        return obj.__call__, "a callable object of a class you defined"
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType, types.MethodWrapperType)):
        return None, "a builtin (C) function"
    return None, "library code"


@dataclass
class CallCompiler:
    """``__dynamo_call__(callee, text, line)``: the compiled wrapper of ``callee``, or ``callee`` itself."""

    optimize: Callable[[Any], Any]
    #: ``--fresh``: forget the automatic-dynamic memory of each callee's code before it first compiles
    fresh: bool = False
    #: ``--compare-eager``: times each compiled callee's calls ([Note: eager baseline] in baseline.py)
    timer: Any = None
    compiled: dict[str, tuple[int, str]] = field(default_factory=dict)  # text -> (first line, why)
    plain: dict[str, tuple[int, str]] = field(default_factory=dict)
    _wrappers: dict[tuple[int, int], tuple[Any, Any]] = field(default_factory=dict)

    def __call__(self, callee: Any, text: str, line: int) -> Any:
        key = _identity(callee)
        hit = self._wrappers.get(key)
        if hit is not None and _same(hit[0], callee):
            return hit[1]
        target, why = compile_target(callee)
        if target is None:
            self.plain.setdefault(text, (line, why))
            self._wrappers[key] = (callee, callee)
            return callee
        if self.fresh:
            code = code_of(target)
            if code is not None:
                forget_memory(code)
        wrapper = self.optimize(target)
        if self.timer is not None:
            wrapper = self.timer.wrap(text, line, wrapper)
        self.compiled.setdefault(text, (line, why))
        self._wrappers[key] = (callee, wrapper)
        return wrapper

    def callees(self) -> list[dict[str, Any]]:
        """The report's ``callees``: every distinct callee in first-call order."""
        rows = [{"name": t, "line": ln, "compiled": True, "why": why} for t, (ln, why) in self.compiled.items()]
        rows += [
            {"name": t, "line": ln, "compiled": False, "why": why}
            for t, (ln, why) in self.plain.items()
            if t not in self.compiled
        ]
        return sorted(rows, key=lambda r: r["line"])

    def summary(self) -> str:
        """For ``scope_reason``: which callees were compiled, which ran plain."""
        parts = []
        if self.compiled:
            parts.append(
                "compiled with torch.compile: " + ", ".join(f"{t} (line {ln}, {why})" for t, (ln, why) in self.compiled.items())
            )
        else:
            parts.append("no call compiled anything")
        lib = {t: v for t, v in self.plain.items() if "library" in v[1]}
        if lib:
            shown = list(lib.items())[:6]
            more = f" and {len(lib) - len(shown)} more" if len(lib) > len(shown) else ""
            parts.append(
                "ran as plain Python: "
                + ", ".join(f"{t} (line {ln})" for t, (ln, _) in shown)
                + more
                + " (wrap a call in a function you define to compile it)"
            )
        return "; ".join(parts)


def _wrapped_chain(fn: Any) -> list[Any]:
    """``fn`` and the functions it wraps (``__wrapped__``, as ``functools.wraps`` and torch's decorators set)."""
    chain: list[Any] = []
    while isinstance(fn, types.FunctionType) and len(chain) < 16:
        chain.append(fn)
        fn = getattr(fn, "__wrapped__", None)
    return chain


def _identity(obj: Any) -> tuple[int, int]:
    """A bound method is a new object on every attribute access: key it by (self, function)."""
    if isinstance(obj, types.MethodType):
        return id(obj.__self__), id(obj.__func__)
    return id(obj), 0


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, types.MethodType) and isinstance(b, types.MethodType):
        return a.__self__ is b.__self__ and a.__func__ is b.__func__
    return a is b
