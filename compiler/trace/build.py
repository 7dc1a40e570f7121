"""A ``CompileReport`` from the events of one structured-trace log (one process: one rank).

One builder per pane, the live collectors' own where a live run reads the same thing:
- frames: ``compilation_metrics`` (Dynamo's record of every compile: code, fail type and reason, time), else the
  ``dynamo_start`` stack of a compile that never finished; the status by ``links.frame_status``;
- bytecode: a resume function's ``*_ORIGINAL_BYTECODE`` / ``*_MODIFIED_BYTECODE`` listings
  (``bytecode.rows_from_listing``); a top-level frame's are not in a trace (``trace.missing`` says so);
- Dynamo graphs: ``dynamo_output_graph`` (its readable code: ``aot_graphs.parse_readable``); AOT graphs
  (``aot_graphs.add_aot_graphs``) and inductor's output code (``output_code.add_output_code``) as live; DDP's splits:
  ``optimize_ddp_split_graph`` / ``optimize_ddp_split_child`` (``ddp_splits.add_split``, as live);
- graph breaks: ``dynamo_graph_break_reason`` (``graph_breaks.add_graph_breaks``);
- guards, recompiles, dynamic shapes, compile phases and cache decisions: ``trace/panes.py``;
- export calls (``TORCH_DTRACE``'s ``export`` and ``exported_program``): ``exports_trace.add_exports``.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
from collections.abc import Iterable
from typing import Any

from ..bytecode import RESUME_PREFIX, rows_from_listing
from ..collectors.aot_graphs import add_aot_graphs, parse_readable
from ..collectors.caches.cache_story import CACHE_ARTIFACT, attach, cache_line, read
from ..collectors.ddp_splits import SPLIT_CHILD, SPLIT_GRAPH, add_split
from ..collectors.exports.exports_trace import PAYLOADS as EXPORT_PAYLOADS
from ..collectors.exports.exports_trace import add_exports
from ..collectors.graph_breaks.graph_breaks import add_graph_breaks
from ..collectors.links import frame_status
from ..collectors.output_code.output_code import PAYLOADS as OUTPUT_CODE_EVENTS
from ..collectors.output_code.output_code import add_output_code
from ..events import TraceEvent
from ..model import (
    CodeInfo,
    CompileReport,
    Frame,
    TraceLogFile,
    TraceMissing,
    TraceSource,
)
from .panes import TreeDigest, guards, lazy_tree, phases, recompiles, shapes
from .parts import PageTrees
from .reader import TraceLog, read_events

__all__ = ["PAYLOAD_EVENTS", "keep_payload", "report_from_events", "report_from_log"]

_BYTECODE = re.compile(r"^artifact:(?P<code>.+)_(?P<which>ORIGINAL|MODIFIED)_BYTECODE$")

#: the events whose payload a pane reads; every other payload is skipped while reading (a multi-GB log)
PAYLOAD_EVENTS = frozenset(
    {
        "dynamo_output_graph",
        "dynamo_cpp_guards_str",
        "chromium_event",
        "artifact:dynamo_graph_break_reason",
        "artifact:recompile_reasons",
        "artifact:torch_version",
        "aot_joint_graph",
        "aot_forward_graph",
        "aot_backward_graph",
        "aot_inference_graph",
        SPLIT_GRAPH,
        SPLIT_CHILD,
        *OUTPUT_CODE_EVENTS,
        *EXPORT_PAYLOADS,
    }
)

#: what a captured run shows that no structured trace holds
_BYTECODE_MISSING = TraceMissing(
    pane="original-bytecode",
    what="the original and modified bytecode of a top-level frame (a resume function's are in the trace)",
    why="torch writes only the bytecode of the resume functions it generates to TORCH_TRACE; run the script with "
    "dynamo-explorer run to see every frame's",
)
_NO_BYTECODE = TraceMissing(
    pane="original-bytecode",
    what="the original and modified bytecode of every frame",
    why="the torch that wrote this trace writes no bytecode to it (torch 2.12 and later write a resume function's); "
    "run the script with dynamo-explorer run to see every frame's",
)
_ALWAYS_MISSING = (
    TraceMissing(
        pane="guards",
        what="every failing guard of a recompile (expected vs actual); the trace names the first",
        why="Dynamo's recompile_reasons artifact holds the first failing guard of each cache entry; dynamo-explorer run "
        "evaluates every guard",
    ),
    TraceMissing(
        pane="profile",
        what="run time: calls, hits and time per graph",
        why="a structured trace records compiles only; dynamo-explorer run --profile measures the run",
    ),
)


def keep_payload(name: str) -> bool:
    """Is the payload of an event named ``name`` read by a pane?"""
    return name in PAYLOAD_EVENTS or _BYTECODE.match(name) is not None or CACHE_ARTIFACT.match(name) is not None


#: records no pane reads past the first (``_device`` reads one describe_tensor): named and counted, never parsed; a
#: big log holds three a tensor a compile (a 12-layer encoder's warm-up: 94 % of its records)
_SKIMMED = frozenset({"describe_storage", "describe_source"})


def report_from_log(log: TraceLog, trees: PageTrees | None = None) -> CompileReport:
    """The report of one log file, read in one streaming pass (``log.stats`` filled); a big guard tree is counted as
    it streams by and left in the log ([Note: a trace's big guard trees] in panes.py), and handed to ``trees``, where
    given, to be compressed for a page while the reading goes on."""
    events: list[TraceEvent] = []
    device: list[str] = []  # the device, once a describe_tensor has told it: the rest are skimmed
    path = os.path.abspath(log.path)

    def skim(name: str) -> bool:
        return name in _SKIMMED or (name == "describe_tensor" and bool(device))

    def digest(name: str, lines: bytes, offset: int) -> TreeDigest | None:
        found = lazy_tree(name, lines)
        if found is None:
            return None
        if trees is not None:
            trees.hold((path, offset, len(lines)), found[1])
        return found[0]

    for ev in read_events(log, keep_payload, skim, digest):
        if not device and (found := _device_of(ev)):
            device.append(found)
        events.append(ev)
    source = TraceLogFile(
        path=log.path,
        rank=log.rank,
        lines=log.stats.lines,
        records=log.stats.records,
        skipped=log.stats.skipped,
        bytes=log.stats.bytes,
    )
    return report_from_events(events, source, log.stats.skimmed)


def report_from_events(
    events: list[TraceEvent], source: TraceLogFile, skimmed: collections.Counter[str] | None = None
) -> CompileReport:
    """The report of one log's ``events``; ``skimmed``: the records the reader counted by name only."""
    metrics = _metrics(events)
    versions = _versions(events, metrics)
    report = CompileReport(
        torch_version=versions[0],
        python_version=versions[1],
        device=_device(events),
        backend=_backend(events),
        options={
            "backend": _backend(events),
            "mode": None,
            "dynamic": None,
            "fullgraph": False,
            "scope": "trace",
            "recompile_limit": _recompile_limit(metrics),
        },
        scope="trace",
        scope_reason=f"read from the structured trace {source.path}"
        + (f" (rank {source.rank})" if source.rank is not None else "")
        + ": nothing was run here; every pane shows what the trace records",
        cell={"filename": source.path, "source": ""},
    )
    has_bytecode = any(_BYTECODE.match(ev.name) for ev in events)
    missing = [_BYTECODE_MISSING if has_bytecode else _NO_BYTECODE, *_ALWAYS_MISSING]
    report.trace = TraceSource(logs=[source], rank=source.rank, missing=missing)
    _frames(report, events, metrics)
    _bytecode(report, events)
    _dynamo_graphs(report, events)
    _ddp_splits(report, events)
    add_aot_graphs(report, events)
    add_output_code(report, [ev for ev in events if ev.name in OUTPUT_CODE_EVENTS])
    guards(report, events)
    records = [(ev.compile_id, ev.payload) for ev in events if ev.name == "artifact:dynamo_graph_break_reason" and ev.payload]
    add_graph_breaks(report, [(cid, text) for cid, text in records if text is not None], cell="")
    recompiles(report, events, metrics)
    shapes(report, events)
    phases(report, events)
    cache_reads = read(events)  # [Note: cache story]: the reader a live run's collector uses
    report.trace.caches = [r.decision for r in cache_reads]
    attach(report, cache_reads)
    for frame in report.frames:
        frame.cache_story = cache_line(frame.caches) or None
    _link_graphs(report)
    add_exports(report, events)
    for frame in report.frames:
        frame.status = frame_status(frame, report)
        if frame.status == "error":
            first = (frame.fail_reason or "").strip().splitlines()
            report.diagnose(
                "compile_failed",
                f"[{frame.compile_id}] {frame.code.name}: {frame.fail_type}: {first[0] if first else ''}",
                frame.compile_id,
            )
    report.timings = {"wall_s": 0.0, "compile_s": sum(f.compile_time_s or 0.0 for f in report.frames), "capture_s": 0.0}
    if not report.frames:
        report.trace.missing.insert(0, _no_compile(events, exports=len(report.exports), skimmed=skimmed))
    return report


def _no_compile(events: list[TraceEvent], exports: int = 0, skimmed: collections.Counter[str] | None = None) -> TraceMissing:
    """What a log without a single torch.compile frame holds instead (a torch.export run, a vLLM pass, a stub)."""
    kinds = collections.Counter(ev.name for ev in events) + (skimmed or collections.Counter())
    held = ", ".join(f"{name} ×{n}" for name, n in kinds.most_common(4)) or "no records"
    return TraceMissing(
        pane="frames",
        what="a frame torch.compile compiled: the log holds none (no dynamo_start, no compilation_metrics)",
        why=f"its records are {held}; "
        + (
            f"the Export pane shows its {exports} export call{'s' if exports != 1 else ''}"
            if exports
            else "a torch.export log written with TORCH_TRACE (TORCH_DTRACE records the export calls) or a "
            "post-grad-pass log: tlparse shows those, the explorer shows torch.compile's frames"
        ),
    )


def _metrics(events: Iterable[TraceEvent]) -> dict[str, dict[str, Any]]:
    """Each forward compile's ``compilation_metrics``, by the compile id it names (the last record of an id wins;
    the record's own envelope may carry another frame's ids; torch before 2.4 named none in the record: then the
    envelope's)."""
    out: dict[str, dict[str, Any]] = {}
    for ev in events:
        if ev.name != "compilation_metrics" or not isinstance(ev.meta, dict):
            continue
        m = ev.meta
        cid = m.get("compile_id") if "compile_id" in m else ev.compile_id
        if cid is None or m.get("is_runtime") or m.get("is_forward") is False:
            continue
        out[str(cid)] = m
    return out


def _versions(events: list[TraceEvent], metrics: dict[str, dict[str, Any]]) -> tuple[str, str]:
    torch_version = next((str(m["pytorch_version"]) for m in metrics.values() if m.get("pytorch_version")), "")
    if not torch_version:
        for ev in events:
            if ev.name == "artifact:torch_version" and ev.payload:
                with contextlib.suppress(ValueError):
                    torch_version = str(json.loads(ev.payload).get("pytorch_version", ""))
                break
    python = next((str(m["python_version"]).split()[0] for m in metrics.values() if m.get("python_version")), "")
    return torch_version or "unknown (not in the trace)", python or "unknown (not in the trace)"


def _device(events: list[TraceEvent]) -> str:
    return next((d for d in map(_device_of, events) if d), "cpu")


def _device_of(ev: TraceEvent) -> str | None:
    """The device a ``describe_tensor`` record names (not a fake tensor's 'meta'), or None."""
    if ev.name == "describe_tensor" and isinstance(ev.meta, dict):
        m = re.search(r"type='(\w+)'", str(ev.meta.get("device", "")))
        if m and m.group(1) != "meta":
            return m.group(1)
    return None


def _backend(events: list[TraceEvent]) -> str:
    """The backend, as far as the trace tells: inductor wrote output code; an AOT backend wrote AOT graphs only."""
    names = {ev.name for ev in events}
    if "inductor_output_code" in names:
        return "inductor"
    if names & {"aot_forward_graph", "aot_inference_graph", "aot_joint_graph"}:
        return "aot_eager"
    return "eager"


def _recompile_limit(metrics: dict[str, dict[str, Any]]) -> int | None:
    for m in metrics.values():
        try:
            limit = json.loads(m.get("dynamo_config") or "{}").get("recompile_limit")
        except ValueError:
            continue
        if isinstance(limit, int) and limit >= 1:
            return limit
    return None


def _frames(report: CompileReport, events: list[TraceEvent], metrics: dict[str, dict[str, Any]]) -> None:
    order: list[str] = []
    starts: dict[str, list[dict[str, Any]]] = {}
    attempts: dict[str, int] = {}
    for ev in events:
        if ev.compile_id is None:
            continue
        attempts[ev.compile_id] = max(attempts.get(ev.compile_id, 0), ev.attempt)
        if ev.name == "dynamo_start" and ev.compile_id not in starts:
            order.append(ev.compile_id)
            stack = ev.meta.get("stack") if isinstance(ev.meta, dict) else None
            starts[ev.compile_id] = stack if isinstance(stack, list) else []
    order += [cid for cid in metrics if cid not in starts]
    for cid in order:
        m = metrics.get(cid)
        if m is not None and m.get("co_name"):
            name, filename, first = str(m["co_name"]), str(m.get("co_filename") or "?"), int(m.get("co_firstlineno") or 0)
        elif starts.get(cid):
            top = starts[cid][-1]
            name, filename, first = str(top.get("name", "?")), str(top.get("filename", "?")), int(top.get("line") or 0)
        else:
            continue
        report.frames.append(
            Frame(
                compile_id=cid,
                attempt=attempts.get(cid, 0),
                status="ok",
                code=CodeInfo(
                    name=name, filename=filename, firstlineno=first, is_resume=name.startswith(RESUME_PREFIX), in_cell=False
                ),
                fail_type=m.get("fail_type") if m else None,
                fail_reason=m.get("fail_reason") if m else None,
                compile_time_s=m.get("entire_frame_compile_time_s") if m else None,
                start_time=m.get("start_time") if m else None,
            )
        )


def _bytecode(report: CompileReport, events: list[TraceEvent]) -> None:
    for ev in events:
        m = _BYTECODE.match(ev.name)
        frame = report.frame(ev.compile_id) if m and ev.compile_id else None
        if frame is None or not ev.payload or m is None:
            continue
        rows = rows_from_listing(ev.payload)
        if m.group("which") == "ORIGINAL":
            frame.original_bytecode = rows
        else:
            frame.modified_bytecode = rows


def _link_graphs(report: CompileReport) -> None:
    """A resume function's ``__compiled_fn_*`` globals -> its Dynamo graph (the links collector's rule, for the frames
    whose modified bytecode the trace holds)."""
    for frame in report.frames:
        graphs = [g for g in frame.graph_ids if report.graphs[g].kind == "dynamo"]
        names: list[str] = []
        for ins in frame.modified_bytecode:
            if ins.ref is not None and ins.ref.kind == "compiled_fn":
                if ins.ref.name not in names:
                    names.append(ins.ref.name)
                i = names.index(ins.ref.name)
                if i < len(graphs):
                    ins.ref.graph_id = graphs[i]
                    report.graphs[graphs[i]].name = ins.ref.name


def _dynamo_graphs(report: CompileReport, events: list[TraceEvent]) -> None:
    last: dict[str, TraceEvent] = {}
    for ev in events:  # a restarted compile traces again: its last attempt's graph is the one compiled
        if ev.name == "dynamo_output_graph" and ev.compile_id is not None and ev.payload:
            last[ev.compile_id] = ev
    for cid, ev in last.items():
        assert ev.payload is not None
        report.add_graph(compile_id=cid, kind="dynamo", nodes=parse_readable(ev.payload), code=ev.payload)


def _ddp_splits(report: CompileReport, events: list[TraceEvent]) -> None:
    """DDPOptimizer's splits ([Note: DDP splits]): a compile's split graph and the pieces logged after it."""
    splits: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for ev in events:
        if ev.compile_id is None or not ev.payload:
            continue
        if ev.name == SPLIT_GRAPH:  # a restarted compile splits again: its last attempt's split is the one compiled
            splits[ev.compile_id] = (ev.payload, [])
        elif ev.name == SPLIT_CHILD and ev.compile_id in splits:
            pieces = splits[ev.compile_id][1]
            name = ev.meta.get("name") if isinstance(ev.meta, dict) else None
            pieces.append((str(name or f"submod_{len(pieces)}"), ev.payload))
    for cid, (payload, pieces) in splits.items():
        add_split(report, cid, payload, pieces)
