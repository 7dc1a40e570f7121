"""The Python model of the compile report: one slotted dataclass per schema definition.

Field names and order follow ``schema/compile_report.v1.schema.json`` (the contract); ``to_json()``
gives the JSON-ready dict that is validated against it. Conversion from torch objects lives in the
collectors, not here. The definitions are grouped by what they describe: ``frames.py`` (what Dynamo compiled),
``profile.py`` (what a run measured), ``numerics.py`` (what ``--check-numerics`` found), ``teaching.py`` (the teaching panes), ``trace.py`` (where a report came from);
this module holds the report itself and its JSON conversion, and names every class.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..schema import SCHEMA_VERSION
from . import kinds
from .exports import DraftFailure, ExportCall, ExportCheck, ExportFailure, ExportInput, ExportRange, ExportSpec
from .frames import (
    AutomaticDynamic,
    CodeInfo,
    DdpParameter,
    DdpSplit,
    DdpSubmodule,
    Decision,
    Diagnostic,
    DynamoReset,
    ErrorInfo,
    Frame,
    Graph,
    GraphBreak,
    Guard,
    GuardFailure,
    Instruction,
    Kernel,
    KernelCall,
    LogRecord,
    NameRef,
    Node,
    OutputCode,
    Phase,
    RecompileReason,
    ShapeGuard,
    SourceExcerpt,
    SourceFile,
    StackFrame,
    Symbol,
)
from .kinds import (
    CacheName,
    CacheStatus,
    CudaGraphSkippedAt,
    CudaGraphStatus,
    CutPart,
    DecisionKind,
    DecisionOutcome,
    DiagnosticKind,
    DynamicKind,
    EagerGapCause,
    ExportCheckKind,
    ExportDirection,
    ExportFailureKind,
    ExportMode,
    ExportOutcome,
    FallbackAction,
    FixKind,
    FixTargetKind,
    FrameStatus,
    GraphKind,
    GuardDifference,
    KernelLanguage,
    NameRefKind,
    NodeOp,
    NumericsVerdict,
    OutputKind,
    PhaseKind,
    ReportScope,
    SourceKind,
    TraceBreakAction,
    TraceOutcome,
)
from .numerics import Numerics, NumericsGraph, NumericsLocation, NumericsOutput
from .profile import (
    BackwardProfile,
    CallsProfile,
    Coverage,
    CudaGraph,
    EagerBaseline,
    EagerGap,
    EntryProfile,
    FrameCoverage,
    FunctionSpeedup,
    GraphProfile,
    KernelProfile,
    Profile,
)
from .teaching import (
    DispatchCode,
    DispatchEntry,
    DispatchFallback,
    DispatchGuard,
    Fix,
    FixTarget,
    RunOutcome,
    TraceAttempt,
    TraceBreak,
    TraceCode,
    TraceNode,
    TraceStep,
    TraceSteps,
    TryFix,
)
from .trace import (
    CacheDecision,
    CacheDifference,
    LogSpan,
    PartCut,
    TraceLogFile,
    TraceMissing,
    TraceSource,
)

__all__ = [
    "AutomaticDynamic",
    "BackwardProfile",
    "CacheDecision",
    "CacheDifference",
    "CacheName",
    "CacheStatus",
    "CallsProfile",
    "CodeInfo",
    "CompileReport",
    "Coverage",
    "CudaGraph",
    "CudaGraphSkippedAt",
    "CudaGraphStatus",
    "CutPart",
    "DdpParameter",
    "DdpSplit",
    "DdpSubmodule",
    "Decision",
    "DecisionKind",
    "DecisionOutcome",
    "Diagnostic",
    "DiagnosticKind",
    "DispatchCode",
    "DispatchEntry",
    "DispatchFallback",
    "DispatchGuard",
    "DraftFailure",
    "DynamicKind",
    "DynamoReset",
    "EagerBaseline",
    "EagerGap",
    "EagerGapCause",
    "EntryProfile",
    "ErrorInfo",
    "ExportCall",
    "ExportCheck",
    "ExportCheckKind",
    "ExportDirection",
    "ExportFailure",
    "ExportFailureKind",
    "ExportInput",
    "ExportMode",
    "ExportOutcome",
    "ExportRange",
    "ExportSpec",
    "FallbackAction",
    "Fix",
    "FixKind",
    "FixTarget",
    "FixTargetKind",
    "Frame",
    "FrameCoverage",
    "FrameStatus",
    "FunctionSpeedup",
    "Graph",
    "GraphBreak",
    "GraphKind",
    "GraphProfile",
    "Guard",
    "GuardDifference",
    "GuardFailure",
    "Instruction",
    "Kernel",
    "KernelCall",
    "KernelLanguage",
    "KernelProfile",
    "LogRecord",
    "LogSpan",
    "NameRef",
    "NameRefKind",
    "Node",
    "NodeOp",
    "Numerics",
    "NumericsGraph",
    "NumericsLocation",
    "NumericsOutput",
    "NumericsVerdict",
    "OutputCode",
    "OutputKind",
    "PartCut",
    "Phase",
    "PhaseKind",
    "Profile",
    "RecompileReason",
    "ReportScope",
    "RunOutcome",
    "ShapeGuard",
    "SourceExcerpt",
    "SourceFile",
    "SourceKind",
    "StackFrame",
    "Symbol",
    "TraceAttempt",
    "TraceBreak",
    "TraceBreakAction",
    "TraceCode",
    "TraceLogFile",
    "TraceMissing",
    "TraceNode",
    "TraceOutcome",
    "TraceSource",
    "TraceStep",
    "TraceSteps",
    "TryFix",
    "json_ready",
]

_kw = {"slots": True, "kw_only": True}


@dataclass(**_kw)
class CompileReport:
    torch_version: str
    python_version: str
    device: str
    backend: str
    options: dict[str, Any]
    scope: ReportScope
    scope_reason: str
    cell: dict[str, str]
    frames: list[Frame] = field(default_factory=list)
    graphs: list[Graph] = field(default_factory=list)
    output_code: list[OutputCode] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    shape_guards: list[ShapeGuard] = field(default_factory=list)
    logs: list[LogRecord] = field(default_factory=list)
    error: ErrorInfo | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=lambda: {"wall_s": 0.0, "compile_s": 0.0, "capture_s": 0.0})
    resets: list[DynamoReset] = field(default_factory=list)
    callees: list[dict[str, Any]] = field(default_factory=list)
    dynamo_counters: dict[str, Any] = field(default_factory=dict)
    sources: list[SourceFile] = field(default_factory=list)
    profile: Profile | None = None
    eager_baseline: EagerBaseline | None = None
    fixes: list[Fix] = field(default_factory=list)
    try_fix: TryFix | None = None
    dispatch: list[DispatchCode] = field(default_factory=list)
    trace_steps: TraceSteps | None = None
    cudagraphs: list[CudaGraph] = field(default_factory=list)
    ddp_splits: list[DdpSplit] = field(default_factory=list)
    parts_cut: list[PartCut] = field(default_factory=list)
    trace: TraceSource | None = None
    #: several ranks' compiles and their first divergence (compiler/ranks.py builds it on the reports' JSON)
    ranks: dict[str, Any] | None = None
    numerics: Numerics | None = None  # --check-numerics (minor 19)
    exports: list[ExportCall] = field(default_factory=list)  # torch.export calls (minor 21)
    #: ``frame()``'s and ``graphs_of()``'s indexes (``_indexed``); a name with ``_`` is never serialized
    _indexes: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def frame(self, compile_id: str) -> Frame | None:
        """The frame of ``compile_id`` (the first), or None, through an index of the frames (``_indexed``: a trace of
        10,000s of compiles looks up each of its records)."""
        return _indexed(self, "frames", lambda f: f.compile_id).get(compile_id, [None])[0]

    def graphs_of(self, compile_id: str | None) -> list[Graph]:
        """The graphs of ``compile_id``, in order (indexed as ``frame`` is)."""
        return list(_indexed(self, "graphs", lambda g: g.compile_id).get(compile_id, ()))

    def add_graph(
        self, *, compile_id: str | None, kind: GraphKind, nodes: list[Node], code: str, name: str | None = None
    ) -> Graph:
        """Append a graph under the next id and list it on its frame (when that frame is in the report; an exported
        program's graph has no compile and no frame)."""
        graph = Graph(id=len(self.graphs), compile_id=compile_id, kind=kind, name=name, nodes=nodes, code=code)
        self.graphs.append(graph)
        frame = self.frame(compile_id) if compile_id is not None else None
        if frame is not None:
            frame.graph_ids.append(graph.id)
        return graph

    def diagnose(self, kind: DiagnosticKind, message: str, compile_id: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(kind=kind, message=message, compile_id=compile_id))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": {"major": SCHEMA_VERSION[0], "minor": SCHEMA_VERSION[1]}}
        out.update(_to_json(self))
        return out


# Field annotations whose values are already JSON (the rows of a 2,600-node report are ~150,000 of them).
_PLAIN = {
    "str",
    "int",
    "bool",
    "float",
    "str | None",
    "int | None",
    "bool | None",
    "float | None",
    "list[str]",
    "list[int]",
    "dict[str, str]",
    "dict[str, float]",
    "dict[str, Any]",
    "list[int | str] | None",
    # the schema's enums (kinds.py): strings
    *(f"{alias}{optional}" for alias in kinds.__all__ for optional in ("", " | None")),
}
_CONVERTERS: dict[type, Any] = {}


def _indexed(report: CompileReport, name: str, key: Callable[[Any], str | None]) -> dict[str | None, list[Any]]:
    """``getattr(report, name)`` grouped by ``key``, kept on the report (never serialized) while that list is the same
    object: items appended since are added (the lists only grow while a report is built, and a frame's or graph's
    compile id is never changed once set); another list, or a shorter one, is indexed again."""
    items = getattr(report, name)
    cached = report._indexes.get(name)
    if cached is None or cached[0] is not items or cached[1] > len(items):
        cached = (items, 0, {})
    index: dict[str | None, list[Any]] = cached[2]
    for item in items[cached[1] :]:
        index.setdefault(key(item), []).append(item)
    report._indexes[name] = (items, len(items), index)
    return index


def _converter(cls: type) -> Any:
    """A function ``obj -> dict`` for one dataclass, generated once: plain fields are read directly,
    the others go through ``_to_json`` (``dataclasses.asdict`` deep-copies everything: ~10x slower)."""
    parts = []
    for f in dataclasses.fields(cls):
        if f.name.startswith("_"):  # what the object keeps for itself (CompileReport._indexes)
            continue
        value = f"o.{f.name}"
        parts.append(f"{f.name!r}: {value if f.type in _PLAIN else f'_to_json({value})'}")
    namespace: dict[str, Any] = {"_to_json": _to_json}
    exec(f"def convert(o):\n    return {{{', '.join(parts)}}}\n", namespace)  # noqa: S102 - field names only
    return namespace["convert"]


def json_ready(obj: Any) -> Any:
    """The JSON-ready form of a model object or a list of them (a part a run kept, ``CellRun.parts``)."""
    return _to_json(obj)


def _to_json(obj: Any) -> Any:
    """The JSON-ready form of a model object (dataclasses, lists and dicts of them, plain values)."""
    if obj is None or isinstance(obj, (str, int, float)):
        return obj
    if isinstance(obj, list):
        return [_to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {k: _to_json(v) for k, v in obj.items()}
    cls = type(obj)
    convert = _CONVERTERS.get(cls)
    if convert is None:
        if not dataclasses.is_dataclass(obj):
            return obj
        convert = _CONVERTERS[cls] = _converter(cls)
    return convert(obj)
