"""What ``run_cell`` hands back (``CellRun``) and what it reports while a cell compiles (``Progress``, at most every
0.2 s a phase: ``throttled``)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CellRun", "Progress", "throttled"]


@dataclass(frozen=True, slots=True)
class Progress:
    """Live status while a cell compiles (see ``run_cell(on_progress=...)``)."""

    frames: int
    phase: str
    elapsed_s: float
    compile_id: str | None


@dataclass(slots=True)
class CellRun:
    """What a run produced: the report (JSON-ready dict), the last expression's value, the exception."""

    report: dict[str, Any]
    value: Any
    exception: BaseException | None
    #: what the report holds only in part (``report["parts_cut"]``), whole, by key: a kernel hands a part to a
    #: view that asks for it (kernel_ext/parts.py); strings and model rows (``model.json_ready``), nothing of the user's
    parts: dict[str, Any] = field(default_factory=dict)


def throttled(cb: Callable[[Progress], None] | None) -> Callable[[int, str, str | None, float], None] | None:
    """The run's progress callback: ``cb`` called at most every 0.2 s for one phase, never raising into the run."""
    if cb is None:
        return None
    state: dict[str, Any] = {"t": 0.0, "phase": ""}

    def emit(frames: int, phase: str, compile_id: str | None, elapsed: float) -> None:
        now = time.monotonic()
        if phase == state["phase"] and now - state["t"] < 0.2:
            return
        state.update(t=now, phase=phase)
        with contextlib.suppress(Exception):  # a broken progress display must not break the run
            cb(Progress(frames=frames, phase=phase, elapsed_s=elapsed, compile_id=compile_id))

    return emit
