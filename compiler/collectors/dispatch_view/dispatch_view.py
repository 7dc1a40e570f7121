"""Collector for the dispatch view (``report.dispatch``): how a call of each code Dynamo compiled is dispatched.

For each code object the run compiled: its cache entries in the order Dynamo tries them at the next call (read
with ``_debug_get_cache_entry_list`` as the run ends, before the runner drops the explorer's entries), the
guards that tell each entry from its neighbours, the calls each served (``--profile``), and what a call that
matches none does (recompile, or run eagerly once ``recompile_limit`` is reached). Named ``dispatch_view`` so
it is not taken for ``dispatch.py``, which installs the Dynamo hooks.

[Note: dispatch view] Dynamo replaces a compiled function's code by a dispatcher that depyf prints as
``transformed_<fn>``: ``if __guard_0_2(...): return __transformed_code_0_2(...)`` for each cache entry,
then the original code (Dynamo compiles it again, or, past ``recompile_limit``, runs it as plain Python:
``FrameAction.RUN_ONLY``; under ``fullgraph=True`` it raises). depyf lists the entries newest first, but the
cache is most-recently-used first: a new entry goes to the front, and so does an entry that matched a call
(``ExtraState::move_to_front`` in torch/csrc/dynamo/extra_state.cpp), so after ``f(float32); f(float64);
f(float32)`` the float32 entry is tried first. The order and which entries are still there come from the cache
itself, read in ``install``'s exit: the runner drops the explorer's entries after
that (``isolation.drop_explorer_caches``), and the guards collector reads its trees at the same moment, so no
new hook is needed. An entry's guards are the leaves of its guard tree, already parsed by the guards
collector (``GuardsCollector.leaves``): nothing is walked again, and a code with one entry costs a list
length. With several entries each leaf is compared with the entry before and after it: a leaf whose
(kind, source) the neighbour checks once, differently ("differs", a TENSOR_MATCH split into the properties of
``check_tensor`` that differ, a GLOBAL_STATE into its fields), or that the neighbour does not make ("only_here":
also a root LAMBDA_GUARD, one of several independent checks under the same kind and source) distinguishes the
entry; a leaf every entry holds alike is folded and counted (``shared_guards``). Sources and checks are compared
with Dynamo's per-compile names made equal (``G['__builtins_dict___3']['print']`` of one entry is the same
builtin as ``__builtins_dict___5`` of the next). An entry of the user's own
``torch.compile`` of the same code (not this run's) is listed too, since a call tries it; its tree is parsed
here. The fallback's limit is the value the run used (``--recompile-limit`` or Dynamo's config); the run hit
it when Dynamo logged ``hit config.recompile_limit`` for this code (the logs collector keeps that warning).
"""

from __future__ import annotations

import contextlib
import json
import re
import textwrap
import types
from collections.abc import Iterator
from dataclasses import dataclass
from inspect import CO_VARARGS, CO_VARKEYWORDS
from typing import Any

from ... import _compat
from ...model import (
    CodeInfo,
    CompileReport,
    DispatchCode,
    DispatchEntry,
    DispatchFallback,
    DispatchGuard,
    GuardDifference,
)
from ..base import CaptureContext, Collector
from ..guards.guard_checks import split_part
from ..guards.guards import GuardsCollector, parse_tree
from ..logs import LogsCollector
from . import dispatch_view_torch

__all__ = ["MAX_DISTINGUISHING", "DispatchViewCollector", "distinguishing", "transformed_text"]

#: Distinguishing guards kept per entry (a model whose module objects changed differs in thousands of ID_MATCH).
MAX_DISTINGUISHING = 40

#: A leaf of a guard tree as ``guards.parse_tree`` gives it: (source, kind, check, user line, comment).
Leaf = tuple[str, str, str, int | None, str]

_TENSOR = re.compile(
    r"^check_tensor\((?P<name>.+), (?P<type>[\w.]+), (?P<dispatch_keys>DispatchKeySet\([^)]*\)), "
    r"(?P<dtype>[\w.]+), device=(?P<device>[^,]+), requires_grad=(?P<requires_grad>\w+), "
    r"size=(?P<size>\[[^\]]*\]), stride=(?P<stride>\[[^\]]*\])\)$"
)
_TENSOR_PROPERTIES = ("type", "dtype", "device", "requires_grad", "size", "stride", "dispatch_keys")
_TYPE_ID = re.compile(r"^___check_type_id\((?P<source>.+), \d+\), type=<class '(?P<type>[^']*)'>$")
_OBJ_ID = re.compile(r"^___check_obj_id\((?P<source>.+?), (?P<id>\d+)\)(?:, type=<[^<>]*>)?$")  # 2.11 adds the type
_PER_COMPILE_NAME = re.compile(r"__builtins_dict___\d+")
_LIMIT_HIT = re.compile(r"hit config\.(?P<name>\w+) \((?P<value>\d+)\)\s+function: '(?P<fn>[^']*)' \((?P<where>[^)]*)\)")


