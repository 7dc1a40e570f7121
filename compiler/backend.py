"""The explorer's backend: records each Dynamo graph, then hands it to the real backend unchanged.

[Note: one backend per option set] Dynamo guards every cache entry with BACKEND_MATCH, and a
cache entry made with another backend object still counts toward ``recompile_limit``. So the
explorer keeps ONE ``ExplorerBackend`` per (backend, mode, dynamic) for the life of the process:
re-running a cell does not pile up entries on functions shared with the user's own compiled code.
A callable the user compiled with ``torch.compile(fn, backend=..., mode=..., options=...)`` keeps its own
backend: ``ExplorerBackend.wrapping(user's backend)`` records and delegates to that very object, and is
made for the one run (it must not keep the user's backend, and what it references, alive afterwards).
The capture (the running cell's hook dispatcher, ``collectors/dispatch.py``) is looked up per call: it
records the graph (``on_graph``), then the real backend compiles inside ``capture.backend_window()``, and
Dynamo gets what ``capture.compiled`` makes of the result (the compiled callable itself, or
``--profile``'s wrapper that marks each call for the profiler). It is one for the process, not per
thread: a graph compiled on another thread during the run (a thread the cell started, a backward
autograd runs on its device thread) is the run's too.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

import torch

__all__ = ["ExplorerBackend", "explorer_backend", "set_capture"]

_capture: Capture | None = None


class Capture(Protocol):
    def on_graph(self, gm: Any, example_inputs: list[Any]) -> None: ...

    def backend_window(self, backend: str) -> AbstractContextManager[Any]: ...

    def compiled(self, compiled_fn: Callable[..., Any]) -> Callable[..., Any]: ...


def set_capture(capture: Capture | None) -> None:
    """Install (or clear) what records the graphs compiled while a cell runs, on any thread."""
    global _capture
    _capture = capture


def inductor_backend(mode: str | None, dynamic: bool | None) -> Any:
    """The backend object ``torch.compile(backend='inductor', mode=...)`` builds.

    2.13 added a ``name=`` parameter; both versions take ``(mode, options, dynamic)`` positionally.
    """
    return torch._TorchCompileInductorWrapper(mode, None, dynamic)


class ExplorerBackend:
    """``backend(gm, example_inputs)``: record, then delegate to the real backend."""

    def __init__(self, name: str, mode: str | None, dynamic: bool | None, inner: Any = None) -> None:
        from torch._dynamo.backends.registry import lookup_backend

        self.name = name
        if inner is None:
            inner = inductor_backend(mode, dynamic) if name == "inductor" else lookup_backend(name)
        self.inner = inner

    @classmethod
    def wrapping(cls, name: str, inner: Any) -> ExplorerBackend:
        """One run's backend around the user's own (``calls_torch.UserCompile.backend``), not kept by the process."""
        return cls(name, None, None, inner=inner)

    def __call__(self, gm: Any, example_inputs: list[Any]) -> Any:
        capture = _capture
        if capture is None:
            return self.inner(gm, example_inputs)
        capture.on_graph(gm, example_inputs)
        with capture.backend_window(self.name):
            compiled_fn = self.inner(gm, example_inputs)
        return capture.compiled(compiled_fn)

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
