"""Static HTML view of a compile report: a deliberately small summary, for frontends without the explorer.

GitHub, nbviewer and ``jupyter nbconvert --to html`` show the ``text/html`` part of the ``%%dynamo`` bundle. This
module turns a report dict (``compiler/schema/compile_report.v1.schema.json``) into that HTML. It is a function of
the report: no IPython, no torch, no script; the one thing it runs is Graphviz's ``dot``, for the FX pictures.

[Note: a lean summary] One renderer draws the explorer: the TypeScript one (JupyterLab and Notebook 7 with our
extension, the widget everywhere else, the ``--html`` page). This view does not draw it a second time; it tells the
story a reader needs without it, one section per pane of the schema's pane list (``compiler.schema.PANES``, with
their titles), in that order, each from ``SUMMARIES``: the header (what ran, how, its error and diagnostics, the
ranks' first divergence), the run's timing line (``--profile``), the frames table (status, counts, why each was
recompiled), the cell's source with each graph break marked, what the original and the modified bytecode hold, the
guards by kind and each guard that failed on a recompile, each distinct graph break with its reason and remedy, a
small picture of each FX graph (``static_fx.py``) and a line per output code; the other panes in a line each. The
words for counts and timings are ``compiler.summary``'s, which the ``text/plain`` line and the CLI also use. The
tables, trees, listings, charts and code stay in the report: the last line says where they are shown. Sizes per
tour cell: BENCHMARKS.md §4.

Contents: ``render(report) -> str``; ``SUMMARIES``: pane name -> the function that draws its section (a test
requires exactly the schema's panes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from compiler.schema import PANE_TITLES, PANES
from compiler.summary import (
    RUNS_PLAIN,
    WATCHING,
    callee_text,
    cudagraphs_line,
    distinct_breaks,
    exports_line,
    fixes_line,
    format_ms,
    guard_count,
    numerics_line,
    profile_line,
    try_line,
)
from compiler.summary import one_line as report_line

from .static_fx import graphs_section
from .static_guards import dynamic_text, guards_section
from .static_markup import CSS, FULL_VIEW, MAX_LINES, badge, details, link, one_line, pre, table
from .static_markup import escape as _e
from .static_source import Cell, cell_source

__all__ = ["SUMMARIES", "render"]

#: What the "Why is it slow" section says when the cell ran without timing.
NO_PROFILE = (
    "Run the cell with %%dynamo --profile to see where the time goes: hits and time per cache entry and graph, "
    "the eager time each graph break costs, and how many ATen ops the graphs captured"
)


def render(report: dict) -> str:
    """Return the self-contained static HTML summary of ``report`` (see module docstring)."""
    cell = Cell(report)
    parts = [f'<div class="dx-report"><style>{CSS}</style>']
    for pane in PANES:
        body = SUMMARIES[pane](report, cell)
        if body and pane == "header":
            parts.append(body)
        elif body:
            parts.append(f'<div class="dx-pane" data-pane="{_e(pane)}"><h4>{_e(PANE_TITLES[pane])}</h4>{body}</div>')
    parts.append(f'<div class="dx-meta">A static summary of the report; every table, tree, listing and graph: {FULL_VIEW}.</div>')
    parts.append("</div>")
    return "".join(parts)


def _header_section(report: dict, cell: Cell) -> str:
    return _header(report) + _ranks(report) + _banners(report, cell) + _logs(report)


def _ranks(report: dict) -> str:
    """The ranks in one line, and where they first diverge (``report.ranks``, compiler/ranks.py)."""
    view = report.get("ranks")
    if not view:
        return ""
    ranks = view.get("ranks") or []
    shown = view.get("shown_rank")
    said = [f"{len(ranks)} ranks of {_e(view.get('world_size'))}" + (f", this is rank {_e(shown)}" if shown is not None else "")]
    slow = [r for r in ranks if r.get("straggler")]
    if slow:
        said.append(f"straggler: rank {_e(slow[0].get('rank'))} ({float(slow[0].get('compile_s') or 0):.2f} s compiling)")
    div = view.get("divergence")
    text = f'<div class="dx-meta">{" · ".join(said)}</div>'
    if div:
        text += (
            f'<div class="dx-banner dx-warn">the ranks first diverge at [{_e(div.get("compile_id"))}] '
            f"({_e(div.get('kind'))}): {_e(div.get('summary'))}</div>"
        )
        if div.get("detail"):
            text += details("why", pre(div.get("detail")))
    return text


def _logs(report: dict) -> str:
    logs = report.get("logs") or []
    if not logs:
        return ""
    rows = [
        [
            _e(r.get("level")),
            _e(r.get("compile_id") or ""),
            _e(r.get("logger")),
            f'<span class="dx-mono">{one_line(r.get("message"), 300)}</span>',
        ]
        for r in logs
    ]
    return details(
        f"torch logs ({len(logs)})",
        table(["level", "compile id", "logger", "message (first line)"], rows, "log records", MAX_LINES),
    )


def _numerics(report: dict, cell: Cell) -> str:
    """``--check-numerics``: one line a checked call, its outputs in a table ([Note: numerics])."""
    numerics = report.get("numerics")
    if not isinstance(numerics, dict):
        return ""
    graphs = numerics.get("graphs") or []
    head = f"<div>{_e(numerics_line(report))} · the check cost {float(numerics.get('seconds') or 0):.2f} s, {_e(numerics.get('runs'))} runs</div>"
    rows = [
        [
            f"[{_e(g.get('compile_id'))}]" + (f" call {_e(g['call'])}" if g.get("call", 1) > 1 else ""),
            f"out[{_e(o.get('index'))}] {_e(o.get('dtype'))}{_e(o.get('shape'))}",
            badge(str(o.get("verdict"))),
            *(
                _e(f"{o[k]:.1e}") if isinstance(o.get(k), (int, float)) else ""
                for k in ("max_abs", "compiled_error", "eager_error")
            ),
            _e(o.get("why") or ""),
        ]
        for g in graphs
        for o in g.get("outputs") or []
    ]
    lines = "".join(f"<li>{_e(g.get('summary'))}</li>" for g in graphs[:MAX_LINES])
    heads = ["compile", "output", "verdict", "largest difference", "compiled from float64", "eager from float64", "why"]
    return head + f"<ul>{lines}</ul>" + (table(heads, rows, "outputs", MAX_LINES) if rows else "")


def _exports(report: dict, cell: Cell) -> str:
    """The run's torch.export calls: one line a call, a failure's user line and export's suggested fixes, the
    exported program's signature, ranges and input checks in tables ([Note: export calls])."""
    calls = report.get("exports") or []
    if not calls:
        return ""
    items = []
    for c in calls[:MAX_LINES]:
        f = c.get("failure") or {}
        extra = [f"line {f['line']}: {f['code']}"] if f.get("code") else []
        extra += [f"suggested fix: {s}" for s in f.get("suggested") or []]
        extra += [f"{d['kind']}: {d.get('expr') or d.get('op')} assumed {d.get('assumed')}" for d in c.get("draft") or []]
        if c.get("compile_ids"):  # minor 23: strict mode's Dynamo frames
            extra.append("Dynamo traced it as frame " + ", ".join(f"[{i}]" for i in c["compile_ids"]))
        tries = [
            x["name"]
            for x in report.get("fixes") or []
            if any(t.get("kind") == "export" and t.get("index") == c["index"] for t in x.get("targets") or [])
        ]
        if tries:
            extra.append("try a fix: " + ", ".join(tries))
        sub = "".join(f"<li>{_e(x)}</li>" for x in extra)
        items.append(f"<li>{_e(c.get('summary'))}" + (f"<ul>{sub}</ul>" if sub else "") + "</li>")
    rows = [
        [_e(c.get("module")), _e(s.get("direction")), _e(s.get("kind")), _e(s.get("name")), _e(s.get("target") or "")]
        for c in calls
        for s in c.get("signature") or []
    ]
    ranges = [
        [
            _e(c.get("module")),
            _e(r.get("symbol")),
            _e(r.get("dim") or ""),
            _e(r.get("place") or ""),
            _e(r.get("min")),
            _e(r.get("max")),
        ]
        for c in calls
        for r in c.get("ranges") or []
    ]
    checks = [[_e(c.get("module")), _e(k.get("kind")), _e(k.get("expr"))] for c in calls for k in c.get("checks") or []]
    out = f"<div>{_e(exports_line(report))}</div><ul>{''.join(items)}</ul>"
    if rows:
        out += table(["module", "", "kind", "name", "target"], rows, "signature entries", MAX_LINES)
    if ranges:
        out += table(["module", "symbol", "Dim", "where", "min", "max"], ranges, "ranges", MAX_LINES)
    if checks:
        out += table(["module", "checked when called", "check"], checks, "checks", MAX_LINES)
    return out


