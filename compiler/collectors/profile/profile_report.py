"""``--profile``'s report ([Note: profile] in ``collectors/profile/profile.py``): ``analyse`` runs the reading of the
profiler's events (``profile_analysis.py``) and makes the report's ``Profile`` of it: the run split, each graph's and
cache entry's calls (first call apart), device time and kernels, eager gaps by cause, coverage, the backward.
"""

from __future__ import annotations

from typing import Any

from ...model import (
    CallsProfile,
    CompileReport,
    Coverage,
    EagerGap,
    EntryProfile,
    FrameCoverage,
    Graph,
    GraphProfile,
    KernelProfile,
    Profile,
)
from .profile_analysis import (
    ATTEMPT,
    CELL,
    DEVICE_METHOD,
    EAGER_KERNELS,
    GRAPH,
    METHOD,
    Analysis,
    Call,
    Span,
    graph_ops,
    is_device_work,
    is_launch_site,
)

__all__ = ["analyse"]


def analyse(events: list[Any], report: CompileReport, cuda: bool) -> Profile:
    """The run's profile from kineto's events (``cuda``: CUDA activity was recorded)."""
    sites = [e for e in events if is_launch_site(e)]
    root = next((e for e in sites if e.name == CELL), None)
    main = root.thread if root is not None else None
    call_index: dict[int, int] = {}
    seen: dict[str, int] = {}
    for e in sorted((e for e in sites if e.name.startswith(GRAPH)), key=lambda e: e.start):
        key = e.name[len(GRAPH) :]
        call_index[e.correlation] = seen.get(key, 0)
        seen[key] = call_index[e.correlation] + 1
    by_thread: dict[int, list[Span]] = {}
    for e in sites:
        by_thread.setdefault(e.thread, []).append(Span(e.name, e.start, e.end, e.correlation))
    a = Analysis(call_index)
    for spans in by_thread.values():
        spans.sort(key=lambda s: (s.start, -s.end))
    for thread, spans in by_thread.items():
        if thread != main:
            a.walk(spans, False)
    mine = by_thread.get(main, []) if main is not None else []
    split = a.split(mine, root)
    a.walk(mine, True)
    device = [e for e in events if is_device_work(e)]
    for e in device:
        a.charge(e)
    return _build(report, a, root, split, cuda and bool(device))


def _ms(ns: float) -> float:
    return round(ns / 1e6, 4)


def _pct(part: float, whole: float) -> float:
    return round(part / whole, 4) if whole else 0.0


def _calls(calls: list[Call], cuda: bool) -> CallsProfile:
    return CallsProfile(
        calls=len(calls),
        host_ms=_ms(sum(c.host for c in calls)),
        compile_ms=_ms(sum(c.compile for c in calls)),
        device_ms=_ms(sum(c.device for c in calls)) if cuda else None,
        kernels=sum(c.kernels for c in calls),
        compile_device_ms=_ms(sum(c.compile_device for c in calls)) if cuda else None,
        compile_kernels=sum(c.compile_kernels for c in calls),
    )


def _kernels(kernels: dict[str, list[int]], limit: int | None = None) -> list[KernelProfile]:
    rows = sorted(
        (KernelProfile(name=k, calls=c, device_ms=_ms(ns)) for k, (c, ns) in kernels.items()), key=lambda k: -k.device_ms
    )
    return rows[:limit] if limit is not None else rows


