"""Each kind of failed export in words, and what usually helps, and the report's record of one failure built from
them: one place for a live run's classifier (``exports_torch.classify``) and a trace's reader (``exports_trace``); a
call's ``dynamic_shapes`` written as Python (``spec_python``)."""

from __future__ import annotations

import json
from typing import Any

from ...model import ExportCall, ExportFailure

__all__ = ["FAILURE_WORDS", "failure", "spec_python", "summary_line"]

#: each kind of failure in words, and what usually helps (torch's APIs by name)
FAILURE_WORDS: dict[str, tuple[str, list[str]]] = {
    "data_dependent": (
        "a guard on a data-dependent value",
        [
            "torch._check(...) on the value before it is used, to tell export what holds",
            "torch.cond(pred, true_fn, false_fn) for a branch on tensor data, which keeps both branches",
            "torch.export.draft_export to trace on with an assumption and a report of each",
        ],
    ),
    "constraint_violation": (
        "a Dim's range against what the trace required",
        [
            "the suggested fixes above: a narrower range, or the value the trace specialized to",
            "Dim.AUTO (or Dim.DYNAMIC) instead of a named Dim, to let export infer the range",
        ],
    ),
    "unsupported": (
        "an op or construct export cannot trace",
        [
            "torch.library.register_fake for a custom op without a fake kernel",
            "torch.export.draft_export to list every such failure at once",
            "strict=False (non-strict mode runs the Python as Python)",
        ],
    ),
    "user_error": ("a use export refuses", []),
    "other": ("an error while exporting", []),
}


def failure(exception: str, kind: str, message: str, **where: Any) -> ExportFailure:
    """A failure of ``kind`` with its words and remedies; ``where``: the user's frame and export's suggestions."""
    what, remedies = FAILURE_WORDS[kind]
    return ExportFailure(exception=exception, kind=kind, what=what, message=message, remedies=remedies, **where)  # type: ignore[arg-type]


def spec_python(spec: Any, dim: Any = None) -> str:
    """A call's ``dynamic_shapes`` as the report holds it (each ``Dim`` by its name: ``{"x": {"0": "batch"}}``) written
    as the Python that makes it: ``{"x": {0: batch}}``, a hint as ``Dim.AUTO``; ``dim(name)``, when given, writes
    each named ``Dim`` instead."""
    if isinstance(spec, dict):
        return (
            "{" + ", ".join(f"{k if str(k).isdigit() else json.dumps(k)}: {spec_python(v, dim)}" for k, v in spec.items()) + "}"
        )
    if isinstance(spec, (list, tuple)):
        return "(" + ", ".join(spec_python(v, dim) for v in spec) + ("," if len(spec) == 1 else "") + ")"
    if isinstance(spec, str):
        return dim(spec) if dim is not None and not spec.startswith("Dim.") else spec
    return "None" if spec is None else json.dumps(spec)


_MODES = {"strict": "strict", "non_strict": "non-strict", "draft": "draft"}


def summary_line(call: ExportCall) -> str:
    """One line a call: ``export Gate (non-strict, line 12) failed at line 6: a guard on a data-dependent value
    (GuardOnDataDependentSymNode)``; ``export Scale (non-strict, line 17): 9 nodes, 3 inputs (1 user), s77 in
    [2, 64]``; ``draft_export Gate: 1 assumption (DATA_DEPENDENT_ERROR at line 6)``."""
    verb = {"torch.export.draft_export": "draft_export", "torch._dynamo.export": "torch._dynamo.export"}.get(call.api, "export")
    head = f"{verb} {call.module} ({_MODES[call.mode]}" + (f", line {call.line})" if call.line else ")")
    f = call.failure
    if f is not None:
        at = f" at line {f.line}" if f.line else ""
        return f"{head} failed{at}: {f.what} ({f.exception})"
    inputs = [s for s in call.signature if s.direction == "input"]
    users = sum(1 for s in inputs if s.kind == "USER_INPUT")
    bits = [f"{call.graph_nodes} nodes"] if call.graph_nodes is not None else []
    if inputs:
        bits.append(f"{len(inputs)} input{'s' if len(inputs) != 1 else ''} ({users} user)")
    bits += [f"{r.symbol} in [{_end(r.min, '-inf')}, {_end(r.max, 'inf')}]" for r in call.ranges[:3]]
    if call.draft:
        n = len(call.draft)
        first = call.draft[0]
        at = f" at line {first.line}" if first.line else ""
        bits.append(f"{n} failure{'s' if n != 1 else ''} in its report ({first.kind}{at})")
    return f"{head}: " + ", ".join(bits) if bits else f"{head}: exported"


def _end(bound: int | None, none: str) -> str:
    return none if bound is None else str(bound)
