"""Last collector: links the artifacts together and decides each frame's status.

- ``__compiled_fn_*`` in a frame's modified bytecode -> that frame's dynamo graph (one graph per
  frame compile; several are matched in order);
- ``__resume_at_<offset>_<n>`` -> the frame its resume function was compiled as, and that frame's
  ``parent_compile_id``;
- status: error > skipped > graph_break > recompile > empty > ok (see the schema's FrameStatus).
"""

from __future__ import annotations

import re
import types

from ..compile_ids import dynamo_id
from ..model import CompileReport, Frame, FrameStatus
from .base import CaptureContext, Collector

_RESUME = re.compile(r"^__resume_at_(\d+)_\d+$")
_SKIP_FAILS = ("recompile limit", "recompile_limit", "skip", "disable")


def frame_status(frame: Frame, report: CompileReport) -> FrameStatus:
    """error > skipped > graph_break > recompile > empty > ok: the first that applies (the schema's FrameStatus)."""
    reason = (frame.fail_reason or "").lower()
    if frame.fail_type and not any(s in reason for s in _SKIP_FAILS):
        return "error"
    if frame.fail_type:
        return "skipped"
    if frame.graph_breaks:
        return "graph_break"
    if frame.recompile_reasons or int(dynamo_id(frame.compile_id).rsplit("/", 1)[1]) > 0:
        return "recompile"
    if not any(report.graphs[g].kind == "dynamo" for g in frame.graph_ids):
        return "empty"
    return "ok"


class LinksCollector(Collector):
    name = "links"
    requires = ("frames", "fx_graphs", "graph_breaks", "recompiles")

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        orig_by_cid: dict[str, types.CodeType] = {r.compile_id: r.orig for r in ctx.code_records}
        cid_by_code: dict[int, list[str]] = {}
        for r in ctx.code_records:
            cid_by_code.setdefault(id(r.orig), []).append(r.compile_id)
        # A resume frame that compiled nothing (e.g. after `.item()` then a data-dependent `if`) has no
        # bytecode record, only CompilationMetrics: find it by its code's name and place.
        cid_by_place: dict[tuple[str, str, int], list[str]] = {}
        for f in report.frames:
            cid_by_place.setdefault((f.code.name, f.code.filename, f.code.firstlineno), []).append(f.compile_id)
        for frame in report.frames:
            dynamo_graphs = [g for g in frame.graph_ids if report.graphs[g].kind == "dynamo"]
            fn_names: list[str] = []
            for ins in frame.modified_bytecode:
                ref = ins.ref
                if ref is None:
                    continue
                if ref.kind == "compiled_fn":
                    if ref.name not in fn_names:
                        fn_names.append(ref.name)
                    idx = fn_names.index(ref.name)
                    if idx < len(dynamo_graphs):
                        ref.graph_id = dynamo_graphs[idx]
                        report.graphs[ref.graph_id].name = ref.name
                elif ref.kind == "resume" and frame.compile_id in orig_by_cid:
                    m = _RESUME.match(ref.name)
                    from .._compat import resume_code_for  # a live run's: importing this module imports no torch

                    code = resume_code_for(orig_by_cid[frame.compile_id], int(m.group(1))) if m else None
                    targets = cid_by_code.get(id(code), []) if code is not None else []
                    if code is not None and not targets:
                        targets = cid_by_place.get((code.co_name, code.co_filename, code.co_firstlineno), [])
                    if targets:
                        ref.compile_id = targets[0]
                        for t in targets:
                            child = report.frame(t)
                            if child is not None and child.parent_compile_id is None:
                                child.parent_compile_id = frame.compile_id
        raised = ctx.exception is not None and getattr(ctx.exception, "real_stack", None) is not None
        for frame in report.frames:
            frame.status = frame_status(frame, report)
            if frame.status == "error":
                if raised:
                    outcome = "the cell raised it (Dynamo's error, see the error line)"
                elif (
                    ctx.options.fullgraph or (frame.code.name, frame.code.filename, frame.code.firstlineno) in ctx.fullgraph_codes
                ):
                    outcome = "Dynamo raised it (fullgraph=True) and the cell caught it"
                elif ctx.program.scope == "watch":  # the code's own compile, under its own config: nothing suppressed
                    outcome = "Dynamo raised it to your code (fullgraph=True, or an error it does not suppress), which caught it"
                else:
                    outcome = "Dynamo ran this frame eagerly"
                report.diagnose(
                    "compile_failed",
                    f"[{frame.compile_id}] {frame.code.name}: {frame.fail_type}: "
                    f"{(frame.fail_reason or '').strip().splitlines()[0] if frame.fail_reason else ''} — {outcome}",
                    frame.compile_id,
                )
        for code in ctx.shared_codes:
            report.diagnose(
                "shared_cache",
                f"{code.co_name} ({code.co_filename}:{code.co_firstlineno}) also holds cache entries of your own "
                "torch.compile: yours were kept; the explorer's were invalidated after the run and, like any invalidated "
                "entry, still count toward recompile_limit",
            )
