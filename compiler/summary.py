"""One-line text summary of a report: the ``text/plain`` of every bundle and the CLI's output.

Example: ``dynamo: 3 frames · 3 graphs · 1 graph break (line 4) · 1 recompile · 12.3 s compile`` (scope ``watch``:
``dynamo: watching your torch.compile calls · 3 frames · ...``); a break met by
several compiles is counted once among the distinct ones: ``4 graph breaks (2 distinct; lines 6, 8)``. With
``--profile`` the line ends with the run split and the captured-op coverage, with ``--compare-eager`` the
speedup: ``· run 30.0 ms compiled / 20.0 ms eager / 950 ms compile · 69% of ops captured · 2.50× vs eager``.
With ``--try`` it adds the before -> after counts, and the runnable fixes on offer are named:
``· tried capture_scalar_outputs: graph breaks 1 → 0, recompiles 1 → 1, graphs 4 → 3 · fixes: dynamic (--try NAME)``.
A cell that reset Dynamo says where: ``· reset Dynamo at line 2``. Under reduce-overhead, what became of CUDA graphs:
``· CUDA graphs: 1 recorded, 2 skipped (cpu device (arg0_1)) · 98 replays / 2 eager runs`` (replays with ``--profile``).
With ``--check-numerics``, what the check found: ``· numerics: 1 graph worse than eager, 2 match ([0/0] f)``.

Also the words for a callee of scope ``calls`` that the static view and the renderer share: ``describe_settings``
(the options it compiled with, as torch.compile's arguments) and ``callee_text``. The engine writes two of its words
into the report, so that no view computes them again: ``cudagraphs_reason`` (``cudagraphs[].reason_text``) and
``failure_what`` (``recompile_reasons[].failures[].what``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "WATCHING",
    "callee_text",
    "counts",
    "cudagraphs_line",
    "cudagraphs_reason",
    "describe_settings",
    "distinct_breaks",
    "exports_line",
    "failure_what",
    "fixes_line",
    "guard_count",
    "numerics_line",
    "one_line",
    "plural",
    "profile_line",
    "try_line",
]


def guard_count(frame: dict[str, Any]) -> int:
    """A frame's guards: its ``guard_count`` (minor 24: the whole count, whether or not the report holds every row),
    else its rows."""
    count = frame.get("guard_count")
    return count if isinstance(count, int) else len(frame.get("guards") or [])


def counts(report: dict[str, Any]) -> dict[str, int]:
    frames = report.get("frames", [])
    return {
        "frames": len(frames),
        "graphs": sum(1 for g in report.get("graphs", []) if g["kind"] == "dynamo"),
        "graph_breaks": sum(len(f["graph_breaks"]) for f in frames),
        "recompiles": sum(1 for f in frames if f["recompile_reasons"]),
        "guards": sum(guard_count(f) for f in frames),
        "cudagraphs_recorded": sum(1 for c in report.get("cudagraphs") or [] if c["status"] in ("recorded", "rerecorded")),
        "cudagraphs_skipped": sum(1 for c in report.get("cudagraphs") or [] if c["status"] == "skipped"),
    }


def distinct_breaks(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each distinct graph break of a report once, in the order the run met them: the same ``gb_type``, file, line and
    reason met by several compiles (a recompile, a resume function) is one thing to fix. Each ``{"gb": the first
    record, "frames": the compile ids that met it, each once}``."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for frame in report.get("frames") or []:
        for b in frame.get("graph_breaks") or []:
            key = (b.get("gb_type"), b.get("filename"), b.get("line"), b.get("reason"))
            row = seen.setdefault(key, {"gb": b, "frames": []})
            if frame.get("compile_id") not in row["frames"]:
                row["frames"].append(frame.get("compile_id"))
    return list(seen.values())


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


#: what scope ``watch`` does, in the header's words (the renderer's header.ts writes the same)
WATCHING = "watching your torch.compile calls"


def one_line(report: dict[str, Any]) -> str:
    c = counts(report)
    parts = [WATCHING] if report.get("scope") == "watch" else []
    parts += [plural(c["frames"], "frame"), plural(c["graphs"], "graph")]
    if c["graph_breaks"]:
        lines = sorted(
            {b["line"] for f in report["frames"] for b in f["graph_breaks"] if b["line"] is not None and f["code"]["in_cell"]}
        )
        where = f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines[:5]))}" if lines else ""
        distinct = len(distinct_breaks(report))
        said = [f"{distinct} distinct"] if distinct < c["graph_breaks"] else []
        said += [where] if where else []
        parts.append(plural(c["graph_breaks"], "graph break") + (f" ({'; '.join(said)})" if said else ""))
    if c["recompiles"]:
        parts.append(plural(c["recompiles"], "recompile"))
    compile_s = report.get("timings", {}).get("compile_s") or 0.0
    if compile_s:
        parts.append(f"{compile_s:.1f} s compile")
    err = report.get("error")
    if err:
        at = f" at line {err['line']}" if err.get("line") else ""
        parts.append(f"raised {err['type']}{at}")
    resets = report.get("resets") or []
    if resets:
        lines = sorted({r["line"] for r in resets if r.get("line") is not None})
        where = f" at line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}" if lines else ""
        parts.append(f"reset Dynamo{where}")
    graphed = cudagraphs_line(report)
    if graphed:
        parts.append(graphed)
    profiled = profile_line(report)
    if profiled:
        parts.append(profiled)
    parts += [p for p in (numerics_line(report), exports_line(report), try_line(report), fixes_line(report)) if p]
    return "dynamo: " + " · ".join(parts)


def exports_line(report: dict[str, Any]) -> str:
    """``export: 1 failed (Gate at line 6: a guard on a data-dependent value), 1 exported`` (the run's torch.export
    calls); '' without one."""
    calls = report.get("exports") or []
    if not calls:
        return ""
    failed = [c for c in calls if c.get("outcome") == "failed"]
    said = []
    if failed:
        first = failed[0]
        f = first.get("failure") or {}
        at = f" at line {f['line']}" if f.get("line") else ""
        said.append(f"{len(failed)} failed ({first.get('module')}{at}: {f.get('what')})")
    if len(calls) > len(failed):
        said.append(f"{len(calls) - len(failed)} exported")
    return "export: " + ", ".join(said)


#: --check-numerics' verdicts, worst first, in words (one graph, several)
NUMERICS_WORDS = (
    ("worse_than_eager", "worse than eager", "worse than eager"),
    ("differs_no_worse", "differs, no worse than eager", "differ, no worse than eager"),
    ("not_comparable", "not compared", "not compared"),
    ("matches", "matches", "match"),
)


def numerics_line(report: dict[str, Any]) -> str:
    """``numerics: 1 graph worse than eager ([0/0] f), 2 match`` (``--check-numerics``); '' without the check."""
    numerics = report.get("numerics")
    if not isinstance(numerics, dict):
        return ""
    graphs = numerics.get("graphs") or []
    if not graphs:
        return "numerics: no compiled graph was called"
    said: list[str] = []
    for verdict, one, several in NUMERICS_WORDS:
        these = [g for g in graphs if g.get("verdict") == verdict]
        if these:
            words = one if len(these) == 1 else several
            said.append(f"{plural(len(these), 'graph') if not said else len(these)} {words}")
            if verdict == "worse_than_eager":
                said[-1] += " (" + ", ".join(g["summary"].split(":")[0] for g in these[:3]) + ")"
    return "numerics: " + ", ".join(said)


def try_line(report: dict[str, Any]) -> str:
    """``--try``: before -> after in a few words, e.g. 'tried capture_scalar_outputs: graph breaks 1 -> 0,
    recompiles 1 -> 1, graphs 4 -> 3'; '' without --try."""
    tried = report.get("try_fix")
    if not isinstance(tried, dict):
        return ""
    before, after = tried["before"], tried["after"]
    changes = [f"{label} {before[k]} → {after[k]}" for k, label in _OUTCOME]
    if (before.get("compiled_ms") is not None) and (after.get("compiled_ms") is not None):
        changes.append(f"compiled {format_ms(before['compiled_ms'])} → {format_ms(after['compiled_ms'])}")
    if before.get("exports_failed") is not None or after.get("exports_failed") is not None:
        changes.append(f"failed exports {before.get('exports_failed') or 0} → {after.get('exports_failed') or 0}")
    if bool(before.get("error")) != bool(after.get("error")):
        changes.append(f"error {'yes' if before.get('error') else 'no'} → {'yes' if after.get('error') else 'no'}")
    return f"tried {tried['fix']['name']}: " + ", ".join(changes)


