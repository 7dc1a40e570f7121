"""What the calls scope does at each call of a callee, held without the callee ([Note: nothing of the user's held]).

``Plan``: what a callee's calls do (run plain, as the user's own compile, handed to a thread, or compiled through one
wrapper per function called with the object first), decided at its first call by ``calls.CallCompiler``; the plan
cache's keys (``plan_key``, ``anchored``), and what a compiled call goes through (``module_call``, ``instance``,
``unbound_function``, ``target_of``).
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from .calls_torch import in_optimized_module

__all__ = ["Plan", "anchored", "forget", "instance", "module_call", "plan_key", "target_of", "unbound_function"]

# [Note: nothing of the user's held] The calls scope compiles a callee once per run, as ``torch.compile(callee)``
# does, and holds nothing of the user's to do so: a model, an object and the ``self`` of a bound method are never
# kept. Each compiled wrapper is made once per *function* (a method's, a class's ``__call__``; for an ``nn.Module``
# its class's ``__call__``, the very ``_wrapped_call_impl`` frame ``torch.compile(model)`` starts on) and called
# with the instance first, so Dynamo evaluates the same frame, with the same locals, as it would for the bound call,
# and its cache entries (which live on the code) are the same. What a callee's calls do (its ``Plan``) is decided at
# its first call and kept under a weak reference to the callee (a module, an object), or under the function and
# class it stands for (a function, a method: a function of the user's lives as long as its module or class). A
# function with a closure is never kept (its cells may hold a model); neither is a module Dynamo wraps differently
# (a lazy module, one whose ``forward`` Dynamo skips): those get a wrapper of their own at each call.


@dataclass(frozen=True, slots=True)
class Plan:
    """What a callee's calls do, and why: run ``plain``, run as the user's ``own`` compile made it, hand a callable
    to a ``thread``, or run ``compiled`` through ``wrapper`` (the function's compiled wrapper, called with the instance
    first when ``bound``; None: a wrapper of its own at each call, of ``target(callee)``)."""

    kind: str
    why: str  # the callee row's ``why``
    settings: dict[str, Any] | None = None  # the options it compiles with (``Callee.compile``)
    wrapper: Any = None
    bound: bool = False
    module: bool = False  # an ``nn.Module``: called as ``OptimizedModule`` calls it
    target: Callable[[Any], Any] | None = None
    api: tuple[str, int, str | None] | None = None


def plan_key(callee: Any) -> tuple[Any, tuple[Any, ...] | None]:
    """``(key, anchors)`` of the plan cache: anchors are the objects the key stands for (held; None: the callee,
    held weakly); ``(None, None)``: planned at each call."""
    if isinstance(callee, types.FunctionType):
        if callee.__closure__:
            return ("f", id(callee)), None
        return ("f", id(callee)), (callee,)
    if isinstance(callee, types.MethodType):
        fn, owner = callee.__func__, type(callee.__self__)
        if getattr(fn, "__closure__", None):
            return None, None
        return ("m", id(fn), id(owner)), (fn, owner)
    return ("o", id(callee)), None


def anchored(held: Any, anchors: tuple[Any, ...] | None, callee: Any) -> bool:
    """Is the cached plan's ``held`` (anchors, or a weak reference to its callee) the current callee's?"""
    if anchors is None:
        return isinstance(held, weakref.ref) and held() is callee
    return isinstance(held, tuple) and len(held) == len(anchors) and all(a is b for a, b in zip(held, anchors, strict=True))


def forget(plans: dict[Any, Any], key: Any, _ref: Any) -> None:
    """A weakly held callee's plan goes with it."""
    plans.pop(key, None)


def module_call(wrapper: Any, module: Any, *args: Any, **kwargs: Any) -> Any:
    """A module's call through its class's compiled ``__call__``, in the context ``torch.compile(model)``'s
    ``OptimizedModule`` calls it in."""
    __tracebackhide__ = True
    with in_optimized_module():
        return wrapper(module, *args, **kwargs)


def instance(callee: Any) -> Any:
    """What a compiled function is called with first: a bound method's ``self``, a module or object itself."""
    return callee.__self__ if isinstance(callee, types.MethodType) else callee


def unbound_function(callee: Any, target: Any) -> Any:
    """The function whose one compiled wrapper serves ``callee`` (called with its instance first when it is not
    ``target`` itself), or None when ``callee`` needs a wrapper of its own at each call."""
    if isinstance(target, torch.nn.Module):
        # what OptimizedModule does otherwise: a lazy module's parameters first, or a forward Dynamo skips wrapped
        forward = getattr(target, "forward", None)
        if (
            torch._dynamo.config.wrap_top_frame
            or hasattr(target, "_initialize_hook")
            or (isinstance(forward, types.MethodType) and torch._dynamo.trace_rules.check(forward))
        ):
            return None
        fn = type(target).__call__  # the function: one wrapper for every instance
        return fn if isinstance(fn, types.FunctionType) else None
    fn = target.__func__ if isinstance(target, types.MethodType) else target
    if not isinstance(fn, types.FunctionType) or fn.__closure__:
        return None
    return fn


def target_of(itself: bool) -> Callable[[Any], Any]:
    """What a callee with a wrapper of its own at each call is compiled as: itself, or its ``__call__``."""
    return (lambda callee: callee) if itself else (lambda callee: callee.__call__)
