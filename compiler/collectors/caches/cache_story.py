"""The cache story of each compile, read from torch's cache records, for a live run (``caches.py``) and a structured
trace (``compiler/trace/build.py``) alike: one reader, one comparison, one line of words.

[Note: cache story] Inductor's FX graph cache and AOTAutograd's cache each write one structured-trace artifact per
lookup: ``fx_graph_cache_{hit,miss,bypass}`` and ``aotautograd_cache_{hit,miss,bypass}`` (torch 2.11 to 2.15), a JSON
payload with ``cache_status_detailed`` (``full_miss``: no entry under the key; ``guard_miss``: entries whose guards
failed; ``hit``), the ``key``, a bypass's ``cache_bypass_reason`` and ``cache_bypass_exception_type``, a hit's
``time_saved_ns`` (inductor) or ``time_saved_ms`` (AOTAutograd), and ``components``: one line per part of the key,
``[hash] name: text`` (``gm``, ``example_inputs[0]``, ``fx_kwargs[...]``, ``inductor_config[...]``, ``torch_version``,
...). Inductor always writes them; AOTAutograd only when its logger is at DEBUG (``caches_torch.py``). What made a
miss is read from them: the nearest earlier entry of the same code (function, file and first line) and the same cache
that has components is compared with it by each component's HASH, never its text (``fx_kwargs[get_decomp_fn]``'s text
holds a function's address and differs on every run; its hash does not), and the lines of the text that changed are
kept (at most ``MAX_LINES``), e.g. ``gm``: ``aten.mul.Tensor(arg0_1, 2.0)`` became ``3.0``. A key's components are
never kept in the report: only what differs, and one short hash a part of the key (``hashes``, minor 17: the
components grouped by the name before their ``[``, ``inductor_config`` one hash for its 583 settings, ``gm`` one for
itself), which ``compiler/diff`` compares with the entry of the other run.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ...model import CacheDecision, CacheDifference
from .cache_guards import check, input_symbols

if TYPE_CHECKING:
    from ...events import TraceEvent
    from ...model import CompileReport, Frame

__all__ = ["CACHE_ARTIFACT", "CACHE_EVENTS", "HASH_CHARS", "MAX_LINES", "CacheRead", "attach", "cache_line", "read"]

CACHE_ARTIFACT = re.compile(r"^artifact:(?P<cache>fx_graph|aotautograd)_cache_(?P<status>hit|miss|bypass)$")
#: the events a live stream keeps for this kind
CACHE_EVENTS = tuple(f"artifact:{c}_cache_{s}" for c in ("fx_graph", "aotautograd") for s in ("hit", "miss", "bypass"))
#: the changed lines a difference keeps
MAX_LINES = 12
#: how much of each hash a report keeps (``CacheDecision.hashes``: another run's entry is compared with it)
HASH_CHARS = 16
_COMPONENT = re.compile(r"^\[(?P<hash>[^\]\s]+)\] (?P<name>[^:\n]+?): ?(?P<text>.*)$", re.S)
_WHO = {"fx_graph": "inductor", "aotautograd": "AOT"}


@dataclass(slots=True)
class CacheRead:
    """One cache record: its decision, and its key's components by name (hash, text), in the key's order."""

    decision: CacheDecision
    components: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: how many ``compilation_metrics`` of its compile id came before it (a trace where ids repeat after a reset)
    occurrence: int = 0
    #: a ``guard_miss``'s guards of the entry tried, as torch wrote them (``cache_status_guard_expr``)
    guard_expr: str | None = None


def read(events: Iterable[TraceEvent]) -> list[CacheRead]:
    """Every cache record of ``events``, in order (``compilation_metrics`` events, when given, place each record in
    the right compile of a trace whose compile ids repeat)."""
    out: list[CacheRead] = []
    closed: dict[str | None, int] = {}
    for ev in events:
        if ev.name == "compilation_metrics":
            closed[ev.compile_id] = closed.get(ev.compile_id, 0) + 1
            continue
        m = CACHE_ARTIFACT.match(ev.name)
        if m is None:
            continue
        try:
            info = json.loads(ev.payload) if ev.payload else {}
        except ValueError:
            info = {}
        info = info if isinstance(info, dict) else {}
        components = _components(info.get("components"))
        out.append(
            CacheRead(
                CacheDecision(
                    compile_id=ev.compile_id,
                    cache=cast("Any", m.group("cache")),  # CACHE_ARTIFACT matches only the schema's values
                    status=cast("Any", m.group("status")),
                    key=str(info["key"]) if info.get("key") else None,
                    reason=_text(info.get("reason") or info.get("cache_bypass_reason") or info.get("cache_bypass_hard_reason")),
                    detail=_text(info.get("cache_status_detailed")),
                    exception_type=_text(info.get("cache_bypass_exception_type")),
                    time_saved_ms=_saved_ms(info) if m.group("status") == "hit" else None,
                    components=len(components) or None,
                    hashes=_group_hashes(components),
                ),
                components,
                closed.get(ev.compile_id, 0),
                _text(info.get("cache_status_guard_expr")),
            )
        )
    return out


def attach(report: CompileReport, reads: list[CacheRead]) -> None:
    """Each record into its frame's ``caches`` (by compile id, the n-th frame of that id for a record after n of its
    compiles ended), each miss compared with the nearest earlier entry of the same code and cache, and each frame's
    story in one line."""
    frames: dict[str, list[Any]] = {}
    for frame in report.frames:
        frames.setdefault(frame.compile_id, []).append(frame)
    placed: dict[int, list[CacheRead]] = {}
    for r in reads:
        same = frames.get(r.decision.compile_id or "", [])
        if same:
            frame = same[min(r.occurrence, len(same) - 1)]
            frame.caches.append(r.decision)
            placed.setdefault(id(frame), []).append(r)
    last: dict[tuple[str, str, int, str], tuple[str, CacheRead]] = {}
    for frame in report.frames:
        for r in placed.get(id(frame), []):
            if r.guard_expr:
                _explain_guard_miss(report, frame, r)
            where = (frame.code.name, frame.code.filename, frame.code.firstlineno, r.decision.cache)
            if not r.components:
                continue
            earlier = last.get(where)
            if earlier is not None and r.decision.status == "miss":
                r.decision.compared_with = earlier[0]
                r.decision.differs = _differences(earlier[1].components, r.components)
            last[where] = (frame.compile_id, r)


def _explain_guard_miss(report: CompileReport, frame: Frame, r: CacheRead) -> None:
    """[Note: a guard miss] in ``cache_guards.py``: the entry's guards against this compile's hints."""
    hints: dict[str, int] = {}
    for s in report.symbols:
        if s.compile_id == frame.compile_id and re.fullmatch(r"-?\d+", s.value.strip()):
            hints[s.symbol] = int(s.value)
    names = input_symbols(r.components, set(hints))
    if not names:  # AOTAutograd's inputs are the Dynamo graph's: its SymInt placeholders, in order
        graph = next((g for g in report.graphs if g.compile_id == frame.compile_id and g.kind == "dynamo"), None)
        names = [n.name for n in graph.nodes if n.op == "placeholder" and n.name in hints] if graph else []
    checked = check(r.guard_expr or "", names, hints)
    r.decision.guard_expr = checked.expr
    r.decision.guard_hints = checked.hints or None
    r.decision.guard_failed = checked.failed


def cache_line(caches: list[CacheDecision]) -> str:
    """A compile's cache story in one line: ``AOT miss (full_miss) → inductor miss (full_miss): gm differs from
    [0/0@1]``, ``inductor hit (24.5 s saved) → AOT hit (27.1 s saved)``, ``AOT bypass: Unsupported post grad custom
    pass (BypassAOTAutogradCache)``; '' without a record."""
    parts = []
    for c in caches:
        text = f"{_WHO[c.cache]} {c.status}"
        if c.status == "miss" and c.detail and c.detail != "miss":
            text += f" ({c.detail}{_guard_words(c)})"
        if c.status == "hit" and c.time_saved_ms:
            text += f" ({_seconds(c.time_saved_ms)} saved)"
        if c.status == "bypass" and c.reason:
            text += f": {c.reason}" + (f" ({c.exception_type})" if c.exception_type else "")
        if c.differs:
            names = ", ".join(d.component for d in c.differs[:3]) + (
                f" and {len(c.differs) - 3} more" if len(c.differs) > 3 else ""
            )
            text += f": {names} differ{'s' if len(c.differs) == 1 else ''} from [{c.compared_with}]"
        parts.append(text)
    return " → ".join(parts)


def _guard_words(c: CacheDecision) -> str:
    """``: 5 <= s77 is false for s77 = 3``: a guard miss's failing guards (or the entry's guards, not evaluated)."""
    if not c.guard_expr:
        return ""
    if not c.guard_failed:
        held = "hold" if c.guard_failed == [] else "were not evaluated"
        return f": the entry's guards {_cut(c.guard_expr)} {held}" + _for(c.guard_hints, None)
    failed = " and ".join(c.guard_failed)
    return f": {_cut(failed)} {'is' if len(c.guard_failed) == 1 else 'are'} false" + _for(c.guard_hints, failed)


def _for(hints: dict[str, int] | None, within: str | None) -> str:
    named = {s: v for s, v in (hints or {}).items() if within is None or re.search(rf"\b{re.escape(s)}\b", within)}
    return f" for {', '.join(f'{s} = {v}' for s, v in named.items())}" if named else ""


def _cut(text: str, most: int = 160) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _group_hashes(components: dict[str, tuple[str, str]]) -> dict[str, str] | None:
    """One short hash a part of the key: its components' hashes, in order, hashed together (a part of one component
    keeps that component's own hash, shortened)."""
    groups: dict[str, list[str]] = {}
    for name, (h, _text) in components.items():
        groups.setdefault(name.split("[", 1)[0], []).append(h)
    return {
        part: hs[0][:HASH_CHARS] if len(hs) == 1 else hashlib.sha1("".join(hs).encode()).hexdigest()[:HASH_CHARS]
        for part, hs in groups.items()
    } or None