@dataclass(slots=True)
class _Cached:
    """One cache entry as the run ends: its compile id, whether it can still match, its guard manager when the
    entry is not this run's (this run's trees are the guards collector's)."""

    compile_id: str
    valid: bool
    foreign_manager: Any


class DispatchViewCollector(Collector):
    name = "dispatch_view"
    requires = ("frames", "guards", "logs", "profile")

    def __init__(self) -> None:
        #: each code the run compiled, with its cache entries in the order Dynamo tries them, read as the run ends
        self.caches: list[tuple[types.CodeType, list[_Cached]]] = []
        self.limit: tuple[str, int] = ("recompile_limit", 8)

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        name, value = dispatch_view_torch.recompile_limit()
        self.limit = (name, ctx.options.recompile_limit if ctx.options.recompile_limit is not None else value)
        try:
            yield
        finally:  # before the runner drops the run's cache entries ([Note: dispatch view])
            try:
                self._read_caches(ctx)
            except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the run or hide the cell's error
                ctx.hook_failures.append((self.name, "read_caches", exc))

    def _read_caches(self, ctx: CaptureContext) -> None:
        ours = {r.compile_id for r in ctx.code_records}
        for code in ctx.codes_seen:
            cached = []
            for entry in _compat.cache_entries(code):
                cid = ctx.report_id(getattr(entry, "compile_id", ""))
                valid = dispatch_view_torch.entry_is_valid(entry)
                cached.append(_Cached(cid, valid, None if cid in ours or not valid else entry.guard_manager))
            self.caches.append((code, cached))

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        tree_leaves = ctx.get(GuardsCollector).leaves
        hits = {e.compile_id: e.hits for e in report.profile.entries} if report.profile is not None else None
        hit_limits = _limit_hits([r.message for r in ctx.get(LogsCollector).records])
        for code, cached in self.caches:
            run_ids = [r.compile_id for r in ctx.code_records if r.orig is code]
            info = next((f.code for f in report.frames if f.compile_id in run_ids), None)
            if info is None:
                continue
            listed = {c.compile_id for c in cached}
            gone = [_Cached(cid, False, None) for cid in reversed(run_ids) if cid not in listed]
            rows: list[tuple[_Cached, list[Leaf]]] = []
            for c in [*cached, *gone]:
                if c.compile_id in run_ids:  # taken: no one reads them after this (500,000 on a 100,000-node graph)
                    leaves = tree_leaves.pop(c.compile_id, [])
                elif c.foreign_manager is not None:
                    leaves = parse_tree(str(c.foreign_manager), code.co_filename)
                else:
                    leaves = []
                rows.append((c, leaves))
            found, shared = distinguishing([leaves for _, leaves in rows])
            entries = [
                DispatchEntry(
                    compile_id=c.compile_id,
                    in_run=c.compile_id in run_ids,
                    live=c.valid and c.compile_id in listed,
                    guard_count=len(leaves),
                    distinguishing=guards,
                    hits=None if hits is None else hits.get(c.compile_id, 0),
                )
                for (c, leaves), guards in zip(rows, found, strict=True)
            ]
            live = sum(1 for e in entries if e.live)
            fallback = self._fallback(info, code, live, hit_limits, ctx.options.fullgraph)
            report.dispatch.append(
                DispatchCode(
                    code=info,
                    entries=entries,
                    shared_guards=shared,
                    fallback=fallback,
                    text=transformed_text(code, entries, fallback),
                )
            )

    def _fallback(
        self, info: CodeInfo, code: types.CodeType, live: int, hit_limits: dict[tuple[str, str], tuple[str, int]], fullgraph: bool
    ) -> DispatchFallback:
        """What a call of ``code`` that matches none of its ``live`` entries does after this run."""
        hit = next((v for (fn, where), v in hit_limits.items() if fn == code.co_name and _same_place(where, code)), None)
        name, limit = hit if hit is not None else self.limit
        fn = info.name
        if hit is None and live < limit:
            return DispatchFallback(
                action="recompile",
                limit_name=name,
                limit=limit,
                limit_hit=False,
                reason=(
                    f"No entry matched: Dynamo compiles {fn} again and tries the new entry first "
                    f"({live} of {name} = {limit} entries used)."
                ),
            )
        reached = "this run hit it" if hit is not None else f"{live} entries are cached"
        if fullgraph:
            return DispatchFallback(
                action="error",
                limit_name=name,
                limit=limit,
                limit_hit=hit is not None,
                reason=(
                    f"No entry matched and {name} = {limit} is reached ({reached}): under fullgraph=True Dynamo "
                    "raises FailOnRecompileLimitHit instead of compiling again."
                ),
            )
        return DispatchFallback(
            action="eager",
            limit_name=name,
            limit=limit,
            limit_hit=hit is not None,
            reason=(
                f"No entry matched and {name} = {limit} is reached ({reached}): Dynamo runs {fn} eagerly, its "
                f"original bytecode, without compiling again (raise torch._dynamo.config.{name} or remove the cause "
                "of the recompiles)."
            ),
        )