def _build(report: CompileReport, a: Analysis, root: Any, split: tuple[int, int], cuda: bool) -> Profile:
    entries, outside, backward = a.entries, a.outside, a.backward
    dynamo_graphs: dict[str, list[Graph]] = {}
    for g in report.graphs:
        if g.kind == "dynamo" and g.compile_id is not None:
            dynamo_graphs.setdefault(g.compile_id, []).append(g)
    rows = []
    run_ns: dict[int, int] = {}  # id(row) -> host ns of its calls less their compile work
    for key, made in a.graphs.items():
        cid, n = key.rsplit("#", 1)
        cid = ATTEMPT.sub("", cid)
        of_frame = dynamo_graphs.get(cid, [])
        graph = of_frame[int(n)] if int(n) < len(of_frame) else None
        calls = sorted(made.calls, key=lambda c: c.index)
        total = sum(c.host for c in calls)
        row = GraphProfile(
            graph_id=graph.id if graph is not None else None,
            compile_id=cid,
            calls=len(calls),
            total_ms=_ms(total),
            mean_ms=_ms(total / len(calls)) if calls else 0.0,
            device_ms=_ms(sum(c.device for c in calls)) if cuda else None,
            ops=graph_ops(graph) if graph is not None else 0,
            kernels=_kernels(made.kernels),
            first_call=_calls(calls[:1], cuda) if calls else None,
            steady=_calls(calls[1:], cuda) if len(calls) > 1 else None,
        )
        run_ns[id(row)] = total - sum(c.compile for c in calls)
        rows.append(row)
    rows.sort(key=lambda r: -r.total_ms)
    order = {f.compile_id: i for i, f in enumerate(report.frames)}
    entry_rows = [
        EntryProfile(
            compile_id=cid,
            hits=e.hits,
            total_ms=_ms(e.total),
            self_ms=_ms(e.self_ns + e.graph),
            graph_ms=_ms(e.graph),
            eager_ms=_ms(e.self_ns),
            eager_ops=e.ops,
            cache_lookup_ms=_ms(e.lookup),
        )
        for cid, e in sorted(entries.items(), key=lambda kv: order.get(kv[0], len(order)))
    ]
    gaps: list[EagerGap] = []
    for cid, e in entries.items():
        frame = report.frame(cid)
        breaks = frame.graph_breaks if frame is not None else []
        gaps.append(
            EagerGap(
                cause="graph_break" if breaks else "frame",
                compile_id=cid,
                break_index=len(breaks) - 1 if breaks else None,
                calls=e.hits,
                ms=_ms(e.self_ns),
                ops=e.ops,
            )
        )
    gaps.append(EagerGap(cause="outside", compile_id=None, break_index=None, calls=1, ms=_ms(outside.self_ns), ops=outside.ops))
    if backward.eager_nodes:
        gaps.append(
            EagerGap(
                cause="backward",
                compile_id=None,
                break_index=None,
                calls=backward.eager_nodes,
                ms=round(backward.eager_ms, 4),
                ops=a.backward_op_ns[1],
            )
        )
    gaps.sort(key=lambda g: -g.ms)
    backward.compiled_ms = round(backward.compiled_ms, 4)
    backward.eager_ms = round(backward.eager_ms, 4)
    backward.compile_ms = _ms(sum(c.compile for c in a.backward_calls))
    backward.device_ms = _ms(sum(c.device for c in a.backward_calls)) if cuda else None

    graph_ns = sum(run_ns.values())
    graph_ms_by_cid: dict[str, tuple[int, int, int]] = {}  # cid -> (calls, captured ops, ns)
    for r in rows:
        n_calls, ops, ns = graph_ms_by_cid.get(r.compile_id, (0, 0, 0))
        graph_ms_by_cid[r.compile_id] = (n_calls + r.calls, ops + r.calls * r.ops, ns + run_ns[id(r)])
    captured = sum(r.calls * r.ops for r in rows)
    eager_ops = outside.ops + sum(e.ops for e in entries.values())
    eager_op_ns = outside.op_ns + sum(e.op_ns for e in entries.values())
    frames_cov = []
    for er in entry_rows:
        n_calls, ops, ns = graph_ms_by_cid.get(er.compile_id, (0, 0, 0))
        e = entries[er.compile_id]
        frames_cov.append(
            FrameCoverage(
                compile_id=er.compile_id,
                graph_calls=n_calls,
                captured_ops=ops,
                total_ops=ops + e.ops,
                pct_ops=_pct(ops, ops + e.ops),
                pct_time=_pct(ns, ns + e.op_ns),
            )
        )
    coverage = Coverage(
        unique_graphs=len(rows),
        graph_calls=sum(r.calls for r in rows),
        captured_ops=captured,
        total_ops=captured + eager_ops,
        pct_ops=_pct(captured, captured + eager_ops),
        pct_time=_pct(graph_ns, graph_ns + eager_op_ns),
        frames=frames_cov,
    )
    wall_ms = _ms((root.end - root.start) if root is not None else 0)
    compiled_ns, compile_ns = split
    compiled_ms, compile_ms = _ms(compiled_ns), _ms(compile_ns)
    return Profile(
        method=METHOD.format(cuda=" and CUDA" if cuda else "", device=DEVICE_METHOD if cuda else ""),
        device="cuda" if cuda else "cpu",
        wall_ms=wall_ms,
        compiled_ms=compiled_ms,
        eager_ms=round(max(0.0, wall_ms - compiled_ms - compile_ms), 4),
        compile_ms=compile_ms,
        cache_lookup_ms=_ms(a.lookup_ns),
        cache_lookups=a.lookups,
        graphs=rows,
        entries=entry_rows,
        eager=[g for g in gaps if g.ms > 0 or g.ops > 0],
        coverage=coverage,
        backward=backward,
        eager_device_ms=_ms(a.eager_device) if cuda else None,
        compile_device_ms=_ms(a.compile_device) if cuda else None,
        eager_kernels=_kernels(a.eager_kernels, EAGER_KERNELS),
    )
