"""The Python model of the compile report: one slotted dataclass per schema definition.

Field names and order follow ``schema/compile_report.v1.schema.json`` (the contract); ``to_json()``
gives the JSON-ready dict that is validated against it. Conversion from torch objects lives in the
collectors, not here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .schema import SCHEMA_VERSION

__all__ = [
    "AutomaticDynamic",
    "BackwardProfile",
    "CallsProfile",
    "CodeInfo",
    "CompileReport",
    "Coverage",
    "CudaGraph",
    "DdpParameter",
    "DdpSplit",
    "DdpSubmodule",
    "Decision",
    "Diagnostic",
    "DispatchCode",
    "DispatchEntry",
    "DispatchFallback",
    "DispatchGuard",
    "DynamoReset",
    "EagerBaseline",
    "EagerGap",
    "EntryProfile",
    "ErrorInfo",
    "Fix",
    "FixTarget",
    "Frame",
    "FrameCoverage",
    "FunctionSpeedup",
    "Graph",
    "GraphBreak",
    "GraphProfile",
    "Guard",
    "GuardFailure",
    "Instruction",
    "Kernel",
    "KernelCall",
    "KernelProfile",
    "LogRecord",
    "NameRef",
    "Node",
    "OutputCode",
    "PartCut",
    "Phase",
    "Profile",
    "RecompileReason",
    "RunOutcome",
    "ShapeGuard",
    "SourceExcerpt",
    "SourceFile",
    "StackFrame",
    "Symbol",
    "TraceAttempt",
    "TraceBreak",
    "TraceCode",
    "TraceNode",
    "TraceStep",
    "TraceSteps",
    "TryFix",
    "json_ready",
]

_kw = {"slots": True, "kw_only": True}


@dataclass(**_kw)
class CodeInfo:
    name: str
    filename: str
    firstlineno: int
    is_resume: bool
    in_cell: bool


@dataclass(**_kw)
class NameRef:
    kind: str  # compiled_fn | resume | import | builtins_dict
    name: str
    graph_id: int | None = None
    compile_id: str | None = None


@dataclass(**_kw)
class Instruction:
    offset: int
    opname: str
    argrepr: str
    line: int | None
    is_jump_target: bool
    jump_target: int | None
    ref: NameRef | None = None


@dataclass(**_kw)
class Guard:
    type: str
    source: str
    code: list[str]
    line: int | None
    origin: str


@dataclass(**_kw)
class StackFrame:
    filename: str
    line: int | None
    name: str
    code: str | None = None


@dataclass(**_kw)
class GraphBreak:
    gb_id: str | None
    gb_type: str
    reason: str
    explanation: str | None
    hints: list[str]
    doc_url: str | None
    context: str | None
    filename: str | None
    line: int | None
    user_stack: list[StackFrame]


@dataclass(**_kw)
class GuardFailure:
    guard_type: str
    source: str
    property: str | None
    check: str
    expected: str
    actual: str | None
    line: int | None
    in_reason: bool


@dataclass(**_kw)
class RecompileReason:
    failed_compile_id: str | None
    reason: str
    failures: list[GuardFailure] = field(default_factory=list)
    failures_note: str | None = None


@dataclass(**_kw)
class Phase:
    name: str
    ms: float
    start_ms: float = 0.0
    parent: int | None = None
    event: str | None = None
    label: str = ""
    kind: str = "other"  # PhaseKind in the schema
    instant: bool = False


@dataclass(**_kw)
class AutomaticDynamic:
    source: str
    kind: str  # tensor | scalar
    dims: list[int]
    now: str
    marked_in: str | None
    was: str | None
    was_from_earlier_run: bool


@dataclass(**_kw)
class Decision:
    name: str
    module: str | None
    filename: str | None
    line: int | None
    decision: str  # inline | skip | disabled | allow_in_graph | in_graph | builtin | polyfill | other
    rule: str
    variable: str
    call_filename: str
    call_line: int | None
    depth: int
    parent: int | None
    outcome: str  # ok | graph_break | raised
    graph_break: int | None
    error: str | None


@dataclass(**_kw)
class Frame:
    compile_id: str
    attempt: int
    status: str
    code: CodeInfo
    parent_compile_id: str | None = None
    original_bytecode: list[Instruction] = field(default_factory=list)
    modified_bytecode: list[Instruction] = field(default_factory=list)
    decompiled_source: str | None = None
    decompile_error: str | None = None
    guards: list[Guard] = field(default_factory=list)
    guard_tree: str | None = None
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    recompile_reasons: list[RecompileReason] = field(default_factory=list)
    graph_ids: list[int] = field(default_factory=list)
    fail_type: str | None = None
    fail_reason: str | None = None
    compile_time_s: float | None = None
    phases: list[Phase] = field(default_factory=list)
    automatic_dynamic: list[AutomaticDynamic] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    start_time: float | None = None  # compilation_metrics.start_time (seconds since the epoch; minor 12)


@dataclass(**_kw)
class Node:
    name: str
    op: str
    target: str
    args: str
    kwargs: str
    users: list[str]
    shape: list[int | str] | None
    dtype: str | None
    line: int | None
    filename: str | None
    nn_module_stack: list[str]


@dataclass(**_kw)
class Graph:
    id: int
    compile_id: str
    kind: str  # dynamo | dynamo_partial | ddp_split_graph | ddp_split_child | aot_joint | aot_forward | aot_backward | aot_inference
    name: str | None
    nodes: list[Node]
    code: str
    # ``dot`` (schema: deprecated, not written since minor 4) has no field: the renderer writes the DOT


@dataclass(**_kw)
class Kernel:
    name: str
    language: str
    source: str
    nodes: list[str] = field(default_factory=list)
    aot_nodes: list[str] = field(default_factory=list)


@dataclass(**_kw)
class KernelCall:
    kernel: str
    line: int
    nodes: list[str]
    aot_nodes: list[str]


@dataclass(**_kw)
class OutputCode:
    compile_id: str
    kind: str
    source: str
    kernels: list[Kernel]
    calls: list[KernelCall] = field(default_factory=list)


@dataclass(**_kw)
class Symbol:
    compile_id: str
    symbol: str
    source: str
    value: str
    range: str
    line: int | None
    specialized_to: str | None = None
    specialization_reason: str | None = None
    specialization_guard: str | None = None


@dataclass(**_kw)
class ShapeGuard:
    compile_id: str
    expr: str
    line: int | None
    note: str | None = None


@dataclass(**_kw)
class LogRecord:
    level: str
    logger: str
    message: str
    compile_id: str | None


@dataclass(**_kw)
class ErrorInfo:
    type: str
    message: str
    line: int | None
    compile_id: str | None


@dataclass(**_kw)
class Diagnostic:
    kind: str
    message: str
    compile_id: str | None = None


@dataclass(**_kw)
class DynamoReset:
    """A ``torch._dynamo.reset()`` the cell made while it ran (``report.resets``)."""

    line: int | None
    frames_before: int
    next_frame_id: int | None
    message: str


@dataclass(**_kw)
class SourceExcerpt:
    first_line: int
    text: str


@dataclass(**_kw)
class SourceFile:
    filename: str
    label: str
    kind: str
    excerpts: list[SourceExcerpt] = field(default_factory=list)


@dataclass(**_kw)
class KernelProfile:
    name: str
    calls: int
    device_ms: float


@dataclass(**_kw)
class CallsProfile:
    """Calls of one compiled graph measured together: its first call, or the calls after it (the steady state)."""

    calls: int
    host_ms: float
    compile_ms: float
    device_ms: float | None
    kernels: int
    compile_device_ms: float | None
    compile_kernels: int


@dataclass(**_kw)
class GraphProfile:
    graph_id: int | None
    compile_id: str
    calls: int
    total_ms: float
    mean_ms: float
    device_ms: float | None
    ops: int
    kernels: list[KernelProfile] = field(default_factory=list)
    first_call: CallsProfile | None = None
    steady: CallsProfile | None = None


@dataclass(**_kw)
class EntryProfile:
    compile_id: str
    hits: int
    total_ms: float
    self_ms: float
    graph_ms: float
    eager_ms: float
    eager_ops: int
    cache_lookup_ms: float


@dataclass(**_kw)
class EagerGap:
    cause: str  # graph_break | frame | outside | backward
    compile_id: str | None
    break_index: int | None
    calls: int
    ms: float
    ops: int


@dataclass(**_kw)
class FrameCoverage:
    compile_id: str
    graph_calls: int
    captured_ops: int
    total_ops: int
    pct_ops: float
    pct_time: float


@dataclass(**_kw)
class Coverage:
    unique_graphs: int
    graph_calls: int
    captured_ops: int
    total_ops: int
    pct_ops: float
    pct_time: float
    frames: list[FrameCoverage] = field(default_factory=list)


@dataclass(**_kw)
class BackwardProfile:
    compiled_calls: int
    compiled_ms: float
    eager_nodes: int
    eager_ms: float
    compile_ms: float = 0.0
    device_ms: float | None = None
    other_thread_calls: int = 0


@dataclass(**_kw)
class Profile:
    method: str
    device: str
    wall_ms: float
    compiled_ms: float
    eager_ms: float
    compile_ms: float
    cache_lookup_ms: float
    cache_lookups: int
    graphs: list[GraphProfile]
    entries: list[EntryProfile]
    eager: list[EagerGap]
    coverage: Coverage
    backward: BackwardProfile
    eager_device_ms: float | None = None
    compile_device_ms: float | None = None
    eager_kernels: list[KernelProfile] = field(default_factory=list)


@dataclass(**_kw)
class FunctionSpeedup:
    name: str
    line: int
    compile_ids: list[str]
    calls: int
    eager_ms: float
    compiled_ms: float
    speedup: float | None


@dataclass(**_kw)
class EagerBaseline:
    method: str
    eager_ms: float
    compiled_ms: float
    compile_ms: float
    speedup: float | None
    functions: list[FunctionSpeedup] = field(default_factory=list)


@dataclass(**_kw)
class TraceNode:
    name: str
    op: str
    target: str


@dataclass(**_kw)
class TraceBreak:
    action: str  # restart | compiled | unsupported | error
    gb_type: str | None
    reason: str
    break_index: int | None = None


@dataclass(**_kw)
class TraceStep:
    index: int
    attempt: int
    depth: int
    tx: int
    code: int
    offset: int | None
    opname: str
    argrepr: str
    line: int | None
    stack: list[str]
    locals: dict[str, str]
    fx_nodes: list[TraceNode] = field(default_factory=list)
    graph_break: TraceBreak | None = None


@dataclass(**_kw)
class TraceAttempt:
    attempt: int
    first_step: int
    steps: int
    outcome: str  # compiled | restart | failed | cut


@dataclass(**_kw)
class TraceCode:
    name: str
    filename: str
    label: str | None
    firstlineno: int
    source: str | None
    instructions: list[Instruction]


@dataclass(**_kw)
class TraceSteps:
    requested: str
    compile_id: str | None
    code_name: str | None
    filename: str | None
    cap: int
    truncated: bool
    total_steps: int
    note: str | None
    codes: list[TraceCode]
    attempts: list[TraceAttempt]
    steps: list[TraceStep]


@dataclass(**_kw)
class FixTarget:
    compile_id: str
    kind: str  # graph_break | recompile | failure
    index: int


@dataclass(**_kw)
class Fix:
    name: str
    title: str
    kind: str  # config | option | mark | register | source_edit | hint
    api: str
    code: str
    why: str
    runnable: bool
    targets: list[FixTarget] = field(default_factory=list)


@dataclass(**_kw)
class RunOutcome:
    frames: int
    graphs: int
    graph_breaks: int
    recompiles: int
    error: str | None
    wall_ms: float
    compile_ms: float
    compiled_ms: float | None
    eager_ms: float | None


@dataclass(**_kw)
class TryFix:
    fix: Fix
    before_from: str
    before: RunOutcome
    after: RunOutcome
    change: str
    restored: str


@dataclass(**_kw)
class DispatchGuard:
    kind: str
    source: str
    check: str
    property: str | None
    value: str | None
    difference: str  # differs | only_here
    summary: str
    text: str
    line: int | None


@dataclass(**_kw)
class DispatchEntry:
    compile_id: str
    in_run: bool
    live: bool
    guard_count: int
    distinguishing: list[DispatchGuard]
    hits: int | None


@dataclass(**_kw)
class DispatchFallback:
    action: str  # recompile | eager | error
    limit_name: str
    limit: int
    limit_hit: bool
    reason: str


@dataclass(**_kw)
class PartCut:
    """An artifact kept in part in the report, whole in the process that ran it (``report.parts_cut``; minor 9)."""

    key: str
    part: str  # 'guards' | 'guard_tree'
    compile_id: str
    kept: int
    total: int


@dataclass(**_kw)
class TraceLogFile:
    """One log file a report was read from (``report.trace.logs``; minor 10; compiler/trace/)."""

    path: str
    rank: int | None
    lines: int
    records: int
    skipped: int
    bytes: int


@dataclass(**_kw)
class TraceMissing:
    """What a pane shows for a captured run that a structured trace does not hold, and why (minor 10)."""

    pane: str
    what: str
    why: str


@dataclass(**_kw)
class CacheDecision:
    """One cache decision a structured trace records (minor 10): ``cache`` fx_graph | aotautograd, ``status``
    hit | miss | bypass."""

    compile_id: str | None
    cache: str
    status: str
    key: str | None
    reason: str | None


@dataclass(**_kw)
class TraceSource:
    """Where a report read from a structured trace came from (``report.trace``; scope 'trace'; minor 10)."""

    logs: list[TraceLogFile]
    rank: int | None
    missing: list[TraceMissing] = field(default_factory=list)
    caches: list[CacheDecision] = field(default_factory=list)


@dataclass(**_kw)
class DdpParameter:
    """A parameter of one piece of a DDP split: the graph input Dynamo named from its source (minor 12)."""

    name: str
    shape: list[int | str] | None
    dtype: str | None
    bytes: int | None


@dataclass(**_kw)
class DdpSubmodule:
    """One piece DDPOptimizer cut a graph into (``submod_0``, ...), the graph the backend got for it (minor 12)."""

    name: str
    graph_id: int | None
    parameters: list[DdpParameter]
    bytes: int


@dataclass(**_kw)
class DdpSplit:
    """A Dynamo graph DDPOptimizer split at DDP's bucket boundaries (``report.ddp_splits``; collectors/ddp_splits.py)."""

    compile_id: str
    graph_id: int | None  # the split graph (kind ddp_split_graph)
    bucket_cap_bytes: int | None
    submodules: list[DdpSubmodule]


