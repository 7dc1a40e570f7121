"""The user's own ``torch.compile`` of a callable, read back: ``user_compile(obj)`` finds the ``_TorchDynamoContext``
the result holds and returns its settings as a ``UserCompile`` (backend object, fullgraph, dynamic, mode and options,
recompile limit): what a callee row of the calls scope says of a callable that runs as the user compiled it
([Note: calls scope] in ``calls.py``), and the backend object its cache entries carry (``compiled_backend``: the
entries ``explore(fn)``'s own ``torch.compile`` made are dropped after its run).

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
part lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import torch
import torch._dynamo

__all__ = ["UserCompile", "compiled_backend", "in_optimized_module", "user_compile"]


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
    limit = getattr(callback, "_recompile_limit", None)  # 2.13; older: the config's
    return UserCompile(
        backend=backend,
        backend_name=name,
        fullgraph=bool(getattr(ctx, "fullgraph", False)),
        dynamic=getattr(ctx, "_dynamic", None),
        mode=mode,
        options=options,
        recompile_limit=limit if isinstance(limit, int) else None,
    )


def in_optimized_module() -> Any:
    """The context ``OptimizedModule.__call__`` runs a compiled module's call in (``torch.compile(model)(x)``): torch's
    ``_is_in_optimized_module()`` is True inside it (2.13, 2.15; a release without it: nothing)."""
    enter = getattr(torch._dynamo.eval_frame, "_set_in_optimized_module", None)
    return enter() if enter is not None else contextlib.nullcontext()


def compiled_backend(obj: Any) -> Any:
    """The backend object the cache entries of ``obj`` (a ``torch.compile`` result) carry (``CacheEntry.backend``:
    the ``_TorchCompileWrapper`` that call made), or None when ``obj`` is not compiled."""
    user = user_compile(obj)
    return None if user is None else user.backend
