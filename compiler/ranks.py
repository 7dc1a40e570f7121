"""Several ranks' reports as one: each rank's compiles side by side, and where the ranks first diverge, and why.

A distributed job compiles on every rank; the ranks should compile the same frames into the same graphs with the
same cache decisions. ``merge(reports)`` (rank -> that rank's report, read from its trace or captured by
``dynamo-explorer run --nproc``) returns one rank's full report (the lowest's, or the one asked for) with ``ranks`` (``RanksView``, schema
minor 11) holding every rank's compiles in order and ``divergence``, the first event where the ranks differ:

- ``compile_ids``: one rank compiled a compile id the others did not, or in another order; when that compile is a
  recompile its cause is the guard that failed on that rank (its recompile reason);
- ``collectives``: the same compile id issues other collectives, or in another order (``compiler/collectives.py``):
  the order that hangs a job, or reduces the wrong tensors;
- ``graph``: the same compile id traced into another graph (the unified diff of the two ranks' readable graphs);
- ``graph_break``: the same compile id broke elsewhere or for another reason;
- ``cache``: the FX-graph or AOTAutograd cache hit on one rank and missed on another (a trace's decisions);
- ``status``: the same compile id ended differently (compiled on one rank, failed on another).

The reference rank is the lowest; each rank's compiles are paired with its by compile id, in order, by the alignment
two runs use (``compiler/diff/align.py``: one engine for ranks and runs); ``divergence.ranks`` are those that differ
from it at the earliest unlike pair. The rank whose
compiles took the longest is the straggler. Each compile's ``start_s`` puts every rank's compiles on one time axis
(seconds after the job's first compile, from each frame's ``start_time``). ``rank_reports`` makes every rank's report
with the same ranks view (its own rank shown): the pages of an ``--html`` export (``rank_pages``), the reports a
kernel keeps for the ranks view to show another rank in place (``part``).
"""

from __future__ import annotations

import difflib
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any

from .collectives import collectives, describe, first_mismatch, signature
from .diff.align import align
from .diff.facts import by_compile, dynamo_code

__all__ = ["first_divergence", "merge", "rank_compiles", "rank_pages", "rank_reports"]


@dataclass(frozen=True)
class _Compile:
    """What must be equal across ranks for one compile, in a rank's compile order."""

    compile_id: str
    status: str
    graph: str  # a hash of the Dynamo graph's readable code, '' when the compile made none
    breaks: tuple[tuple[str, int | None], ...]
    caches: tuple[tuple[str, str], ...]
    collectives: tuple[tuple[Any, ...], ...]  # each collective's signature: what ranks must agree on
    calls: tuple[dict[str, Any], ...] = field(compare=False, hash=False)  # the collectives themselves (schema rows)


def _compiles(report: dict[str, Any]) -> list[_Compile]:
    caches: dict[str | None, list[tuple[str, str]]] = {}
    for c in (report.get("trace") or {}).get("caches") or []:
        caches.setdefault(c["compile_id"], []).append((c["cache"], c["status"]))
    graphs = by_compile(report)
    out = []
    for f in report["frames"]:
        mine = graphs.get(f["compile_id"], [])
        code = dynamo_code(mine)
        calls = collectives(mine)
        out.append(
            _Compile(
                compile_id=f["compile_id"],
                status=f["status"],
                graph=hashlib.sha1(code.encode()).hexdigest()[:12] if code else "",
                breaks=tuple((b["gb_type"], b["line"]) for b in f["graph_breaks"]),
                caches=tuple(caches.get(f["compile_id"], [])),
                collectives=tuple(signature(c) for c in calls),
                calls=tuple(calls),
            )
        )
    return out


def first_start(reports: list[dict[str, Any]]) -> float | None:
    """When the first compile of any of ``reports`` began (seconds since the epoch), or None: the ranks' time axis."""
    starts = [f["start_time"] for r in reports for f in r["frames"] if f.get("start_time") is not None]
    return min(starts) if starts else None


def rank_compiles(report: dict[str, Any], origin: float | None = None) -> list[dict[str, Any]]:
    """One rank's compiles as the schema's ``RankCompile`` rows, in compile order; ``start_s`` counted from ``origin``
    (``first_start`` of every rank), or from this rank's own first compile."""
    times = {f["compile_id"]: f["compile_time_s"] for f in report["frames"]}
    starts = {f["compile_id"]: f.get("start_time") for f in report["frames"]}
    origin = first_start([report]) if origin is None else origin
    return [
        {
            "compile_id": c.compile_id,
            "status": c.status,
            "graph": c.graph or None,
            "cache": ", ".join(f"{cache} {status}" for cache, status in c.caches) or None,
            "compile_s": times.get(c.compile_id),
            "start_s": _since(starts.get(c.compile_id), origin),
            "collectives": list(c.calls),
        }
        for c in _compiles(report)
    ]


