"""The seams through which the run sees every compile Dynamo makes, whoever asked for it and whatever its backend
([Note: one capture path] in ``collectors/dispatch.py``): each observes a call torch makes anyway, hands what it saw
to the dispatcher, and returns what torch's own code returned, so the program runs as it would without the explorer.

- ``backend_calls``: ``OutputGraph.call_user_compiler``, through which Dynamo hands every graph to the backend (the
  user's, explain's, compiled autograd's, the explorer's own): the graph, its example inputs, the backend, the
  compile, what the backend returned;
- ``guard_builds``: ``CheckFunctionManager.__init__``, which builds a cache entry's guards from the ``OutputGraph``
  (what ``guard_export_fn`` of ``torch._dynamo.optimize`` is handed, for every compile);
- ``guard_failures``: ``guards.get_guard_fail_reason``, Dynamo's explanation of each old cache entry when it decides
  to recompile (what ``guard_fail_fn`` is handed), with the entry's guard manager and the call's values;
- ``graph_break_reasons``: ``InstructionTranslatorBase.log_graph_break``, where Dynamo writes a graph break's
  ``dynamo_graph_break_reason`` structured-trace artifact: the artifact is read with a handler on the trace logger
  for that call only (no log setting of the user's is read or changed: ``torch._logging.set_logs`` in a cell does
  not hide a break).

Each is replaced on its owner while open and put back on exit unless another wrapper replaced it since (then ours
stays in that chain and only passes calls through). Checked on torch 2.13 and 2.15; 2.11 has the same four names.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..events import StructuredStream

__all__ = ["FailedEntry", "backend_calls", "backend_name", "graph_break_reasons", "guard_builds", "guard_failures", "innermost"]


@contextlib.contextmanager
def _observed(owner: Any, name: str, make: Callable[[Any, Callable[[], bool]], Any]) -> Iterator[None]:
    """``owner.name`` replaced by ``make(original, active)`` while open; ``active()`` is False once closed, for a
    wrapper another one wrapped in turn (it cannot be taken out of their chain: it passes calls through)."""
    original = owner.__dict__[name]
    state = {"on": True}
    replacement = make(original, lambda: state["on"])
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        state["on"] = False
        if owner.__dict__.get(name) is replacement:
            setattr(owner, name, original)


def backend_name(backend: Any) -> str:
    """A backend's name as ``torch.compile(backend=...)`` names it (``inductor``, ``eager``, ``aot_eager``), or its
    callable's name (``dynamo_graph_accumulating_compiler`` for ``explain``, a user's own function)."""
    inner = innermost(backend)
    name = getattr(inner, "compiler_name", None) or getattr(inner, "name", None) or getattr(inner, "__name__", None)
    return str(name or type(inner).__name__)


def innermost(backend: Any) -> Any:
    """The backend object under Dynamo's wrappers (``wrap_backend_debug``, ``_TorchCompileWrapper``'s own)."""
    from torch._dynamo.eval_frame import innermost_backend

    try:
        return innermost_backend(backend)
    except Exception:  # noqa: BLE001 - an unusual backend object: take it as it is
        return backend


@contextlib.contextmanager
def backend_calls(observe: Callable[[Any, Any, list[Any], Callable[[], Any]], Any]) -> Iterator[None]:
    """Every graph Dynamo hands to a backend goes through ``observe(backend, gm, example_inputs, compile)``, which
    must return what ``compile()`` (the original ``call_user_compiler``) returned, or a wrapper of it.

    2.11 to 2.15: ``OutputGraph.call_user_compiler(self, gm, example_inputs)`` runs the backend inside the
    ``backend_compile`` phase and returns the compiled callable; ``self.compiler_fn`` is the backend."""
    from torch._dynamo.output_graph import OutputGraph

    def make(original: Any, active: Callable[[], bool]) -> Any:
        def call_user_compiler(self: Any, gm: Any, example_inputs: list[Any]) -> Any:
            __tracebackhide__ = True
            if not active():
                return original(self, gm, example_inputs)
            return observe(self.compiler_fn, gm, example_inputs, lambda: original(self, gm, example_inputs))

        return call_user_compiler

    with _observed(OutputGraph, "call_user_compiler", make):
        yield


@contextlib.contextmanager
def guard_builds(observe: Callable[[Any], None]) -> Iterator[None]:
    """``observe(guards)`` with the ``GuardsSet`` of every cache entry Dynamo builds for a graph, where Dynamo hands
    ``guard_export_fn`` the same set (``convert_frame``: not for a frame whose graph is empty).

    2.11 to 2.15: ``CheckFunctionManager(f_code, output_graph, ...)`` builds the entry's guards from
    ``output_graph.guards``; a failed build raises and observes nothing."""
    from torch._dynamo.guards import CheckFunctionManager

    def make(original: Any, active: Callable[[], bool]) -> Any:
        def __init__(self: Any, f_code: Any, output_graph: Any = None, *args: Any, **kwargs: Any) -> None:
            __tracebackhide__ = True
            original(self, f_code, output_graph, *args, **kwargs)
            if not active() or output_graph is None:
                return
            empty = getattr(output_graph, "is_empty_graph", None)
            guards = getattr(output_graph, "guards", None)
            if guards is not None and callable(empty) and not empty():
                observe(guards)

        return __init__

    with _observed(CheckFunctionManager, "__init__", make):
        yield


@dataclass(frozen=True, slots=True)
class FailedEntry:
    """One old cache entry Dynamo explains when it recompiles: its reason (``'0/0: L['x'].size()[0] == 2'``, as
    ``TORCH_LOGS=recompiles`` prints it), the original code, the entry's guard manager, the call's values."""

    reason: str
    code: types.CodeType | None
    guard_manager: Any
    f_locals: dict[str, object]


@contextlib.contextmanager
def guard_failures(observe: Callable[[FailedEntry], None]) -> Iterator[None]:
    """``observe(entry)`` for each old cache entry Dynamo explains when it recompiles, where it would call the
    entry's ``guard_fail_fn``: every entry, the user's own included (``guard_fail_fn`` reaches only those compiled
    with one), never an invalidated one nor a ``skip_logging`` explanation (the ``fail_on_recompile`` stance's).

    2.11 to 2.15: ``guards.get_guard_fail_reason(guard_manager, code, f_locals, compile_id, backend, skip_logging)``,
    called by ``get_and_maybe_log_recompilation_reasons`` through the module's globals."""
    from torch._dynamo import guards

    def make(original: Any, active: Callable[[], bool]) -> Any:
        def get_guard_fail_reason(
            guard_manager: Any, code: Any, f_locals: Any, compile_id: Any, backend: Any, skip_logging: bool = False
        ) -> str:
            __tracebackhide__ = True
            reason = original(guard_manager, code, f_locals, compile_id, backend, skip_logging)
            if active() and not skip_logging and not isinstance(guard_manager, guards.DeletedGuardManagerWrapper):
                orig = guards.orig_code_map.get(code, code) if hasattr(guards, "orig_code_map") else code
                observe(FailedEntry(str(reason or "unknown reason"), orig, guard_manager, f_locals))
            return reason

        return get_guard_fail_reason

    with _observed(guards, "get_guard_fail_reason", make):
        yield


@contextlib.contextmanager
def graph_break_reasons(observe: Callable[[str | None, str], None]) -> Iterator[None]:
    """``observe(compile_id, text)`` for every graph break Dynamo logs: the ``dynamo_graph_break_reason`` artifact's
    payload (``Graph break in user code at FILE:LINE`` / ``Graph Break Reason: ...`` / ``User code traceback:``),
    what a ``TORCH_TRACE`` log holds and ``open`` reads, built for this call only.

    2.11 to 2.15: ``InstructionTranslatorBase.log_graph_break(self, code_options, reason, exc)`` writes the artifact
    once per exception (``exc.logged``), whatever the user's log settings."""
    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    def make(original: Any, active: Callable[[], bool]) -> Any:
        def log_graph_break(self: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            if not active():
                return original(self, *args, **kwargs)
            with StructuredStream() as stream:
                result = original(self, *args, **kwargs)
            for ev in stream.named("artifact:dynamo_graph_break_reason"):
                observe(ev.compile_id, ev.payload or "")
            return result

        return log_graph_break

    with _observed(InstructionTranslatorBase, "log_graph_break", make):
        yield
