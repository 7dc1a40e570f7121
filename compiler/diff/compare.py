"""Two aligned compiles (``align.py``'s pairs) compared: each difference of their stories in one line, with what was
added and removed, and the first difference of the two runs.

A difference is the schema's ``Difference`` (compiler/schema/compile_diff.v1.schema.json): its ``kind``, the
function, both sides' compile ids, a one-line ``summary`` and the rows added, removed and changed. The kinds of the story
(``STORY``; any of them makes ``diff`` exit 1):

- ``frame``: a compile on one side only (a new recompile, a resume function no longer needed, ...);
- ``graph_break``: breaks added and removed (by graph-break type and what Dynamo met, never by line);
- ``recompile``: a recompile on both sides whose failing guards differ;
- ``graph``: the Dynamo graph's ops as a multiset, then its canonical lines (``facts.py``): the unified diff;
- ``guards``: guards added, removed and changed (one kind and source, other code), by kind; ``symbols``: dynamic-shape symbols, by source;
- ``status``: the compile ended otherwise (and no break says why); ``kernels``: inductor's kernel count.

And of its cost (``COST``; shown, not a difference of the story): ``compile_time`` (at least ``NOISE_S`` seconds, and
a ratio of at least ``SLOWER`` against the whole run's ``pace``: a machine busier during one run slows all its
compiles, which is no difference) with the phase that moved most, and
``cache`` (each cache's decision: a warm run hits where a cold one missed; where both looked a cache up, the parts of
its key that differ from A's, by hash: ``inductor_config``, ``torch_version``, ``gm``).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Any

from ..summary import plural
from .align import Pair
from .facts import Break, CompileFacts, guard_line

__all__ = ["COST", "NOISE_S", "SLOWER", "STORY", "compare_pair", "first_line", "graphs_by_function", "graphs_of", "pace"]

STORY = ("frame", "graph_break", "recompile", "graph", "guards", "symbols", "status", "kernels")
COST = ("compile_time", "cache")
#: a compile's time must change by this ratio against the run's pace (``pace``) and ...
SLOWER = 2.0
#: ... by this many seconds to be told
NOISE_S = 1.0
_MAX_ROWS = 50
_MAX_DETAIL = 20_000


def _where(b: Break) -> str:
    at = f"{(b.filename or '?').rsplit('/', 1)[-1]}:{b.line}" if b.line is not None else (b.filename or "?")
    return f"{at} ({b.code.strip()})" if b.code else at


def _rows(counter: Counter[Any], show: Any = str) -> list[str]:
    rows = [show(k) if n == 1 else f"{show(k)} ×{n}" for k, n in sorted(counter.items(), key=lambda kv: str(kv[0]))]
    return rows[:_MAX_ROWS] + ([f"... and {len(rows) - _MAX_ROWS} more"] if len(rows) > _MAX_ROWS else [])


def _difference(
    kind: str,
    pair: Pair,
    summary: str,
    added: list[str] | None = None,
    removed: list[str] | None = None,
    detail: str | None = None,
    changed: list[str] | None = None,
) -> dict[str, Any]:
    a, b = pair
    c = b if b is not None else a
    assert c is not None
    return {
        "kind": kind,
        "function": c.function,
        "a": a.compile_id if a is not None else None,
        "b": b.compile_id if b is not None else None,
        "summary": summary,
        "added": added or [],
        "removed": removed or [],
        "changed": changed or [],
        "detail": detail[:_MAX_DETAIL] if detail else None,
    }


def graphs_by_function(compiles: list[CompileFacts]) -> Counter[str]:
    """One side's Dynamo graphs by function (``graphs_of`` reads it: one pass a side, not one a difference)."""
    out: Counter[str] = Counter()
    for c in compiles:
        out[c.function] += c.graphs
    return out


def graphs_of(graphs: Counter[str], function: str) -> int:
    """The Dynamo graphs ``function`` compiled into on one side (``graphs_by_function``), its resume functions'
    included."""
    resume = f"torch_dynamo_resume_in_{function}"
    return sum(n for name, n in graphs.items() if name == function or name.startswith(resume))


