"""The explorer's backend: the real backend under an identity of the explorer's own, for scope ``calls``.

It records nothing: every graph, the explorer's and the user's alike, is seen where Dynamo hands it to a backend
([Note: one capture path] in ``collectors/dispatch.py``). It exists so that the cache entries the explorer made can
be told from the user's after the run (``isolation.drop_explorer_caches``): ``lookup_backend("eager")`` is the very
function a user's ``torch.compile(backend="eager")`` gets.

[Note: one backend per option set] Dynamo guards every cache entry with BACKEND_MATCH, and a
cache entry made with another backend object still counts toward ``recompile_limit``. So the
explorer keeps ONE ``ExplorerBackend`` per (backend, mode, dynamic) for the life of the process:
re-running a cell does not pile up entries on functions shared with the user's own compiled code. What the user
compiled is never wrapped: it runs with its own backend object ([Note: watch scope] in calls.py).
"""

from __future__ import annotations

from typing import Any

import torch

__all__ = ["ExplorerBackend", "explorer_backend", "is_explorer_backend"]


def inductor_backend(mode: str | None, dynamic: bool | None) -> Any:
    """The backend object ``torch.compile(backend='inductor', mode=...)`` builds.

    2.13 added a ``name=`` parameter; both versions take ``(mode, options, dynamic)`` positionally.
    """
    return torch._TorchCompileInductorWrapper(mode, None, dynamic)


class ExplorerBackend:
    """``backend(gm, example_inputs)``: the real backend's compile, under the explorer's identity."""

    def __init__(self, name: str, mode: str | None, dynamic: bool | None) -> None:
        from torch._dynamo.backends.registry import lookup_backend

        self.name = name
        self.inner = inductor_backend(mode, dynamic) if name == "inductor" else lookup_backend(name)

    def __call__(self, gm: Any, example_inputs: list[Any]) -> Any:
        return self.inner(gm, example_inputs)

    # What Dynamo asks a backend for, forwarded explicitly. A ``__getattr__`` here (even one that
    # only raises AttributeError) makes torch 2.13's eval-frame callback segfault.
    def get_compiler_config(self) -> Any:
        fn = getattr(self.inner, "get_compiler_config", None)
        return fn() if fn is not None else None

    def reset(self) -> None:
        fn = getattr(self.inner, "reset", None)
        if fn is not None:
            fn()

    def __repr__(self) -> str:
        return f"ExplorerBackend({self.name!r})"


_BACKENDS: dict[tuple[str, str | None, bool | None], ExplorerBackend] = {}


def explorer_backend(name: str, mode: str | None, dynamic: bool | None) -> ExplorerBackend:
    key = (name, mode, dynamic)
    if key not in _BACKENDS:
        _BACKENDS[key] = ExplorerBackend(name, mode, dynamic)
    return _BACKENDS[key]


def is_explorer_backend(obj: Any) -> bool:
    return isinstance(obj, ExplorerBackend)
