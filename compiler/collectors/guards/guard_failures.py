"""Every failing guard of an old cache entry, with what it expected and what the call brought.

``evaluate(guard_manager, f_locals, filename, call)`` is called by the recompiles collector while Dynamo explains an
old cache entry (``observe_torch.guard_failures`` hands it the entry and the call's values) and returns the
entry's failing guards as ``GuardFailure`` rows, a note when the list is not complete, and the ``Call`` (the
call's values, read once) to pass for the next entry of the same recompile.

[Note: every failing guard] When Dynamo decides to recompile it explains each old cache entry with
``guards.get_guard_fail_reason``: the C++ guard tree stops at the first failing leaf, so the reason names
one guard (``n == 2``, when the dtype, ``n`` and a flag all changed), and a non-tensor guard says only its
check, not the value it met. Here every leaf of the entry's tree is evaluated against the same values, at
the same moment (where Dynamo calls ``guard_fail_fn``, before it runs anything else), the way torch evaluated each
code part before the C++ guards: ``eval`` against ``L`` (the frame's locals), ``G`` (its globals) and
Dynamo's guard helpers (``guard_failures_torch.guard_scope``). Per kind:

- ``TENSOR_MATCH``: the value's own ``check_tensor(...)`` text (Dynamo's formatter, ``guard_failures_torch.tensor_check``)
  against the entry's, one row per property that differs (type, dispatch keys, dtype, device,
  requires_grad, size, stride; a dynamic dim, ``None`` in the entry's size, matches any value);
- ``GLOBAL_STATE``: one row per field of ``___check_global_state() against {...}`` that differs now;
- ``ID_MATCH`` / ``TYPE_MATCH``: the ids and types, with what the value is now;
- a comparison (``EQUALS_MATCH``, ``LENGTH_CHECK``, ``TRUE_MATCH``, the shape guards' ``LAMBDA_GUARD``, ...):
  the constant side as expected, the value of the other side as actual (``len(L['xs'])`` -> ``3``).

A check that cannot be evaluated (its value no longer exists: ``L['xs'][2]`` after the list got shorter, or
a helper not in the scope) is left out and counted in the note; the leaf Dynamo's own check names
(``guard_failures_torch.first_failure``) is always kept (``in_reason``).

Cost: nothing until a recompile (only Dynamo's explanation of an old entry leads here). Then Dynamo explains every old entry of
the code with the same locals: a ``Call`` reads each source and evaluates each check once for all of them,
and an entry's leaves are read from its tree once (it is explained again at each later recompile). Past
``MAX_EVALUATED`` leaves of an entry (a model's parameters), or past the ``MAX_ENTRIES`` most recent entries
of a recompile (a limit raised far above Dynamo's 8), it stops and says so. Measured: docs/capture-notes.md
("Recompiles: every failing guard, specialised dimensions").
"""

from __future__ import annotations

import re
from typing import Any

from ...model import GuardFailure
from ...summary import failure_what
from . import guard_failures_torch
from .guard_checks import REASON_WORDS, Call, Leaf, entry_leaves, split_part

__all__ = ["MAX_ENTRIES", "MAX_EVALUATED", "MAX_FAILURES", "Call", "evaluate"]

#: Leaf guards evaluated per old cache entry (a 10,000-node model guards 54,000 values); then a note.
MAX_EVALUATED = 20_000
#: Old cache entries evaluated per recompile, the most recent first (Dynamo's default recompile_limit is 8; a
#: code recompiled 100 times under a raised limit would otherwise cost 100 x 100 / 2 entry evaluations).
MAX_ENTRIES = 8
#: Failures kept per old cache entry.
MAX_FAILURES = 200


