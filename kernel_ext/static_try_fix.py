"""The static view's "Try a fix" section: the report's ``fixes`` and ``try_fix`` (``--try NAME``, schema minor 7)
as plain HTML, no script and no button.

The same content as the JupyterLab pane (``labextension/src/panes/tryFix.ts``, ``tryFixModel.ts``), without its
interactivity: with a ``--try`` run, the before/after table (frames, graphs, graph breaks, recompiles, the
profiled times when both runs have them, compile and wall time, the exception of either run) with each row
marked better or worse, the change made (a source edit as its diff), what was put back and where the 'before'
numbers come from; then each fix on offer with its title, kind, API, the code to write, why, what it targets,
and the ``%%dynamo`` line to run to try it (the report's own options plus ``--try NAME``: there is no kernel
here to run it). A hint (a rewrite only the user can make) has its code and no line. Nothing on offer and no
``--try`` run: no section.

Contents: ``try_fix_section(report, cell) -> str`` (a ``StaticSection.report`` part), ``magic_line(options,
name)`` and ``outcome_rows(try_fix)``, the twins of ``magicLine`` and ``outcomeRows`` in tryFixModel.ts.
Every string from the report goes through ``_e`` ([Note: escaping] in static_html.py).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from compiler.options import TRACE_STEPS_MAX
from compiler.schema import PANE_TITLES
from compiler.summary import format_ms

from .static_chart import escape as _e

__all__ = ["TIME_NOISE", "TRY_FIX_CSS", "TRY_RUN_CSS", "magic_line", "outcome_rows", "try_fix_section"]

#: A change in time under this share of the larger time is noise (``TIME_NOISE`` in tryFixModel.ts).
TIME_NOISE = 0.1

TRY_FIX_CSS = (
    ".dx-fix{margin:4px 0 8px;padding:4px 8px;border-left:4px solid var(--jp-brand-color2,#64b5f6)}"
    ".dx-fix-hint{border-left-color:var(--jp-border-color1,#bbb)}"
    ".dx-fixes{padding-left:22px}"
)
#: Only with a --try run's before/after table.
TRY_RUN_CSS = (
    ".dx-try{margin:4px 0 8px;padding:4px 8px;border-left:4px solid var(--jp-success-color1,#388e3c)}"
    ".dx-report tr.dx-better td:nth-child(3){background:var(--jp-success-color3,#d4edda)}"
    ".dx-report tr.dx-worse td:nth-child(3){background:var(--jp-error-color3,#fde0e0)}"
    ".dx-diff-add{background:var(--jp-success-color3,#d4edda)}"
    ".dx-diff-del{background:var(--jp-error-color3,#fde0e0)}"
)

_COUNTS = (
    ("frames", "frames compiled"),
    ("graphs", "graphs"),
    ("graph_breaks", "graph breaks"),
    ("recompiles", "recompiles"),
)
_TIMES = (
    ("compiled_ms", "time in compiled graphs"),
    ("eager_ms", "eager time between graphs"),
    ("compile_ms", "compile time"),
    ("wall_ms", "wall time"),
)
_CHANGE = {"better": "▼ better", "worse": "▲ worse", "same": ""}


def _number(value: Any) -> float | None:
    """A finite number, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _token(value: str) -> str:
    """A token of a magic line, quoted when it holds white space or a quote."""
    return value if re.fullmatch(r"[^\s'\"]+", value) else json.dumps(value)


