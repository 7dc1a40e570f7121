"""Export calls read from a structured trace ([Note: export calls] in ``exports.py``), for ``dynamo-explorer open``.

``TORCH_TRACE`` records no export; ``TORCH_DTRACE=/dir`` (torch's detailed trace, the same format) does: an
``export`` record at the start of each ``torch.export.export`` call, ``exported_program`` with the program's
printout (``str(ep)``: its graph as ``print_readable`` writes it, ``Graph signature:``, ``Range constraints:``), and
for a failure ``guard_on_data_dependent_error`` (the expression and the stack down to the user's line) or, in strict
mode, Dynamo's ``compilation_metrics`` with its fail type, reason and user frame (strict mode's name none: the user's
frame its reason names, as Dynamo's "Data-dependent branching" does). ``draft_export`` writes its own
log, which holds its ``exported_program`` without an ``export`` start: read alone, that log is one draft call.

A call's events are those after its ``export`` record and before the next; its user's line is the outermost user
frame of the first stack among them (the line that called export), its module what that line exports
(``export(Gate(), ...)``: ``Gate``). The graph is read by the parser of Dynamo's own ``dynamo_output_graph``
(``aot_graphs.parse_readable``); the input checks by the builder a live run uses (``checks.input_checks``). What the
printout does not hold (each ``Dim``'s name, the shape guards, export's suggested fixes) is left out.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

from ...events import TraceEvent
from ...model import CompileReport, ExportCall, ExportCheck, ExportFailure, ExportRange, ExportSpec
from ...user_code import is_user_file
from ..aot_graphs import parse_readable
from .checks import Size, input_checks
from .words import failure, summary_line

__all__ = ["PAYLOADS", "add_exports"]

#: the events whose payload is read
PAYLOADS = frozenset({"exported_program"})

_SPEC = re.compile(r"^\s*(?P<name>[\w.]+): (?P<kind>[A-Z_]+)(?: target='(?P<target>[^']*)')?")
_RANGE = re.compile(r"(?P<symbol>[^{},:\s][^{},:]*): VR\[(?P<lo>[^,\]]+), (?P<hi>[^\]]+)\]")
_EXPORTED = re.compile(r"export\(\s*(?P<module>[A-Za-z_][\w.]*)")
# torch before 2.6 printed the signature as its repr, one line: InputSpec(kind=<InputKind.USER_INPUT: 1>, arg=...)
_SPEC_REPR = re.compile(
    r"(?P<dir>Input|Output)Spec\(kind=<\w+\.(?P<kind>[A-Z_]+): \d+>, arg=\w+\(name='(?P<name>[^']*)'[^)]*\), target=(?:'(?P<target>[^']*)'|None)"
)
# the user's frame Dynamo's reason names ("# File "/x.py", line 6, in forward, code: if x.sum() > 0:")
_REASON_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>[\w<>]+)(?:, code: (?P<code>[^\n]*))?')
_DYNAMO_EVENTS = frozenset({"dynamo_start", "dynamo_output_graph", "compilation_metrics"})
_TORCH_FILE = re.compile(r"(^|/)torch/|site-packages/")
_EXPORT_FILE = re.compile(r"(^|/)torch/(export|_export)/")


@dataclass(slots=True)
class _Call:
    events: list[TraceEvent] = field(default_factory=list)
    started: bool = True  # False: draft_export's own log, its program with no start before it
    ended: bool = False  # its program or its failure is read: what follows is the program's own


def _ends(ev: TraceEvent) -> bool:
    return ev.name in ("exported_program", "guard_on_data_dependent_error") or (
        ev.name == "compilation_metrics" and isinstance(ev.meta, dict) and bool(ev.meta.get("fail_type"))
    )


def add_exports(report: CompileReport, events: list[TraceEvent]) -> None:
    """Every export call of a log into ``report.exports``, each exported graph into ``report.graphs``."""
    calls: list[_Call] = []
    for ev in events:
        if ev.name == "export":
            calls.append(_Call())
        elif calls and calls[-1].started and not calls[-1].ended:
            calls[-1].events.append(ev)
            calls[-1].ended = _ends(ev)
        elif ev.name == "exported_program":  # draft_export's own log (or a torch that logged no start): its program
            calls.append(_Call(events=[ev], started=False, ended=True))
    for call in calls:
        report.exports.append(_read(report, len(report.exports), call))


def _read(report: CompileReport, index: int, call: _Call) -> ExportCall:
    program = next((ev.payload for ev in call.events if ev.name == "exported_program" and ev.payload), None)
    # strict mode traces with Dynamo (torch 2.15 gives every export call a compile id: that is not Dynamo's)
    strict = any(ev.name in _DYNAMO_EVENTS for ev in call.events)
    filename, line, code = _caller(call.events)
    m = _EXPORTED.search(code or "")
    out = ExportCall(
        index=index,
        api="torch.export.export" if call.started else "torch.export.draft_export",
        mode="draft" if not call.started else "strict" if strict else "non_strict",
        module=m["module"] if m else "?",
        module_line=None,
        filename=filename,
        line=line,
        inputs=[],
        dynamic_shapes=None,
        outcome="exported" if program is not None else "failed",
        seconds=0.0,
        summary="",
    )
    if program is not None:
        _program(report, out, program)
    else:
        out.failure = _failure(call.events)
    out.summary = summary_line(out)
    return out


def _user(filename: object) -> bool:
    """A user's file: not torch's (a trace may come from another machine, its torch anywhere), not a library's."""
    name = str(filename or "")
    return bool(name) and _TORCH_FILE.search(name) is None and is_user_file(name)