def compare_pair(pair: Pair, graphs: tuple[Counter[str], Counter[str]], run_pace: float = 1.0) -> list[dict[str, Any]]:
    """The differences of one pair, story first, cost last; ``graphs``: each side's ``graphs_by_function``;
    ``run_pace``: ``pace`` of all the pairs."""
    a, b = pair
    if a is None or b is None:
        c = b if b is not None else a
        assert c is not None
        return [_difference("frame", pair, _alone(c, new=b is not None), *_frame_rows(c, new=b is not None))]
    out: list[dict[str, Any]] = []
    ba, bb = Counter(x.key for x in a.breaks), Counter(x.key for x in b.breaks)
    if ba != bb:
        shown = {x.key: x for x in (*a.breaks, *b.breaks)}
        added, removed = bb - ba, ba - bb
        n_a, n_b = graphs_of(graphs[0], a.function), graphs_of(graphs[1], b.function)
        first = shown[next(iter(added))] if added else shown[next(iter(removed))]
        summary = (
            f"a new graph break at {_where(first)}: {first.gb_type}"
            if added
            else f"no graph break at {_where(first)} any more: {first.gb_type}"
        )
        if n_a != n_b:
            summary += f"; {plural(n_b, 'graph')} where there {'was' if n_a == 1 else 'were'} {n_a}"
        show = lambda k: f"{_where(shown[k])}: {k[0]}: {shown[k].reason if shown[k].reason not in ('', k[0]) else k[1]}"  # noqa: E731
        out.append(_difference("graph_break", pair, summary, _rows(added, show), _rows(removed, show)))
    elif a.status != b.status:
        out.append(_difference("status", pair, f"it ended {b.status} where it ended {a.status}"))
    if a.failed != b.failed and (a.failed or b.failed):
        out.append(
            _difference(
                "recompile",
                pair,
                f"it recompiled because {' and '.join(b.failed) or 'nothing recorded'} failed, where {' and '.join(a.failed) or 'nothing recorded'} did",
                list(b.failed),
                list(a.failed),
            )
        )
    if a.graph != b.graph:
        out.append(_graph_difference(pair, a, b))
    ga, gb = Counter(a.guards), Counter(b.guards)
    if ga != gb:
        out.append(_guards_difference(pair, gb - ga, ga - gb))
    sa, sb = Counter(a.symbols), Counter(b.symbols)
    if sa != sb:
        show = lambda s: f"{s[0]} {s[1]}".strip()  # noqa: E731
        symbols_added, symbols_removed = sb - sa, sa - sb
        words = []
        if symbols_added:
            words.append("dynamic now: " + ", ".join(s[0] for s in symbols_added))
        if symbols_removed:
            words.append("no longer dynamic: " + ", ".join(s[0] for s in symbols_removed))
        out.append(_difference("symbols", pair, "; ".join(words), _rows(symbols_added, show), _rows(symbols_removed, show)))
    if a.kernels != b.kernels:
        out.append(_difference("kernels", pair, f"inductor made {b.kernels} kernels where it made {a.kernels}"))
    slower = _slower(a, b, run_pace)
    if slower is not None:
        out.append(_difference("compile_time", pair, slower))
    parts = _key_parts(a, b)
    if a.caches != b.caches or parts:
        out.append(
            _difference(
                "cache",
                pair,
                f"caches: {' → '.join(b.caches) or 'none'} where {' → '.join(a.caches) or 'none'}"
                + "".join(
                    f"; {cache}'s key: {', '.join(names)} differ{'s' if len(names) == 1 else ''} from A's"
                    for cache, names in parts
                ),
                list(b.caches),
                list(a.caches),
            )
        )
    return out


def _guards_difference(
    pair: Pair, added: Counter[tuple[str, str, str]], removed: Counter[tuple[str, str, str]]
) -> dict[str, Any]:
    """Guards added and removed; a guard of one kind and source on both sides with other code is one changed guard,
    told by the parts of its code that changed (``GLOBAL_STATE ___check_global_state(): +"cuda_matmul_precision":0,``)."""
    changed = []
    for g in sorted(removed):
        twin = next((h for h in sorted(added) if (h[0], h[1]) == (g[0], g[1])), None)
        if twin is not None:
            changed.append(f"{g[0]} {g[1] or _head(g[2])}: {_changed_parts(g[2], twin[2])}".strip())
            added[twin] -= 1
            removed[g] -= 1
    added, removed = +added, +removed  # the changed ones out
    kinds = sorted({g[0] for g in (added + removed)} | {row.split(" ", 1)[0] for row in changed})
    counts = [f"{plural(sum(c.values()), 'guard')} {word}" for c, word in ((added, "added"), (removed, "removed")) if c]
    if changed:
        counts.append(f"{plural(len(changed), 'guard')} changed")
    summary = f"{', '.join(counts)} ({', '.join(kinds)})"
    if changed and not added and not removed and len(changed) == 1:
        summary = f"a guard changed: {changed[0]}"
    return _difference("guards", pair, summary, _rows(added, guard_line), _rows(removed, guard_line), changed=changed[:_MAX_ROWS])


_TOKEN = re.compile(r"[^,{}\[\]]*[,{}\[\]]?")


def _head(code: str) -> str:
    """A guard's code up to what it checks against: ``___check_global_state()``."""
    return code.split(" against ", 1)[0] if " against " in code else code[:60]


def _changed_parts(before: str, after: str) -> str:
    """What changed between two texts, token by token (a JSON's fields, a call's arguments): ``-x,`` and ``+y,``."""
    ta, tb = [t for t in _TOKEN.findall(before) if t], [t for t in _TOKEN.findall(after) if t]
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            parts.append("-" + "".join(ta[i1:i2]))
        if tag in ("replace", "insert"):
            parts.append("+" + "".join(tb[j1:j2]))
    return " ".join(parts)[:300]


