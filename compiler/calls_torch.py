"""The user's own ``torch.compile`` of a callable the cell calls, read back for the calls scope ([Note: calls scope] in
``calls.py``): ``user_compile(obj)`` finds the ``_TorchDynamoContext`` the result holds and returns its settings as a
``UserCompile`` (backend object, fullgraph, dynamic, mode and options, recompile limit, guard filter), so the run
compiles that callable the way the user's own ``torch.compile`` would.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
part lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
import torch._dynamo

__all__ = ["UserCompile", "user_compile"]


@dataclass(frozen=True, slots=True)
class UserCompile:
    """How the user's own ``torch.compile(fn, ...)`` (or ``torch._dynamo.optimize(...)(fn)``) result compiles.

    Read off the ``_TorchDynamoContext`` the result holds (2.11 and 2.13: ``OptimizedModule.dynamo_ctx``; a
    compiled function's closure holds it; ``Module.compile()`` keeps such a function as ``_compiled_call_impl``).
    ``backend`` is what Dynamo calls with each graph (torch.compile's ``_TorchCompileInductorWrapper`` or
    ``_TorchCompileWrapper``, which carry the mode, options and dynamic; or the backend callable given to
    ``torch._dynamo.optimize``); ``mode``/``options`` are read back from it for people.
    """

    backend: Any
    backend_name: str
    fullgraph: bool
    dynamic: bool | None
    mode: str | None
    options: dict[str, Any] | None
    recompile_limit: int | None  # torch.compile(recompile_limit=...), 2.13 (None: the config's)
    guard_filter_fn: Any
    isolate_recompiles: bool
    shapes_spec: Any  # torch.compile(shapes_spec=...), 2.13

    def optimize_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``torch._dynamo.optimize`` that make a compile like the user's (bar the backend)."""
        kwargs: dict[str, Any] = {"nopython": self.fullgraph, "dynamic": self.dynamic}
        if self.guard_filter_fn is not None:
            kwargs["guard_filter_fn"] = self.guard_filter_fn
        if self.recompile_limit is not None:
            kwargs["recompile_limit"] = self.recompile_limit
        if self.isolate_recompiles:
            kwargs["isolate_recompiles"] = True
        if self.shapes_spec is not None:
            kwargs["shapes_spec"] = self.shapes_spec
        return kwargs


def _dynamo_context(obj: Any) -> Any:
    from torch._dynamo.eval_frame import _TorchDynamoContext

    ctx = getattr(obj, "dynamo_ctx", None)
    if isinstance(ctx, _TorchDynamoContext):
        return ctx
    for cell in getattr(obj, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(value, _TorchDynamoContext):
            return value
    return None


def user_compile(obj: Any) -> UserCompile | None:
    """The settings of ``obj`` when it is the result of the user's own ``torch.compile`` (or a module they called
    ``.compile()`` on), else None."""
    from torch._dynamo.eval_frame import innermost_backend

    if isinstance(obj, torch.nn.Module) and not isinstance(obj, torch._dynamo.eval_frame.OptimizedModule):
        obj = obj.__dict__.get("_compiled_call_impl")
        if obj is None:
            return None
    ctx = _dynamo_context(obj)
    callback = getattr(ctx, "callback", None)
    if ctx is None or not callable(callback):
        return None  # not compiled, or torch._dynamo.disable / run-only contexts
    backend = innermost_backend(callback)
    name = str(getattr(backend, "compiler_name", None) or getattr(backend, "__name__", None) or type(backend).__name__)
    mode: str | None = None
    options: dict[str, Any] | None = None
    if isinstance(backend, torch._TorchCompileInductorWrapper):
        config = dict(backend.config)
        for candidate in ("max-autotune", "max-autotune-no-cudagraphs", "reduce-overhead"):
            implied = torch._inductor.list_mode_options(candidate, backend.dynamic)
            if implied and all(config.get(k) == v for k, v in implied.items()):
                mode = candidate
                config = {k: v for k, v in config.items() if k not in implied}
                break
        options = config or None
    elif isinstance(backend, torch._TorchCompileWrapper):
        mode = backend.kwargs.get("mode")
        options = backend.kwargs.get("options") or None
    hooks = getattr(ctx, "_hooks", None)
    limit = getattr(callback, "_recompile_limit", None)  # 2.13; older: the config's
    return UserCompile(
        backend=backend,
        backend_name=name,
        fullgraph=bool(getattr(ctx, "fullgraph", False)),
        dynamic=getattr(ctx, "_dynamic", None),
        mode=mode,
        options=options,
        recompile_limit=limit if isinstance(limit, int) else None,
        guard_filter_fn=getattr(hooks, "guard_filter_fn", None),
        isolate_recompiles=getattr(ctx, "_isolate_recompiles_id", -1) != -1,
        shapes_spec=getattr(ctx, "_shapes_spec", None),
    )
