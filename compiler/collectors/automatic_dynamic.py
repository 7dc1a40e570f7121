"""Collector for Dynamo's automatic dynamic shapes: which inputs of each frame were dynamic, and since when.

For every frame Dynamo compiled it reports the inputs Dynamo's memory held as dynamic when the compile
ended (``frames[].automatic_dynamic``): the source (``L['x']``), the size dims (or a scalar), and who
marked it: a compile of this run (``marked_in``; for the compile that marked it, ``was`` says what Dynamo
had seen before, e.g. ``size (2, 3)``, and ``was_from_earlier_run`` whether an earlier run saw it), or an
earlier run in this process (``marked_in`` null: state carried between runs,
[Note: automatic dynamic memory] in _compat.py; ``--fresh`` or ``compiler.reset_code`` start a code from
a clean slate).

How: the memory is copied at the run's start and at each frame compile's start (references to immutable
size tuples: cheap), and the frame's own code is read again from the bytecode hook when the compile
produced code. Nothing is read when nothing compiles.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .. import _compat
from ..model import AutomaticDynamic, CompileReport
from .base import CaptureContext, CodeRecord, Collector

#: (filename, firstlineno, name) of a code object, as Dynamo's memory keys it (pgo.CodeId).
CodeKey = tuple[str, int, str]
Memory = dict[CodeKey, dict[str, _compat.Remembered]]


class AutomaticDynamicCollector(Collector):
    name = "automatic_dynamic"
    requires = ("frames",)  # writes into report.frames

    def __init__(self) -> None:
        self.run_start: Memory = {}
        self.at_start: dict[str, Memory] = {}  # compile id -> the memory when it started
        self.at_end: dict[str, tuple[CodeKey, dict[str, _compat.Remembered]]] = {}  # compile id -> its code's memory

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        self.run_start = _compat.automatic_dynamic_memory()
        yield

    def install(self, ctx: CaptureContext) -> contextlib.AbstractContextManager[None]:
        return self._snapshot()

    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        if trigger == "DYNAMO":
            self.at_start[compile_id] = _compat.automatic_dynamic_memory()

    def on_code(self, ctx: CaptureContext, record: CodeRecord) -> None:
        code = record.orig
        key = (code.co_filename, code.co_firstlineno, code.co_name)
        self.at_end[record.compile_id] = (key, _compat.automatic_dynamic_memory(only=key).get(key, {}))

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        frames = {f.compile_id: f for f in report.frames}
        marked: dict[tuple[CodeKey, str], str] = {}  # (code, source) -> the compile of this run that marked it
        compiled: set[CodeKey] = set()  # codes compiled earlier in this run
        for compile_id in ctx.compile_order:
            if compile_id not in self.at_end or compile_id not in frames:
                continue
            key, memory = self.at_end[compile_id]
            before = self.at_start.get(compile_id, {}).get(key, {})
            earlier_run = self.run_start.get(key, {})
            for source, remembered in memory.items():
                part = _compat.dynamic_part(remembered)
                if part is None:
                    continue
                kind, dims = part
                was = before.get(source)
                if kind == "scalar" and was is not None and isinstance(was[0], tuple):
                    kind = "tensor"  # its number of dims changed ([Note: automatic dynamic memory])
                was_dynamic = was is not None and _compat.dynamic_part(was) == part
                if not was_dynamic:
                    marked[(key, source)] = compile_id
                carried = was_dynamic and (key, source) not in marked
                by = None if carried else marked.get((key, source), compile_id)
                frames[compile_id].automatic_dynamic.append(
                    AutomaticDynamic(
                        source=source,
                        kind=kind,
                        dims=dims,
                        marked_in=by,
                        now=_compat.describe_remembered(remembered),
                        was=_compat.describe_remembered(was) if by == compile_id and was is not None else None,
                        was_from_earlier_run=by == compile_id
                        and was is not None
                        and key not in compiled
                        and earlier_run.get(source) == was,
                    )
                )
            compiled.add(key)