def magic_line(options: dict[str, Any], name: str) -> str:
    """The ``%%dynamo`` line of a report's run options with ``--try NAME``: every option that differs from its
    default (compiler/options.py) is written back, so the kernel finds the run without the fix as the 'before'.
    The options of a ``--try`` run hold what the engine set for it (``fresh``, and ``dynamic`` for the fix
    'dynamic'), not what the user typed: those are left out."""
    if options.get("try_fix"):
        options = {**options, "fresh": False, "dynamic": None if options["try_fix"] == "dynamic" else options.get("dynamic")}
    parts = ["%%dynamo"]
    if options.get("backend") and options["backend"] != "inductor":
        parts += ["--backend", _token(str(options["backend"]))]
    if options.get("mode"):
        parts += ["--mode", _token(str(options["mode"]))]
    if options.get("dynamic") is True:
        parts.append("--dynamic")
    elif options.get("dynamic") is False:
        parts.append("--no-dynamic")
    if options.get("fullgraph"):
        parts.append("--fullgraph")
    if options.get("override_compile_options"):
        parts.append("--override-compile-options")
    scope = options.get("scope")
    if scope and scope != "auto":
        parts += ["--scope", "all-frames" if scope == "frames" else str(scope)]
    if isinstance(options.get("recompile_limit"), int) and not isinstance(options["recompile_limit"], bool):
        parts += ["--recompile-limit", str(options["recompile_limit"])]
    if options.get("decompile") and options["decompile"] != "user":
        parts += ["--decompile", str(options["decompile"])]
    for key, flag in (
        ("fresh", "--fresh"),
        ("profile", "--profile"),
        ("compare_eager", "--compare-eager"),
        ("decisions", "--decisions"),
    ):
        if options.get(key):
            parts.append(flag)
    if isinstance(options.get("trace_steps"), str):  # '' = the first frame compiled
        parts += ["--trace-steps"] + ([_token(options["trace_steps"])] if options["trace_steps"] else [])
        limit = options.get("trace_steps_max")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit != TRACE_STEPS_MAX:
            parts += ["--trace-steps-max", str(limit)]
    parts += ["--try", _token(name)]
    return " ".join(parts)


def outcome_rows(try_fix: dict[str, Any]) -> list[dict[str, str]]:
    """The rows of the before/after table, each ``{key, label, before, after, change}`` with change 'better',
    'worse' or 'same': fewer is better, a time within ``TIME_NOISE`` of the other is the same."""
    before, after = try_fix.get("before") or {}, try_fix.get("after") or {}
    rows = []
    for key, label in _COUNTS:
        b, a = _number(before.get(key)) or 0, _number(after.get(key)) or 0
        change = "better" if a < b else "worse" if a > b else "same"
        rows.append({"key": key, "label": label, "before": str(int(b)), "after": str(int(a)), "change": change})
    for key, label in _TIMES:
        tb, ta = _number(before.get(key)), _number(after.get(key))
        if tb is None or ta is None:
            continue
        noise = TIME_NOISE * max(ta, tb)
        change = "better" if ta < tb - noise else "worse" if ta > tb + noise else "same"
        rows.append({"key": key, "label": label, "before": format_ms(tb), "after": format_ms(ta), "change": change})
    eb, ea = before.get("error"), after.get("error")
    if eb or ea:
        change = "better" if eb and not ea else "worse" if ea and not eb else "same"
        rows.append({"key": "error", "label": "exception", "before": eb or "none", "after": ea or "none", "change": change})
    return rows


def _target(report: dict[str, Any], target: dict[str, Any], cell: Any) -> str:
    """One target, for people: ``graph break in [0/0]: gb_type at line 4``, ``recompile [0/1]: reason``."""
    cid = target.get("compile_id")
    frame = next((f for f in report.get("frames") or [] if f.get("compile_id") == cid), None) or {}
    kind, index = target.get("kind"), target.get("index")
    at = f"[{_e(cid)}]"
    if kind == "graph_break":
        breaks = frame.get("graph_breaks") or []
        gb = breaks[index] if isinstance(index, int) and 0 <= index < len(breaks) else None
        if gb is None:
            return f"graph break of {at}"
        where = cell.where(gb.get("filename"), gb.get("line"))
        return f"graph break in {at}: {_e(gb.get('gb_type'))}{' at ' + where if where else ''}"
    if kind == "recompile":
        reasons = frame.get("recompile_reasons") or []
        reason = reasons[index] if isinstance(index, int) and 0 <= index < len(reasons) else None
        return f"recompile {at}" if reason is not None else f"recompile of {at}"
    return f"failed frame {at}" + (f": {_e(frame['fail_type'])}" if frame.get("fail_type") else "")


