"""Each kind of failed export in words, and what usually helps, and the report's record of one failure built from
them: one place for a live run's classifier (``exports_torch.classify``) and a trace's reader (``exports_trace``); a
call's ``dynamic_shapes`` written as Python (``spec_python``)."""

from __future__ import annotations

import json
from typing import Any

from ...model import ExportFailure

__all__ = ["FAILURE_WORDS", "failure", "spec_python"]

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
