"""Which callees the calls scope compiles, and what Dynamo starts on ([Note: calls scope] in calls.py).

``compile_target(obj)`` is the rule: ``(what Dynamo starts on, why)`` for an ``nn.Module``, a function or method of
the user's, or a callable object of a class of theirs, and ``(None, why not)`` for everything that runs plain
(classes, builtins, library code, ``torch._dynamo.disable``d functions, coroutine and generator functions). A
callable the user already compiled is followed to its original. The cell's scope
decision (``cell.py``), the calls scope (``calls.CallCompiler``) and the eager baseline (``baseline.py``) ask it.
"""

from __future__ import annotations

import functools
import inspect
import os
import sysconfig
import types
from typing import Any

import torch

from .summary import RUNS_PLAIN
from .user_code import is_user_file

__all__ = ["ALREADY_COMPILED", "compile_target", "read_attribute"]


def _orig_of_compiled(obj: Any) -> Any | None:
    """The callable the user passed to ``torch.compile``, when ``obj`` is its result."""
    if isinstance(obj, torch._dynamo.eval_frame.OptimizedModule):
        return obj._orig_mod
    orig = getattr(obj, "_torchdynamo_orig_callable", None)
    return orig if orig is not None and orig is not obj else None


ALREADY_COMPILED = "already wrapped with torch.compile"


def compile_target(obj: Any) -> tuple[Any | None, str]:
    """``(what Dynamo starts on, why)``, or ``(None, why not)`` for a callee that runs plain."""
    if getattr(obj, "_torchdynamo_disable", False):
        return None, "disabled with torch._dynamo.disable"
    orig = _orig_of_compiled(obj)
    if orig is not None:
        target, why = compile_target(orig)
        if target is None and RUNS_PLAIN in why:
            return None, why  # a coroutine or generator the user compiled: still never handed to Dynamo
        return (target if target is not None else orig), ALREADY_COMPILED
    if isinstance(obj, torch.nn.Module):
        if "_compiled_call_impl" in obj.__dict__ and obj.__dict__["_compiled_call_impl"] is not None:
            return obj, f"{ALREADY_COMPILED} (model.compile())"
        return obj, "an nn.Module"
    if isinstance(obj, type):
        return None, "a class (construction runs plain)"
    fn = obj.__func__ if isinstance(obj, types.MethodType) else obj
    if isinstance(fn, types.FunctionType):
        chain = _wrapped_chain(fn)
        if any(is_user_file(f.__code__.co_filename) for f in chain):
            never = next((r for f in chain if (r := _never_compiled(f)) is not None), None)
            if never is not None:
                return None, never
            if _in_stdlib(fn.__code__.co_filename):  # @contextmanager, singledispatch, a ContextDecorator's inner
                return None, (
                    f"a function of yours wrapped by the standard library ({fn.__module__}.{fn.__qualname__}): {RUNS_PLAIN}"
                )
            # a decorated one too (@torch.no_grad(), functools.wraps)
            return obj, "a method of a class you defined" if isinstance(obj, types.MethodType) else "a function you defined"
        return None, f"library code ({fn.__module__ or fn.__code__.co_filename})"
    call = getattr(type(obj), "__call__", None)  # noqa: B004 - the function itself, to see where it is defined
    if isinstance(call, types.FunctionType) and is_user_file(call.__code__.co_filename):
        never = _never_compiled(call)
        if never is not None:
            return None, never
        return obj.__call__, "a callable object of a class you defined"
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType, types.MethodWrapperType)):
        return None, "a builtin (C) function"
    return None, "library code"


_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep


def _in_stdlib(filename: str) -> bool:
    return os.path.realpath(filename).startswith(_STDLIB) and "site-packages" not in filename


def _never_compiled(fn: types.FunctionType) -> str | None:
    """Why a function of the user's is never handed to Dynamo itself, or None."""
    if inspect.iscoroutinefunction(fn):
        kind = "a coroutine function (async def)"
    elif inspect.isasyncgenfunction(fn):
        kind = "an async generator function"
    elif inspect.isgeneratorfunction(fn):
        kind = "a generator function"
    else:
        return None
    return (
        f"{kind}: {RUNS_PLAIN} (the explorer never hands a coroutine or generator function to "
        "torch.compile: on a coroutine torch 2.13 fails at the first await and can crash the process)"
    )


def _wrapped_chain(fn: Any) -> list[Any]:
    """``fn`` and the functions it wraps (``__wrapped__``, as ``functools.wraps`` and torch's decorators set)."""
    chain: list[Any] = []
    while isinstance(fn, types.FunctionType) and len(chain) < 16:
        chain.append(fn)
        fn = getattr(fn, "__wrapped__", None)
    return chain


def read_attribute(obj: Any, name: str, call: Any) -> Any:
    """``obj.<name>`` as Python reads it, where the user's function behind it runs through ``call(getter)`` (the calls
    scope's compiled wrapper): a ``property``'s getter, or a ``functools.cached_property``'s function when the value
    is not cached yet (it is then stored where ``cached_property`` stores it), of a class of the user's. Anything else
    (an instance attribute, a library's property, a class with its own ``__getattribute__``) is read plainly."""
    klass = type(obj)
    if klass.__getattribute__ is not object.__getattribute__:
        return getattr(obj, name)
    try:
        found = inspect.getattr_static(klass, name)
    except AttributeError:
        return getattr(obj, name)
    if (
        isinstance(found, property)
        and found.fget is not None
        and is_user_file(getattr(found.fget, "__code__", None) and found.fget.__code__.co_filename)
    ):
        return call(types.MethodType(found.fget, obj))()
    if isinstance(found, functools.cached_property) and is_user_file(found.func.__code__.co_filename):
        cached = getattr(obj, "__dict__", None)
        key = found.attrname or name
        if isinstance(cached, dict) and key not in cached:
            value = call(types.MethodType(found.func, obj))()
            cached[key] = value  # what cached_property.__get__ does with the value
            return value
    return getattr(obj, name)


def _users(fn: Any) -> bool:
    """Is ``fn`` a Python function of the user's?"""
    code = getattr(fn, "__code__", None)
    return isinstance(code, types.CodeType) and is_user_file(code.co_filename)
