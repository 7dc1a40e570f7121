"""Dynamo's symbolic execution one instruction at a time ([Note: trace steps] in ``collectors/trace_steps/trace_steps.py``): the
patch of ``InstructionTranslatorBase.step`` for the run and what a step reads (its stack, locals, FX nodes).

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..._compat import LazyVariableTracker, patched
from ...model import TraceBreakAction


class StepObserver:
    """What ``symbolic_steps`` calls around each instruction Dynamo's symbolic interpreter runs: ``before(tx)``
    returns a token (None: do not watch this one), ``after(tx, token, result, error)`` gets it back with what the
    step returned, or the exception that left it (re-raised afterwards). Neither may raise into Dynamo."""

    def before(self, tx: Any) -> Any:
        """Called before the step; the token for ``after``, or None to let this step run unwatched."""
        return None

    def after(self, tx: Any, token: Any, result: bool | None, error: BaseException | None) -> None:
        """Called after a watched step."""


@contextlib.contextmanager
def symbolic_steps(observer: StepObserver) -> Iterator[None]:
    """Wrap ``InstructionTranslatorBase.step`` (the one method that runs one bytecode instruction symbolically,
    for the frame and every inlined call: ``InliningInstructionTranslator`` inherits it; 2.11 and 2.13) while
    open, and put the original back on exit. Only ``--trace-steps`` opens it: nothing is patched otherwise."""
    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    original = InstructionTranslatorBase.__dict__["step"]

    def step(self: Any) -> bool:
        try:
            token = observer.before(self)
        except Exception:  # noqa: BLE001 - a capture bug must never fail the user's compile
            token = None
        if token is None:
            return original(self)
        try:
            result = original(self)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                observer.after(self, token, None, exc)
            raise
        with contextlib.suppress(Exception):
            observer.after(self, token, result, None)
        return result

    step.__wrapped__ = original  # type: ignore[attr-defined]
    with patched(InstructionTranslatorBase, "step", step):
        yield


def steps_patched() -> bool:
    """Is ``InstructionTranslatorBase.step`` wrapped (by ``symbolic_steps``) right now?"""
    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    return hasattr(InstructionTranslatorBase.__dict__["step"], "__wrapped__")


@dataclass(frozen=True, slots=True)
class StepBefore:
    """A translator's state before one step: the instruction it is about to run and what it holds."""

    ip: int
    offset: int | None
    opname: str
    argrepr: str
    line: int | None
    depth: int
    code: types.CodeType
    stack: list[str]
    locals: dict[str, str]
    nodes: int
    output_instructions: int


def tx_root_code(tx: Any) -> types.CodeType:
    """The code of the frame being compiled (the root translator's), whatever call ``tx`` is inlining."""
    return tx.output.root_tx.f_code  # type: ignore[no-any-return]


def step_before(tx: Any) -> StepBefore | None:
    """``tx``'s next instruction and its symbolic stack and locals (short reprs: ``vt_repr``), or None at the end.
    Reads attributes only: nothing is realized, guarded or added to the graph."""
    ip = tx.instruction_pointer
    if ip is None:
        return None
    inst = tx.instructions[ip]
    depth = tx.inline_depth  # 0 for the frame's own tracer, +1 per inlined call
    line = inst.starts_line if isinstance(inst.starts_line, int) and not isinstance(inst.starts_line, bool) else None
    argrepr = inst.argrepr if isinstance(getattr(inst, "argrepr", None), str) else ""
    if not argrepr and inst.argval is not None:
        argrepr = _short(repr(inst.argval) if isinstance(inst.argval, (int, str, float)) else type(inst.argval).__name__)
    return StepBefore(
        ip=ip,
        offset=inst.offset,
        opname=inst.opname,
        argrepr=argrepr,
        line=line if line is not None else tx.lineno,
        depth=depth,
        code=tx.f_code,
        stack=[vt_repr(vt) for vt in tx.stack],
        locals={name: vt_repr(vt) for name, vt in tx.symbolic_locals.items()},
        nodes=len(tx.output.graph.nodes),
        output_instructions=len(tx.output.output_instructions),
    )


