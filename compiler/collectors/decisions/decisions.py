"""Collector for Dynamo's inline / skip decisions (``--decisions``): every call met while tracing, as a call
tree per frame.

Opt-in: wrapping Dynamo's ``call_function`` costs about 10 % of the tracing of a frame with 2,600 calls
(BENCHMARKS.md §7), so without ``--decisions`` nothing is wrapped and ``frames[].decisions`` stays empty.

Where it comes from: ``decisions_torch.traced_calls`` wraps ``InstructionTranslatorBase.call_function`` (every CALL
of a traced frame and of each inlined callee) and ``InliningInstructionTranslator.inline_call`` for the run.
A stack of open calls gives the tree; the callee's VariableTracker class (Dynamo's own decision) and
the function or code behind it are kept when the call returns, the rule text is read in ``finalize``.

[Note: decisions] How a call's decision is read, in Dynamo's own terms:
- ``inline``: Dynamo traced into the callee (``inline_call`` ran under this call: a user function, a
  method, a module's ``forward``, a stdlib function in ``BUILTIN_INLINE_WHEN_CALLED`` such as
  ``copy.deepcopy``). The rule is the ``SkipResult`` reason Dynamo kept for the code in this trace
  (``TracingContext.previously_inlined_functions``: 'inlined by default', 'file matches
  BUILTIN_INLINE_WHEN_CALLED (...)').
- ``skip``: a ``SkipFunctionVariable`` (a function in a skip directory or MOD_SKIPLIST, a C extension), or
  a user function whose inline attempt ``check_inlineable`` refused. The rule is
  ``trace_rules.check_verbose``'s reason ('file is under skip directory (.../re/)'). A skipped call
  with constant arguments (``re.match("a+", "aaa")``) is evaluated at trace time and breaks nothing;
  with tensor arguments it is a graph break ('Attempted to call function marked as skipped').
- ``disabled``: the function carries ``_torchdynamo_disable`` (``torch._dynamo.disable`` /
  ``torch.compiler.disable``): always a graph break, the function runs eagerly.
- ``allow_in_graph``: a ``TorchInGraphFunctionVariable`` whose function is in trace_rules' allowed
  callable ids (``torch._dynamo.allow_in_graph``): one node in the FX graph, not traced into.
- ``in_graph`` (a torch function put in the graph as one node), ``builtin`` (``BuiltinVariable``: Dynamo
  models the Python builtin itself), ``polyfill`` (``PolyfilledFunctionVariable``: Dynamo traces its
  own Python version of the function, named in the rule), ``other`` (any other VariableTracker: the
  rule names its class; kept only when it broke the graph or something was inlined under it).
A call that raised is ``graph_break`` when its error is the frame's graph break (linked by the user line
of the innermost raising call, else by gb_type), ``raised`` otherwise (Dynamo handled it).

Restarts: after a graph break Dynamo traces the frame again from the start (``compile_attempt_N``), and
the second time it stops at the breaking instruction without calling the callee. So each frame keeps the
calls of its last attempt, plus the breaking call of the attempt before, with what was inlined under it.

The cost: two Python calls and one small object per call Dynamo traces, about 4-6 us each, and the
classification in ``finalize``: on a frame of 2,600 traced calls (650 Linear+ReLU modules, eager backend)
about 30 ms in the listeners and 20 ms in ``finalize`` of a 5.7-7 s compile, under 1%, below the compile's
own run-to-run spread (BENCHMARKS.md, 'Inline / skip decisions'; ``benchmarks/decisions_overhead.py``), so it
is always on. Calls of other threads are not recorded.
"""

from __future__ import annotations

import contextlib
import inspect
import types
from collections.abc import Iterator
from typing import Any

from ... import _compat
from ...model import CompileReport, Decision, DecisionKind, Diagnostic, Frame
from ..base import CaptureContext, Collector
from . import decisions_torch

__all__ = ["MAX_DECISIONS", "DecisionsCollector"]

#: The most calls kept per frame (a ``truncated`` diagnostic says when more were met).
MAX_DECISIONS = 2000

_DISABLED_GB = ("Skip calling `torch.compiler.disable()`d function", "Skip inlining `torch.compiler.disable()`d function")
_SKIPPED_GB = "Attempted to inline function marked as skipped"
_KIND_OF: dict[str, DecisionKind] = {
    "SkipFunctionVariable": "skip",
    "PolyfilledFunctionVariable": "polyfill",
    "BuiltinVariable": "builtin",
    "TorchInGraphFunctionVariable": "in_graph",
}
#: Decisions kept even as leaves; ``other`` leaves are kept only when they raised.
_ALWAYS = frozenset({"inline", "skip", "disabled", "allow_in_graph", "in_graph", "builtin", "polyfill"})


