"""Collector for ``--trace-steps``: Dynamo's symbolic execution of one frame, instruction by instruction.

``trace_steps_torch.symbolic_steps`` wraps ``InstructionTranslatorBase.step`` (the method that runs one bytecode
instruction on VariableTrackers, for the frame and for every call it inlines) while the run lasts, and
only when the option is on: without ``--trace-steps`` this collector's ``install`` patches nothing.

[Note: trace steps] What one step holds, and why:
- Which compile: the first compile (compile id) whose frame matches ``--trace-steps FRAME`` (a compile
  id such as ``0/0``, or the ``co_name`` of the frame's code; nothing: the first frame compiled). Its
  every analysis attempt is kept: after a graph break Dynamo restarts the analysis of the frame from its
  first instruction (``compile_attempt_1``, ``SpeculationLog``), and the first attempt ends AT the break
  (the instruction raised; Dynamo gives up on this attempt, ``outcome`` 'restart'); the next attempt runs
  to the same instruction, compiles the graph so far there and emits the resume call (``graph_break``
  action 'compiled'). That pair is the teaching point.
- Order: a step is numbered when it starts, so a ``CALL`` that Dynamo inlines comes before the steps of
  the callee (``depth`` 1+, its own ``code``), which come before the step after the call.
- ``stack`` and ``locals`` are what the instruction starts from (as Dynamo's ``TRACE`` log prints the
  stack), as short reprs (``trace_steps_torch.vt_repr``: class name and a detail from plain attributes; a
  ``LazyVariableTracker`` is never realized, as realizing one installs guards). ``locals`` holds only
  the names whose repr changed since the previous step of the same translator (``tx``): the first step
  of a translator holds all. ``fx_nodes`` are the nodes the instruction added to the graph, those of
  the steps it ran inside it (an inlined call) excluded.
- Recording reads attributes only and adds no graph node, guard or side effect: the same graphs and
  guards are compiled with and without it (tests/engine/test_trace_steps.py checks).
- The cap (``--trace-steps-max``, default 2000) bounds the report: past it, steps are counted
  (``total_steps``) but not kept, and ``truncated`` says so. Cost: BENCHMARKS.md §6.
"""

from __future__ import annotations

import linecache
import types
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from ... import _compat
from ...bytecode import instruction_rows
from ...model import CompileReport, TraceAttempt, TraceBreak, TraceCode, TraceNode, TraceStep, TraceSteps
from ..base import CaptureContext, Collector
from . import trace_steps_torch

__all__ = ["TraceStepsCollector"]

MAX_SOURCE_LINES = 300
MAX_REASON = 800


@dataclass(slots=True)
class _Open:
    """A step that started and has not returned yet (an inlining ``CALL`` holds the callee's steps)."""

    index: int  # its position in ``steps``, or -1 past the cap
    before: trace_steps_torch.StepBefore
    mark: int  # graph length from which the nodes are this step's own