def nodes_added(tx: Any, before: int) -> list[tuple[str, str, str]]:
    """``(name, op, target)`` of the FX nodes the current graph gained past its first ``before`` nodes."""
    nodes = tx.output.graph.nodes
    gained = len(nodes) - before
    if gained <= 0:
        return []
    out: list[tuple[str, str, str]] = []
    for node in reversed(nodes):
        if len(out) == gained:
            break
        target = node.target
        name = target if isinstance(target, str) else getattr(target, "__name__", None) or type(target).__name__
        out.append((node.name, node.op, _short(str(name))))
    return out[::-1]


def compiled_graph_at(tx: Any, before: StepBefore) -> bool:
    """Did the step compile a graph (``compile_subgraph`` adds the output instructions)?"""
    return len(tx.output.output_instructions) > before.output_instructions


def speculation_reason(tx: Any, ip: int) -> str | None:
    """The reason of the failed speculation at instruction ``ip`` of ``tx``'s code, if any: the graph break
    Dynamo recorded there before it restarted the analysis (``SpeculationEntry.reason``, 2.11 and 2.13)."""
    filename = tx.f_code.co_filename
    for entry in reversed(tx.speculation_log.entries):
        if entry.instruction_pointer == ip and entry.filename == filename and entry._failed:
            reason = entry.reason
            return None if reason is None else str(reason.reason)
    return None


def step_error(error: BaseException) -> tuple[TraceBreakAction, str | None, str] | None:
    """What an exception leaving a step means: ``(action, gb_type, reason)``: ``'restart'`` (Dynamo restarts the
    analysis: ``RestartAnalysis``), ``'unsupported'`` (a graph break raised here: ``Unsupported``, which the caller
    handles), ``'error'`` (anything else); None for the exceptions that end a frame normally."""
    from torch._dynamo import exc

    if isinstance(error, exc.RestartAnalysis):
        return "restart", None, str(getattr(error, "restart_reason", None) or type(error).__name__)
    if isinstance(error, exc.Unsupported):
        return "unsupported", getattr(error, "gb_type", None) or None, str(error.msg)
    if type(error).__name__ in ("ReturnValueOp", "YieldValueOp"):
        return None
    return "error", None, f"{type(error).__name__}: {error}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def vt_repr(vt: Any) -> str:
    """A short repr of a VariableTracker, e.g. ``TensorVariable(l_x_: float32[3, 4])``, ``ConstantVariable(int: 3)``,
    ``UserFunctionVariable(helper)``, ``LazyVariableTracker(Tensor)``: its class name and a detail read from plain
    attributes. Never realizes a lazy tracker, never calls the user's ``repr``, never raises."""
    try:
        return _vt_repr(vt)
    except Exception:  # noqa: BLE001 - a repr must never fail the compile
        return type(vt).__name__


def _vt_repr(vt: Any) -> str:
    cls = type(vt)
    if cls is LazyVariableTracker or issubclass(cls, LazyVariableTracker):
        cache = object.__getattribute__(vt, "_cache")
        if cache.vt is None:  # not realized: say what it wraps, do not build it (that would install guards)
            return f"LazyVariableTracker({type(cache.value).__name__})"
        vt, cls = cache.vt, type(cache.vt)
    attrs = vt.__dict__
    name = cls.__name__
    detail = ""
    if "proxy" in attrs and "dtype" in attrs:  # TensorVariable and its subclasses
        size = attrs.get("_size")
        shape = "[" + ", ".join(str(s) for s in size) + "]" if size is not None else "[?]"
        dtype = str(attrs["dtype"]).removeprefix("torch.")
        detail = f"{attrs['proxy'].node.name}: {dtype}{shape}"
    elif "sym_num" in attrs:  # SymNodeVariable
        detail = str(attrs["sym_num"])
    elif name == "ConstantVariable" or ("value" in attrs and type(attrs["value"]) in (int, float, bool, str, type(None))):
        value = attrs.get("value")
        text = repr(value) if type(value) in (int, float, bool, str, type(None)) else type(value).__name__
        detail = f"{type(value).__name__}: {text}"
    elif "items" in attrs and isinstance(attrs["items"], (list, tuple)):
        detail = f"len {len(attrs['items'])}"
    else:
        target = attrs.get("fn", attrs.get("value", attrs.get("module_key")))
        if isinstance(target, str):
            detail = target
        elif isinstance(target, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)):
            detail = str(getattr(target, "__qualname__", None) or getattr(target, "__name__", ""))
        elif target is not None:
            detail = type(target).__name__
    return _short(f"{name}({detail})", 80)