def _limit_hits(messages: list[str]) -> dict[tuple[str, str], tuple[str, int]]:
    """``(function name, 'file:line') -> (limit name, value)`` of each 'hit config.<limit>' warning Dynamo logged."""
    out: dict[tuple[str, str], tuple[str, int]] = {}
    for message in messages:
        m = _LIMIT_HIT.search(message)
        if m:
            out[(m["fn"], m["where"])] = (m["name"], int(m["value"]))
    return out


def _same_place(where: str, code: types.CodeType) -> bool:
    """Whether Dynamo's ``file:line`` (``format_func_info``) names ``code``."""
    return where == f"{code.co_filename}:{code.co_firstlineno}"


def distinguishing(entries: list[list[Leaf]]) -> tuple[list[list[DispatchGuard]], int]:
    """For each entry's leaves (in the order Dynamo tries them), the guards that tell it from its neighbours, and how many guards
    every entry holds alike (folded; 0 with one entry). [Note: dispatch view]"""
    if len(entries) < 2:
        return [[] for _ in entries], 0
    keys = [{(kind, _same(source), _same(check)) for source, kind, check, _, _ in leaves} for leaves in entries]
    shared = set.intersection(*keys)
    by_kind_source: list[dict[tuple[str, str], list[str]]] = []
    for leaves in entries:
        index: dict[tuple[str, str], list[str]] = {}
        for source, kind, check, _, _ in leaves:
            index.setdefault((kind, _same(source)), []).append(_same(check))
        by_kind_source.append(index)
    out: list[list[DispatchGuard]] = []
    for i, leaves in enumerate(entries):
        neighbours = [by_kind_source[j] for j in (i - 1, i + 1) if 0 <= j < len(entries)]
        rows: list[DispatchGuard] = []
        seen: set[tuple[str, str, str]] = set()
        for source, kind, check, line, comment in leaves:
            key = (kind, _same(source), _same(check))
            if key in shared or key in seen:
                continue
            seen.add(key)
            others = [n.get(key[:2]) for n in neighbours]
            if all(o is not None and key[2] in o for o in others):
                continue  # as both neighbours have it: it tells this entry from neither
            # one check each side on this kind and source: the neighbour makes it differently; several (the root's
            # LAMBDA_GUARDs): independent checks, of which this one is absent there
            single = len(by_kind_source[i][key[:2]]) == 1
            differing = [o[0] for o in others if o is not None and key[2] not in o and single and len(o) == 1]
            rows.extend(_rows(kind, source, check, line, comment, differing))
            if len(rows) >= MAX_DISTINGUISHING:
                break
        out.append(rows[:MAX_DISTINGUISHING])
    return out, len(shared)


def _same(text: str) -> str:
    """``text`` with Dynamo's per-compile global names made equal across entries ([Note: dispatch view])."""
    return _PER_COMPILE_NAME.sub("__builtins_dict__", text) if "__builtins_dict___" in text else text


def _rows(kind: str, source: str, check: str, line: int | None, comment: str, differing: list[str]) -> list[DispatchGuard]:
    """The rows of one distinguishing leaf: one per differing property of a TENSOR_MATCH or GLOBAL_STATE that a
    neighbour checks differently (``differing``: the neighbours' checks of the same kind and source), else one."""
    text = f"{kind}: {check}" + (f"  # {comment}" if comment else "")
    difference: GuardDifference = "differs" if differing else "only_here"

    def row(prop: str | None, value: str | None, summary: str) -> DispatchGuard:
        return DispatchGuard(
            kind=kind,
            source=source,
            check=check,
            property=prop,
            value=value,
            difference=difference,
            summary=summary,
            text=text,
            line=line,
        )

    props = _properties(kind, check)
    if differing and props:
        theirs = [p for p in (_properties(kind, c) for c in differing) if p]
        changed = [k for k in props if any(t.get(k) != props[k] for t in theirs)]
        if changed:
            label = source if kind == "TENSOR_MATCH" else "global state"
            return [row(k, props[k], f"{label} {k} {props[k]}") for k in changed]
    return [row(None, None, _summary(kind, source, check))]


