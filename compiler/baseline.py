"""``--compare-eager``: time the compiled run and a second, plain run of the cell, overall and per callee.

[Note: eager baseline] The report's run is the compiled one; with ``--compare-eager`` the runner then
runs the cell once more without Dynamo (the front ends say so before anything runs: the cell's side
effects happen twice, and the namespace ends as the second run left it). Both runs are timed whole;
the compiled run's compile time (``CaptureContext.compiling_s``, compile start to end callbacks) is
taken out, so ``speedup = eager / (compiled - compile)``. In scope ``calls`` each compiled callee is
also timed call by call in both runs (``CallTimer``): the plain run calls what ``torch.compile`` would
have started on (``targets.compile_target``), so a function the user already wrapped runs uncompiled.
One run each: warm-up costs (first-call allocation, lazy module init) land in both.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .model import CompileReport, EagerBaseline, FunctionSpeedup
from .targets import compile_target, read_attribute

__all__ = ["NOTICE", "CallTimer", "EagerCalls", "baseline"]

#: What both front ends say before a --compare-eager run starts.
NOTICE = (
    "--compare-eager: this cell runs twice, compiled and then once more without Dynamo to time it; "
    "its side effects (prints, appends, optimizer steps) happen twice"
)

METHOD = (
    "The cell ran twice: compiled (the report's run), then once more without Dynamo. Compiled time is the "
    "compiled run's wall time less its compile time; eager time is the plain run's wall time. One run each, "
    "so warm-up costs (first calls, lazy initialisation) land in both."
)
PROFILED = (
    " With --profile, the compiled run also carried the profiler's cost (on each eager op, graph call and cache "
    "lookup) and the plain run did not: the speedup understates the compiled side; run --compare-eager alone "
    "for a fair ratio."
)
METHOD_CALLS = (
    "The cell ran twice: compiled (the report's run), then once more without Dynamo. Both totals are the time "
    "spent in the calls of the functions and modules the cell compiled (its other lines run plain both times); "
    "the compiled side less the compile time inside those calls. One run each, so first-call costs (Dynamo's "
    "guards and glue on a first call, lazy initialisation) land in both: with few calls, they dominate."
)


@dataclass
class _Calls:
    line: int
    calls: int = 0
    seconds: float = 0.0
    compile_ids: list[str] = field(default_factory=list)


@dataclass
class CallTimer:
    """Time spent in each callee's calls, less the compile time inside them; the compiles they started.

    ``ctx`` is the compiled run's ``CaptureContext`` (its ``compiling_s`` and ``compile_order``), or
    None for the plain run."""

    ctx: Any = None
    by_name: dict[str, _Calls] = field(default_factory=dict)

    def wrap(self, text: str, line: int, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn``, timed under ``text``."""
        row = self.by_name.setdefault(text, _Calls(line))
        ctx = self.ctx

        def timed(*args: Any, **kwargs: Any) -> Any:
            c0, n0, t0 = (ctx.compiling_s, len(ctx.compile_order), time.perf_counter()) if ctx else (0.0, 0, time.perf_counter())
            try:
                return fn(*args, **kwargs)
            finally:
                row.calls += 1
                row.seconds += time.perf_counter() - t0
                if ctx is not None:
                    row.seconds -= ctx.compiling_s - c0
                    row.compile_ids += ctx.compile_order[n0:]

        return timed


@dataclass
class EagerCalls:
    """``__dynamo_call__`` of the plain run: each callee the compiled run compiled, called plain and timed."""

    timer: CallTimer

    def __call__(self, callee: Any, text: str, line: int) -> Any:
        target, _ = compile_target(callee)
        if target is None:
            return callee
        return self.timer.wrap(text, line, target)

    def attribute(self, obj: Any, name: str, text: str, line: int) -> Any:
        """A property of the user's read plain and timed, as the compiled run compiled it."""
        return read_attribute(obj, name, lambda getter: self(getter, text, line))


def baseline(
    report: CompileReport,
    eager_s: float,
    compiled_s: float,
    compile_s: float,
    compiled: CallTimer,
    eager: CallTimer,
    profiled: bool = False,
) -> EagerBaseline:
    """The report's ``eager_baseline``. In scope ``calls`` the totals are the compiled callees' calls (the
    cell's other lines, imports and model construction, run plain both times and would only dilute the
    ratio); otherwise the whole cell's run, less its compile time."""
    functions = []
    for name, c in compiled.by_name.items():
        e = eager.by_name.get(name)
        if e is None:
            continue
        functions.append(
            FunctionSpeedup(
                name=name,
                line=c.line,
                compile_ids=_in_report(report, c.compile_ids),
                calls=c.calls,
                eager_ms=_ms(e.seconds),
                compiled_ms=_ms(c.seconds),
                speedup=_ratio(e.seconds, c.seconds),
            )
        )
    if functions:
        eager_s = sum(e.seconds for n, e in eager.by_name.items() if n in compiled.by_name)
        run_s = sum(c.seconds for n, c in compiled.by_name.items() if n in eager.by_name)
    else:
        run_s = max(compiled_s - compile_s, 0.0)
    return EagerBaseline(
        method=(METHOD_CALLS if functions else METHOD) + (PROFILED if profiled else ""),
        eager_ms=_ms(eager_s),
        compiled_ms=_ms(run_s),
        compile_ms=_ms(compile_s),
        speedup=_ratio(eager_s, run_s),
        functions=functions,
    )


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 4)


def _ratio(eager_s: float, compiled_s: float) -> float | None:
    return round(eager_s / compiled_s, 3) if compiled_s > 0 else None


def _in_report(report: CompileReport, started: list[str]) -> list[str]:
    """The compiles started inside a callee's calls, as the report lists them."""
    return [f.compile_id for f in report.frames if f.compile_id in set(started)]