@dataclass(**_kw)
class CudaGraph:
    """What became of CUDA graphs for one compiled graph (``report.cudagraphs``; collectors/cudagraphs.py)."""

    compile_id: str
    kind: str  # forward | backward | inference
    graph_id: int | None
    status: str  # recorded | rerecorded | skipped | not_recorded
    reason: str | None
    skipped_at: str | None  # compile | run
    from_forward: bool
    explanation: str | None
    partitions: int | None
    recordings: int
    rerecord_reasons: list[str]
    warmups: int
    calls: int | None
    replays: int | None
    eager_runs: int | None


@dataclass(**_kw)
class DispatchCode:
    code: CodeInfo
    entries: list[DispatchEntry]
    shared_guards: int
    fallback: DispatchFallback
    text: str


@dataclass(**_kw)
class CompileReport:
    torch_version: str
    python_version: str
    device: str
    backend: str
    options: dict[str, Any]
    scope: str
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
    #: ``frame()``'s and ``graphs_of()``'s indexes (``_indexed``); a name with ``_`` is never serialized
    _indexes: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def frame(self, compile_id: str) -> Frame | None:
        """The frame of ``compile_id`` (the first), or None, through an index of the frames (``_indexed``: a trace of
        10,000s of compiles looks up each of its records)."""
        return _indexed(self, "frames", lambda f: f.compile_id).get(compile_id, [None])[0]

    def graphs_of(self, compile_id: str) -> list[Graph]:
        """The graphs of ``compile_id``, in order (indexed as ``frame`` is)."""
        return list(_indexed(self, "graphs", lambda g: g.compile_id).get(compile_id, ()))

    def add_graph(self, *, compile_id: str, kind: str, nodes: list[Node], code: str) -> Graph:
        """Append a graph under the next id and list it on its frame (when that frame is in the report)."""
        graph = Graph(id=len(self.graphs), compile_id=compile_id, kind=kind, name=None, nodes=nodes, code=code)
        self.graphs.append(graph)
        frame = self.frame(compile_id)
        if frame is not None:
            frame.graph_ids.append(graph.id)
        return graph

    def diagnose(self, kind: str, message: str, compile_id: str | None = None) -> None:
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
}
_CONVERTERS: dict[type, Any] = {}


def _indexed(report: CompileReport, name: str, key: Callable[[Any], str]) -> dict[str, list[Any]]:
    """``getattr(report, name)`` grouped by ``key``, kept on the report (never serialized) while that list is the same
    object: items appended since are added (the lists only grow while a report is built, and a frame's or graph's
    compile id is never changed once set); another list, or a shorter one, is indexed again."""
    items = getattr(report, name)
    cached = report._indexes.get(name)
    if cached is None or cached[0] is not items or cached[1] > len(items):
        cached = (items, 0, {})
    index: dict[str, list[Any]] = cached[2]
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