def _profile(report: dict, cell: Cell) -> str:
    lines = [line for line in (profile_line(report), cudagraphs_line(report)) if line]
    if not lines:
        return f'<div class="dx-meta dx-profile-hint">{_e(NO_PROFILE)} (add --compare-eager for the speedup over eager).</div>'
    return "".join(f"<div>{_e(line)}</div>" for line in lines)


def _frames(report: dict, cell: Cell) -> str:
    frames = report.get("frames") or []
    out = _frames_table(frames, cell)
    for f in frames:
        if f.get("fail_type") or f.get("fail_reason"):
            reason = str(f.get("fail_reason") or "")
            title = f"[{_e(f.get('compile_id'))}] compile failed: <b>{_e(f.get('fail_type'))}</b>: {one_line(reason)}"
            out += f'<div class="dx-banner dx-error">{details(title, pre(reason))}</div>'
    stories = [  # [Note: cache story]: the engine's words, one line a compile
        f"<li>[{_e(f.get('compile_id'))}] {_e((f.get('code') or {}).get('name'))}: {_e(f['cache_story'])}</li>"
        for f in frames
        if f.get("cache_story")
    ]
    if stories:
        out += details(f"caches ({len(stories)} compiles)", f"<ul>{''.join(stories[:MAX_LINES])}</ul>")
    return out


