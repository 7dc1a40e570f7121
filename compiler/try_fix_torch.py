"""``--try``: a registration for one run ([Note: try a fix] in ``try_fix.py``): ``allow_in_graph`` / ``nonstrict_trace``
undone after the run, and the attributes Dynamo's marks set on a tensor.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def register_for_run(fn: Callable[..., Any], how: str) -> tuple[Callable[..., Any], Callable[[], None]]:
    """``allow_in_graph(fn)`` (``how`` 'allow_in_graph') or ``nonstrict_trace(fn)`` ('nonstrict_trace') for one run:
    ``(what the name should be bound to, undo)``. torch 2.13 keeps both as ids of callables in
    ``trace_rules._allowed_callable_ids`` (and ``_nonstrict_trace_callable_ids``), with no lookup cache in
    front of them; its decorators only ever undo on garbage collection (``weakref.finalize``), so the ids are
    added and taken out here by hand. ``nonstrict_trace`` registers a new wrapper (Dynamo keys it by id), so
    the name must be bound to the wrapper for the run."""
    from torch._dynamo import trace_rules

    allowed, nonstrict, disallowed = (
        trace_rules._allowed_callable_ids,
        trace_rules._nonstrict_trace_callable_ids,
        trace_rules._disallowed_callable_ids,
    )
    if how == "allow_in_graph":
        target, fn_id = fn, id(fn)
        had = (fn_id in allowed, fn_id in disallowed)
        disallowed.remove(fn_id)
        allowed.add(fn_id)

        def undo() -> None:
            if not had[0]:
                allowed.remove(fn_id)
            if had[1]:
                disallowed.add(fn_id)

        return target, undo
    if how != "nonstrict_trace":
        raise ValueError(how)

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    wrapped_id = id(wrapped)
    allowed.add(wrapped_id)
    nonstrict.add(wrapped_id)
    keep = [wrapped]  # the id stays this function's until undone

    def undo_wrapper() -> None:
        allowed.remove(wrapped_id)
        nonstrict.remove(wrapped_id)
        keep.clear()

    return wrapped, undo_wrapper


#: The attributes ``torch._dynamo.mark_dynamic`` / ``maybe_mark_dynamic`` set on a tensor (torch 2.11 to 2.15;
#: a name a release does not use is simply never found on a tensor).
MARK_ATTRIBUTES = (
    "_dynamo_dynamic_indices",
    "_dynamo_dynamic_range",
    "_dynamo_hint_overrides",
    "_specialize_on",
    "_has_dynamo_dim_marking",
    "_dynamo_weak_dynamic_indices",
)