class _Call:
    """One call Dynamo met while tracing: filled on entry and on return, read in ``finalize``."""

    __slots__ = (
        "attempt",
        "call_file",
        "call_line",
        "children",
        "code",
        "compile_id",
        "depth",
        "error",
        "gb_type",
        "obj",
        "reason",
        "rule",
        "variable",
    )

    def __init__(self, depth: int, call_file: str, call_line: int | None) -> None:
        self.compile_id: str | None = None
        self.attempt = 0
        self.depth = depth
        self.call_file = call_file
        self.call_line = call_line
        self.children: list[_Call] = []
        self.code: types.CodeType | None = None  # what Dynamo inlined under this call
        self.obj: Any = None  # the Python callable behind the VariableTracker
        self.variable = ""
        self.reason: str | None = None  # SkipFunctionVariable.reason / the polyfill's name
        self.rule: str | None = None  # the inline SkipResult reason, read when the call returned
        self.error: str | None = None
        self.gb_type: str | None = None


def _callable_of(vt: Any) -> Any:
    """The Python object a callee VariableTracker stands for (function, module, builtin) or None."""
    for attr in ("fn", "value"):
        obj = getattr(vt, attr, None)
        if obj is not None:
            return obj
    return None


class DecisionsCollector(Collector):
    name = "decisions"
    requires = ("frames", "graph_breaks")

    def __init__(self) -> None:
        self.roots: list[_Call] = []
        self.stack: list[_Call] = []  # one stack: Dynamo traces one frame at a time, whichever thread it is on

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        if not ctx.options.decisions:  # opt-in (--decisions): off, Dynamo's methods are not even wrapped
            yield
            return
        with decisions_torch.traced_calls(self._enter, self._leave, self._inlined):
            yield

    # --- while Dynamo traces (hot path: keep it small) ---
    def _enter(self, tx: Any, fn: Any) -> _Call | None:
        call = _Call(tx.inline_depth, tx.f_code.co_filename, tx.lineno)
        if self.stack:
            self.stack[-1].children.append(call)
        else:
            call.compile_id, call.attempt = _compat.current_trace_id()
            self.roots.append(call)
        self.stack.append(call)
        return call

    def _leave(self, call: _Call | None, tx: Any, fn: Any, error: BaseException | None) -> None:
        if call is None:
            return
        while self.stack and self.stack.pop() is not call:  # a listener error upset the nesting: resync
            pass
        vt = decisions_torch.realized(fn)
        call.variable = type(vt).__name__
        call.obj = _callable_of(vt)
        if call.variable == "SkipFunctionVariable":
            call.reason = getattr(vt, "reason", None)
        elif call.variable == "PolyfilledFunctionVariable":
            traceable = getattr(vt, "traceable_fn", None)
            call.reason = f"{getattr(traceable, '__module__', '')}.{getattr(traceable, '__qualname__', '')}"
        if call.code is not None:
            call.rule = decisions_torch.inline_reason(tx, call.code)
        if error is not None:
            call.error = type(error).__name__
            call.gb_type = getattr(error, "gb_type", None) or None

    def _inlined(self, parent: Any, func: Any) -> None:
        if not self.stack:
            return
        call = self.stack[-1]
        if call.code is None:
            call.code = func.get_code()
            if call.obj is None:
                call.obj = getattr(func, "fn", None)

    # --- after the run ---
    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        attempts: dict[str, dict[int, list[_Call]]] = {}
        for root in self.roots:
            if root.compile_id is not None:
                attempts.setdefault(root.compile_id, {}).setdefault(root.attempt, []).append(root)
        for compile_id, by_attempt in attempts.items():
            frame = report.frame(compile_id)
            if frame is None:
                continue
            roots = _last_attempt(by_attempt)
            decisions: list[Decision] = []
            cut = _flatten(roots, frame, None, decisions)
            frame.decisions = decisions
            if cut:
                report.diagnostics.append(
                    Diagnostic(
                        kind="truncated",
                        message=f"decisions: [{compile_id}] kept its first {len(decisions)} calls; {cut} more are not in the report",
                        compile_id=compile_id,
                    )
                )


def _last_attempt(by_attempt: dict[int, list[_Call]]) -> list[_Call]:
    """The calls of the frame's last attempt, plus the breaking call of the attempt before, which the last
    one stopped at without calling ([Note: decisions], restarts)."""
    last = max(by_attempt)
    roots = list(by_attempt[last])
    earlier = [a for a in by_attempt if a < last]
    if earlier:
        breaking = [c for c in by_attempt[max(earlier)] if c.error == "Unsupported"]
        if breaking:
            culprit = breaking[-1]
            seen = {(c.call_file, c.call_line, c.code, c.error) for c in roots}
            if (culprit.call_file, culprit.call_line, culprit.code, culprit.error) not in seen:
                roots.append(culprit)
    return roots


