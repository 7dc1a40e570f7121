"""CUDA graphs: from what inductor decided and what the trees did to the report's rows ([Note: cudagraphs] in
``collectors/cudagraphs/cudagraphs.py``). Pure: ``Decision`` (one compiled graph's), ``Event`` (a recording, a re-recording, a
skip, a classified call), ``summarise`` (the ``CudaGraph`` rows) and ``explain`` (a row's state in plain words), tested on
constructed events.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import CudaGraph, CudaGraphSkippedAt, CudaGraphStatus, OutputKind
from ...summary import cudagraphs_reason

__all__ = ["Decision", "Event", "explain", "summarise"]

_MAX_REASONS = 8  # re-recording reasons kept per graph


@dataclass(slots=True)
class Decision:
    """What inductor decided for one compiled graph, at the end of its ``post_compile``."""

    compile_id: str
    kind: OutputKind
    wrapped: bool  # handed to CUDA graph trees
    reason: str | None  # inductor's own words, when not wrapped
    box_was_off: bool  # the shared box was off before this graph's own checks (a backward: its forward's doing)
    partitions: int  # callables handed to the trees (0 when not wrapped)
    note: str | None = None  # why, in the explorer's words, when inductor turned them off silently


@dataclass(slots=True)
class Event:
    """Something CUDA graph trees did for a graph at run time (``decision``: its index), or one classified call."""

    decision: int
    what: str  # record | rerecord | warmup | eager | skip | call:replay | call:record | call:eager
    detail: str | None = None


# --- from events to the report (pure: tested on constructed events) ----------------------------------


def summarise(
    decisions: list[Decision], events: list[Event], counted: bool, compile_messages: dict[str, list[str]] | None = None
) -> list[CudaGraph]:
    """One ``CudaGraph`` per decision (same order): its state, reason, recordings and, when ``counted``
    (--profile), its calls split into replays, recordings and eager runs."""
    rows: list[CudaGraph] = []
    for i, d in enumerate(decisions):
        mine = [e for e in events if e.decision == i]
        reason, from_forward = d.reason, False
        skipped_at: CudaGraphSkippedAt | None = "compile" if not d.wrapped else None
        if not d.wrapped and not reason and d.kind == "backward" and d.box_was_off:
            forward = _forward_of(decisions, i)
            if forward is not None and not forward.wrapped:
                reason, from_forward = forward.reason, True
        if not d.wrapped and not reason and compile_messages:
            said = compile_messages.get(d.compile_id) or []
            reason = said[-1] if said else None
        run_skips = [e.detail for e in mine if e.what == "skip" and e.detail]
        if run_skips:
            reason, skipped_at = run_skips[0], "run"
        rerecords = _distinct([e.detail for e in mine if e.what == "rerecord" and e.detail])
        recordings = sum(1 for e in mine if e.what == "record")
        warmups = sum(1 for e in mine if e.what in ("warmup", "eager"))
        status: CudaGraphStatus
        if skipped_at is not None:
            status = "skipped"
        elif rerecords:
            status = "rerecorded"
        elif recordings:
            status = "recorded"
        else:
            status = "not_recorded"
        calls = [e.what for e in mine if e.what.startswith("call:")]
        row = CudaGraph(
            compile_id=d.compile_id,
            kind=d.kind,
            graph_id=None,
            status=status,
            reason=reason,
            reason_text=cudagraphs_reason(reason) or None,
            skipped_at=skipped_at,
            from_forward=from_forward,
            explanation=None,
            partitions=d.partitions if d.wrapped else None,
            recordings=recordings,
            rerecord_reasons=rerecords[:_MAX_REASONS],
            warmups=warmups,
            calls=len(calls) if counted else None,
            replays=calls.count("call:replay") if counted else None,
            eager_runs=calls.count("call:eager") if counted else None,
        )
        row.explanation = explain(row) if row.reason or not d.note else d.note
        rows.append(row)
    return rows


def _forward_of(decisions: list[Decision], i: int) -> Decision | None:
    """The forward compiled before backward ``decisions[i]`` under the same compile id (the latest one)."""
    return next(
        (d for d in reversed(decisions[:i]) if d.compile_id == decisions[i].compile_id and d.kind == "forward"),
        None,
    )


def _distinct(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


_EXPLAINED = (  # a piece of inductor's reason -> what it means, for people
    (
        "no CUDA device",
        "the graph runs no CUDA code: CUDA graphs record CUDA work only (inductor's graph "
        "partitioning sets CPU ops aside, so a CPU graph leaves no device to name)",
    ),
    ("cpu device", "the graph runs ops on the CPU: a CUDA graph records CUDA work only"),
    ("multiple devices", "the graph uses more than one device: a CUDA graph records one"),
    (
        "exceeding max re-recording limit",
        "it had to be recorded again too often (an input's address kept "
        "changing): inductor runs it without CUDA graphs from then on",
    ),
    ("input storage mutation", "the graph swaps an input's storage (set_): a replay could not follow it"),
    (
        "mutated inputs",
        "the graph writes into an input that CUDA graphs do not manage (not a parameter, a buffer "
        "or an output of an earlier CUDA graph): a replay would write into its recorded copy instead",
    ),
    ("non-Tensor inputs", "the graph takes an input that is not a tensor, a symbolic int or a generator"),
    ("incompatible op", "the graph holds an op a CUDA graph cannot capture (it syncs with the host or depends on data)"),
    ("symbolic shapes", "the graph has dynamic shapes and triton.cudagraph_skip_dynamic_graphs is set"),
    ("caching allocator", "CUDA's caching allocator is off: recording needs it"),
    ("annotation", "an override_cudagraphs annotation turned CUDA graphs off for it"),
    ("bisector", "the compiler bisector turned CUDA graphs off for it"),
)


def explain(row: CudaGraph) -> str | None:
    """What a row's state means, in plain words (the reason itself stays inductor's)."""
    if row.from_forward:
        return (
            "inductor decides CUDA graphs once for a forward and its backward, and the forward was skipped: "
            f"{_meaning(row.reason) or cudagraphs_reason(row.reason)}"
        )
    if row.status == "skipped":
        meaning = _meaning(row.reason)
        if meaning:
            return meaning
        return None if row.reason else "inductor turned CUDA graphs off for this graph without saying why"
    if row.status == "rerecorded":
        return (
            "recorded again because a recorded graph no longer fit its call (an input's address or a static "
            "input changed); each recording costs a capture and memory"
        )
    if row.status == "recorded":
        again = f", once per path in the tree of CUDA graphs ({row.recordings} recordings)" if row.recordings > 1 else ""
        return f"recorded as a CUDA graph{again}; later calls replay it"
    if row.warmups:
        return "handed to CUDA graph trees but not recorded: its calls ran as warm-ups (a graph is recorded at the call after its warm-up)"
    return "handed to CUDA graph trees but never recorded in this run (it was not called after its compile)"


def _meaning(reason: str | None) -> str | None:
    short = cudagraphs_reason(reason)
    return next((text for key, text in _EXPLAINED if key in short), None) if short else None
