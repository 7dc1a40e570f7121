"""The Python API, for places with no cell magics (marimo, scripts, VS Code's interactive window, a unit test).

    from kernel_ext import explore
    ex = explore(fn, backend="eager")(x, y)     # as torch._dynamo.explain(fn)(*args) is called
    ex.value                                    # what fn returned
    ex.report                                   # the compile report (compiler/schema/compile_report.v1.schema.json)
    ex                                          # the last expression of a cell: the explorer

Contents:
- ``explore(fn, **torch_compile_kwargs)``: a callable that compiles ``fn`` exactly as
  ``torch.compile(fn, **torch_compile_kwargs)`` would (the very ``torch.compile`` call makes the wrapper, and the run
  calls it as it is, watching its compiles: [Note: calls scope] in compiler/calls.py), calls it with the arguments
  given, and returns an ``Exploration``. The cache entries that call made are dropped afterwards, so the next
  ``explore(fn)`` compiles (and reports) again. When ``fn`` raises, the exception propagates as from a plain call, and the run's report is
  kept as ``explore.last``. ``explore(fn, check_numerics=True)`` (or N) checks each compiled graph's numbers too
  (``--check-numerics``); that argument is the explorer's, never handed to ``torch.compile``.
- ``explore.capture(**torch_compile_kwargs)``: a context manager for code that is not one call: the with-block's
  body runs as a ``%%dynamo`` cell would (scope ``auto``: what the body calls is compiled, [Note: calls scope]),
  in the namespace of the cell or script it is written in (``kernel_ext/capture.py``).
- ``explore.diff(a, b)``: what changed between two runs (``kernel_ext/comparison.py``; ``%dynamo_diff A B``).
- ``Exploration`` (``kernel_ext/exploration.py``): ``.report``, ``.value``, and ``_repr_mimebundle_``.

The run is a one-line program ``fn(*args, **kwargs)`` run by ``compiler.run_cell`` under scope ``calls``, in a
namespace of its own that is dropped afterwards: nothing of the caller's is kept alive (``.value`` is what the
caller asked for).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from .exploration import Exploration
from .parts import keep as keep_parts

__all__ = ["Exploration", "explore"]

_counter = itertools.count(1)
_RESERVED = frozenset({"args", "kwargs"})


#: torch.compile's arguments a run's options hold (``compiler.RunOptions``); explore(fn) passes any other to torch.compile
_RUN_OPTIONS = ("backend", "mode", "dynamic", "fullgraph")
#: the explorer's own options explore(fn, ...) and explore.capture(...) take beside torch.compile's (never handed to it)
_EXPLORER_OPTIONS = ("check_numerics",)


def run_options(compile_kwargs: dict[str, Any], scope: str, what: str | None = None) -> Any:
    """The engine's options for ``torch.compile``'s keyword arguments. ``what`` (a caller that has no function to
    hand them to, ``explore.capture()``): any other argument is a one-line ``TypeError``."""
    from compiler import RunOptions

    if what is not None:
        others = sorted(set(compile_kwargs) - set(_RUN_OPTIONS) - set(_EXPLORER_OPTIONS))
        if others:
            raise TypeError(
                f"{what} takes torch.compile's {', '.join(_RUN_OPTIONS)}; got {', '.join(others)}: "
                "for other options wrap a function, explore(fn, **torch_compile_kwargs)(*args)"
            )
    backend = compile_kwargs.get("backend", "inductor")
    if what is not None and not isinstance(backend, str):
        raise TypeError(f"{what}: backend must be a backend's name (a str) here; a callable backend: explore(fn, backend=...)")
    backend = backend if isinstance(backend, str) else "inductor"  # the header's; the callee keeps its own
    return RunOptions(
        backend=backend,
        mode=compile_kwargs.get("mode") if backend == "inductor" else None,
        dynamic=compile_kwargs.get("dynamic"),
        fullgraph=bool(compile_kwargs.get("fullgraph", False)),
        scope=scope,  # type: ignore[arg-type]
        check_numerics=_calls(compile_kwargs.get("check_numerics", 0)),
    )


def _calls(value: Any) -> Any:
    """``check_numerics=True`` is one call a graph, ``False`` none; a number is itself (validated by the engine)."""
    return int(value) if isinstance(value, bool) else value


class _Explore:
    """``explore(fn, **torch_compile_kwargs)(*args, **kwargs)``; see the module docstring."""

    def __init__(self) -> None:
        self.last: Exploration | None = None  # the latest call's report (without its value)

    def __call__(self, fn: Callable[..., Any], /, **compile_kwargs: Any) -> Callable[..., Exploration]:
        import torch

        if not callable(fn):
            raise TypeError(f"explore(fn): fn must be callable (a function or an nn.Module), got {type(fn).__name__}")
        ours = {k: compile_kwargs.pop(k) for k in _EXPLORER_OPTIONS if k in compile_kwargs}
        compiled = torch.compile(fn, **compile_kwargs)  # torch's own checks of the arguments, and its wrapper
        compile_kwargs = {**compile_kwargs, **ours}
        name = getattr(fn, "__name__", None) or type(fn).__name__
        if not name.isidentifier() or name in _RESERVED:
            name = "fn"

        def call(*args: Any, **kwargs: Any) -> Exploration:
            return self._run(compiled, name, compile_kwargs, args, kwargs)

        return call

    def _run(self, compiled: Any, name: str, compile_kwargs: dict[str, Any], args: tuple, kwargs: dict) -> Exploration:
        from compiler import run_cell

        options = run_options(compile_kwargs, scope="calls")
        source = f"{name}(*args, **kwargs)\n"
        namespace: dict[str, Any] = {name: compiled, "args": args, "kwargs": kwargs}
        try:
            run = run_cell(source, namespace, options, filename=f"<explore-{next(_counter)}>", owned=(compiled,))
        finally:
            namespace.clear()
        keep_parts(run.parts)
        self.last = Exploration(run.report, None)
        if run.exception is not None:
            __tracebackhide__ = True  # IPython and pytest start the traceback at the user's frames
            run.exception.add_note("dynamo-explorer: the compile report of this call is explore.last")
            raise run.exception
        return Exploration(run.report, run.value)

    def capture(self, **compile_kwargs: Any) -> Any:
        """``with explore.capture(backend="eager") as ex:``: the block's body runs under the explorer (see
        ``kernel_ext/capture.py``); ``ex.report`` is its report once the block is over."""
        from .capture import Capture

        return Capture(self, run_options(compile_kwargs, scope="auto", what="explore.capture()"))

    def diff(self, a: Any, b: Any) -> Any:
        """What changed between two runs, ``b`` against ``a``: each an ``Exploration``, a ``%%dynamo --out`` report, a
        report dict or a path (a report's JSON, a ``TORCH_TRACE`` directory); a ``Comparison``
        (``kernel_ext/comparison.py``)."""
        from .comparison import compare

        return compare(a, b)

    def __repr__(self) -> str:
        return "<explore: explore(fn, **torch_compile_kwargs)(*args, **kwargs) -> Exploration>"


explore = _Explore()
