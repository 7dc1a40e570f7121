"""The teaching panes' parts: ``--trace-steps`` (Dynamo's symbolic execution step by step), the fixes on offer and
``--try``'s before and after, and the dispatch view of each compiled code.

One slotted dataclass per schema definition, fields in the schema's order (``compiler/model/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .kinds import FallbackAction, FixKind, FixTargetKind, GuardDifference, TraceBreakAction, TraceOutcome

if TYPE_CHECKING:
    from .frames import CodeInfo, Instruction

_kw = {"slots": True, "kw_only": True}


@dataclass(**_kw)
class TraceNode:
    name: str
    op: str
    target: str


@dataclass(**_kw)
class TraceBreak:
    action: TraceBreakAction
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
    outcome: TraceOutcome


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
    compile_id: str | None  # None: an export call's (kind export)
    kind: FixTargetKind
    index: int


@dataclass(**_kw)
class Fix:
    name: str
    title: str
    kind: FixKind
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
    exports_failed: int | None = None


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
    difference: GuardDifference
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
    action: FallbackAction
    limit_name: str
    limit: int
    limit_hit: bool
    reason: str


@dataclass(**_kw)
class DispatchCode:
    code: CodeInfo
    entries: list[DispatchEntry]
    shared_guards: int
    fallback: DispatchFallback
    text: str