def _key_parts(a: CompileFacts, b: CompileFacts) -> list[tuple[str, list[str]]]:
    """For each cache both compiles looked up, the parts of its key whose hashes differ (``CacheDecision.hashes``):
    why B's lookup did not find A's entry (``inductor_config``: a setting; ``torch_version``: another torch)."""
    out = []
    for cache, mine in b.cache_keys.items():
        theirs = a.cache_keys.get(cache)
        if theirs is None:
            continue
        names = [p for p in [*mine, *(p for p in theirs if p not in mine)] if mine.get(p) != theirs.get(p)]
        if names:
            out.append((cache, names))
    return out


def _alone(c: CompileFacts, new: bool) -> str:
    if c.status == "recompile":
        why = f" ({' and '.join(c.failed)} failed)" if c.failed else ""
        return (
            f"a new recompile{why}"
            if new
            else f"no recompile any more (it recompiled when {' and '.join(c.failed) or 'its guards'} failed)"
        )
    if c.function.startswith("torch_dynamo_resume_in_"):
        return (
            "a new resume function (code after a graph break)"
            if new
            else "its resume function is gone (no graph break before it any more)"
        )
    return f"compiled ({plural(c.graphs, 'graph')}), where the other run did not compile it" if new else "not compiled any more"


def _frame_rows(c: CompileFacts, new: bool) -> tuple[list[str], list[str]]:
    rows = [f"[{c.compile_id}] {c.function} ({c.filename}): {c.status}, {plural(c.graphs, 'graph')}"]
    return (rows, []) if new else ([], rows)


def _graph_difference(pair: Pair, a: CompileFacts, b: CompileFacts) -> dict[str, Any]:
    added, removed = b.ops - a.ops, a.ops - b.ops
    diff = "".join(
        difflib.unified_diff(
            [f"{line}\n" for line in a.graph],
            [f"{line}\n" for line in b.graph],
            f"A [{a.compile_id}]",
            f"B [{b.compile_id}]",
            n=2,
        )
    )
    if added or removed:
        words = []
        if added:
            words.append("+" + ", +".join(_rows(added)[:3]))
        if removed:
            words.append("-" + ", -".join(_rows(removed)[:3]))
        summary = f"its graph's ops changed: {'; '.join(words)}"
    else:
        changed = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
        summary = f"its graph changed, the same ops: {changed[0] if changed else 'the order of its nodes'}"
        summary += f" (and {len(changed) - 1} more lines)" if len(changed) > 1 else ""
    return _difference("graph", pair, summary, _rows(added), _rows(removed), diff)


def pace(pairs: list[Pair]) -> float:
    """How much slower B compiled than A overall (the paired compiles' times, summed: 1.0 when alike); a compile's time
    is told against it, so that a machine busier for one whole run than for the other is no difference."""
    ta = sum(a.compile_s or 0.0 for a, b in pairs if a is not None and b is not None)
    tb = sum(b.compile_s or 0.0 for a, b in pairs if a is not None and b is not None)
    return tb / ta if ta > 0 and tb > 0 else 1.0


def _slower(a: CompileFacts, b: CompileFacts, run_pace: float) -> str | None:
    ta, tb = a.compile_s, b.compile_s
    if ta is None or tb is None or min(ta, tb) <= 0 or abs(tb - ta) < NOISE_S:
        return None
    ratio = (tb / ta) / run_pace  # against the run's own pace
    if max(ratio, 1 / ratio) < SLOWER:
        return None
    pa, pb = dict(a.phases), dict(b.phases)
    # the phases that hold the whole compile (``dynamo``, ``_compile.compile_inner``) say nothing of where it went
    inner = [p for p in set(pa) | set(pb) if pa.get(p, 0.0) < 900 * ta and pb.get(p, 0.0) < 900 * tb]
    moved = max(inner, key=lambda p: abs(pb.get(p, 0.0) - pa.get(p, 0.0)), default=None)
    text = f"compile time {ta:.2f} s → {tb:.2f} s ({tb / ta:.1f}×"
    text += f"; {ratio:.1f}× against the whole run's {run_pace:.2f}×)" if abs(run_pace - 1) >= 0.05 else ")"
    if moved is not None:
        text += f", most in {moved}: {pa.get(moved, 0.0) / 1000:.2f} s → {pb.get(moved, 0.0) / 1000:.2f} s"
    return text


def first_line(difference: dict[str, Any]) -> str:
    """A difference in the one line ``diff`` says first: ``[0/0] f: a new graph break at v2.py:6 (print("hi")): ...``."""
    cid = difference["b"] or difference["a"]
    return f"[{cid}] {difference['function']}: {difference['summary']}"
