"""What changed between two runs: two compile reports (two scripts, two torch versions, two traces) compared.

``diff_reports(a, b)`` returns the schema's ``CompileDiff`` (compiler/schema/compile_diff.v1.schema.json):
- ``sides``: each side's torch, Python, backend, mode, device and what it compiled; ``confounded``: the settings
  that differ (the comparison still runs: two torch versions is what it is for, but a reader must know);
- ``frames``: every compile of both sides paired by function (``align.py``), each pair's differences in
  ``differences`` (the story: ``diff`` exits 1) and ``costs`` (compile time, caches: shown, exit 0);
- ``first_difference``: the first difference of the story, in the newer side's compile order, in one line:
  ``[0/0] f: a new graph break at v2.py:6 (print("hi")): ...; 2 graphs where there was 1``;
- each pair that differs (the first ``views.MAX_VIEWS``) carries its ``view``: both sides' source with their breaks,
  guards and graphs, which the diff view draws side by side (``views.py``); ``views_left_out`` counts the rest.

``diff_paths(a, b)`` is the same of two paths, each side's report dropped once read. ``load_side(path)`` reads a side: a report (``--json`` of ``run``/``open``) or a ``TORCH_TRACE`` directory or log
(``compiler.trace``); a path that is neither raises ``SideError`` (one line, naming the fix).
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..schema import DIFF_VERSION as _SCHEMA_VERSION
from .align import align, align_compiles
from .compare import COST, STORY, compare_pair, first_line, graphs_by_function, pace
from .facts import CompileFacts, compile_facts
from .views import MAX_VIEWS, pair_view

__all__ = ["COST", "DIFF_VERSION", "STORY", "SideError", "align", "diff_paths", "diff_reports", "load_side"]

#: the diff's own schema version (compiler/schema/compile_diff.v1.schema.json's ``x-dynamo-explorer``)
DIFF_VERSION = {"major": _SCHEMA_VERSION[0], "minor": _SCHEMA_VERSION[1]}
#: what makes a comparison confounded when the two sides differ in it
SETTINGS = ("torch_version", "python_version", "backend", "mode", "dynamic", "fullgraph", "device")


class SideError(ValueError):
    """A path that is no report and no trace (the message names the fix)."""


def _exists(path: str) -> None:
    if not os.path.exists(path):
        raise SideError(f"{path}: no such file or directory; give a report (run --json) or a TORCH_TRACE directory")


def load_side(path: str) -> dict[str, Any]:
    """The report of ``path``: a report's JSON, or a ``TORCH_TRACE`` directory or log (its lowest rank's report)."""
    from ..encoding import decode_report
    from ..schema import SCHEMA_VERSION
    from ..trace import TraceNotFound, read_trace, trace_report

    _exists(path)
    if os.path.isfile(path):
        try:
            with open(path, "rb") as fh:
                data = json.loads(fh.read())
        except (ValueError, UnicodeDecodeError):
            data = None  # not JSON: a trace's log, or nothing we read
        except OSError as exc:
            raise SideError(f"cannot read {path}: {exc.strerror}") from exc
        if isinstance(data, dict):
            report = decode_report(data)
            version = report.get("schema_version")
            if not isinstance(version, dict) or "frames" not in report:
                raise SideError(f"{path} is JSON but no dynamo-explorer report; give the --json of dynamo-explorer run or open")
            if version.get("major") != SCHEMA_VERSION[0]:
                raise SideError(
                    f"{path} is a report of schema v{version.get('major')}; this dynamo-explorer reads v{SCHEMA_VERSION[0]}: "
                    "open it with the dynamo-explorer that wrote it"
                )
            return _whole(report, path)
        if data is not None:
            raise SideError(f"{path} is JSON but no dynamo-explorer report; give the --json of dynamo-explorer run or open")
    try:
        opened = read_trace([path])
        if not any(o.log.stats.records for o in opened):
            raise TraceNotFound(f"{path} is no report and holds no structured-trace record")
        return _whole(trace_report(opened), path)
    except TraceNotFound as exc:
        raise SideError(f"{exc}; give a report (dynamo-explorer run --json) or a TORCH_TRACE directory") from exc


def _whole(report: dict[str, Any], path: str) -> dict[str, Any]:
    """``report`` with the guards a trace's report left in its log read into it: a diff compares every guard."""
    from ..trace.parts import PartGone, resolve

    try:
        resolve(report)
    except PartGone as exc:
        raise SideError(f"{path}: {exc}") from None
    return report


