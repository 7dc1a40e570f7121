"""What Dynamo compiled, frame by frame: a frame's code and bytecode, its guards, graph breaks, recompile reasons,
compile phases and decisions; the graphs (nodes), inductor's output code and kernels, dynamic-shape symbols and
shape guards, logs, errors, diagnostics, resets and source files; DDP's splits of a graph.

One slotted dataclass per schema definition, fields in the schema's order (``compiler/model/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import (
    DecisionKind,
    DecisionOutcome,
    DiagnosticKind,
    DynamicKind,
    FrameStatus,
    GraphKind,
    KernelLanguage,
    NameRefKind,
    NodeOp,
    OutputKind,
    PhaseKind,
    SourceKind,
)
from .trace import CacheDecision

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
    kind: NameRefKind
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
    what: str = ""  # filled by collectors/guards/guard_failures.py (compiler.summary.failure_what)


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
    kind: PhaseKind = "other"
    instant: bool = False


@dataclass(**_kw)
class AutomaticDynamic:
    source: str
    kind: DynamicKind
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
    decision: DecisionKind
    rule: str
    variable: str
    call_filename: str
    call_line: int | None
    depth: int
    parent: int | None
    outcome: DecisionOutcome
    graph_break: int | None
    error: str | None


@dataclass(**_kw)
class Frame:
    compile_id: str
    attempt: int
    status: FrameStatus
    code: CodeInfo
    parent_compile_id: str | None = None
    original_bytecode: list[Instruction] = field(default_factory=list)
    modified_bytecode: list[Instruction] = field(default_factory=list)
    decompiled_source: str | None = None
    decompile_error: str | None = None
    guards: list[Guard] = field(default_factory=list)
    guard_tree: str | None = None
    guard_count: int | None = None  # the one count of the frame's guards (minor 24)
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    recompile_reasons: list[RecompileReason] = field(default_factory=list)
    graph_ids: list[int] = field(default_factory=list)
    fail_type: str | None = None
    fail_reason: str | None = None
    compile_time_s: float | None = None
    phases: list[Phase] = field(default_factory=list)
    automatic_dynamic: list[AutomaticDynamic] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    cache_story: str | None = None  # the compile's cache story in one line (minor 16)
    caches: list[CacheDecision] = field(default_factory=list)
    start_time: float | None = None  # compilation_metrics.start_time (seconds since the epoch; minor 12)


@dataclass(**_kw)
class Node:
    name: str
    op: NodeOp
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
    compile_id: str | None  # None: an exported program's graph (kind export)
    kind: GraphKind
    name: str | None
    nodes: list[Node]
    code: str
    # ``dot`` (schema: deprecated, not written since minor 4) has no field: the renderer writes the DOT


@dataclass(**_kw)
class Kernel:
    name: str
    language: KernelLanguage
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
    kind: OutputKind
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
    kind: DiagnosticKind
    message: str
    compile_id: str | None = None


@dataclass(**_kw)
class DynamoReset:
    """A ``torch._dynamo.reset()`` the cell made while it ran (``report.resets``)."""

    line: int | None
    frames_before: int
    #: the ``@n`` of the compile ids after it, when the run had compiled before it; else None (minor 14)
    epoch: int | None
    message: str


@dataclass(**_kw)
class SourceExcerpt:
    first_line: int
    text: str


@dataclass(**_kw)
class SourceFile:
    filename: str
    label: str
    kind: SourceKind
    excerpts: list[SourceExcerpt] = field(default_factory=list)


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