@dataclass(slots=True)
class _Recorder(trace_steps_torch.StepObserver):
    """The observer ``symbolic_steps`` calls: picks the compile, numbers and fills the steps."""

    want: str
    cap: int
    chosen: str | None = None
    rejected: set[str] = field(default_factory=set)
    root_code: types.CodeType | None = None
    steps: list[TraceStep] = field(default_factory=list)
    total: int = 0
    codes: dict[types.CodeType, int] = field(default_factory=dict)
    txs: dict[int, tuple[int, dict[str, str]]] = field(default_factory=dict)  # id(tx) -> (number, last locals)
    open: list[_Open] = field(default_factory=list)
    attempts: dict[int, list[Any]] = field(default_factory=dict)  # attempt -> [first step, steps, outcome]
    attempt: int = 0
    keep: list[Any] = field(default_factory=list)  # the translators numbered (ids stay unique while kept)

    def before(self, tx: Any) -> Any:
        compile_id, attempt = _compat.current_trace_id()
        if compile_id is None or compile_id in self.rejected:
            return None
        if self.chosen is None:
            code = trace_steps_torch.tx_root_code(tx)
            if self.want and self.want not in (compile_id, code.co_name):
                self.rejected.add(compile_id)
                return None
            self.chosen, self.root_code = compile_id, code
        elif compile_id != self.chosen:
            return None
        before = trace_steps_torch.step_before(tx)
        if before is None:
            return None
        if attempt != self.attempt or not self.attempts:
            self.attempt = attempt
            self.txs.clear()
            self.keep.clear()
        self.total += 1
        if len(self.steps) >= self.cap:
            self.attempts.setdefault(attempt, [len(self.steps), 0, "cut"])[2] = "cut"
            opened = _Open(-1, before, before.nodes)
            self.open.append(opened)
            return opened
        number, last = self.txs.get(id(tx), (len(self.txs), {}))
        if id(tx) not in self.txs:
            self.keep.append(tx)
        changed = {k: v for k, v in before.locals.items() if last.get(k) != v}
        self.txs[id(tx)] = (number, before.locals)
        code_index = self.codes.setdefault(before.code, len(self.codes))
        step = TraceStep(
            index=len(self.steps),
            attempt=attempt,
            depth=before.depth,
            tx=number,
            code=code_index,
            offset=before.offset,
            opname=before.opname,
            argrepr=before.argrepr,
            line=before.line,
            stack=before.stack,
            locals=changed,
        )
        self.steps.append(step)
        record = self.attempts.setdefault(attempt, [step.index, 0, "compiled"])
        record[1] += 1
        opened = _Open(step.index, before, before.nodes)
        self.open.append(opened)
        return opened

    def after(self, tx: Any, token: Any, result: bool | None, error: BaseException | None) -> None:
        opened: _Open = token
        if self.open and self.open[-1] is opened:
            self.open.pop()
        count = len(tx.output.graph.nodes)
        if opened.index >= 0:
            step = self.steps[opened.index]
            step.fx_nodes = [
                TraceNode(name=n, op=op, target=t)
                for n, op, t in trace_steps_torch.nodes_added(tx, max(opened.mark, opened.before.nodes))
            ]
            if error is not None:
                meaning = trace_steps_torch.step_error(error)
                if meaning is not None:
                    action, gb_type, reason = meaning
                    step.graph_break = TraceBreak(action=action, gb_type=gb_type, reason=reason[:MAX_REASON])
                    if opened.before.depth == 0 and action in ("restart", "error"):
                        self.attempts[step.attempt][2] = "restart" if action == "restart" else "failed"
            elif trace_steps_torch.compiled_graph_at(tx, opened.before):
                why = trace_steps_torch.speculation_reason(tx, opened.before.ip)
                if why is not None:
                    step.graph_break = TraceBreak(action="compiled", gb_type=None, reason=why[:MAX_REASON])
        for outer in self.open:  # what this step added is not the enclosing (inlining) step's own
            outer.mark = count

    def report(self, ctx: CaptureContext, report: CompileReport) -> TraceSteps:
        code = self.root_code
        frame = report.frame(self.chosen) if self.chosen else None
        if frame is not None:
            self._link_breaks(frame.graph_breaks)
        label = ctx.label_file or (lambda _name: None)
        codes = [_trace_code(c, label(c.co_filename)) for c, _ in sorted(self.codes.items(), key=lambda item: item[1])]
        note = None
        if self.chosen is None:
            what = f"no compiled frame matched '{self.want}'" if self.want else "no frame was compiled"
            names = sorted({f.code.name for f in report.frames})
            ids = [f.compile_id for f in report.frames]
            note = f"{what}: this run compiled {', '.join(ids) or 'nothing'}" + (f" ({', '.join(names)})" if names else "")
            if "/" in self.want:
                note += "; compile ids count up with every run in a process, so name the function instead (--trace-steps NAME)"
        elif len(self.steps) < self.total:
            note = (
                f"the first {len(self.steps)} of {self.total} instructions are kept: "
                f"raise --trace-steps-max to see more (e.g. --trace-steps-max {max(self.total, 2 * self.cap)})"
            )
        return TraceSteps(
            requested=self.want,
            compile_id=self.chosen,
            code_name=code.co_name if code is not None else None,
            filename=code.co_filename if code is not None else None,
            cap=self.cap,
            truncated=len(self.steps) < self.total,
            total_steps=self.total,
            note=note,
            codes=codes,
            attempts=[
                TraceAttempt(attempt=a, first_step=r[0], steps=r[1], outcome=r[2]) for a, r in sorted(self.attempts.items())
            ],
            steps=self.steps,
        )

    def _link_breaks(self, breaks: list[Any]) -> None:
        """Name each break step's ``gb_type`` and its place in the frame's ``graph_breaks`` (the same break)."""
        for step in self.steps:
            gb = step.graph_break
            if gb is None or gb.action == "error":
                continue
            head = gb.reason.strip().splitlines()[0].strip() if gb.reason.strip() else ""
            for i, known in enumerate(breaks):
                if known.gb_type and (known.gb_type == gb.gb_type or (head and (known.gb_type in head or head in known.reason))):
                    gb.break_index = i
                    gb.gb_type = gb.gb_type or known.gb_type
                    break
            if gb.gb_type is None and head:
                gb.gb_type = head[:200]


def _trace_code(code: types.CodeType, label: str | None) -> TraceCode:
    """One code the steps ran: its name, where it is, its source lines and its bytecode listing."""
    lines = [ln for _, _, ln in code.co_lines() if ln is not None]
    first = code.co_firstlineno
    last = min(max(lines, default=first), first + MAX_SOURCE_LINES - 1)
    text = "".join(linecache.getlines(code.co_filename)[first - 1 : last]).rstrip("\n")
    return TraceCode(
        name=code.co_name,
        filename=code.co_filename,
        label=label,
        firstlineno=first,
        source=text or None,
        instructions=instruction_rows(code),
    )


class TraceStepsCollector(Collector):
    """``--trace-steps``: one frame's symbolic execution, step by step ([Note: trace steps])."""

    name = "trace_steps"
    requires = ("frames", "graph_breaks")

    def __init__(self) -> None:
        self.recorder: _Recorder | None = None

    def install(self, ctx: CaptureContext) -> AbstractContextManager[Any]:
        """Wrap Dynamo's step for the run, only with ``--trace-steps``: otherwise nothing is patched."""
        if ctx.options.trace_steps is None:
            return nullcontext()
        self.recorder = _Recorder(want=ctx.options.trace_steps, cap=ctx.options.trace_steps_max)
        return self._recording(self.recorder)

    @contextmanager
    def _recording(self, recorder: _Recorder) -> Iterator[None]:
        with trace_steps_torch.symbolic_steps(recorder):
            yield
        recorder.keep.clear()

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        """``report.trace_steps``: None without the option."""
        if self.recorder is not None:
            report.trace_steps = self.recorder.report(ctx, report)
