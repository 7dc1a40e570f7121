"""What the export collector asks of torch ([Note: export calls] in ``exports.py``): its export entry points
watched for the run, an ``ExportedProgram`` read (signature, ranges, graph), a failure classified, and
``draft_export``'s report read.

Checked on torch 2.13 and 2.15: ``torch.export.export`` imports ``torch.export._trace._export`` when called, and
``torch.export.draft_export`` imports ``torch.export._draft_export.draft_export`` when called (so a name the user
bound before the run, ``from torch.export import export``, still reaches the watched function); strict export calls
``torch._dynamo.export`` inside (not counted twice); ``ExportedProgram.graph_signature.input_specs`` /
``output_specs`` (``InputKind`` / ``OutputKind``), ``range_constraints`` (symbol -> ``ValueRanges``), ``_guards_code``,
``ep._report`` (``DraftExportReport``: ``failures`` of ``FailureReport(failure_type, data)``, ``str_to_filename``),
``torch._logging.structured.INTERN_TABLE``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

from ...model import ExportFailure
from ...user_code import is_user_file
from .checks import Size, input_checks
from .words import failure as export_failure
from .words import spec_python

__all__ = ["Call", "Rewrite", "checks", "classify", "draft_failures", "program_parts", "rewriting", "watched"]


@dataclass(slots=True)
class Call:
    """One export call as it was made: which API, in which mode, of what, from where, and how it ended."""

    api: str
    mode: str
    module: str
    module_filename: str | None
    module_line: int | None
    filename: str | None
    line: int | None
    inputs: list[tuple[str, list[int] | None, str | None]]
    dynamic_shapes: Any
    seconds: float = 0.0
    program: Any = None  # the ExportedProgram: read at once (``program_parts``), never kept
    failure: ExportFailure | None = None
    parts: dict[str, Any] = field(default_factory=dict)
    started_after: int = 0  # how many compiles the run had made when the call began (``watched``'s ``compiles``)


@dataclass(slots=True)
class Rewrite:
    """One export call of the run made otherwise, for a ``--try`` run ([Note: try a fix] in ``try_fix.py``): the
    run's ``index``-th call (the report's ``exports[index]``), ``how``: ``suggested`` (its ``dynamic_shapes`` refined
    by export's suggested fixes, ``torch.export.dynamic_shapes.refine_dynamic_shapes_from_suggested_fixes``),
    ``dim_auto`` (each ``Dim`` of its ``dynamic_shapes`` replaced by ``Dim.AUTO``), ``non_strict`` (``strict=False``),
    ``draft`` (made as ``torch.export.draft_export`` with the same module, inputs and ``dynamic_shapes``).
    ``done`` says what was changed once the call was made."""

    index: int
    how: str
    suggested: list[str] = field(default_factory=list)
    done: str | None = None


_rewrites: list[Rewrite] = []  # the --try run's rewrite while it runs (``rewriting``)


@contextlib.contextmanager
def rewriting(rewrite: Rewrite) -> Iterator[Rewrite]:
    """``rewrite`` applied to the export calls made while open."""
    _rewrites.append(rewrite)
    try:
        yield rewrite
    finally:
        _rewrites.remove(rewrite)


_local = threading.local()  # depth of watched export calls on this thread: an export inside one is not another


@contextlib.contextmanager
def watched(record: Callable[[Call], None], compiles: Callable[[], int] = lambda: 0) -> Iterator[None]:
    """torch's export entry points, each wrapped for the run so that every call is handed to ``record`` (after it
    returned or raised; its result and exception are the call's own, untouched), and put back after. A wrapper that
    outlives the run (a module that bound one while the run was on) only passes calls through. ``compiles()``: how
    many compiles the run has made (noted as a call begins, ``Call.started_after``). A ``Rewrite`` open
    (``rewriting``) changes the call it names, the run's calls counted as they begin."""
    import torch._dynamo
    import torch._dynamo.eval_frame as eval_frame
    import torch.export._draft_export as draft_module  # imported first: it binds _trace._export, which stays torch's
    import torch.export._trace as trace_module

    live = [record]  # emptied when the run ends
    begun = [0]  # the run's export calls so far, counted as they begin (the index of the next one)

    def recording(call: Call) -> None:
        if live:
            live[0](call)

    def begin(call: Call) -> Rewrite | None:
        """A recorded call begins: its place, the compiles before it, and the rewrite that names it."""
        index, begun[0] = begun[0], begun[0] + 1
        call.started_after = compiles()
        return next((r for r in _rewrites if r.index == index), None) if live else None

    draft_export = draft_module.draft_export
    patched = [
        (trace_module, "_export", _wrap(trace_module._export, recording, begin, "torch.export.export", draft_export)),
        (draft_module, "draft_export", _wrap(draft_export, recording, begin, "torch.export.draft_export", draft_export)),
        (torch._dynamo, "export", _wrap_dynamo(torch._dynamo.export, recording, begin)),
        (eval_frame, "export", _wrap_dynamo(eval_frame.export, recording, begin)),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patched]
    try:
        for owner, name, wrapper in patched:
            setattr(owner, name, wrapper)
        yield
    finally:
        live.clear()
        for owner, name, original in saved:
            setattr(owner, name, original)


def _wrap(
    fn: Callable[..., Any],
    record: Callable[[Call], None],
    begin: Callable[[Call], Rewrite | None],
    api: str,
    draft_export: Callable[..., Any],
) -> Callable[..., Any]:
    """``fn`` (``_trace._export`` or ``draft_export``: ``mod, args, kwargs``, ``dynamic_shapes``, ``strict``), whose
    calls are made exactly as they come (or as a ``Rewrite`` says) and recorded."""
    import inspect

    signature = inspect.signature(fn)

    def export(*a: Any, **k: Any) -> Any:
        if getattr(_local, "depth", 0):
            return fn(*a, **k)
        try:
            bound = signature.bind(*a, **k)
            bound.apply_defaults()
            given = bound.arguments
        except TypeError:  # torch raises its own error for the call as it is
            return fn(*a, **k)
        mode = "draft" if api.endswith("draft_export") else ("strict" if given.get("strict") else "non_strict")
        try:
            call = _call(api, mode, given.get("mod"), given.get("args"), given.get("kwargs"), given.get("dynamic_shapes"))
        except Exception:  # noqa: BLE001 - an input the wrapper cannot describe: the call is made, unrecorded
            return fn(*a, **k)
        rewrite = begin(call)
        if rewrite is None:
            return _made(call, record, lambda: fn(*a, **k))
        try:
            make = _rewritten(rewrite, call, given, lambda: fn(*bound.args, **bound.kwargs), draft_export)
        except Exception as exc:  # noqa: BLE001 - a fix that cannot be made: the call is made as it came
            rewrite.done = f"not changed ({type(exc).__name__}: {exc}); the call was made as it came"
            return _made(call, record, lambda: fn(*a, **k))
        return _made(call, record, make)

    export.__wrapped__ = fn  # type: ignore[attr-defined]
    return export


def _rewritten(
    rewrite: Rewrite, call: Call, given: dict[str, Any], make: Callable[[], Any], draft_export: Callable[..., Any]
) -> Callable[[], Any]:
    """The call as ``rewrite`` makes it (``given``: its bound arguments, changed in place), ``call`` noted the same."""
    from torch.export import Dim
    from torch.export.dynamic_shapes import refine_dynamic_shapes_from_suggested_fixes

    spec = given.get("dynamic_shapes")
    if rewrite.how == "suggested":
        if spec is None:
            raise ValueError("the call has no dynamic_shapes to refine")
        given["dynamic_shapes"] = refine_dynamic_shapes_from_suggested_fixes(
            "Suggested fixes:\n" + "\n".join(f"  {s}" for s in rewrite.suggested), spec
        )
    elif rewrite.how == "dim_auto":
        given["dynamic_shapes"] = _auto(spec, Dim.AUTO)
    elif rewrite.how == "non_strict":
        given["strict"], call.mode = False, "non_strict"
    elif rewrite.how == "draft":
        call.api, call.mode = "torch.export.draft_export", "draft"
        mod, args, kwargs, shapes = given.get("mod"), given.get("args"), given.get("kwargs"), given.get("dynamic_shapes")
        make = lambda: draft_export(mod, args, kwargs, dynamic_shapes=shapes)  # noqa: E731
    if "dynamic_shapes" in given and given["dynamic_shapes"] is not spec:
        call.dynamic_shapes = _spec_names(given["dynamic_shapes"])
    written = spec_python(call.dynamic_shapes)
    rewrite.done = {
        "suggested": f"dynamic_shapes = {written} (export's suggested fixes applied: {'; '.join(rewrite.suggested)})",
        "dim_auto": f"dynamic_shapes = {written} (each Dim replaced by Dim.AUTO)",
        "non_strict": "strict=False",
        "draft": "torch.export.draft_export in place of torch.export.export, same module, inputs and dynamic_shapes",
    }[rewrite.how]
    return make


def _auto(spec: Any, auto: Any) -> Any:
    """``dynamic_shapes`` with each ``Dim`` (named or derived) replaced by ``Dim.AUTO``."""
    from torch.export.dynamic_shapes import _Dim

    if isinstance(spec, dict):
        return {k: _auto(v, auto) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return type(spec)(_auto(v, auto) for v in spec)
    return auto if isinstance(spec, _Dim) else spec


def _wrap_dynamo(
    fn: Callable[..., Any], record: Callable[[Call], None], begin: Callable[[Call], Rewrite | None]
) -> Callable[..., Any]:
    """``torch._dynamo.export(f, ...)`` returns the function that exports when called: that call is recorded."""

    def export(f: Any, *extra: Any, **kw: Any) -> Any:
        inner = fn(f, *extra, **kw)
        if getattr(_local, "depth", 0) or not callable(inner):
            return inner

        def exporting(*args: Any, **kwargs: Any) -> Any:
            if getattr(_local, "depth", 0):
                return inner(*args, **kwargs)
            try:
                call = _call("torch._dynamo.export", "strict", f, args, kwargs, kw.get("dynamic_shapes"))
            except Exception:  # noqa: BLE001 - as in _wrap
                return inner(*args, **kwargs)
            begin(call)  # counted; no fix rewrites a torch._dynamo.export call
            return _made(call, record, lambda: inner(*args, **kwargs))

        return exporting

    export.__wrapped__ = fn  # type: ignore[attr-defined]
    return export


def _made(call: Call, record: Callable[[Call], None], make: Callable[[], Any]) -> Any:
    """Make the export call (its exception raised as it is), then hand what it was to ``record``."""
    _local.depth = getattr(_local, "depth", 0) + 1
    started = time.perf_counter()
    try:
        result = make()
    except BaseException as exc:
        call.seconds = time.perf_counter() - started
        try:
            call.failure = classify(exc)
        except Exception:  # noqa: BLE001 - the user's exception goes on as it is, whatever reading it did
            call.failure = export_failure(type(exc).__name__, "other", _first_paragraph(str(exc)))
        record(call)
        raise
    finally:
        _local.depth -= 1
    call.seconds = time.perf_counter() - started
    call.program = result if isinstance(result, torch.export.ExportedProgram) else getattr(result, "graph_module", None)
    record(call)
    call.program = None
    return result


def _call(api: str, mode: str, mod: Any, args: Any, kwargs: Any, dynamic_shapes: Any) -> Call:
    filename, line = _caller()
    target = getattr(mod, "forward", mod) if isinstance(mod, torch.nn.Module) else mod
    code = getattr(target, "__code__", None)
    names = _parameter_names(target)
    flat = list(args) if isinstance(args, (tuple, list)) else [args]
    inputs = [(names[i] if i < len(names) else f"args[{i}]", *_describe(a)) for i, a in enumerate(flat)]
    inputs += [(str(k), *_describe(v)) for k, v in (kwargs or {}).items()]
    return Call(
        api=api,
        mode=mode,
        module=type(mod).__name__ if isinstance(mod, torch.nn.Module) else getattr(mod, "__qualname__", repr(mod)),
        module_filename=code.co_filename if code else None,
        module_line=code.co_firstlineno if code else None,
        filename=filename,
        line=line,
        inputs=inputs,
        dynamic_shapes=_spec_names(dynamic_shapes),
    )


def _caller() -> tuple[str | None, int | None]:
    """The user's line that made the export call: the innermost frame of a user file outside this module."""
    frame = sys._getframe(2)
    while frame is not None:
        if is_user_file(frame.f_code.co_filename) and frame.f_code.co_filename != __file__:
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back  # type: ignore[assignment]
    return None, None


def _parameter_names(fn: Any) -> list[str]:
    import inspect

    try:
        return [
            p.name for p in inspect.signature(fn).parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        return []


def _describe(value: Any) -> tuple[list[int] | None, str | None]:
    if isinstance(value, torch.Tensor):
        return [int(s) for s in value.shape], str(value.dtype).removeprefix("torch.")
    return None, type(value).__name__


def _spec_names(spec: Any) -> Any:
    """The ``dynamic_shapes`` the user gave, each ``Dim`` as its name (``{"x": {0: "batch"}}``): nothing of theirs
    kept."""
    from torch.export.dynamic_shapes import _DimHint

    if isinstance(spec, dict):
        return {str(k): _spec_names(v) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [_spec_names(v) for v in spec]
    if isinstance(spec, _DimHint):
        return f"Dim.{getattr(spec, 'type', spec)}".replace("_DimHintType.", "")
    if spec is None or isinstance(spec, (int, str)):
        return spec
    return getattr(spec, "__name__", str(spec))


#: the kinds of a failed export, by the exception torch raised (a subclass before its base)
_KINDS = (
    ("torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode", "data_dependent"),
    ("torch.fx.experimental.symbolic_shapes.ConstraintViolationError", "constraint_violation"),
    ("torch._subclasses.fake_tensor.UnsupportedOperatorException", "unsupported"),
    ("torch._subclasses.fake_tensor.DynamicOutputShapeException", "unsupported"),
    ("torch._dynamo.exc.Unsupported", "unsupported"),
    ("torch._dynamo.exc.UserError", "user_error"),
)


def classify(exc: BaseException) -> ExportFailure:
    """A failed export in words: the exception's type, its kind (``data_dependent``: a guard on a data-dependent
    value; ``constraint_violation``: a ``Dim``'s range against what the trace required; ``unsupported``: an op or
    construct export cannot trace; ``user_error``; ``other``), its message's first paragraph, the user's innermost
    frame (the traceback's, or for strict mode Dynamo's ``real_stack``), and export's own suggested fixes."""
    text = str(exc)
    kind = next((k for path, k in _KINDS if _isinstance(exc, path)), "other")
    if kind in ("unsupported", "user_error") and "Constraints violated" in text:
        kind = "constraint_violation"
    elif kind in ("unsupported", "user_error") and "data-dependent" in text.lower():  # strict mode's words for one
        kind = "data_dependent"
    elif kind == "other" and "no fake impl registered" in text:  # a custom op without a fake kernel (either mode)
        kind = "unsupported"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if is_user_file(f.filename) and f.filename != __file__]
    real = [f for f in getattr(exc, "real_stack", None) or [] if is_user_file(f.filename)]
    frame = (real or frames or [None])[-1]
    return export_failure(
        type(exc).__name__,
        kind,
        _first_paragraph(text),
        filename=frame.filename if frame else None,
        line=frame.lineno if frame else None,
        function=frame.name if frame else None,
        code=(frame.line or None) if frame else None,
        suggested=_suggested(text),
    )


def _isinstance(exc: BaseException, path: str) -> bool:
    module, _, name = path.rpartition(".")
    cls = getattr(sys.modules.get(module), name, None)
    return isinstance(cls, type) and isinstance(exc, cls)


def _first_paragraph(text: str) -> str:
    para = text.strip().split("\n\n")[0].strip()
    return para if len(para) <= 600 else para[:597] + "..."


def _suggested(text: str) -> list[str]:
    """The lines of export's ``Suggested fixes:`` block (``feat = 8``, ``dynamic_shapes = {...}``), as written."""
    lines = text.splitlines()
    start = next((i for i, s in enumerate(lines) if s.strip().lower().startswith("suggested fixes")), None)
    if start is None:
        return []
    out: list[str] = []
    for s in lines[start + 1 :]:
        if not s.strip():
            if out:
                break
            continue
        out.append(s.strip())
    return out


def program_parts(ep: Any, dynamic_shapes: Any) -> dict[str, Any]:
    """What an ``ExportedProgram`` holds, read at once: its graph signature (each input and output with its kind,
    as torch names it: ``PARAMETER``, ``BUFFER``, ``USER_INPUT``, ``USER_OUTPUT``, ``BUFFER_MUTATION``, ...), the range
    of each symbol (``s77``: 2..64; None for no bound) with the ``Dim`` and input dimension it stands for, what the
    program checks of its inputs when called (``checks``), and its graph module (read by the caller at once)."""
    sig = ep.graph_signature
    specs = [("input", s.kind.name, _arg_name(s.arg), s.target) for s in sig.input_specs]
    specs += [("output", s.kind.name, _arg_name(s.arg), s.target) for s in sig.output_specs]
    where = _symbol_places(ep, dynamic_shapes)
    ranges = []
    for symbol, vr in ep.range_constraints.items():
        name = str(symbol)
        place, dim = where.get(name, (None, None))
        ranges.append((name, dim, place, _bound(vr.lower), _bound(vr.upper)))
    return {"signature": specs, "ranges": ranges, "checks": checks(ep), "gm": ep.graph_module}


def checks(ep: Any) -> list[tuple[str, str, str | None]]:
    """``(kind, expr, input)`` for each check the exported program makes of its user inputs when called
    (``checks.input_checks``): the user inputs' sizes off their placeholders, each symbol's range, and the shape
    guards export kept (``ExportedProgram._guards_code``)."""
    users = [s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT" and hasattr(s.arg, "name")]
    nodes = {n.name: n for n in ep.graph.nodes if n.op == "placeholder"}
    inputs: list[tuple[str, list[Size]]] = []
    for name in users:
        val = nodes[name].meta.get("val") if name in nodes else None
        sizes = [str(s.node.expr) if isinstance(s, torch.SymInt) else int(s) for s in getattr(val, "shape", ())]
        inputs.append((name, sizes))
    ranges = {str(s): (_bound(vr.lower), _bound(vr.upper)) for s, vr in ep.range_constraints.items()}
    return input_checks(inputs, ranges, [str(g) for g in getattr(ep, "_guards_code", None) or []])


def _arg_name(arg: Any) -> str:
    return str(getattr(arg, "name", None) or getattr(arg, "value", None) or arg)


def _bound(value: Any) -> int | None:
    try:
        number = int(value)
    except Exception:  # noqa: BLE001 - int_oo, sympy's oo (no int of them): no bound
        return None
    return number if abs(number) < 2**62 else None


def _symbol_places(ep: Any, dynamic_shapes: Any) -> dict[str, tuple[str, str | None]]:
    """Each symbol of the user inputs' shapes -> where it is (``x.shape[0]``) and the ``Dim`` the user named there."""
    users = {s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT" and hasattr(s.arg, "name")}
    out: dict[str, tuple[str, str | None]] = {}
    for node in ep.graph.nodes:
        if node.op != "placeholder" or node.name not in users:
            continue
        val = node.meta.get("val")
        for d, size in enumerate(getattr(val, "shape", ())):
            if isinstance(size, torch.SymInt):
                symbol = str(size.node.expr)
                spec = dynamic_shapes.get(node.name) if isinstance(dynamic_shapes, dict) else None
                dim = spec.get(d, spec.get(str(d))) if isinstance(spec, dict) else None
                out.setdefault(symbol, (f"{node.name}.shape[{d}]", dim if isinstance(dim, str) else None))
    return out


def draft_failures(ep: Any) -> list[dict[str, Any]]:
    """``draft_export``'s report, an entry a failure: its kind (``FailureType``'s name: ``DATA_DEPENDENT_ERROR``,
    ``GUARD_ADDED``, ``MISSING_FAKE_KERNEL``, ``MISMATCHED_FAKE_KERNEL``), the expression and what draft export
    assumed for it, the op, and the user's innermost frame."""
    report = getattr(ep, "_report", None)
    if report is None:
        return []
    # the report's file names are interned: those first interned during this draft are in its own table, the others
    # (a cell's file, when an earlier export logged it) in torch's process-wide one
    from torch._logging.structured import INTERN_TABLE

    names = {i: name for name, i in INTERN_TABLE.items()} | (getattr(report, "str_to_filename", {}) or {})
    out: list[dict[str, Any]] = []
    for failure in getattr(report, "failures", []):
        data = failure.data or {}
        stack = [f for f in data.get("user_stack") or [] if is_user_file(str(names.get(f.get("filename"), "")))]
        frame = stack[-1] if stack else None
        out.append(
            {
                "kind": failure.failure_type.name,
                "expr": str(data["expr"]) if "expr" in data else None,
                "assumed": str(data["result"]) if "result" in data else None,
                "op": str(data["op"]) if "op" in data else None,
                "filename": names.get(frame["filename"]) if frame else None,
                "line": int(frame["line"]) if frame else None,
                "code": frame.get("loc") if frame else None,
                "occurrences": int(data["occurrences"]) if "occurrences" in data else None,
            }
        )
    return out
