"""The guard, recompile, dynamic-shape and compile-phase panes of a report read from a structured trace.

``build.py`` makes the report and its frames, bytecode and graphs; these add, from the same events: guards
(``dynamo_cpp_guards_str``, the tree ``TORCH_LOGS=guards`` prints), recompile reasons (``recompile_reasons``, else the
metrics' ``recompile_reason``), dynamic shapes (``create_symbol``, ``symbolic_shape_specialization``,
``guard_added`` / ``guard_added_fast``) and compile phases (``chromium_event``), each through the live collectors' own
builders (the cache story: ``collectors/caches/cache_story.py``, called by ``build.py``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..collectors.guards.guards import MAX_GUARDS_PER_FRAME, MAX_TREE_CHARS, parse_tree, rows_from_tree
from ..collectors.recompile_reasons import split_reasons
from ..collectors.timings import Event, phase_trees
from ..events import TraceEvent
from ..model import (
    CompileReport,
    ShapeGuard,
    Symbol,
)

__all__ = ["guards", "phases", "recompiles", "shapes"]


def guards(report: CompileReport, events: list[TraceEvent]) -> None:
    trees = {ev.compile_id: ev.payload for ev in events if ev.name == "dynamo_cpp_guards_str" and ev.compile_id and ev.payload}
    for frame in report.frames:
        tree = trees.get(frame.compile_id)
        if not tree:
            continue
        # the tree as TORCH_LOGS=guards prints it (what a live run keeps); the trace adds the guards' measured latency
        head, sep, tail = tree.strip().rpartition("\n\nGuard latency = ")
        tree = head if sep else tail
        rows = rows_from_tree(parse_tree(tree, frame.code.filename))
        if len(rows) > MAX_GUARDS_PER_FRAME:
            report.diagnose(
                "truncated",
                f"[{frame.compile_id}] {frame.code.name}: kept {MAX_GUARDS_PER_FRAME} of {len(rows)} guards; "
                "the log holds all of them (its dynamo_cpp_guards_str)",
                frame.compile_id,
            )
            rows = rows[:MAX_GUARDS_PER_FRAME]
        if len(tree) > MAX_TREE_CHARS:
            cut = tree.rfind("\n", 0, MAX_TREE_CHARS)
            report.diagnose(
                "truncated",
                f"[{frame.compile_id}] {frame.code.name}: guard tree cut at {cut} of {len(tree)} characters; "
                "the log holds all of it",
                frame.compile_id,
            )
            tree = tree[:cut] + "\n... (truncated)"
        frame.guards, frame.guard_tree = rows, tree


_REASON_START = re.compile(r"^(?:!\d+/)?\d+/\d+: ", re.M)


def _reason_items(payload: str) -> list[str]:
    try:
        value = json.loads(payload)
    except ValueError:
        value = None
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, str):
        payload = value
    starts = [m.start() for m in _REASON_START.finditer(payload)] or [0]
    return [payload[a:b].strip() for a, b in zip(starts, [*starts[1:], len(payload)], strict=True)]


def recompiles(report: CompileReport, events: list[TraceEvent], metrics: dict[str, dict[str, Any]]) -> None:
    for ev in events:
        frame = report.frame(ev.compile_id) if ev.name == "artifact:recompile_reasons" and ev.compile_id else None
        if frame is None or not ev.payload:
            continue
        for reason in split_reasons(_reason_items(ev.payload)):
            reason.failures_note = "not in the trace: Dynamo's reason names the first failing guard of the entry"
            frame.recompile_reasons.append(reason)
    for frame in report.frames:
        m = metrics.get(frame.compile_id)
        if not frame.recompile_reasons and m and m.get("recompile_reason"):
            for reason in split_reasons([str(m["recompile_reason"])]):
                reason.failures_note = "not in the trace: Dynamo's reason names the first failing guard of the entry"
                frame.recompile_reasons.append(reason)


def _user_line(meta: dict[str, Any], filename: str) -> int | None:
    """The innermost line of the event's user stack in the frame's own file."""
    lines = [fr.get("line") for fr in meta.get("user_stack") or [] if isinstance(fr, dict) and fr.get("filename") == filename]
    return next((int(x) for x in reversed(lines) if x), None)


def shapes(report: CompileReport, events: list[TraceEvent]) -> None:
    files = {f.compile_id: f.code.filename for f in report.frames}
    symbols: dict[tuple[str, str], Symbol] = {}
    seen: set[tuple[str, str]] = set()
    for ev in events:
        meta = ev.meta if isinstance(ev.meta, dict) else None
        cid = ev.compile_id
        if meta is None or cid is None:
            continue
        filename = files.get(cid, "")
        if ev.name == "create_symbol":
            row = Symbol(
                compile_id=cid,
                symbol=str(meta.get("symbol", "")),
                source=str(meta.get("source", "")),
                value=str(meta.get("val", "")),
                range=str(meta.get("vr", "")),
                line=_user_line(meta, filename),
            )
            if (cid, row.symbol) in symbols:  # a restarted attempt creates its symbols again
                report.symbols.remove(symbols[cid, row.symbol])
            symbols[cid, row.symbol] = row
            report.symbols.append(row)
        elif ev.name == "symbolic_shape_specialization":
            found = symbols.get((cid, str(meta.get("symbol", ""))))
            if found is not None:
                found.specialized_to = str(meta.get("value"))
                found.specialization_reason = meta.get("reason")
                found.line = _user_line(meta, filename) or found.line
        elif ev.name in ("guard_added", "guard_added_fast") and (cid, str(meta.get("expr"))) not in seen:
            seen.add((cid, str(meta.get("expr"))))
            report.shape_guards.append(
                ShapeGuard(compile_id=cid, expr=str(meta.get("expr", "")), line=_user_line(meta, filename))
            )


def phases(report: CompileReport, events: list[TraceEvent]) -> None:
    timed: list[Event] = []
    for ev in events:
        if ev.name != "chromium_event" or not ev.payload:
            continue
        try:
            e = json.loads(ev.payload)
        except ValueError:
            continue
        args = e.get("args") or {}
        cid = args.get("compile_id")
        if e.get("ph") in ("B", "E", "i") and isinstance(e.get("ts"), (int, float)):
            cid = None if cid in (None, "None") else str(cid)
            timed.append((e["ph"], str(e.get("name", "")), int(e["ts"] * 1000), cid, args.get("fn_name"), int(e.get("tid") or 0)))
    trees = phase_trees(timed)
    for frame in report.frames:
        frame.phases = trees.get(frame.compile_id, [])
