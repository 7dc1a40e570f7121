"""The schema's enums as ``Literal`` types: the values a field of the model may take, exactly the schema's.

``FrameStatus``, ``GraphKind`` and ``PhaseKind`` are the schema's definitions of those names; the others are the
``enum`` of one property (or of two that share the values: ``OutputKind``). ``tests/engine/test_model_schema.py``
checks each field against its schema property, values included. A field typed by one of these names is plain JSON
(``compiler/model/__init__.py``'s ``_PLAIN``): list a new alias in ``__all__``.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "CacheName",
    "CacheStatus",
    "CudaGraphSkippedAt",
    "CudaGraphStatus",
    "CutPart",
    "DecisionKind",
    "DecisionOutcome",
    "DiagnosticKind",
    "DynamicKind",
    "EagerGapCause",
    "ExportCheckKind",
    "ExportDirection",
    "ExportFailureKind",
    "ExportMode",
    "ExportOutcome",
    "FallbackAction",
    "FixKind",
    "FixTargetKind",
    "FrameStatus",
    "GraphKind",
    "GuardDifference",
    "KernelLanguage",
    "NameRefKind",
    "NodeOp",
    "NumericsVerdict",
    "OutputKind",
    "PhaseKind",
    "ReportScope",
    "SourceKind",
    "TraceBreakAction",
    "TraceOutcome",
]

# --- what Dynamo compiled (frames.py, the report) ---
ReportScope = Literal["watch", "calls", "cell", "all-frames", "frames", "trace"]
FrameStatus = Literal["ok", "graph_break", "recompile", "skipped", "error", "empty"]
NameRefKind = Literal["compiled_fn", "resume", "import", "builtins_dict"]
PhaseKind = Literal["dynamo", "guards", "backend", "aot", "inductor", "compile", "cache", "other"]
DynamicKind = Literal["tensor", "scalar"]
DecisionKind = Literal["inline", "skip", "disabled", "allow_in_graph", "in_graph", "builtin", "polyfill", "other"]
DecisionOutcome = Literal["ok", "graph_break", "raised"]
NodeOp = Literal["placeholder", "get_attr", "call_function", "call_method", "call_module", "output"]
GraphKind = Literal[
    "dynamo",
    "dynamo_partial",
    "ddp_split_graph",
    "ddp_split_child",
    "aot_joint",
    "aot_forward",
    "aot_backward",
    "aot_inference",
    "export",
]
#: an inductor output code's graph, and a CUDA graph's
OutputKind = Literal["forward", "backward", "inference"]
KernelLanguage = Literal["cpp", "triton", "python"]
DiagnosticKind = Literal[
    "collector_failed",
    "schema_mismatch",
    "shared_cache",
    "compile_failed",
    "recompile_limit",
    "unsupported_torch",
    "truncated",
    "eager_baseline_failed",
    "options_not_applied",
]
SourceKind = Literal["cell", "notebook-cell", "file", "library"]

# --- what a run measured (profile.py) ---
EagerGapCause = Literal["graph_break", "frame", "outside", "backward"]
CudaGraphStatus = Literal["recorded", "rerecorded", "skipped", "not_recorded"]
CudaGraphSkippedAt = Literal["compile", "run"]

# --- the teaching panes (teaching.py) ---
TraceBreakAction = Literal["restart", "compiled", "unsupported", "error"]
TraceOutcome = Literal["compiled", "restart", "failed", "cut"]
FixTargetKind = Literal["graph_break", "recompile", "failure", "export"]
FixKind = Literal["config", "option", "mark", "register", "source_edit", "hint", "export"]
GuardDifference = Literal["differs", "only_here"]
FallbackAction = Literal["recompile", "eager", "error"]

# --- where a report came from (trace.py) ---
CutPart = Literal["guards", "guard_tree", "original_bytecode", "modified_bytecode", "graph_code"]
CacheName = Literal["fx_graph", "aotautograd"]
CacheStatus = Literal["hit", "miss", "bypass"]

# --- what --check-numerics found (numerics.py) ---
NumericsVerdict = Literal["matches", "differs_no_worse", "worse_than_eager", "not_comparable"]
ExportMode = Literal["strict", "non_strict", "draft"]
ExportOutcome = Literal["exported", "failed"]
ExportDirection = Literal["input", "output"]
ExportCheckKind = Literal["static", "range", "equal", "guard"]
ExportFailureKind = Literal["data_dependent", "constraint_violation", "unsupported", "user_error", "other"]