def _properties(kind: str, check: str) -> dict[str, str] | None:
    """The properties a TENSOR_MATCH (``check_tensor``'s fields) or GLOBAL_STATE (its JSON's fields) checks."""
    if kind == "TENSOR_MATCH":
        m = _TENSOR.match(check)
        return {k: m[k] for k in _TENSOR_PROPERTIES} if m else None
    if kind == "GLOBAL_STATE" and " against " in check:
        try:
            state = json.loads(check.split(" against ", 1)[1])
        except ValueError:
            return None
        return {k: json.dumps(v, separators=(",", ":")) for k, v in state.items()} if isinstance(state, dict) else None
    return None


def _summary(kind: str, source: str, check: str) -> str:
    """A guard in a few words: ``type(L['n']) is int`` for Dynamo's type-id check, else its check."""
    m = _TYPE_ID.match(check)
    if m:
        return f"type({m['source']}) is {m['type']}"
    m = _OBJ_ID.match(check)
    if m:
        return f"{m['source']} is the object with id {m['id']}"
    m = _TENSOR.match(check) if kind == "TENSOR_MATCH" else None
    if m:
        return f"{source} is a {m['dtype']} tensor of size {m['size']}"
    text = split_part(check)[0]
    return text if len(text) <= 120 else text[:119] + "…"


def _identifier(text: str) -> str:
    return re.sub(r"\W", "_", text)


def _signature(code: types.CodeType) -> tuple[str, str]:
    """``(parameters, arguments)`` of a code object as Python: ``'x, *args, k, **kw'`` and ``'x, *args, k=k, **kw'``."""
    names = code.co_varnames
    pos = list(names[: code.co_argcount])
    end = code.co_argcount + code.co_kwonlyargcount
    kwonly = list(names[code.co_argcount : end])
    varargs = names[end] if code.co_flags & CO_VARARGS else None
    varkw = names[end + (1 if varargs else 0)] if code.co_flags & CO_VARKEYWORDS else None
    star = [f"*{varargs}"] if varargs else (["*"] if kwonly else [])
    params = [*pos, *star, *kwonly, *([f"**{varkw}"] if varkw else [])]
    args = [*pos, *([f"*{varargs}"] if varargs else []), *(f"{k}={k}" for k in kwonly), *([f"**{varkw}"] if varkw else [])]
    return ", ".join(params), ", ".join(args)


def transformed_text(code: types.CodeType, entries: list[DispatchEntry], fallback: DispatchFallback) -> str:
    """The dispatch as Python, in the style of depyf's ``transformed_<fn>`` ([Note: dispatch view])."""
    fn = _identifier(code.co_name)
    params, args = _signature(code)
    live = [e for e in entries if e.live]
    lines = [
        f"def transformed_{fn}({params}):",
        f"    # what a call of {code.co_name} runs: Dynamo tries its {len(live)} cache "
        f"entr{'y' if len(live) == 1 else 'ies'} in this order",
        "    # (a new entry goes first, and so does an entry that matched a call)",
    ]
    for e in live:
        cid = _identifier(e.compile_id)
        what = "; ".join(g.summary for g in e.distinguishing[:3]) or f"{e.guard_count} guards"
        more = f" (+{len(e.distinguishing) - 3} more)" if len(e.distinguishing) > 3 else ""
        served = f", {e.hits} hit{'s' if e.hits != 1 else ''}" if e.hits is not None else ""
        lines.append(f"    if __guard_{cid}_for_{fn}({args}):  # [{e.compile_id}] {what}{more}{served}")
        lines.append(f"        return __transformed_code_{cid}_for_{fn}({args})")
    lines += [f"    # {part}" for part in textwrap.wrap(fallback.reason, 96)]
    if fallback.action == "recompile":
        lines.append(f"    return __compile_and_run_{fn}({args})  # a new entry, tried first from then on")
    elif fallback.action == "error":
        lines.append(f"    raise FailOnRecompileLimitHit('{fallback.limit_name} reached')")
    else:
        lines.append(f"    return {fn}({args})  # the original code, run eagerly")
    return "\n".join(lines) + "\n"