_OUTCOME = (("graph_breaks", "graph breaks"), ("recompiles", "recompiles"), ("graphs", "graphs"))


def fixes_line(report: dict[str, Any]) -> str:
    """The runnable fixes on offer, e.g. 'fixes: capture_scalar_outputs, dynamic (--try NAME)'; '' when none."""
    names = [f["name"] for f in report.get("fixes") or [] if f.get("runnable")]
    if not names:
        return ""
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return f"fixes: {shown} (--try NAME)"


def format_ms(ms: float) -> str:
    """Milliseconds for people, as the views write them (breakList.ts ``formatMs``): '0.42 ms', '12.3 ms',
    '845 ms', '1.24 s'. The static view uses it too."""
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 100:
        return f"{round(ms)} ms"
    return f"{ms:.1f} ms" if ms >= 10 else f"{ms:.2f} ms"


def profile_line(report: dict[str, Any]) -> str:
    """The run split and the captured-op coverage (``--profile``) and the speedup over eager
    (``--compare-eager``) in a few words; '' when the report has neither."""
    parts = []
    profile = report.get("profile")
    if isinstance(profile, dict):
        split = " / ".join(f"{format_ms(float(profile.get(f'{k}_ms') or 0))} {k}" for k in ("compiled", "eager", "compile"))
        parts.append(f"run {split}")
        coverage = profile.get("coverage") or {}
        if coverage.get("total_ops"):
            parts.append(f"{round(100 * float(coverage.get('pct_ops') or 0))}% of ops captured")
    baseline = report.get("eager_baseline")
    if isinstance(baseline, dict) and baseline.get("speedup"):
        parts.append(f"{float(baseline['speedup']):.2f}× vs eager")
    return " · ".join(parts)


