"""Collector for graph breaks, from Dynamo's ``dynamo_graph_break_reason`` structured-trace artifact
(``observe_torch.graph_break_reasons``), the record a ``TORCH_TRACE`` log holds and ``open`` reads with the same parser.

It is the one record that sees every break, including those inside inlined callees and those where no graph was
compiled, and ``TORCH_LOGS=graph_breaks`` prints the same text; it is built only when a break happens, and read
whatever the user's log settings are. Its layout (same format strings in 2.11 to 2.15):
``Graph break in user code at FILE:LINE`` / ``Graph Break Reason: ...<gb_type>`` / ``Explanation:`` /
``Hint:`` ... / ``Developer debug context:`` / ``...gb/gbNNNN.html`` / ``User code traceback:`` frames.
The gb id comes from the documentation URL; the registry fills what the text lacks.

A frame Dynamo gave up on (``fail_type`` 'Unsupported': fullgraph errors, exceptions Dynamo observed)
logs no such artifact; its ``fail_reason`` has the same layout, and for the exception the cell raised
(fullgraph) ``real_stack`` names the user line.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from typing import Any

from ...bytecode import RESUME_PREFIX
from ...model import CompileReport, GraphBreak, StackFrame
from .. import observe_torch
from ..base import CaptureContext, Collector
from . import graph_breaks_torch

_AT = re.compile(r"Graph break in user code at (?P<file>.+):(?P<line>\d+)\s*$", re.M)
_URL = re.compile(r"(https?://\S+?/gb/(gb\d+)\.html)")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>\S+)\s*$')


def parse_break(payload: str) -> GraphBreak:
    head, _, rest = payload.partition("User code traceback:")
    user_tb = rest.split("Traceback (most recent call last):")[0]
    at = _AT.search(head)
    reason_block = head.split("Graph Break Reason:", 1)[1] if "Graph Break Reason:" in head else head
    lines = reason_block.splitlines()
    explanation, hints, context = None, [], None
    body: list[str] = []
    for ln in lines:
        s = ln.strip()
        if s.startswith("Explanation:"):
            explanation = s[len("Explanation:") :].strip()
        elif s.startswith("Hint:"):
            hints.append(s[len("Hint:") :].strip())
        elif s.startswith("Developer debug context:"):
            context = s[len("Developer debug context:") :].strip()
        elif s.startswith("For more details") or not s:
            continue
        elif explanation is None and not hints:
            body.append(s)
    url = _URL.search(head)
    gb_id = url.group(2).upper() if url else None
    reg = graph_breaks_torch.gb_registry().get(gb_id or "", {})
    gb_type = body[-1] if body else (reg.get("Gb_type") or "graph break")
    if reg.get("Gb_type") and reg["Gb_type"] in " ".join(body):
        gb_type = reg["Gb_type"]
    stack: list[StackFrame] = []
    tb_lines = user_tb.splitlines()
    for i, ln in enumerate(tb_lines):
        m = _FRAME.match(ln)
        if m:
            code = tb_lines[i + 1].strip() if i + 1 < len(tb_lines) and not _FRAME.match(tb_lines[i + 1]) else None
            stack.append(StackFrame(filename=m.group("file"), line=int(m.group("line")), name=m.group("name"), code=code or None))
    return GraphBreak(
        gb_id=gb_id,
        gb_type=gb_type,
        reason="\n".join(body).strip() or gb_type,
        explanation=explanation or reg.get("Explanation"),
        hints=hints or list(reg.get("Hints") or []),
        doc_url=url.group(1) if url else None,
        context=context,
        filename=at.group("file").strip() if at else None,
        line=int(at.group("line")) if at else None,
        user_stack=stack,
    )


def _from_compiled_frame(stack: list[StackFrame], filename: str, name: str, cell: str) -> list[StackFrame]:
    """Drop the callers above the cell (the notebook machinery, the explorer itself), and the explorer's
    own frames between the cell and the callee (``--compare-eager``'s call timer).

    Dynamo's stack starts with the Python stack above the compiled frame: the cell's line that
    called ``step`` and ``step``'s line that called ``opt.step()``, for a break in a frame compiled
    inside ``opt.step``. Those are kept from the cell's first frame on; without one, from the compiled frame.
    """
    stack = [fs for fs in stack if not fs.filename.startswith(_ENGINE)]
    for i, fs in enumerate(stack):
        if fs.filename == cell:
            return stack[i:]
    original = name.split(RESUME_PREFIX + "_", 1)[-1].rsplit("_at_", 1)[0]
    for i, fs in enumerate(stack):
        if fs.filename == filename and fs.name in (name, original):
            return stack[i:]
    return stack


_ENGINE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # compiler/


class GraphBreaksCollector(Collector):
    name = "graph_breaks"
    requires = ("frames",)

    def __init__(self) -> None:
        self.records: list[tuple[str | None, str]] = []  # (compile id, the artifact's text) of each break

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        def record(compile_id: str | None, text: str) -> None:
            if ctx.watches(compile_id):
                self.records.append((compile_id, text))

        with observe_torch.graph_break_reasons(record):
            yield

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        stacks = {cid: c.real_stack for cid, c in ctx.fullgraph_captures.items() if c.real_stack}
        add_graph_breaks(report, self.records, ctx.program.filename, ctx.exception, stacks)


def add_graph_breaks(
    report: CompileReport,
    records: list[tuple[str | None, str]],
    cell: str,
    exception: BaseException | None = None,
    stacks: dict[str, list[Any]] | None = None,
) -> None:
    """The graph breaks of ``records`` (``(compile id, graph_breaks log text)``: a live run's log, or a trace file's
    ``dynamo_graph_break_reason`` artifacts) onto their frames, then a break for each frame Dynamo gave up on
    (``Unsupported``) with none, from its ``fail_reason`` (the user stack from ``stacks``, the ``real_stack`` of a
    frame traced for strict export, or from ``exception`` when it raised it)."""
    for compile_id, text in records:
        frame = report.frame(compile_id) if compile_id else None
        if frame is None or "Graph Break Reason:" not in text:  # a whole-frame skip: see fail_reason below
            continue
        gb = parse_break(text)
        gb.user_stack = _from_compiled_frame(gb.user_stack, frame.code.filename, frame.code.name, cell)
        if all((g.line, g.gb_type, g.filename) != (gb.line, gb.gb_type, gb.filename) for g in frame.graph_breaks):
            frame.graph_breaks.append(gb)
    failed = [f for f in report.frames if f.fail_type == "Unsupported" and not f.graph_breaks and f.fail_reason]
    for frame in failed:
        gb = parse_break(f"Graph Break Reason: {frame.fail_reason}")
        stack = (stacks or {}).get(frame.compile_id)
        if not stack and frame is failed[-1] and exception.__class__.__name__ == "Unsupported":
            stack = getattr(exception, "real_stack", None)
        if stack:
            gb.user_stack = [StackFrame(filename=fs.filename, line=fs.lineno, name=fs.name, code=fs.line or None) for fs in stack]
            gb.filename, gb.line = gb.user_stack[-1].filename, gb.user_stack[-1].line
        frame.graph_breaks.append(gb)