def _change(change: Any) -> str:
    """The change made for the run: a diff with its added and removed lines marked, or one line of words."""
    text = str(change or "")
    if not re.search(r"^(---|\+\+\+|@@) ", text, re.M):
        return f"<div>changed for this run only: {_e(text)}</div>"
    lines = []
    for line in text.rstrip("\n").split("\n"):
        cls = ""
        if line.startswith("+") and not line.startswith("+++"):
            cls = "dx-diff-add"
        elif line.startswith("-") and not line.startswith("---"):
            cls = "dx-diff-del"
        lines.append(f'<span class="{cls}">{_e(line)}</span>' if cls else _e(line))
    return "<div>changed for this run only (the cell as it ran):</div><pre>" + "\n".join(lines) + "</pre>"


def _result(try_fix: dict[str, Any]) -> str:
    fix = try_fix.get("fix") or {}
    rows = "".join(
        f'<tr class="dx-{r["change"]}"><td>{_e(r["label"])}</td><td>{_e(r["before"])}</td><td>{_e(r["after"])}</td>'
        f"<td>{_CHANGE[r['change']]}</td></tr>"
        for r in outcome_rows(try_fix)
    )
    table = (
        f"<table><thead><tr><th></th><th>before</th><th>after ({_e(fix.get('name'))})</th><th></th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
    out = [
        f'<div class="dx-try"><b>This run applied <code>{_e(fix.get("name"))}</code></b> ({_e(fix.get("title"))})',
        table,
        f'<div class="dx-meta">before: {_e(try_fix.get("before_from"))}</div>',
        _change(try_fix.get("change")),
    ]
    if try_fix.get("restored"):
        out.append(f"<div>restored after the run: {_e(try_fix['restored'])}</div>")
    out.append("</div>")
    return "".join(out)


def _fix(report: dict[str, Any], fix: dict[str, Any], cell: Any) -> str:
    name = str(fix.get("name") or "")
    runnable = bool(fix.get("runnable"))
    applied = (report.get("options") or {}).get("try_fix") == name
    head = (
        f'<b>{_e(fix.get("title"))}</b> <span class="dx-badge dx-s-skipped">{_e(fix.get("kind"))}</span> '
        f'<code class="dx-meta">{_e(name)}</code>'
        + (' <span class="dx-badge dx-s-ok">applied in this run</span>' if applied else "")
    )
    # lean ([Note: a lean summary] in static_html.py): the API and the why are in the report's own pane
    parts = [head, f"<pre>{_e(fix.get('code'))}</pre>"]
    targets = [_target(report, t, cell) for t in fix.get("targets") or [] if isinstance(t, dict)]
    if targets:
        parts.append('<div class="dx-meta">for: ' + "; ".join(targets) + "</div>")
    if runnable:
        line = magic_line(report.get("options") or {}, name)
        parts.append(f"<div>To try it, run the cell again as: <code>{_e(line)}</code></div>")
    else:
        parts.append(
            '<div class="dx-meta">A rewrite only you can make: change your code as above; there is nothing to run for it.</div>'
        )
    return f'<li class="dx-fix{"" if runnable else " dx-fix-hint"}">{"".join(parts)}</li>'


def try_fix_section(report: dict[str, Any], cell: Any) -> str:
    """The section (module docstring): '' when the report offers no fix and did not try one."""
    fixes = [f for f in report.get("fixes") or [] if isinstance(f, dict)]
    try_fix = report.get("try_fix")
    try_fix = try_fix if isinstance(try_fix, dict) and try_fix.get("before") and try_fix.get("after") else None
    if not fixes and try_fix is None:
        return ""
    applied = f": {_e((try_fix.get('fix') or {}).get('name'))} applied" if try_fix else ""
    count = f"{len(fixes)} fix{'es' if len(fixes) != 1 else ''}"
    css = TRY_FIX_CSS + (TRY_RUN_CSS if try_fix is not None else "")
    out = [f"<style>{css}</style><h4>{_e(PANE_TITLES['try-fix'])} ({count} on offer{applied})</h4>"]
    if try_fix is not None:
        out.append(_result(try_fix))
    if fixes:
        out.append('<ol class="dx-fixes">' + "".join(_fix(report, f, cell) for f in fixes) + "</ol>")
    else:
        out.append('<div class="dx-meta">No fix on offer for what is left.</div>')
    return "".join(out)
