"""Each kind of failed export in words, and what usually helps, and the report's record of one failure built from
them: one place for a live run's classifier (``exports_torch.classify``) and a trace's reader (``exports_trace``)."""

from __future__ import annotations

from typing import Any

from ...model import ExportFailure

__all__ = ["FAILURE_WORDS", "failure"]

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