def _header(report: dict) -> str:
    opts = report.get("options") or {}
    timings = report.get("timings") or {}
    flags = [f"{k}={v}" for k, v in opts.items() if k not in ("backend", "scope") and v not in (None, False)]
    watching = f": {WATCHING}" if report.get("scope") == "watch" else ""
    meta = [
        f"backend <b>{_e(report.get('backend'))}</b>",
        f'scope <b>{_e(report.get("scope"))}</b>{_e(watching)} <span class="dx-meta">({_e(report.get("scope_reason"))})</span>',
        f"device {_e(report.get('device'))}",
        f"torch {_e(report.get('torch_version'))} · Python {_e(report.get('python_version'))}",
    ]
    if flags:
        meta.append("options " + _e(", ".join(flags)))
    if timings:
        meta.append(f"wall {float(timings.get('wall_s', 0)):.2f} s, compile {float(timings.get('compile_s', 0)):.2f} s")
    callees = report.get("callees") or []
    compiled = [callee_text(c) for c in callees if c.get("compiled")]
    plain = [callee_text(c) for c in callees if not c.get("compiled") and RUNS_PLAIN in (c.get("why") or "")]
    rows = [
        f'{label} <span class="dx-mono">{_e(" · ".join(items))}</span>'
        for label, items in (("compiled", compiled), ("ran plain", plain))
        if items
    ]
    trace = report.get("trace")
    if trace:  # read from a structured trace: which log, and what it does not hold
        missing = "; ".join(f"{m['what']}" for m in trace.get("missing") or [])
        caches = Counter(f"{c['cache']} {c['status']}" for c in trace.get("caches") or [])
        rows.append(
            f"read from the structured trace {_e(', '.join(log['path'] for log in trace.get('logs') or []))}"
            + (f" (rank {trace['rank']})" if trace.get("rank") is not None else "")
            + (f" · caches: {_e(', '.join(f'{n} {k}' for k, n in caches.items()))}" if caches else "")
            + (f" · not in the trace: {_e(missing)}" if missing else "")
        )
    what = f'<div class="dx-meta">{" · ".join(rows)}</div>' if rows else ""
    return f'<div><b>Dynamo Explorer</b> · {_e(report_line(report))}</div><div class="dx-meta">{" · ".join(meta)}</div>{what}'