def _since(start: float | None, origin: float | None) -> float | None:
    return None if start is None or origin is None else round(start - origin, 6)


def _recompile_cause(report: dict[str, Any], compile_id: str) -> str | None:
    frame = next((f for f in report["frames"] if f["compile_id"] == compile_id), None)
    if frame is None:
        return None
    reasons = [
        f"{r['failed_compile_id']}: {r['reason']}" if r["failed_compile_id"] else r["reason"] for r in frame["recompile_reasons"]
    ]
    if reasons:
        return "the guard that failed: " + "; ".join(reasons)
    if frame["fail_reason"]:
        return f"{frame['fail_type']}: {frame['fail_reason'].strip().splitlines()[0]}"
    return None


def _describe(c: _Compile | None) -> str:
    return "nothing" if c is None else f"[{c.compile_id}] ({c.status})"


def first_divergence(reports: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """The first compile at which a rank differs from the lowest rank, with its cause (schema ``Divergence``).

    Each rank's compiles are paired with the lowest rank's by compile id, in order, by the alignment two runs use
    (``compiler.diff.align``): a compile one rank made and the other did not is paired with nothing, and the ranks'
    compiles after it stay paired. The divergence is at the earliest such position of any rank."""
    ranks = sorted(reports)
    if len(ranks) < 2:
        return None
    seqs = {r: _compiles(reports[r]) for r in ranks}
    ref = ranks[0]
    first: dict[int, tuple[int, _Compile | None, _Compile | None]] = {}  # rank -> its first pair unlike the reference
    for r in ranks[1:]:
        pairs = align(seqs[ref], seqs[r], key=lambda c: c.compile_id)
        found = next(((i, x, y) for i, (x, y) in enumerate(pairs) if x != y), None)
        if found is not None:
            first[r] = found
    if not first:
        return None
    i = min(at for at, _, _ in first.values())
    differs = [r for r in ranks[1:] if r in first and first[r][0] == i]
    other = differs[0]
    _, mine, theirs = first[other]
    if mine is None or theirs is None or mine.compile_id != theirs.compile_id:
        ids = {r: {c.compile_id for c in seqs[r]} for r in (ref, other)}
        if mine is None or (theirs is not None and theirs.compile_id not in ids[ref]):
            extra_rank, extra, lacking, counterpart = other, theirs, ref, mine
        else:
            extra_rank, extra, lacking, counterpart = ref, mine, other, theirs
        assert extra is not None
        never = extra.compile_id not in ids[lacking]
        summary = f"rank {extra_rank} compiled [{extra.compile_id}]" + (
            f", rank {lacking} did not" if never else f", rank {lacking} compiled {_describe(counterpart)} at that point"
        )
        return _divergence(
            i, extra.compile_id, "compile_ids", differs, summary, _recompile_cause(reports[extra_rank], extra.compile_id)
        )
    cid = mine.compile_id
    if mine.collectives != theirs.collectives:
        summary, detail = _collectives_apart(reports, (ref, other), cid)
        return _divergence(i, cid, "collectives", differs, summary, detail)
    if mine.graph != theirs.graph:
        diff = "".join(
            difflib.unified_diff(
                dynamo_code(by_compile(reports[ref]).get(cid, [])).splitlines(True),
                dynamo_code(by_compile(reports[other]).get(cid, [])).splitlines(True),
                f"rank {ref} [{cid}]",
                f"rank {other} [{cid}]",
                n=2,
            )
        )
        summary = f"[{cid}]: rank {other} traced another graph than rank {ref}"
        return _divergence(i, cid, "graph", differs, summary, diff[:20000] or None)
    if mine.breaks != theirs.breaks:
        summary = f"[{cid}]: graph breaks differ: rank {ref} {list(mine.breaks)}, rank {other} {list(theirs.breaks)}"
        return _divergence(i, cid, "graph_break", differs, summary, None)
    if mine.caches != theirs.caches:
        summary = f"[{cid}]: cache decisions differ: rank {ref} {list(mine.caches)}, rank {other} {list(theirs.caches)}"
        return _divergence(
            i,
            cid,
            "cache",
            differs,
            summary,
            "a rank that hits the cache finishes compiling first and waits at the next collective",
        )
    summary = f"[{cid}]: rank {ref} {mine.status}, rank {other} {theirs.status}"
    return _divergence(i, cid, "status", differs, summary, _recompile_cause(reports[other], cid))


def _collectives_apart(reports: dict[int, dict[str, Any]], pair: tuple[int, int], cid: str) -> tuple[str, str]:
    """The first collective two ranks issue differently in compile ``cid`` (a summary), and both sequences aligned."""
    calls = {r: collectives(by_compile(reports[r]).get(cid, [])) for r in pair}
    found = first_mismatch(calls)
    k = found[0] if found is not None else 0
    longest = max(len(v) for v in calls.values())

    def at(r: int, n: int) -> str:
        return describe(calls[r][n] if n < len(calls[r]) else None)

    ref, other = pair
    summary = f"[{cid}]: collective #{k + 1} differs: rank {ref} {at(ref, k)}, rank {other} {at(other, k)}"
    detail = (
        "the ranks pair their collectives by position: at this one they issue different ones, so the job hangs or "
        "reduces the wrong tensors\n"
        + "\n".join(f"#{n + 1}: " + " | ".join(f"rank {r} {at(r, n)}" for r in pair) for n in range(longest))
    )
    return summary, detail


def _divergence(
    index: int, compile_id: str | None, kind: str, ranks: list[int], summary: str, detail: str | None
) -> dict[str, Any]:
    return {"index": index, "compile_id": compile_id, "kind": kind, "ranks": ranks, "summary": summary, "detail": detail}


def merge(reports: dict[int, dict[str, Any]], sources: dict[int, str], shown: int | None = None) -> dict[str, Any]:
    """Rank ``shown``'s report (the lowest rank's by default) with ``ranks``: every rank's compiles, the straggler and
    the first divergence."""
    ranks = sorted(reports)
    if not ranks:
        raise ValueError("no rank to merge")
    shown_rank = ranks[0] if shown is None else shown
    totals = {r: sum(f["compile_time_s"] or 0.0 for f in reports[r]["frames"]) for r in ranks}
    straggler = max(ranks, key=lambda r: totals[r]) if len(ranks) > 1 else None
    origin = first_start([reports[r] for r in ranks])
    out = dict(reports[shown_rank])
    out["ranks"] = {
        "world_size": len(ranks),
        "shown_rank": shown_rank,
        "ranks": [
            {
                "rank": r,
                "source": sources.get(r, ""),
                "compiles": rank_compiles(reports[r], origin),
                "compile_s": round(totals[r], 6),
                "straggler": r == straggler,
            }
            for r in ranks
        ],
        "divergence": first_divergence(reports),
    }
    return out


def rank_pages(report: dict[str, Any], reports: dict[int, dict[str, Any]], path: str) -> list[tuple[str, dict[str, Any]]]:
    """A multi-rank ``report`` (``merge``'s) as one page a rank, for an ``--html`` export: ``(path, report)`` pairs, the
    shown rank's first at ``path``, rank N's beside it (``report.rank1.html``), each with the same ranks view, its
    own rank shown, and every rank's ``page`` named so that each page links the others."""
    shown = report["ranks"]["shown_rank"]
    root, ext = os.path.splitext(path)
    paths = {r: path if r == shown else f"{root}.rank{r}{ext or '.html'}" for r in reports}
    pages = rank_reports(report, reports, "page", {r: os.path.basename(p) for r, p in paths.items()})
    return [(paths[r], pages[r]) for r in [shown, *sorted(r for r in reports if r != shown)]]


def rank_reports(
    report: dict[str, Any], reports: dict[int, dict[str, Any]], field: str, names: dict[int, str]
) -> dict[int, dict[str, Any]]:
    """Each rank's report (``reports``; ``report`` itself, ``merge``'s, for the shown rank) with the same ranks view,
    its own rank shown, and every rank's ``field`` set to its name in ``names``: the ``page`` of an ``--html`` export,
    the ``part`` under which a kernel keeps it (kernel_ext/open_trace.py)."""
    view = report["ranks"]
    shown = view["shown_rank"]
    rows = [dict(s, **{field: names[s["rank"]]}) for s in view["ranks"] if s["rank"] in names]
    out = {}
    for r in names:
        page = dict(report if r == shown else reports[r])
        page["ranks"] = {**view, "shown_rank": r, "ranks": rows}
        out[r] = page
    return out
