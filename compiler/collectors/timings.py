"""Collector for compile time per phase, from ``chromium_event`` begin/end pairs per compile id."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from ..model import CompileReport, Phase


class TimingsCollector:
    name = "timings"

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        open_: dict[tuple[str, str], float] = {}
        totals: dict[str, dict[str, float]] = {}
        for ev in ctx.stream.named("chromium_event"):
            if not ev.payload:
                continue
            data = json.loads(ev.payload)
            cid = (data.get("args") or {}).get("compile_id") or ev.compile_id
            name, ph, ts = data.get("name"), data.get("ph"), data.get("ts")
            if cid is None or name is None or ts is None:
                continue
            if ph == "B":
                open_[(cid, name)] = ts
            elif ph == "E" and (cid, name) in open_:
                per = totals.setdefault(cid, {})
                per[name] = per.get(name, 0.0) + (ts - open_.pop((cid, name))) / 1000.0
        for frame in report.frames:
            frame.phases = [Phase(name=n, ms=round(ms, 3)) for n, ms in totals.get(frame.compile_id, {}).items()]
        report.timings["compile_s"] = sum(f.compile_time_s or 0.0 for f in report.frames)