def _banners(report: dict, cell: Cell) -> str:
    out = []
    err = report.get("error")
    if err:
        where = cell.where(None, err.get("line"))
        out.append(
            f'<div class="dx-banner dx-error"><b>{_e(err.get("type"))}</b>: '
            f'<span class="dx-mono">{_e(err.get("message"))}</span>'
            f"{' — ' + where if where else ''}</div>"
        )
    for r in report.get("resets") or []:
        out.append(f'<div class="dx-banner">torch._dynamo.reset(): {_e(r.get("message"))}</div>')
    carried = [
        f"[{_e(f.get('compile_id'))}] {_e((f.get('code') or {}).get('name'))}: "
        + "; ".join(dynamic_text(d) for d in f.get("automatic_dynamic") or [] if d.get("marked_in") is None)
        for f in report.get("frames") or []
        if any(d.get("marked_in") is None for d in f.get("automatic_dynamic") or [])
    ]
    if carried:
        out.append(
            '<div class="dx-banner">Dynamic from an earlier run: Dynamo\'s automatic dynamic shapes remember, per '
            "code and for the whole process, which inputs changed size, so these frames started symbolic and the "
            "recompile an earlier run went through does not happen again (run with --fresh to start this code from "
            "a clean slate): " + " · ".join(carried) + "</div>"
        )
    worse = [g for g in (report.get("numerics") or {}).get("graphs") or [] if g.get("verdict") == "worse_than_eager"]
    if worse:  # [Note: numerics]
        out.append(
            '<div class="dx-banner dx-error">Compiled numbers worse than eager against float64: '
            + " · ".join(_e(g.get("summary")) for g in worse[:MAX_LINES])
            + "</div>"
        )
    for d in report.get("diagnostics") or []:
        cid = f" [{_e(d['compile_id'])}]" if d.get("compile_id") else ""
        out.append(f'<div class="dx-banner dx-warn">capture: <b>{_e(d.get("kind"))}</b>{cid}: {_e(d.get("message"))}</div>')
    return "".join(out)


def _frames_table(frames: list[dict], cell: Cell) -> str:
    rows = []
    for f in frames:
        code = f.get("code") or {}
        name = _e(code.get("name"))
        if code.get("is_resume"):
            name += ' <span class="dx-meta">(resume'
            name += f" of [{_e(f['parent_compile_id'])}])</span>" if f.get("parent_compile_id") else ")</span>"
        attempt = f"_{_e(f['attempt'])}" if f.get("attempt") else ""
        rows.append(
            [
                f"<b>[{_e(f.get('compile_id'))}{attempt}]</b>",
                name,
                cell.where(code.get("filename"), code.get("firstlineno"))
                if code.get("in_cell")
                else _e(cell.place(code.get("filename"), code.get("firstlineno"))),
                badge(str(f.get("status"))),
                _e(len(f.get("graph_ids") or [])),
                _e(len(f.get("graph_breaks") or [])),
                _e(guard_count(f)),
                "<br>".join(_e(r.get("reason")) for r in f.get("recompile_reasons") or []),
            ]
        )
    return table(
        ["compile id", "code", "defined at", "status", "graphs", "breaks", "guards", "recompiled because"], rows, "frames"
    )


