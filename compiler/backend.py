"""The explorer's backend: records each Dynamo graph, then hands it to the real backend unchanged.

[Note: one backend per option set] Dynamo guards every cache entry with BACKEND_MATCH, and a
cache entry made with another backend object still counts toward ``recompile_limit``. So the
explorer keeps ONE ``ExplorerBackend`` per (backend, mode, dynamic) for the life of the process:
re-running a cell does not pile up entries on functions shared with the user's own compiled code.
The capture (the running cell's hook dispatcher, ``collectors/dispatch.py``) is looked up per call on
the calling thread: it records the graph (``on_graph``), then the real backend compiles inside
``capture.backend_window()``, and Dynamo gets what ``capture.compiled`` makes of the result (the
compiled callable itself, or ``--profile``'s wrapper that marks each call for the profiler).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ._compat import inductor_backend

__all__ = ["ExplorerBackend", "explorer_backend", "set_capture"]

_local = threading.local()


class Capture(Protocol):
    def on_graph(self, gm: Any, example_inputs: list[Any]) -> None: ...

    def backend_window(self) -> AbstractContextManager[Any]: ...

    def compiled(self, compiled_fn: Callable[..., Any]) -> Callable[..., Any]: ...


def set_capture(capture: Capture | None) -> None:
    """Install (or clear) what records the graphs compiled on this thread."""
    _local.capture = capture


class ExplorerBackend:
    """``backend(gm, example_inputs)``: record, then delegate to the real backend."""

    def __init__(self, name: str, mode: str | None, dynamic: bool | None) -> None:
        from torch._dynamo.backends.registry import lookup_backend

        self.name = name
        self.inner = inductor_backend(mode, dynamic) if name == "inductor" else lookup_backend(name)

    def __call__(self, gm: Any, example_inputs: list[Any]) -> Any:
        capture = getattr(_local, "capture", None)
        if capture is None:
            return self.inner(gm, example_inputs)
        capture.on_graph(gm, example_inputs)
        with capture.backend_window():
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
    return any(obj is b for b in _BACKENDS.values())
