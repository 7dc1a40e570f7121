"""Scope ``calls``: ``torch.compile`` on each function and ``nn.Module`` the cell calls, nothing else.

Holds ``CallCompiler`` (the ``__dynamo_call__`` the
rewritten cell calls at run time, with the record of what it compiled and what it ran plain).

[Note: calls scope] ``cell.prepare`` rewrites every call of the cell's own scope (not inside ``def``,
``class`` or ``lambda``) ``f(args)`` into ``__dynamo_call__(f, 'f', line)(args)``; the callee expression is
evaluated once, in the original order. At run time the callee is compiled when it is
- an ``nn.Module`` instance (any, a library model included), as ``torch.compile(model)`` does;
- a Python function or bound method whose code lives outside the installed libraries (a method of a
  class the user defined, ``cfg.apply``, ``Svc().run``, included);
- an object of such a class with its own ``__call__``.
A callable the user already compiled (``torch.compile(fn, ...)``, ``model.compile(...)``) runs as the user compiled
it, and its compiles are watched ([Note: watch scope]); the callee row keeps the options the user gave it
(``calls_torch.UserCompile``); ``--override-compile-options`` compiles its original with the run's options instead.
A function of the user's whose source compiles itself (``self_compile.compiles_itself``: it calls
``torch.compile``, ``set_stance``, ...) runs as it is too: what it compiles is watched. Everything else runs as
plain Python: classes (construction), builtins, library
functions and methods (``model.generate``, ``opt.step``, ``loss.backward``), ``torch._dynamo.disable``d
functions, and coroutine, async generator and generator functions (never handed to Dynamo: torch 2.13
fails on a coroutine at its first ``await`` and can crash the process). The wrapper is
``torch._dynamo.optimize(...)`` of the function Dynamo starts on, the very call ``torch.compile`` makes, built
once per function per run and called with the callee's object first ([Note: nothing of the user's held]), so
Dynamo starts exactly where ``torch.compile(callee)`` starts and compiles what it would compile from there
(resume functions, frames run after a break or skip).

Threads: a function the cell hands to a thread (``threading.Thread(target=f)``, ``threading.Timer``, an
executor's ``submit`` / ``map``, a ``ThreadPool``'s ``apply`` / ``map`` ..., ``asyncio.to_thread``,
``loop.run_in_executor``) is the cell's call too, made on that thread: the callable handed over is
replaced by its compiled wrapper, which turns Dynamo on for the thread that calls it (Dynamo's frame
evaluation callback is per thread), and ``threaded`` records where. A function handed to another
process (``multiprocessing.Process``, a process pool) runs there, outside this report.

[Note: watch scope] When the code compiles itself (``self_compile``: the cell or a function it calls mentions
``torch.compile``, ``nn.Module.compile``, ``torch._dynamo.optimize``, ``explain``, ``set_stance``,
``error_on_graph_break``, compiled autograd or ``torch.export``, or names a callable already compiled), scope
``auto`` is ``watch``: the cell runs as plain module code, nothing is rewritten, no compile is added and no
Dynamo setting is changed; every compile Dynamo makes during the run, on the run's threads, is captured as it
happens, with the user's own backend, mode and options ([Note: one capture path] in collectors/dispatch.py). The
report then tells the story ``python SCRIPT.py`` tells: the same compile ids, functions, graphs, breaks and
recompiles (tests/engine/test_self_compiling.py holds the programs this is checked on).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import inspect
import multiprocessing.pool
import threading
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from . import _compat
from .call_plans import Plan, anchored, forget, instance, module_call, plan_key, target_of, unbound_function
from .calls_torch import UserCompile, user_compile
from .cell import CALL_NAME
from .reset import code_of, forget_memory
from .self_compile import compiles_itself
from .summary import RUNS_PLAIN, describe_settings
from .targets import ALREADY_COMPILED, compile_target, read_attribute

__all__ = ["CALL_NAME", "CallCompiler"]


#: ``(owner, attribute or None for the callable itself, position, keyword)`` of each API that runs a callable on
#: another thread: where the callable sits among the call's arguments ([Note: calls scope], Threads).
_THREAD_APIS: tuple[tuple[Any, str | None, int, str | None], ...] = (
    (threading.Thread, None, 1, "target"),
    (threading.Timer, None, 1, "function"),
    (concurrent.futures.Executor, "submit", 0, None),
    (concurrent.futures.Executor, "map", 0, None),
    *(
        (multiprocessing.pool.ThreadPool, name, 0, "func")
        for name in ("apply", "apply_async", "map", "map_async", "imap", "imap_unordered", "starmap", "starmap_async")
    ),
    (asyncio, "to_thread", 0, None),
    (asyncio.AbstractEventLoop, "run_in_executor", 1, None),
)


def _thread_api(callee: Any) -> tuple[str, int, str | None] | None:
    """``(name, position, keyword)`` of the callable argument when ``callee`` runs it on another thread."""
    if isinstance(callee, type):
        for owner, attr, pos, kw in _THREAD_APIS:
            # a subclass with its own __init__ may take other arguments there: only Thread's own signature
            if (
                attr is None
                and isinstance(owner, type)
                and issubclass(callee, owner)
                and inspect.getattr_static(callee, "__init__") is owner.__dict__["__init__"]
            ):
                return f"{callee.__module__}.{callee.__qualname__}", pos, kw
        return None
    if isinstance(callee, types.MethodType):
        self, name = callee.__self__, callee.__func__.__name__
        for owner, attr, pos, kw in _THREAD_APIS:
            # a process pool pickles what it is handed (a compiled wrapper cannot be): it runs in another process
            if attr == name and isinstance(owner, type) and isinstance(self, owner) and not _in_processes(self):
                return f"{type(self).__name__}.{name}", pos, kw
        return None
    for owner, attr, pos, kw in _THREAD_APIS:
        if isinstance(owner, types.ModuleType) and attr is not None and getattr(owner, attr, None) is callee:
            return f"{owner.__name__}.{attr}", pos, kw
    return None


def _in_processes(pool: Any) -> bool:
    if isinstance(pool, concurrent.futures.ProcessPoolExecutor):
        return True
    return isinstance(pool, multiprocessing.pool.Pool) and not isinstance(pool, multiprocessing.pool.ThreadPool)


@dataclass
class CallCompiler:
    """``__dynamo_call__(callee, text, line)``: the compiled wrapper of ``callee``, or ``callee`` itself."""

    #: the ``optimize(...)`` of the run's options, applied to each callee the run compiles
    optimize: Callable[[Any], Any]
    #: ``--fresh``: forget the automatic-dynamic memory of each callee's code before it first compiles
    fresh: bool = False
    #: ``--compare-eager``: times each compiled callee's calls ([Note: eager baseline] in baseline.py)
    timer: Any = None
    #: ``--override-compile-options``: the user's own torch.compile results compile with the run's options (without
    #: it they run as the user compiled them, watched)
    override: bool = False
    #: the run's own options, as a callee row shows them (``Callee.compile``)
    run_settings: dict[str, Any] = field(default_factory=dict)
    #: ``claim()``, called on the thread that runs a callable handed to a thread: that thread is the run's
    #: ([Note: threads] in collectors/dispatch.py)
    claim: Callable[[], None] | None = None
    #: the ``torch._dynamo.config`` values the run sets (isolation.dynamo_config), set again on such a thread for the
    #: call: a config override is the thread's own in torch 2.13 (a ContextVar)
    thread_config: dict[str, Any] = field(default_factory=dict)
    compiled: dict[str, tuple[int, str]] = field(default_factory=dict)  # text -> (first line, why)
    plain: dict[str, tuple[int, str]] = field(default_factory=dict)
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)  # text -> the options it compiled with
    threaded: dict[str, tuple[int, str]] = field(default_factory=dict)  # text -> (line, the thread API)
    #: (name, file, first line) of the codes compiled with the user's own fullgraph=True
    fullgraph_codes: set[tuple[str, str, int]] = field(default_factory=set)
    #: the globals of each function compiled (by id), with the Dynamo import aliases they held before: what the
    #: run added is taken out afterwards (isolation.drop_import_aliases)
    globals_before: dict[int, tuple[dict[str, Any], frozenset[str]]] = field(default_factory=dict)
    #: what each callee's calls do, made at its first call ([Note: nothing of the user's held])
    _plans: dict[Any, tuple[Any, Plan]] = field(default_factory=dict)
    #: ``id(function)`` -> (the function, its compiled wrapper): one per function, called with the instance first
    _unbound: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    #: the codes whose automatic-dynamic memory ``--fresh`` forgot (once each)
    _forgotten: set[types.CodeType] = field(default_factory=set)

    def __call__(self, callee: Any, text: str, line: int) -> Any:
        return self._callable(callee, text, line, self._plan(callee, text, line))

    def attribute(self, obj: Any, name: str, text: str, line: int) -> Any:
        """``obj.<name>`` as Python reads it, with the getter compiled when it is a property of the user's
        (``targets.read_attribute``)."""
        return read_attribute(obj, name, lambda getter: self(getter, text, line))

    def _callable(self, callee: Any, text: str, line: int, plan: Plan) -> Any:
        """What the cell calls in place of ``callee`` this once (held by nothing of the explorer's afterwards)."""
        if plan.kind == "plain":
            return callee
        if plan.kind == "own":
            return _raising(callee)
        if plan.kind == "thread":
            assert plan.api is not None
            return self._handing_over(callee, plan.api, line)
        if plan.target is not None:  # compiled through a wrapper of its own, made for this call
            wrapper = self.optimize(plan.target(callee))
        elif plan.module:
            wrapper = functools.partial(module_call, plan.wrapper, callee)
        else:
            wrapper = functools.partial(plan.wrapper, instance(callee)) if plan.bound else plan.wrapper
        return self.timer.wrap(text, line, wrapper) if self.timer is not None else wrapper

    def _plan(self, callee: Any, text: str, line: int) -> Plan:
        """``callee``'s plan, from the cache when its first call made one; the callee's row (by ``text``) recorded."""
        key, anchors = plan_key(callee)
        if key is not None:
            hit = self._plans.get(key)
            if hit is not None and anchored(hit[0], anchors, callee):
                self._record(hit[1], text, line)
                return hit[1]
        plan = self._first_call(callee)
        self._record(plan, text, line)
        if key is None:
            return plan
        if anchors is None:
            try:  # held weakly, and dropped with the callee (its id may then be taken by a new object)
                held: Any = weakref.ref(callee, functools.partial(forget, self._plans, key))
            except TypeError:  # no weak references to it: planned again at each call
                return plan
        else:
            held = anchors
        self._plans[key] = (held, plan)
        return plan

    def _record(self, plan: Plan, text: str, line: int) -> None:
        """The callee row of ``text`` (its first call's line), for the report's ``callees``."""
        if plan.kind in ("compiled", "own"):
            self.compiled.setdefault(text, (line, plan.why))
            if plan.settings is not None:
                self.settings.setdefault(text, plan.settings)
        else:
            self.plain.setdefault(text, (line, plan.why))

    def _first_call(self, callee: Any) -> Plan:
        """What ``callee``'s calls do (the rule: [Note: calls scope]), with the first call's bookkeeping."""
        api = _thread_api(callee)
        if api is not None and not _compat.THREADS_RUN_COMPILED_CODE:
            why = f"runs plain, and so does the function it is handed: on torch {torch.__version__} threads that run "
            return Plan("plain", why + "compiled code at once crash the process, plain torch.compile too")
        if api is not None:
            return Plan("thread", "runs plain; the function it is handed is compiled where its thread calls it", api=api)
        target, why = compile_target(callee)
        if target is None:
            return Plan("plain", why)
        code = code_of(target)
        if why.startswith(ALREADY_COMPILED):
            if self.override:
                why += ": compiled with this run's options (--override-compile-options)"
            else:  # the user's own compile: it runs as they made it, watched ([Note: watch scope])
                user = user_compile(callee)
                if user is not None and user.fullgraph and code is not None:
                    self.fullgraph_codes.add((code.co_name, code.co_filename, code.co_firstlineno))
                return Plan("own", f"{why}: {OWN_COMPILE}", settings=_settings_row(user) if user is not None else None)
        itself = compiles_itself(target)
        if itself is not None:  # [Note: watch scope]: what it compiles is its own to compile
            return Plan("plain", f"{COMPILES_ITSELF} ({itself}): it runs as it is, and what it compiles is watched")
        scope = _globals_of(target)
        if self.fresh and code is not None and code not in self._forgotten:
            self._forgotten.add(code)
            forget_memory(code)
        if scope is not None and id(scope) not in self.globals_before:
            aliases = frozenset(n for n in scope if n.startswith(_compat.IMPORT_ALIAS_PREFIX))
            self.globals_before[id(scope)] = (scope, aliases)
        settings = dict(self.run_settings)
        fn = unbound_function(callee, target)
        if fn is None:
            return Plan("compiled", why, settings=settings, target=target_of(target is callee))
        hit = self._unbound.get(id(fn))
        if hit is None or hit[0] is not fn:
            hit = self._unbound[id(fn)] = (fn, self.optimize(fn))
        module = isinstance(target, torch.nn.Module)
        return Plan("compiled", why, settings=settings, wrapper=hit[1], bound=fn is not target, module=module)

    def _handing_over(self, callee: Any, api: tuple[str, int, str | None], line: int) -> Any:
        """``callee`` (a thread API) called with the callable it runs on another thread compiled instead."""
        name, pos, kw = api

        def call(*args: Any, **kwargs: Any) -> Any:
            if name.endswith("run_in_executor") and args and _in_processes(args[0]):
                return callee(*args, **kwargs)  # another process: it pickles what it is handed
            if kw is not None and kw in kwargs:
                kwargs[kw] = self._handed(kwargs[kw], name, line)
            elif len(args) > pos:
                args = (*args[:pos], self._handed(args[pos], name, line), *args[pos + 1 :])
            return callee(*args, **kwargs)

        return call

    def _handed(self, fn: Any, api: str, line: int) -> Any:
        if not callable(fn):
            return fn
        text = getattr(fn, "__qualname__", None) or type(fn).__name__
        plan = self._plan(fn, text, line)
        if plan.kind not in ("compiled", "own"):
            return fn
        wrapper = self._callable(fn, text, line, plan)
        self.threaded.setdefault(text, (line, api))
        claim = self.claim
        if claim is None:
            return wrapper

        config = self.thread_config

        def claimed(*args: Any, **kwargs: Any) -> Any:
            claim()
            with torch._dynamo.config.patch(**config):
                return wrapper(*args, **kwargs)

        # the user's function's name and attributes: Thread names itself after its target ("Thread-1 (work)")
        return functools.update_wrapper(claimed, fn, updated=())

    def callees(self) -> list[dict[str, Any]]:
        """The report's ``callees``: every distinct callee in first-call order."""
        rows = []
        for t, (ln, why) in self.compiled.items():
            row: dict[str, Any] = {"name": t, "line": ln, "compiled": True, "why": why, "compile": self.settings.get(t)}
            if t in self.threaded:
                row["thread_api"] = self.threaded[t][1]
            rows.append(row)
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
                "compiled with torch.compile: "
                + ", ".join(f"{t} (line {ln}, {self._how(t, why)})" for t, (ln, why) in self.compiled.items())
            )
        else:
            parts.append("no call compiled anything")
        itself = {t: v for t, v in self.plain.items() if v[1].startswith(COMPILES_ITSELF)}
        if itself:
            parts.append(
                "ran as they are, compiling what they compile themselves (watched): "
                + ", ".join(f"{t} (line {ln}, {why.split(':', 1)[0]})" for t, (ln, why) in itself.items())
            )
        never = {t: v for t, v in self.plain.items() if RUNS_PLAIN in v[1]}
        if never:
            parts.append(
                "ran as plain Python: "
                + ", ".join(f"{t} (line {ln}, {why.split(':', 1)[0]})" for t, (ln, why) in never.items())
                + " (the explorer never hands a coroutine or generator function, or one a standard-library decorator "
                "wraps, to torch.compile; call the functions it uses from the cell, or from a plain function, to "
                "compile them)"
            )
        lib = {t: v for t, v in self.plain.items() if "library" in v[1] and t not in self.compiled}
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

    def _how(self, text: str, why: str) -> str:
        where = f", called on another thread by {self.threaded[text][1]}" if text in self.threaded else ""
        settings = self.settings.get(text)
        if settings is not None and why.endswith(OWN_COMPILE):
            return f"{why}: {describe_settings(settings)}{where}"
        return f"{why}{where}"