def _original_bytecode(report: dict, cell: Cell) -> str:
    """How many instructions each frame's code held before Dynamo (the listing is the explorer's)."""
    frames = [f for f in report.get("frames") or [] if f.get("original_bytecode")]
    items = [
        f"<li>[{_e(f.get('compile_id'))}] {_e((f.get('code') or {}).get('name'))}: {len(f['original_bytecode'])} instructions</li>"
        for f in frames
    ]
    return f"<ul>{''.join(items)}</ul>" if items else ""


def _modified_bytecode(report: dict, cell: Cell) -> str:
    """What each frame's modified code does, not its listing: the graphs and resume functions it calls, in order."""
    items = []
    for f in report.get("frames") or []:
        rows = f.get("modified_bytecode") or []
        if not rows:
            continue
        calls = []
        for ins in rows:
            ref = ins.get("ref") or {}
            if ref.get("graph_id") is not None:
                calls.append(f"graph {_e(ref['graph_id'])}")
            elif ref.get("kind") == "resume" or ref.get("compile_id"):
                calls.append(f"[{_e(ref['compile_id'])}]" if ref.get("compile_id") else f"resume function {_e(ref.get('name'))}")
        does = f"calls {', '.join(calls)}" if calls else "calls no graph"
        depyf = " · decompiled by depyf" if f.get("decompiled_source") else ""
        items.append(f"<li>[{_e(f.get('compile_id'))}] {len(rows)} instructions, {does}{depyf}</li>")
    return f"<ul>{''.join(items)}</ul>" if items else ""


def _output_code(report: dict, cell: Cell) -> str:
    outputs = report.get("output_code") or []
    if not outputs:
        return ""
    items = []
    for o in outputs:
        kernels = o.get("kernels") or []
        names = ", ".join(f"{_e(k.get('name'))} ({_e(k.get('language'))})" for k in kernels[:8])
        more = f", … {len(kernels) - 8} more" if len(kernels) > 8 else ""
        lines = len(str(o.get("source") or "").splitlines())
        items.append(
            f"<li>[{_e(o.get('compile_id'))}] {_e(o.get('kind'))}: {lines} lines of wrapper, "
            f"{len(kernels)} kernel{'s' if len(kernels) != 1 else ''}{': ' + names + more if names else ''}</li>"
        )
    return f"<ul>{''.join(items)}</ul>"


def _graph_breaks(report: dict, cell: Cell) -> str:
    """Each distinct graph break once (``compiler.summary.distinct_breaks``), in the order the run met them,
    with where it is, the compiles that met it, its reason, explanation, hints and documentation."""
    items = []
    for row in distinct_breaks(report):
        b = row["gb"]
        gb = f" ({_e(b['gb_id'])})" if b.get("gb_id") else ""
        where = cell.where(b.get("filename"), b.get("line"))
        frames = " ".join(f"[{_e(c)}]" for c in row["frames"])
        parts = [f'<b>{_e(b.get("gb_type"))}</b>{gb}{" at " + where if where else ""} <span class="dx-meta">in {frames}</span>']
        if b.get("reason") and b.get("reason") != b.get("gb_type"):
            parts.append(f'<div>reason: <span class="dx-mono">{_e(b["reason"])}</span></div>')
        if b.get("explanation"):
            parts.append(f"<div>explanation: {_e(b['explanation'])}</div>")
        hints = b.get("hints") or []
        if hints:
            parts.append("<div>hints:<ul>" + "".join(f"<li>{_e(h)}</li>" for h in hints) + "</ul></div>")
        if b.get("doc_url"):
            parts.append(f"<div>{link(b['doc_url'], 'documentation')}</div>")
        items.append(f'<li class="dx-break">{"".join(parts)}</li>')
    return f'<ol class="dx-breaks">{"".join(items)}</ol>' if items else ""