#: in the ``why`` of a callee of the user's that is never handed to Dynamo (a coroutine, a generator, a function a
#: standard-library decorator wraps): the header (labextension/src/view/panes/header.ts) and the static view list those
RUNS_PLAIN = "runs as plain Python"


def describe_settings(settings: dict[str, Any]) -> str:
    """``backend='aot_eager', dynamic=False, fullgraph=True``: a callee's options written as torch.compile's arguments."""
    parts = [f"backend={settings['backend']!r}"]
    for key in ("mode", "dynamic"):
        if settings.get(key) is not None:
            parts.append(f"{key}={settings[key]!r}")
    if settings.get("fullgraph"):
        parts.append("fullgraph=True")
    if settings.get("options"):
        parts.append(f"options={settings['options']!r}")
    if settings.get("recompile_limit") is not None:
        parts.append(f"recompile_limit={settings['recompile_limit']}")
    return ", ".join(parts)


def callee_text(callee: dict[str, Any]) -> str:
    """``cg (line 7, your torch.compile: backend='aot_eager')``, ``work (line 8, on another thread: threading.Thread)``,
    ``main (line 10, a coroutine function (async def))``: one callee of scope ``calls`` in a few words."""
    notes = [f"line {callee['line']}"]
    settings = callee.get("compile")
    if callee.get("compiled") and settings and settings.get("origin") == "torch.compile":
        notes.append(f"your torch.compile: {describe_settings(settings)}")
    if callee.get("thread_api"):
        notes.append(f"on another thread: {callee['thread_api']}")
    if not callee.get("compiled"):
        notes.append(str(callee.get("why") or "").split(":", 1)[0])
    return f"{callee['name']} ({', '.join(notes)})"


_CUDAGRAPH_STATUS = (
    ("recorded", "recorded"),
    ("rerecorded", "re-recorded"),
    ("skipped", "skipped"),
    ("not_recorded", "not recorded"),
)
_SKIP_PREFIXES = ("skipping cudagraphs due to ", "skipping cudagraph due to ", "disabling cudagraphs due to ")


def cudagraphs_reason(reason: str | None) -> str:
    """Inductor's CUDA graph skip reason without its 'skipping cudagraphs due to ' and its stack trace:
    'cpu device (arg0_1)', 'mutated inputs (1 instances)'; 'no CUDA device' for a CPU graph, whose device list
    inductor leaves empty ('skipping cudagraphs due to multiple devices: ')."""
    text = (reason or "").strip()
    for prefix in _SKIP_PREFIXES:
        while text.startswith(prefix):
            text = text[len(prefix) :]
    text = text.split("\n", 1)[0].split(". Found from", 1)[0].split(" Found from", 1)[0].strip().rstrip(".")
    return "no CUDA device" if text in ("multiple devices:", "multiple devices") else text


_FAILED_KIND = {"ID_MATCH": "is another object", "TYPE_MATCH": "has another type"}


def failure_what(guard_type: str, prop: str | None, check: str) -> str:
    """What a failing guard of an old cache entry failed on, in a few words (``GuardFailure.what``): 'dtype
    mismatch' for a tensor property, 'grad_mode changed' for a field of the global state, 'is another object' /
    'has another type' for ID_MATCH / TYPE_MATCH, else the check itself ("L['n'] == 2")."""
    if prop:
        return f"{prop} {'mismatch' if guard_type == 'TENSOR_MATCH' else 'changed'}"
    return _FAILED_KIND.get(guard_type, check)


def cudagraphs_line(report: dict[str, Any]) -> str:
    """What became of CUDA graphs, e.g. 'CUDA graphs: 1 recorded, 2 skipped (cpu device (arg0_1))', with
    --profile '· 98 replays / 2 eager runs'; '' when no graph asked for CUDA graphs."""
    rows = report.get("cudagraphs") or []
    if not rows:
        return ""
    said = []
    for status, word in _CUDAGRAPH_STATUS:
        of = [r for r in rows if r.get("status") == status]
        if not of:
            continue
        text = f"{len(of)} {word}"
        if status == "skipped":
            said_why = (r.get("reason_text") or cudagraphs_reason(r.get("reason")) for r in of if r.get("reason"))
            reasons = list(dict.fromkeys(said_why))
            if reasons:
                text += f" ({'; '.join(reasons[:2])}{'; …' if len(reasons) > 2 else ''})"
        said.append(text)
    line = "CUDA graphs: " + ", ".join(said)
    counted = [r for r in rows if r.get("calls") is not None]
    if counted:
        replays = sum(int(r.get("replays") or 0) for r in counted)
        eager = sum(int(r.get("eager_runs") or 0) for r in counted)
        line += f" · {plural(replays, 'replay')} / {plural(eager, 'eager run')}"
    return line