def _mark_reason(failures: list[GuardFailure], reported: list[str], leaves: list[Leaf]) -> None:
    """Flag the failures of the leaf Dynamo's own check names (``in_reason``)."""
    if not reported:
        return
    text = reported[0]
    for kind, source, parts, _, _ in leaves:
        if parts == reported:
            hits = [f for f in failures if f.guard_type == kind and f.source == source]
            for f in hits:
                f.in_reason = True
            return
    if text.startswith("tensor '"):  # tensor 'x' dtype mismatch. expected Float, actual Double
        named = [f for f in failures if f.guard_type == "TENSOR_MATCH" and _tensor_named(f.source, text)]
        word = [f for f in named if REASON_WORDS.get(f.property or "", "\0") in text]
    else:  # GLOBAL_STATE changed: grad_mode
        named = [f for f in failures if text.startswith(f.guard_type)]
        word = [f for f in named if f.property and re.search(rf"\b{re.escape(f.property)}\b", text)]
    for f in word or named[:1]:
        f.in_reason = True


def _tensor_named(source: str, reason: str) -> bool:
    """Does Dynamo's tensor reason (``tensor 'x' ...`` or ``tensor 'L['x']' ...``) name ``source``?"""
    plain = re.sub(r"L\[\s*['\"](.*?)['\"]\s*\]", r"\1", source)
    return reason.startswith((f"tensor '{source}'", f"tensor '{plain}'"))


def evaluate(
    guard_manager: Any, f_locals: dict[str, object], filename: str, call: Call | None = None
) -> tuple[list[GuardFailure], str | None, Call]:
    """Every failing guard of one old cache entry for this call ([Note: every failing guard]), a note when the
    list leaves something out (None when it is complete), and the ``Call`` to pass for the next entry Dynamo
    explains (``call`` itself when it serves this call)."""
    if call is None or not call.serves(guard_manager, f_locals, filename):
        call = Call(guard_manager, f_locals, filename)
    call.id_matched = [ref() for ref in (getattr(guard_manager, "id_matched_objs", None) or {}).values()]
    reported = guard_failures_torch.first_failure(guard_manager, f_locals)
    leaves = entry_leaves(guard_manager)
    failures: list[GuardFailure] = []
    notes: list[str] = []
    unreadable = 0
    for n, leaf in enumerate(leaves):
        if n >= MAX_EVALUATED:
            notes.append(f"stopped after {MAX_EVALUATED} of {len(leaves)} guards")
            break
        found, missing = call.leaf(leaf)
        failures.extend(found)
        unreadable += missing
    _mark_reason(failures, reported, leaves)
    if reported and not any(f.in_reason for f in failures):
        failures.insert(0, _reported_row(reported, leaves, call))
    if len(failures) > MAX_FAILURES:
        notes.append(f"kept {MAX_FAILURES} of {len(failures)} failing guards")
        failures = [f for f in failures if f.in_reason] + [f for f in failures if not f.in_reason][: MAX_FAILURES - 1]
    if unreadable:
        notes.append(
            f"{unreadable} check{'s' if unreadable != 1 else ''} could not be evaluated "
            "(the value it reads no longer exists, e.g. an item of a shorter list)"
        )
    for f in failures:  # the words every view shows (GuardFailure.what), written once here
        f.what = failure_what(f.guard_type, f.property, f.check)
    return failures, "; ".join(notes) or None, call


def _reported_row(reported: list[str], leaves: list[Leaf], call: Call) -> GuardFailure:
    """The failure Dynamo's own check names, when evaluating the code parts could not find it (a check only
    the C++ guard can run, such as ``___check_torch_function_mode_stack()``, or duplicate tensors)."""
    leaf = next((leaf for leaf in leaves if leaf[2] == reported), None)
    check, comment = split_part(reported[0])
    return GuardFailure(
        guard_type=leaf[0] if leaf else ("TENSOR_MATCH" if check.startswith("tensor '") else "GUARD"),
        source=leaf[1] if leaf else "",
        property=None,
        check=check,
        expected=check,
        actual=None,
        line=call.line(comment),
        in_reason=True,
    )