def _components(lines: Any) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for line in lines if isinstance(lines, list) else []:
        m = _COMPONENT.match(str(line))
        if m is not None:
            out[m.group("name")] = (m.group("hash"), m.group("text"))
    return out


def _differences(before: dict[str, tuple[str, str]], after: dict[str, tuple[str, str]]) -> list[CacheDifference]:
    out = []
    for name in [*after, *(n for n in before if n not in after)]:
        old, new = before.get(name), after.get(name)
        if old is not None and new is not None and old[0] == new[0]:
            continue
        out.append(
            CacheDifference(
                component=name,
                before=old[0] if old else None,
                after=new[0] if new else None,
                lines=_changed_lines(old[1] if old else "", new[1] if new else ""),
            )
        )
    return out


def _changed_lines(before: str, after: str) -> list[str]:
    diff = difflib.ndiff(before.splitlines(), after.splitlines())
    changed = [f"{line[:2]}{line[2:].strip()}" for line in diff if line[:2] in ("- ", "+ ")]
    return [line[:300] for line in changed[:MAX_LINES]]


def _saved_ms(info: dict[str, Any]) -> float | None:
    if isinstance(info.get("time_saved_ms"), (int, float)):
        return float(info["time_saved_ms"])
    if isinstance(info.get("time_saved_ns"), (int, float)):
        return info["time_saved_ns"] / 1e6
    return None


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 1000 else f"{ms:.0f} ms"


def _text(value: Any) -> str | None:
    return str(value) if value else None
