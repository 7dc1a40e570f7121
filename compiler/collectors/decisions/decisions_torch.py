"""Dynamo's inline / skip decisions, read from its internals for ``collectors/decisions/decisions.py``: the calls it traces
(``traced_calls``), the reason it inlined a code, the trace rule that skips a callable, ``allow_in_graph``, the
VariableTracker a lazy one became (``realized``).

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

from ..._compat import LazyVariableTracker, patched


@contextlib.contextmanager
def traced_calls(
    enter: Callable[[Any, Any], Any],
    leave: Callable[[Any, Any, Any, BaseException | None], None],
    inlined: Callable[[Any, Any], None],
) -> Iterator[None]:
    """Tell the listener about every call Dynamo's symbolic execution meets, while open.

    ``InstructionTranslatorBase.call_function(tx, fn, args, kwargs)`` is where every CALL instruction of a
    traced frame (and of each inlined callee: same method, the inlining tracer runs synchronously inside
    its parent's call) hands the callee's VariableTracker to Dynamo's decision; ``enter(tx, fn)`` runs
    before it and returns a token, ``leave(token, tx, fn, error)`` after it (``error`` is what it raised:
    ``Unsupported`` is a graph break). ``InliningInstructionTranslator.inline_call(parent, func, ...)`` is
    where Dynamo starts inlining a function (a module's ``forward`` too); ``inlined(parent, func)`` runs
    before it. Both are class attributes in 2.11 and 2.13, wrapped here and put back on exit. A listener
    that raises is ignored: a capture bug must never fail the user's compile.
    """
    from torch._dynamo import symbolic_convert as sc

    base, inlining = sc.InstructionTranslatorBase, sc.InliningInstructionTranslator
    original_call = base.__dict__["call_function"]
    original_inline = inlining.__dict__["inline_call"]  # a classmethod object
    inline_fn = original_inline.__func__

    # try/except rather than contextlib.suppress: this runs for every call Dynamo traces (no object per call)
    def call_function(self: Any, fn: Any, args: Any, kwargs: Any) -> Any:
        try:
            token = enter(self, fn)
        except Exception:  # noqa: BLE001 -- a capture bug must never fail the user's compile
            token = None
        error: BaseException | None = None
        try:
            return original_call(self, fn, args, kwargs)
        except BaseException as e:
            error = e
            raise
        finally:
            try:
                leave(token, self, fn, error)
            except Exception:  # noqa: BLE001 -- as above
                token = None  # (a statement for the handler: the linters refuse a bare pass here)
            error = None  # no reference cycle through the traceback

    def inline_call(cls: Any, parent: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(Exception):
            inlined(parent, func)
        return inline_fn(cls, parent, func, *args, **kwargs)

    call_function.__wrapped__ = original_call  # type: ignore[attr-defined]
    with patched(base, "call_function", call_function), patched(inlining, "inline_call", classmethod(inline_call)):
        yield


def inline_reason(tx: Any, code: types.CodeType) -> str | None:
    """The reason Dynamo gave for inlining ``code`` in this trace: the ``SkipResult`` it kept for the code
    in ``TracingContext.previously_inlined_functions`` (2.11 and 2.13), e.g. 'inlined by default'."""
    result = tx.output.tracing_context.previously_inlined_functions.get(code)
    return None if result is None else str(result.reason)


def skip_rule(obj: Any, is_inlined_call: bool) -> str | None:
    """``trace_rules.check_verbose(obj, is_inlined_call)``'s reason ('file is under skip directory (...)',
    'file matches BUILTIN_INLINE_WHEN_CALLED (...)'); None where it has none (C functions: it asserts).
    Called positionally: 2.11 has no ``frame`` argument."""
    from torch._dynamo import trace_rules

    with contextlib.suppress(Exception):
        return str(trace_rules.check_verbose(obj, is_inlined_call).reason)
    return None


def is_allowed_in_graph(obj: Any) -> bool:
    """Was ``obj`` registered with ``torch._dynamo.allow_in_graph`` (trace_rules' allowed callable ids)?"""
    from torch._dynamo import trace_rules

    try:
        return id(obj) in trace_rules._allowed_callable_ids
    except TypeError:
        return False


def realized(vt: Any) -> Any:
    """The VariableTracker a ``LazyVariableTracker`` became once Dynamo used it (itself otherwise)."""
    if isinstance(vt, LazyVariableTracker) and vt.is_realized():
        return vt.unwrap()
    return vt