def _caller(events: list[TraceEvent]) -> tuple[str | None, int | None, str | None]:
    """The user's line that called export: in the first stack that has one (the record's, or the one inside it:
    torch 2.15 logs ``create_symbol``'s and ``guard_on_data_dependent_error``'s there), the user frame whose next
    frame is torch's export (``torch/export/__init__.py``, ``_draft_export.py``)."""
    for ev in events:
        meta = ev.meta if isinstance(ev.meta, dict) else {}
        frames = ev.stack or (meta.get("stack") if isinstance(meta.get("stack"), list) else None) or []
        for f, nxt in itertools.pairwise(frames):
            if _user(f.get("filename")) and _EXPORT_FILE.search(str(nxt.get("filename") or "")):
                return str(f.get("filename")), int(f["line"]), f.get("loc") or None
    return None, None, None


def _program(report: CompileReport, out: ExportCall, text: str) -> None:
    """An ``ExportedProgram``'s printout: its graph, signature, ranges and input checks."""
    head, _, rest = text.partition("Graph signature:")
    sig, _, ranges_text = rest.partition("Range constraints:")
    code = textwrap.dedent(head.split("ExportedProgram:", 1)[-1].strip("\n")).strip("\n") + "\n"
    nodes = parse_readable(code)
    direction = "input"
    for row in sig.splitlines():
        if row.strip() == "# outputs":
            direction = "output"
        elif (s := _SPEC.match(row)) is not None:
            out.signature.append(ExportSpec(direction=direction, kind=s["kind"], name=s["name"], target=s["target"]))  # type: ignore[arg-type]
    for s in _SPEC_REPR.finditer(sig):
        out.signature.append(ExportSpec(direction=s["dir"].lower(), kind=s["kind"], name=s["name"], target=s["target"]))  # type: ignore[arg-type]
    ranges = {r["symbol"].strip(): (_bound(r["lo"]), _bound(r["hi"])) for r in _RANGE.finditer(ranges_text)}
    users = [s.name for s in out.signature if s.direction == "input" and s.kind == "USER_INPUT"]
    shapes: dict[str, list[Size]] = {n.name: list(n.shape) for n in nodes if n.op == "placeholder" and n.shape is not None}
    places: dict[str, str] = {}
    for name in users:
        for d, size in enumerate(shapes.get(name, [])):
            if isinstance(size, str):
                places.setdefault(size, f"{name}.shape[{d}]")
    out.ranges = [ExportRange(symbol=s, dim=None, place=places.get(s), min=lo, max=hi) for s, (lo, hi) in ranges.items()]
    checks = input_checks([(u, shapes.get(u, [])) for u in users], ranges)
    out.checks = [ExportCheck(kind=k, expr=e, input=i) for k, e, i in checks]  # type: ignore[arg-type]
    graph = report.add_graph(compile_id=None, kind="export", nodes=nodes, code=code, name=out.module)
    out.graph_id, out.graph_nodes = graph.id, len(nodes)


def _failure(events: list[TraceEvent]) -> ExportFailure:
    """Why a call failed, as far as the trace says: a guard on a data-dependent value, or Dynamo's fail record."""
    for ev in events:
        meta: dict[str, Any] = ev.meta if isinstance(ev.meta, dict) else {}
        if ev.name == "guard_on_data_dependent_error":
            frames = [f for f in meta.get("stack") or [] if _user(f.get("filename"))]
            f = frames[-1] if frames else {}
            return failure(
                "GuardOnDataDependentSymNode",
                "data_dependent",
                f"Could not guard on data-dependent expression {meta.get('expr')}",
                filename=f.get("filename"),
                line=int(f["line"]) if f.get("line") is not None else None,
                function=f.get("name"),
                code=f.get("loc") or None,
            )
        if ev.name == "compilation_metrics" and meta.get("fail_type"):
            reason = str(meta.get("fail_reason") or "")
            lineno = meta.get("fail_user_frame_lineno")
            where: dict[str, Any] = {"filename": meta.get("fail_user_frame_filename")}
            named = next((m for m in _REASON_FRAME.finditer(reason) if _user(m.group("file"))), None)
            if lineno is None and named is not None:  # strict mode's metrics name no user frame (2.13 to 2.15)
                where = {"filename": named.group("file"), "function": named.group("name")}
                where["code"] = (named.group("code") or "").strip() or None
                lineno = named.group("line")
            return failure(
                str(meta["fail_type"]).rsplit(".", 1)[-1].rstrip("'>"),
                "data_dependent" if "data-dependent" in reason.lower() else "unsupported",
                reason.strip().split("\n\n")[0][:600],
                line=int(lineno) if lineno is not None else None,
                **where,
            )
    return failure(
        "?",
        "other",
        "the trace records no export program for this call and no reason (torch logs some failures only as exceptions)",
    )


def _bound(text: str) -> int | None:
    try:
        number = int(text)
    except ValueError:  # int_oo, -int_oo: no bound
        return None
    return number if abs(number) < 2**62 else None
