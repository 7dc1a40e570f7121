"""The report's caps on one frame's bytecode listings and one graph's code: what is past them the run keeps whole.

A 100,000-node graph's frame loads its 40,000 parameters in 422,000 instructions (57 MB of the report's 126 MB) and
its ``gm.code`` is 24 MB, one line of it 4.9 MB: the view showed neither whole at first (a listing draws 1,500 rows,
a code block 200,000 characters) but inflated, parsed and held them before its first drawing (BENCHMARKS.md §2). So
the report holds a listing's first ``MAX_INSTRUCTIONS`` rows and a graph's first ``MAX_CODE_CHARS`` characters (up to
a line's end), a ``truncated`` diagnostic says so, and the run keeps the whole (``CaptureContext.keep_part``, as the
guards collector does a frame's guards past 5,000): the pane's Load all asks the kernel for it, an ``--html`` page
holds it ([Note: parts in a page] in kernel_ext/export.py). Applied once every collector has finalized (they read the
whole: links, timings, the decompiler); a report read from a trace is not capped.
"""

from __future__ import annotations

from .collectors.base import CaptureContext, line_cut
from .model import CompileReport

__all__ = ["MAX_CODE_CHARS", "MAX_INSTRUCTIONS", "cap"]

#: instructions of one bytecode listing the report holds (a frame that loads 4,000 parameters has 30,000)
MAX_INSTRUCTIONS = 50_000
#: characters of one graph's code the report holds (as the guard tree's cap)
MAX_CODE_CHARS = 1_000_000


def cap(ctx: CaptureContext, report: CompileReport) -> None:
    """Cut what is past the caps out of ``report``, kept whole by ``ctx`` (``CellRun.parts``)."""
    for frame in report.frames:
        for part in ("original_bytecode", "modified_bytecode"):
            rows = getattr(frame, part)
            if len(rows) > MAX_INSTRUCTIONS:
                report.diagnose(
                    "truncated",
                    f"[{frame.compile_id}] {frame.code.name}: kept {MAX_INSTRUCTIONS:,} of {len(rows):,} instructions "
                    f"of its {part.replace('_', ' ')}; TORCH_LOGS=bytecode prints all of them",
                    frame.compile_id,
                )
                ctx.keep_part(report, part, frame.compile_id, MAX_INSTRUCTIONS, rows)  # type: ignore[arg-type]
                setattr(frame, part, rows[:MAX_INSTRUCTIONS])
    for graph in report.graphs:
        if graph.compile_id is not None and len(graph.code) > MAX_CODE_CHARS:  # an exported program's is held whole
            cut = line_cut(graph.code, MAX_CODE_CHARS)
            report.diagnose(
                "truncated",
                f"[{graph.compile_id}] graph {graph.id} ({graph.kind}): kept {cut:,} of {len(graph.code):,} characters "
                "of its code; TORCH_LOGS=graph_code prints all of it",
                graph.compile_id,
            )
            ctx.keep_part(report, "graph_code", graph.compile_id, cut, graph.code, graph=graph.id)
            graph.code = graph.code[:cut]