def _trace_steps(report: dict, cell: Cell) -> str:
    steps = report.get("trace_steps")
    if not steps:
        return ""
    what = (
        f"[{_e(steps.get('compile_id'))}] {_e(steps.get('code_name'))}" if steps.get("compile_id") else _e(steps.get("requested"))
    )
    cut = " (cut)" if steps.get("truncated") else ""
    note = f" · {one_line(steps.get('note'))}" if steps.get("note") else ""
    return f"<div>{_e(steps.get('total_steps'))} steps of Dynamo's symbolic execution of {what} recorded{cut}{note}</div>"


def _decisions(report: dict, cell: Cell) -> str:
    frames = [f for f in report.get("frames") or [] if f.get("decisions")]
    if not frames:
        return ""
    kinds = Counter(str(d.get("decision")) for f in frames for d in f["decisions"])
    said = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
    return f"<div>{sum(kinds.values())} calls Dynamo met while tracing {len(frames)} frames: {_e(said)}</div>"


def _try_fix(report: dict, cell: Cell) -> str:
    lines = [line for line in (try_line(report), fixes_line(report)) if line]
    out = "".join(f"<div>{_e(line)}</div>" for line in lines)
    for fix in report.get("fixes") or []:
        out += (
            f"<div><b>{_e(fix.get('name'))}</b>: {_e(fix.get('title'))}"
            + (f" <code>{_e(fix['code'])}</code>" if fix.get("code") else "")
            + "</div>"
        )
    return out


def _dispatch(report: dict, cell: Cell) -> str:
    """Each compiled code's cache entries in the order Dynamo tries them at its next call, and what a call that
    matches none does."""
    items = []
    for c in report.get("dispatch") or []:
        entries = c.get("entries") or []
        if not entries:
            continue
        code = c.get("code") or {}
        tried = ", ".join(f"[{_e(e.get('compile_id'))}]" for e in entries)
        otherwise = f"; a call that matches none: {_e((c.get('fallback') or {}).get('action'))}" if c.get("fallback") else ""
        items.append(
            f"<li><code>{_e(code.get('name'))}</code> ({_e(cell.place(code.get('filename'), code.get('firstlineno')))}): "
            f"{len(entries)} cache entr{'ies' if len(entries) != 1 else 'y'}, tried in the order {tried}{otherwise}</li>"
        )
    return f"<ul>{''.join(items)}</ul>" if items else ""


def _compile_time(report: dict, cell: Cell) -> str:
    timed = [f for f in report.get("frames") or [] if f.get("compile_time_s") is not None]
    if not timed:
        return ""
    slow = max(timed, key=lambda f: float(f["compile_time_s"]))
    total = sum(float(f["compile_time_s"]) for f in timed)
    name = (slow.get("code") or {}).get("name")
    return (
        f"<div>{format_ms(total * 1000)} compiling {len(timed)} frames; the slowest: [{_e(slow.get('compile_id'))}] "
        f"{_e(name)}, {format_ms(float(slow['compile_time_s']) * 1000)}</div>"
    )


#: Pane name (``compiler.schema.PANES``) -> the function that draws its section ('' when it has nothing to say).
SUMMARIES: dict[str, Callable[[dict, Cell], str]] = {
    "header": _header_section,
    "profile": _profile,
    "frames": _frames,
    "source": cell_source,
    "original-bytecode": _original_bytecode,
    "modified-bytecode": _modified_bytecode,
    "guards": guards_section,
    "graph-breaks": _graph_breaks,
    "trace-steps": _trace_steps,
    "decisions": _decisions,
    "try-fix": _try_fix,
    "numerics": _numerics,
    "export": _exports,
    "dispatch": _dispatch,
    "compile-time": _compile_time,
    "fx-graph": graphs_section,
    "code": _output_code,
}