def _side(report: dict[str, Any], source: str) -> dict[str, Any]:
    options = report.get("options") or {}
    frames = report["frames"]
    return {
        "source": source,
        "torch_version": report.get("torch_version"),
        "python_version": report.get("python_version"),
        "backend": report.get("backend"),
        "mode": options.get("mode"),
        "dynamic": options.get("dynamic"),
        "fullgraph": options.get("fullgraph"),
        "device": report.get("device"),
        "scope": report.get("scope"),
        "frames": len(frames),
        "graphs": sum(1 for g in report["graphs"] if g["kind"] == "dynamo"),
        "graph_breaks": sum(len(f["graph_breaks"]) for f in frames),
        "recompiles": sum(1 for f in frames if f["status"] == "recompile"),
        "compile_s": round(sum(f.get("compile_time_s") or 0.0 for f in frames), 6),
    }


def diff_reports(a: dict[str, Any], b: dict[str, Any], sources: tuple[str, str] = ("A", "B")) -> dict[str, Any]:
    """Report ``b`` against report ``a`` (``sources``: how each is named)."""
    return _diff((compile_facts(a), _side(a, sources[0])), (compile_facts(b), _side(b, sources[1])))


def diff_paths(a: str, b: str) -> dict[str, Any]:
    """The diff of two sides read from their paths (``load_side``), each report dropped once its facts are read: two
    12,000-compile traces are never both held (BENCHMARKS.md §16)."""

    _exists(a)
    _exists(b)  # said before A is read (minutes, for a big trace)

    def side(path: str) -> tuple[list[CompileFacts], dict[str, Any]]:
        report = load_side(path)
        return compile_facts(report), _side(report, path)

    return _diff(side(a), side(b))


def _diff(a: tuple[list[CompileFacts], dict[str, Any]], b: tuple[list[CompileFacts], dict[str, Any]]) -> dict[str, Any]:
    graphs = (graphs_by_function(a[0]), graphs_by_function(b[0]))
    frames: list[dict[str, Any]] = []
    story: list[dict[str, Any]] = []
    pairs = align_compiles(a[0], b[0])
    run_pace = pace(pairs)
    views = views_left_out = 0
    for pair in pairs:
        found = compare_pair(pair, graphs, run_pace)
        x, y = pair
        c = y if y is not None else x
        assert c is not None
        differences = [d for d in found if d["kind"] in STORY]
        frames.append(
            {
                "function": c.function,
                "filename": c.filename,
                "a": x.compile_id if x is not None else None,
                "b": y.compile_id if y is not None else None,
                "differences": differences,
                "costs": [d for d in found if d["kind"] in COST],
            }
        )
        if differences:
            if views < MAX_VIEWS:
                frames[-1]["view"] = pair_view(pair)
                views += 1
            else:
                views_left_out += 1
        story.extend(differences)
    side_rows = [a[1], b[1]]
    return {
        "diff_version": dict(DIFF_VERSION),
        "sides": side_rows,
        "confounded": [
            {"setting": s, "a": _text(side_rows[0][s]), "b": _text(side_rows[1][s])}
            for s in SETTINGS
            if side_rows[0][s] != side_rows[1][s]
        ],
        "same_story": not story,
        "first_difference": first_line(story[0]) if story else None,
        "differences": len(story),
        "frames": frames,
        "views_left_out": views_left_out,
    }


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