#: the ``why`` of a callee the user compiled, which runs as they compiled it
OWN_COMPILE = "runs as your torch.compile made it, its compiles watched"
#: the ``why`` of a function whose source compiles itself ([Note: watch scope])
COMPILES_ITSELF = "compiles itself"


def _raising(compiled: Any) -> Any:
    """The user's own compiled callable, called with Dynamo's default ``suppress_errors=False``: it raises what it
    raises without the explorer (the run suppresses errors for its own compiles: ``isolation.config_values``)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        with torch._dynamo.config.patch(suppress_errors=False):
            return compiled(*args, **kwargs)

    return call


def _globals_of(target: Any) -> dict[str, Any] | None:
    """The globals a compiled callee's code runs with: a function's, a method's, a module's ``forward``'s."""
    if isinstance(target, torch.nn.Module):
        target = type(target).forward
    fn = getattr(target, "__func__", target)
    scope = getattr(fn, "__globals__", None)
    return scope if isinstance(scope, dict) else None


def _settings_row(user: UserCompile) -> dict[str, Any]:
    """``Callee.compile`` for a callable the user compiled: the options its own torch.compile gave it."""
    return {
        "origin": "torch.compile",
        "backend": user.backend_name,
        "mode": user.mode,
        "dynamic": user.dynamic,
        "fullgraph": user.fullgraph,
        "options": {k: _jsonable(v) for k, v in sorted(user.options.items())} if user.options else None,
        "recompile_limit": user.recompile_limit,
    }


def run_settings(
    backend: str, mode: str | None, dynamic: bool | None, fullgraph: bool, recompile_limit: int | None
) -> dict[str, Any]:
    """``Callee.compile`` for a callee compiled with the run's options (the ``%%dynamo`` line's)."""
    return {
        "origin": "run",
        "backend": backend,
        "mode": mode,
        "dynamic": dynamic,
        "fullgraph": fullgraph,
        "options": None,
        "recompile_limit": recompile_limit,
    }


def _jsonable(value: Any) -> Any:
    return value if isinstance(value, (bool, int, float, str)) or value is None else repr(value)
