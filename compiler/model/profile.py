"""What ``--profile`` and ``--compare-eager`` measured (hits and time per cache entry and graph, eager gaps, coverage,
the backward, the eager baseline), and what became of CUDA graphs.

One slotted dataclass per schema definition, fields in the schema's order (``compiler/model/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import CudaGraphSkippedAt, CudaGraphStatus, EagerGapCause, OutputKind

_kw = {"slots": True, "kw_only": True}


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
    cause: EagerGapCause
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
class CudaGraph:
    """What became of CUDA graphs for one compiled graph (``report.cudagraphs``; collectors/cudagraphs/cudagraphs.py)."""

    compile_id: str
    kind: OutputKind
    graph_id: int | None
    status: CudaGraphStatus
    reason: str | None
    #: a default amid fields without one: ``kw_only`` said here too, as mypy does not read the class's ``**_kw``
    reason_text: str | None = field(default=None, kw_only=True)  # reason in a few words (compiler.summary.cudagraphs_reason)
    skipped_at: CudaGraphSkippedAt | None
    from_forward: bool
    explanation: str | None
    partitions: int | None
    recordings: int
    rerecord_reasons: list[str]
    warmups: int
    calls: int | None
    replays: int | None
    eager_runs: int | None
