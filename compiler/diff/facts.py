"""What one compile is when two reports are compared: the facts of its story, with what changes from run to run and
means nothing taken out (node names, object ids, addresses, uuids, temporary paths, line numbers).

``compile_facts(report)`` gives one ``CompileFacts`` a frame, in compile order. Two runs (``compiler/diff``) and the
ranks of one job (``compiler/ranks.py``) read a compile through this module: ``by_compile`` and ``dynamo_code`` are
the ranks' graph identity; ``CompileFacts`` is a run's.

- ``function``: the code's name, a resume function's without its line (``torch_dynamo_resume_in_f_at_6`` is
  ``torch_dynamo_resume_in_f``): a line inserted above a function moves every line and is no difference;
- ``graph``: each Dynamo graph of the compile as canonical lines, one a node (``%2 = call_function
  _operator.mul(%1, 3)  # [8] float32``): nodes numbered in order, so a renamed node is no difference;
- ``ops``: the graphs' calls as a multiset (``call_function _operator.mul``);
- ``breaks``: each graph break as Dynamo's graph-break type and what it met (its context), with the line and the
  user's code kept to show, not to compare;
- ``guards``: each guard as its kind (``TENSOR_MATCH``), source and code;
- ``symbols``: each dynamic-shape symbol by its source (``L['x'].size()[0]``) with its range: the symbol's name
  (``s86``) is a counter;
- ``failed``: for a recompile, what failed in the guards of the entry before it (``GuardFailure.what``);
- ``caches``: each cache's decision (``fx_graph miss (full_miss)``), ``cache_keys`` the hashes of its key's parts
  (``CacheDecision.hashes``); ``kernels``: inductor's kernels;
  ``compile_s`` and ``phases``: the compile's time and each phase's (ms, by name);
- ``source``: the function's own lines (``Source``), where the report holds them (its ``cell`` or ``sources``): shown
  beside the other side's in the diff view (``views.py``), never compared.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..normalize import stable_text as _stable_text

__all__ = [
    "Break",
    "CompileFacts",
    "Source",
    "base_name",
    "by_compile",
    "compile_facts",
    "dynamo_code",
    "function_name",
    "guard_line",
]

_FILE_COMMENT = re.compile(r"^\s*# File: .*$", re.M)
_RESUME_LINE = re.compile(r"(torch_dynamo_resume_in_\w+?)_at_\d+$")
#: an object's id or address written as a number (``___check_obj_id(..., 94524005968416)``, where the first argument
#: holds commas; a global Dynamo made for an object, ``G['_140419419845664_c1']``), or a hash Python seeds anew in
#: every process (transformers' ``generation_config._original_object_hash == -4012...``): 10 digits or more
_LONG_NUMBER = re.compile(r"-?\d{10,}")
_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*\b")  # a name, not an attribute (``sin.cos``: ``sin`` only)
#: the most lines of a function's source kept to show
MAX_SOURCE_LINES = 400


@functools.lru_cache(maxsize=1 << 16)
def stable_text(text: str) -> str:
    """``text`` without what changes from run to run and means nothing (``compiler.normalize.stable_text``, and ids).
    Cached: a run's guards and nodes repeat from compile to compile (a 12,000-compile trace: BENCHMARKS.md §16)."""
    return _LONG_NUMBER.sub("ID", _stable_text(text))


