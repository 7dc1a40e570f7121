"""Where a report came from and what it holds in part: the parts a report holds only in part (kept whole by the
process that ran it), and a report read from a structured trace (its logs, what it lacks, its cache decisions).

One slotted dataclass per schema definition, fields in the schema's order (``compiler/model/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import CacheName, CacheStatus, CutPart

_kw = {"slots": True, "kw_only": True}


@dataclass(**_kw)
class PartCut:
    """An artifact kept in part in the report, whole in the process that ran it (``report.parts_cut``; minor 9)."""

    key: str
    part: CutPart
    compile_id: str
    kept: int
    total: int
    log: LogSpan | None = None  # where the whole part is in a trace's log (minor 24)
    graph: int | None = None  # graph_code: the graph's id (minor 25)


@dataclass(**_kw)
class LogSpan:
    """A payload in a structured-trace log: its lines' bytes (``PartCut.log``; minor 24; compiler/trace/parts.py)."""

    path: str
    offset: int
    length: int


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
    """One cache decision of a compile (``frames[].caches``, minor 16; ``trace.caches``, minor 10)."""

    compile_id: str | None
    cache: CacheName
    status: CacheStatus
    key: str | None
    reason: str | None
    detail: str | None = None  # torch's cache_status_detailed (minor 16)
    exception_type: str | None = None
    time_saved_ms: float | None = None
    components: int | None = None
    compared_with: str | None = None
    differs: list[CacheDifference] = field(default_factory=list)
    hashes: dict[str, str] | None = None  # one short hash a part of the key (minor 17)
    guard_expr: str | None = None  # a guard_miss: the entry's guards, in the frame's symbols (minor 18)
    guard_hints: dict[str, int] | None = None
    guard_failed: list[str] | None = None


@dataclass(**_kw)
class CacheDifference:
    """A key component whose hash differs from the nearest earlier entry's (``CacheDecision.differs``; minor 16)."""

    component: str
    before: str | None
    after: str | None
    lines: list[str] = field(default_factory=list)


@dataclass(**_kw)
class TraceSource:
    """Where a report read from a structured trace came from (``report.trace``; scope 'trace'; minor 10)."""

    logs: list[TraceLogFile]
    rank: int | None
    missing: list[TraceMissing] = field(default_factory=list)
    caches: list[CacheDecision] = field(default_factory=list)