def _decision(call: _Call) -> tuple[DecisionKind, str]:
    """(decision, rule) of one call, in Dynamo's terms ([Note: decisions])."""
    obj = call.obj
    disable = inspect.getattr_static(obj, "_torchdynamo_disable", False) if obj is not None else False
    if disable or call.gb_type in _DISABLED_GB:
        msg = inspect.getattr_static(obj, "_torchdynamo_disable_msg", None) if obj is not None else None
        return "disabled", "torch._dynamo.disable" + (f" (reason: {msg})" if msg else "")
    if call.gb_type == _SKIPPED_GB:
        return "skip", decisions_torch.skip_rule(obj, True) or call.variable
    kind = _KIND_OF.get(call.variable)
    if kind == "in_graph" and decisions_torch.is_allowed_in_graph(obj):
        return "allow_in_graph", "allow_in_graph (trace_rules: allowed callable ids)"
    if kind == "skip":
        return "skip", call.reason or decisions_torch.skip_rule(obj, False) or call.variable
    if kind == "polyfill":
        return "polyfill", f"Dynamo polyfill {call.reason}" if call.reason else call.variable
    if kind is not None:
        return kind, call.variable
    if call.code is not None:
        rule = call.rule or decisions_torch.skip_rule(obj, True) or "inlined"
        if call.variable not in ("UserFunctionVariable", "NestedUserFunctionVariable"):
            rule = f"{rule} ({call.variable})"  # a method, a module's forward: say what was called
        return "inline", rule
    if call.variable.endswith("BuiltinVariable"):
        return "builtin", call.variable
    return "other", call.variable


def _names(call: _Call) -> tuple[str, str | None, str | None, int | None]:
    """(name, module, def file, def line) of the callee: the inlined code where there is one."""
    obj, code = call.obj, call.code
    module = getattr(obj, "__module__", None) if obj is not None else None
    if code is not None:
        return code.co_qualname, module, code.co_filename, code.co_firstlineno
    fcode = getattr(obj, "__code__", None)
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is None:
        name = type(obj).__qualname__ if obj is not None else call.variable
    if fcode is not None:
        return str(name), module, fcode.co_filename, fcode.co_firstlineno
    return str(name), module if isinstance(module, str) else None, None, None


def _graph_break_of(call: _Call, frame: Frame) -> int | None:
    """Index in ``frame.graph_breaks`` of the break ``call`` raised: by the innermost raising call's line."""
    inner = call
    while True:
        raising = [c for c in inner.children if c.error is not None]
        if not raising:
            break
        inner = raising[-1]
    for i, gb in enumerate(frame.graph_breaks):
        if gb.line == inner.call_line and gb.filename == inner.call_file:
            return i
    for i, gb in enumerate(frame.graph_breaks):
        if inner.gb_type and gb.gb_type == inner.gb_type:
            return i
    return None


def _flatten(calls: list[_Call], frame: Frame, parent: int | None, out: list[Decision], gb: int | None = None) -> int:
    """Append the kept calls of ``calls`` (pre-order) under ``parent``; return how many were cut by ``MAX_DECISIONS``."""
    cut = 0
    raising = [c for c in calls if c.error is not None]
    chain = raising[-1] if raising else None  # the call the parent's error came from
    for call in calls:
        decision, rule = _decision(call)
        if decision not in _ALWAYS and call.error is None and not call.children:
            continue
        if len(out) >= MAX_DECISIONS:
            cut += 1 + _count(call.children)
            continue
        broke = gb if call is chain else None
        if call.error == "Unsupported" and parent is None:
            broke = _graph_break_of(call, frame)
        name, module, filename, line = _names(call)
        out.append(
            Decision(
                name=name,
                module=module,
                filename=filename,
                line=line,
                decision=decision,
                rule=rule,
                variable=call.variable,
                call_filename=call.call_file,
                call_line=call.call_line,
                depth=call.depth,
                parent=parent,
                outcome="graph_break" if call.error and broke is not None else ("raised" if call.error else "ok"),
                graph_break=broke if call.error else None,
                error=call.gb_type or call.error,
            )
        )
        here = len(out) - 1
        cut += _flatten(call.children, frame, here, out, broke if call.error else None)
    return cut


def _count(calls: list[_Call]) -> int:
    return sum(1 + _count(c.children) for c in calls)