def by_compile(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The report's graphs by compile id, in order (one pass: a trace holds 10,000s of compiles)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for g in report["graphs"]:
        out.setdefault(g["compile_id"], []).append(g)
    return out


def dynamo_code(graphs: list[dict[str, Any]]) -> str:
    """The readable code of a compile's Dynamo graphs, less their ``# File:`` comments."""
    return "\n".join(_FILE_COMMENT.sub("", g["code"]) for g in graphs if g["kind"] == "dynamo")


def function_name(name: str) -> str:
    """A code's name as two runs compare it: a resume function's without the line it resumes at."""
    m = _RESUME_LINE.match(name)
    return m.group(1) if m else name


def base_name(path: str) -> str:
    """A file's base name, whichever separator its path uses (a report written on Windows is read here too)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def guard_line(guard: tuple[str, str, str]) -> str:
    """A guard of ``CompileFacts.guards`` as one line to read: its kind and code (its source where it has no code)."""
    return f"{guard[0]} {guard[2] or guard[1]}".strip()


@dataclass(frozen=True)
class Break:
    """A graph break: ``key`` is what two runs compare; the rest is what a person reads."""

    key: tuple[str, str]  # (gb_type, what it met)
    gb_type: str
    reason: str
    filename: str | None
    line: int | None
    code: str | None  # the user's line of code where it broke


@dataclass(frozen=True)
class Source:
    """A function's own lines: ``lines[0]`` is line ``first_line`` of ``filename`` (its base name)."""

    filename: str
    first_line: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class CompileFacts:
    compile_id: str
    index: int  # the compile's place in its report
    function: str
    filename: str  # the code's file, its base name
    status: str
    graph: tuple[str, ...]
    ops: Counter[str] = field(hash=False)
    breaks: tuple[Break, ...]
    guards: tuple[tuple[str, str, str], ...]  # (kind, source, code)
    symbols: tuple[tuple[str, str], ...]  # (source, range)
    failed: tuple[str, ...]
    caches: tuple[str, ...]
    cache_keys: dict[str, dict[str, str]] = field(hash=False, compare=False)  # cache -> its key's parts' hashes
    kernels: int
    compile_s: float | None
    phases: tuple[tuple[str, float], ...] = field(hash=False)
    graphs: int = 0  # how many Dynamo graphs it made
    source: Source | None = field(default=None, hash=False, compare=False)


def _canonical(graph: dict[str, Any]) -> list[str]:
    """A graph's nodes as lines, numbered in order, every name that is a node's replaced by its number."""
    numbers = {n["name"]: f"%{i}" for i, n in enumerate(graph["nodes"])}

    def names(text: str) -> str:
        return _NAME.sub(lambda m: numbers.get(m.group(0), m.group(0)), stable_text(text))

    out = []
    for i, n in enumerate(graph["nodes"]):
        args = names(n["args"]) if n["kwargs"] in ("{}", "") else f"{names(n['args'])}, {names(n['kwargs'])}"
        meta = " ".join(s for s in (str(n["shape"]) if n["shape"] is not None else "", n["dtype"] or "") if s)
        target = names(str(n["target"])) if n["op"] == "call_function" else stable_text(str(n["target"]))
        out.append(f"%{i} = {n['op']} {target}{args}" + (f"  # {meta}" if meta else ""))
    return out


def _ops(graph: dict[str, Any]) -> list[str]:
    """A graph's calls, each as its op and target; a node's name in a function's target (a graph read from a trace's
    printed code has ``sin.cos`` for ``sin.cos()``) is ``%``; a method's target is its name (``cos``)."""
    nodes = {n["name"] for n in graph["nodes"]}

    def target(n: dict[str, Any]) -> str:
        text = stable_text(str(n["target"]))
        return _NAME.sub(lambda m: "%" if m.group(0) in nodes else m.group(0), text) if n["op"] == "call_function" else text

    return [f"{n['op']} {target(n)}" for n in graph["nodes"] if n["op"].startswith("call_")]


def _break(b: dict[str, Any]) -> Break:
    code = next((s["code"] for s in reversed(b.get("user_stack") or []) if s.get("line") == b["line"]), None)
    reason = ((b.get("reason") or "").strip().splitlines() or [""])[-1]
    return Break(
        key=(b["gb_type"], stable_text(b.get("context") or reason)),
        gb_type=b["gb_type"],
        reason=reason,
        filename=b.get("filename"),
        line=b.get("line"),
        code=code,
    )


def _phases(phases: list[dict[str, Any]]) -> tuple[tuple[str, float], ...]:
    """Each phase's time (ms) by name, summed (``bytecode_tracing`` runs once an attempt)."""
    out: Counter[str] = Counter()
    for p in phases:
        if p.get("ms") is not None and not p.get("instant"):
            out[p["name"]] += p["ms"]
    return tuple(sorted(out.items()))


def _block(text_lines: list[str], start: int) -> tuple[int, list[str]]:
    """The lines of the function whose first line (its ``def`` or first decorator) is ``text_lines[start]``: while a
    line is blank or indented deeper than it (a module's code: every line; a line inside a function: that function), and
    the index of its first line."""
    head = text_lines[start]
    indent = len(head) - len(head.lstrip())
    if not head.lstrip().startswith(("def ", "async def ", "@", "class ")):
        # a resume function starts where it resumes, inside its function: the enclosing ``def``'s block
        inner = indent
        for i in range(start - 1, -1, -1):
            line = text_lines[i]
            outer = len(line) - len(line.lstrip())
            if not line.strip() or outer >= inner:
                continue
            if line.lstrip().startswith(("def ", "async def ")):
                return _block(text_lines, i)
            inner = outer  # an ``if``, a ``for``, a ``with`` around it: look further out
            if inner == 0:
                break
        if indent > 0:
            return start, [head]
        return start, text_lines[start : start + MAX_SOURCE_LINES]  # a module's code: every line
    out = [head]
    for line in text_lines[start + 1 :]:
        decorated = all(x.lstrip().startswith("@") for x in out)  # ``@torch.compile`` then its ``def``
        if (
            line.strip()
            and len(line) - len(line.lstrip()) <= indent
            and not decorated
            and not out[-1].rstrip().endswith(("(", ",", "\\"))
        ):
            break
        out.append(line)
        if len(out) >= MAX_SOURCE_LINES:
            break
    while len(out) > 1 and not out[-1].strip():
        out.pop()
    return start, out


def _source_finder(report: dict[str, Any]) -> Any:
    """``find(filename, firstlineno)``: the function's ``Source`` from the report's cell or its files' excerpts, or
    None; each function's found once (a trace's 10,000s of compiles share a few functions)."""
    texts: dict[str, list[tuple[int, list[str]]]] = {}
    cell = report.get("cell") or {}
    if cell.get("filename") and cell.get("source") is not None:
        texts.setdefault(cell["filename"], []).append((1, cell["source"].splitlines()))
    for f in report.get("sources") or []:
        for e in f.get("excerpts") or []:
            texts.setdefault(f["filename"], []).append((e["first_line"], e["text"].splitlines()))

    @functools.cache
    def find(filename: str, firstlineno: int) -> Source | None:
        for first, lines in texts.get(filename, ()):
            if first <= firstlineno < first + len(lines):
                at, shown = _block(lines, firstlineno - first)
                return Source(base_name(filename), first + at, tuple(shown))
        return None

    return find


def compile_facts(report: dict[str, Any]) -> list[CompileFacts]:
    """Every frame of ``report`` as ``CompileFacts``, in compile order."""
    graphs = by_compile(report)
    source_of = _source_finder(report)
    symbols: dict[str | None, list[tuple[str, str]]] = {}
    for s in report.get("symbols") or []:
        symbols.setdefault(s["compile_id"], []).append((stable_text(s.get("source") or ""), s.get("range") or ""))
    kernels: Counter[str | None] = Counter()
    for oc in report.get("output_code") or []:
        kernels[oc["compile_id"]] += len(oc.get("kernels") or [])
    out = []
    for i, f in enumerate(report["frames"]):
        mine = [g for g in graphs.get(f["compile_id"], []) if g["kind"] == "dynamo"]
        lines = tuple(line for g in mine for line in ["graph", *_canonical(g)])
        ops: Counter[str] = Counter(op for g in mine for op in _ops(g))
        caches = tuple(
            f"{c['cache']} {c['status']}" + (f" ({c['detail']})" if c.get("detail") and c["detail"] != c["status"] else "")
            for c in f.get("caches") or []
        )
        out.append(
            CompileFacts(
                compile_id=f["compile_id"],
                index=i,
                function=function_name(f["code"]["name"]),
                filename=base_name(f["code"]["filename"] or ""),
                status=f["status"],
                graph=lines,
                ops=ops,
                breaks=tuple(_break(b) for b in f["graph_breaks"]),
                guards=tuple(
                    sorted({(g["type"], stable_text(g["source"]), stable_text(" ".join(g["code"]))) for g in f["guards"]})
                ),
                symbols=tuple(sorted(set(symbols.get(f["compile_id"], [])))),
                failed=tuple(
                    stable_text(x.get("what") or x.get("check") or "")
                    for r in f["recompile_reasons"]
                    for x in r.get("failures") or []
                )
                or tuple(stable_text(r["reason"].splitlines()[0]) for r in f["recompile_reasons"] if r.get("reason")),
                caches=caches,
                cache_keys={c["cache"]: c["hashes"] for c in f.get("caches") or [] if c.get("hashes")},
                kernels=kernels.get(f["compile_id"], 0),
                compile_s=f.get("compile_time_s"),
                phases=_phases(f.get("phases") or []),
                graphs=len(mine),
                source=source_of(f["code"]["filename"] or "", f["code"]["firstlineno"]),
            )
        )
    return out
