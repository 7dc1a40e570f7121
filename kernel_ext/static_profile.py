"""The static view's "Why is it slow" section: the report's ``profile`` (``--profile``) and ``eager_baseline``
(``--compare-eager``) as plain HTML, no script.

The same content as the JupyterLab pane (``labextension/src/panes/profile.ts``, ``profileModel.ts``), without
its interactivity: the run split (compiled | eager | compile) as one stacked bar with ms and %, cache lookups
as part of eager; with a baseline the speedup over eager, after how many runs of the cell the compile pays back
(compile / (eager - compiled)) and the speedup per compiled function; the graphs ranked by total time (each
one's first call, with its compile work and autotuning, apart from the calls after it), on a GPU the device
time no graph's run launched (eager kernels, autotuning's), the cache entries with their hits, eager time by cause (a graph break's row names it and its line), captured-op
coverage with TorchDynamo Update 5's columns (graph_calls, captured_ops, total_ops, pct_ops, pct_time) for the
cell and each cache entry, the backward split, and how it was measured (folded). Without a profile: one line
on how to get one.

Contents: ``profile_section(report, cell) -> str`` (a ``StaticSection.report`` part, with ``PROFILE_CSS`` in a
``<style>`` of its own when it draws more than the one line).
Every string from the report goes through ``_e`` (``html.escape`` with quotes: [Note: escaping] in
static_html.py); every number is formatted here; the bar's widths are numbers this module computes.
"""

from __future__ import annotations

import math
from typing import Any

from compiler.schema import PANE_TITLES
from compiler.summary import format_ms

from .static_chart import escape as _e
from .static_chart import format_share

__all__ = ["MAX_PROFILE_ROWS", "NO_PROFILE", "PROFILE_CSS", "payback_runs", "profile_section"]

#: Rows shown per table (the most costly first); the report holds the rest.
MAX_PROFILE_ROWS = 40

#: What the section says without a profile (``noProfileText`` in profileModel.ts).
NO_PROFILE = (
    "Run the cell with %%dynamo --profile to see where the time goes: hits and time per cache entry and graph, "
    "the eager time each graph break costs, and how many ATen ops the graphs captured"
)

_PART_COLOR = {  # profile.css: tints of the theme's success, warn and brand colours
    "compiled": "var(--jp-success-color1,#388e3c)",
    "eager": "var(--jp-warn-color1,#f57c00)",
    "compile": "var(--jp-brand-color1,#1976d2)",
}

PROFILE_CSS = (
    ".dx-split{display:flex;height:12px;max-width:720px;margin:3px 0;border:1px solid var(--jp-border-color1,#bbb);"
    "border-radius:3px;overflow:hidden;background:var(--jp-layout-color2,#eee)}"
    ".dx-split>span{display:block;height:100%}"
    ".dx-sp{display:inline-block;width:9px;height:9px;margin:0 3px 0 10px;border-radius:2px}"
    + "".join(f".dx-sp-{k}{{background:{c};opacity:.75}}" for k, c in _PART_COLOR.items())
    + ".dx-report td.dx-num,.dx-report th.dx-num{text-align:right!important;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".dx-profile-grid{display:flex;flex-wrap:wrap;gap:4px 16px}.dx-profile-grid>div{flex:1 1 420px;min-width:0;overflow:auto}"
)


def _num(value: Any) -> float:
    """A finite number, else 0 (a report from an older engine may lack a field)."""
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else 0.0


def _int(value: Any) -> str:
    return str(round(_num(value)))


def _ms(ms: Any) -> str:
    """Milliseconds for people, as the pane writes them (``compiler.summary.format_ms``)."""
    return format_ms(_num(ms))


def _pct(share: Any) -> str:
    """A share (0..1) as a percentage, as the pane writes it (``formatPct``): '0%', '<0.1%', '4.2%', '42%'."""
    return format_share(_num(share))


def _speedup(value: Any) -> str:
    """'2.50×', '12.3×'; '–' when there is none (``formatSpeedup``)."""
    if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return "–"
    return f"{value:.1f}×" if value >= 10 else f"{value:.2f}×"


def payback_runs(baseline: dict) -> int | None:
    """After how many runs of the cell the compile pays back: compile / (eager - compiled), rounded up; 0 when
    nothing was compiled; None when compiled is not faster (``paybackRuns`` in profileModel.ts)."""
    saved = _num(baseline.get("eager_ms")) - _num(baseline.get("compiled_ms"))
    if saved <= 0:
        return None
    compile_ms = _num(baseline.get("compile_ms"))
    return 0 if compile_ms <= 0 else max(1, math.ceil(compile_ms / saved))


def _table(head: list[tuple[str, bool]], rows: list[list[str]], what: str) -> str:
    """A table of already-escaped cells; ``head`` is (label, numeric); cut at ``MAX_PROFILE_ROWS`` rows."""
    if not rows:
        return f'<div class="dx-meta">no {_e(what)}</div>'
    numeric = [n for _, n in head]
    cls = lambda i: ' class="dx-num"' if numeric[i] else ""  # noqa: E731
    out = ["<table><thead><tr>", *(f"<th{cls(i)}>{_e(h)}</th>" for i, (h, _) in enumerate(head)), "</tr></thead><tbody>"]
    for row in rows[:MAX_PROFILE_ROWS]:
        out.append("<tr>" + "".join(f"<td{cls(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    if len(rows) > MAX_PROFILE_ROWS:
        out.append(f'<div class="dx-meta">… {len(rows) - MAX_PROFILE_ROWS} more {_e(what)} in the report</div>')
    return "".join(out)


def _frame_label(frame: dict | None) -> str:
    """A frame's name for people: a resume function reads 'toy_example after line 8' (not escaped)."""
    name = str(((frame or {}).get("code") or {}).get("name") or "")
    if name.startswith("torch_dynamo_resume_in_") and "_at_" in name:
        fn, _, line = name[len("torch_dynamo_resume_in_") :].rpartition("_at_")
        if line.isdigit():
            return f"{fn} after line {line}"
    return name


def _split(profile: dict) -> str:
    parts = [
        ("compiled", _num(profile.get("compiled_ms"))),
        ("eager", _num(profile.get("eager_ms"))),
        ("compile", _num(profile.get("compile_ms"))),
    ]
    total = sum(ms for _, ms in parts)
    shares = [(key, ms, ms / total if total > 0 else 0.0) for key, ms in parts]
    lookups = round(_num(profile.get("cache_lookups")))
    legend = []
    for key, ms, share in shares:
        extra = ""
        if key == "eager" and lookups:
            extra = f' <span class="dx-meta">incl. {lookups} cache lookup{"s" if lookups != 1 else ""}, {_ms(profile.get("cache_lookup_ms"))}</span>'
        legend.append(f'<span class="dx-sp dx-sp-{key}"></span><b>{key}</b> {_ms(ms)} ({_pct(share)}){extra}')
    label = " · ".join(f"{key} {_ms(ms)} ({_pct(share)})" for key, ms, share in shares)
    bar = "".join(
        f'<span class="dx-sp-{key}" style="width:{share * 100:.3f}%" title="{key}: {_ms(ms)}, {_pct(share)}"></span>'
        for key, ms, share in shares
    )
    gpu = " (with CUDA kernel times)" if profile.get("device") == "cuda" else ""
    return (
        f'<div class="dx-profile-split">The profiled run: {_ms(profile.get("wall_ms"))}{gpu}'
        f'<div class="dx-split" role="img" aria-label="run split: {_e(label)}">{bar}</div>'
        f"<div>{''.join(legend)}</div></div>"
    )


def _kernels(n: Any) -> str:
    count = round(_num(n))
    return f"{count:,} kernel{'s' if count != 1 else ''}"


def _calls(value: Any) -> dict | None:
    """A ``CallsProfile`` (schema minor 8), or None."""
    return value if isinstance(value, dict) and _num(value.get("calls")) > 0 else None


def first_call_text(graph: dict) -> str | None:
    """A graph's first call in words, as the pane's tooltip says it (``firstCallText`` in profileModel.ts)."""
    first = _calls(graph.get("first_call"))
    if first is None:
        return None
    text = f"{_ms(first.get('host_ms'))} host"
    if _num(first.get("compile_ms")) > 0 or _num(first.get("compile_kernels")) > 0:
        text += f", {_ms(first.get('compile_ms'))} of it compile work"
        if first.get("compile_device_ms") is not None and _num(first.get("compile_kernels")) > 0:
            text += f" ({_kernels(first.get('compile_kernels'))}, {_ms(first.get('compile_device_ms'))} on the device)"
    if first.get("device_ms") is not None:
        text += f"; its own {_kernels(first.get('kernels'))} {_ms(first.get('device_ms'))} on the device"
    return text


def _first_call(graph: dict) -> str:
    first, text = _calls(graph.get("first_call")), first_call_text(graph)
    if first is None or text is None:
        return "–"
    compile_ms = _num(first.get("compile_ms"))
    extra = f' <span class="dx-meta">({_ms(compile_ms)} compile)</span>' if compile_ms > 0 else ""
    return f'<span title="first call: {_e(text)}">{_ms(first.get("host_ms"))}{extra}</span>'


def _steady(graph: dict) -> str:
    """The calls after the first: '3× 3.00 ms' (their mean, compile work excluded), or '–'."""
    steady = _calls(graph.get("steady"))
    if steady is None:
        return "–"
    calls = _num(steady.get("calls"))
    mean = (_num(steady.get("host_ms")) - _num(steady.get("compile_ms"))) / calls
    device = "" if steady.get("device_ms") is None else f", device {_ms(_num(steady.get('device_ms')) / calls)} per call"
    return f'<span title="then {round(calls)} calls, mean {_ms(mean)}{device}">{round(calls)}× {_ms(mean)}</span>'


def _device(profile: dict) -> str:
    """On a GPU: the device time no graph's run launched (eager kernels, compile work's: ``deviceParts``)."""
    eager, compile_ms = profile.get("eager_device_ms"), profile.get("compile_device_ms")
    if profile.get("device") != "cuda" or eager is None or compile_ms is None:
        return ""
    kernels = sorted(
        (k for k in profile.get("eager_kernels") or [] if isinstance(k, dict)), key=lambda k: -_num(k.get("device_ms"))
    )
    launches = sum(_num(k.get("calls")) for k in kernels)
    names = "".join(
        f'<li><span class="dx-mono">{_e(k.get("name"))}</span> · {_int(k.get("calls"))}× · {_ms(k.get("device_ms"))}</li>'
        for k in kernels
    )
    listed = f"<details><summary>eager kernels</summary><ol>{names}</ol></details>" if names else ""
    return (
        f'<div class="dx-profile-device">Device time outside the graphs’ own runs: eager {_ms(eager)} '
        f"({_kernels(launches)} launched outside any graph call) · compile work {_ms(compile_ms)} "
        f"(kernels its autotuning launched){listed}</div>"
    )


def _baseline(baseline: dict, frames: dict[str, dict], cell: Any) -> str:
    compiled, eager, compile_ms = (_num(baseline.get(k)) for k in ("compiled_ms", "eager_ms", "compile_ms"))
    line = (
        f"<b>compiled run {_ms(compiled)} vs eager {_ms(eager)}: {_speedup(baseline.get('speedup'))} "
        f"(compile {_ms(compile_ms)} not included)</b>"
    )
    runs = payback_runs(baseline)
    if runs is None:
        verdict = (
            "The compiled run is slower than eager here, so its compile never pays back."
            if compiled > 0 and eager < compiled
            else "The compiled run is no faster than eager here, so its compile never pays back."
        )
    elif runs == 0:
        verdict = f"Each run saves {_ms(eager - compiled)} and this run compiled nothing: nothing to pay back."
    else:
        verdict = (
            f"The compile pays back after {runs} run{'s' if runs != 1 else ''} of the cell "
            f"({_ms(compile_ms)} compile / {_ms(eager - compiled)} saved per run)."
        )
    out = f'<div class="dx-speedup">{line}<div>{_e(verdict)}</div></div>'
    fns = sorted((f for f in baseline.get("functions") or [] if isinstance(f, dict)), key=lambda f: -_num(f.get("eager_ms")))
    if fns:
        rows = [
            [
                f"<code>{_e(f.get('name'))}</code> {cell.where(None, f.get('line'))}"
                + "".join(f" [{_e(c)}]" for c in f.get("compile_ids") or []),
                _int(f.get("calls")),
                _ms(f.get("eager_ms")),
                _ms(f.get("compiled_ms")),
                _speedup(f.get("speedup")),
            ]
            for f in fns
        ]
        head = [("function", False), ("calls", True), ("eager", True), ("compiled", True), ("speedup", True)]
        out += "<h5>Speedup per compiled function</h5>" + _table(head, rows, "functions")
    return out


def _graphs(profile: dict) -> str:
    graphs = [g for g in profile.get("graphs") or [] if isinstance(g, dict)]
    # the most total time first; ties: the most calls, then the report's order (rankGraphs in profileModel.ts)
    graphs.sort(key=lambda g: (-_num(g.get("total_ms")), -_num(g.get("calls"))))
    compiled = _num(profile.get("compiled_ms")) or sum(_num(g.get("total_ms")) for g in graphs)
    gpu = any(g.get("device_ms") is not None or g.get("kernels") for g in graphs)
    split = any(first_call_text(g) is not None for g in graphs)
    rows = []
    for rank, g in enumerate(graphs, 1):
        row = [
            str(rank),
            f"[{_e(g.get('compile_id'))}] graph {_e(g.get('graph_id'))}",
            _int(g.get("calls")),
            _ms(g.get("total_ms")),
            _ms(g.get("mean_ms")),
            _pct(_num(g.get("total_ms")) / compiled if compiled > 0 else 0),
            _int(g.get("ops")),
        ]
        if split:
            row += [_first_call(g), _steady(g)]
        if gpu:
            kernels = sorted((k for k in g.get("kernels") or [] if isinstance(k, dict)), key=lambda k: -_num(k.get("device_ms")))
            names = "<br>".join(
                f'<span class="dx-mono">{_e(k.get("name"))}</span> · {_int(k.get("calls"))}× · {_ms(k.get("device_ms"))}'
                for k in kernels
            )
            row += ["–" if g.get("device_ms") is None else _ms(g.get("device_ms")), names or "–"]
        rows.append(row)
    head = [("#", True), ("graph", False), ("calls", True), ("total", True), ("mean", True), ("% compiled", True)]
    head += [("ops/call", True)] + ([("first call", True), ("then", True)] if split else [])
    head += [("device", True), ("kernels", False)] if gpu else []
    return "<h5>Graphs by time</h5>" + _table(head, rows, "graphs")


def _eager(profile: dict, frames: dict[str, dict], cell: Any) -> str:
    gaps = sorted((g for g in profile.get("eager") or [] if isinstance(g, dict)), key=lambda g: -_num(g.get("ms")))
    eager = _num(profile.get("eager_ms")) or sum(_num(g.get("ms")) for g in gaps)
    rows = []
    for rank, gap in enumerate(gaps, 1):
        cause = str(gap.get("cause"))
        frame = frames.get(str(gap.get("compile_id")))
        breaks = (frame or {}).get("graph_breaks") or []
        index = gap.get("break_index")
        if cause == "graph_break" and isinstance(index, int) and 0 <= index < len(breaks):
            gb = breaks[index]
            gb_id = f"{_e(gb.get('gb_id'))} " if gb.get("gb_id") else ""
            where = cell.where(gb.get("filename"), gb.get("line"))
            what = f"<b>{gb_id}{_e(gb.get('gb_type'))}</b>{' at ' + where if where else ''} [{_e(gap.get('compile_id'))}]"
        elif cause == "frame":
            what = f"[{_e(gap.get('compile_id'))}] {_e(_frame_label(frame))}: Dynamo’s glue"
        elif cause == "outside":
            what = "the cell’s own code, skipped frames"
        elif cause == "backward":
            what = "autograd’s eager backward nodes"
        else:
            what = f"[{_e(gap.get('compile_id'))}]" if gap.get("compile_id") else ""
        share = _num(gap.get("ms")) / eager if eager > 0 else 0
        rows.append([str(rank), _e(cause), what, _int(gap.get("calls")), _ms(gap.get("ms")), _pct(share), _int(gap.get("ops"))])
    head = [("#", True), ("cause", False), ("what", False), ("calls", True), ("time", True), ("% eager", True), ("ops", True)]
    return "<h5>Eager time by cause</h5>" + _table(head, rows, "causes")


def _coverage(profile: dict, frames: dict[str, dict]) -> str:
    c = profile.get("coverage")
    if not isinstance(c, dict):
        return ""

    def row(label: str, v: dict) -> list[str]:
        counts = [_int(v.get(k)) for k in ("graph_calls", "captured_ops", "total_ops")]
        return [label, *counts, _pct(v.get("pct_ops")), _pct(v.get("pct_time"))]

    rows = [row("cell", c)]
    for f in c.get("frames") or []:
        if isinstance(f, dict):
            cid = f.get("compile_id")
            rows.append(row(f"[{_e(cid)}] {_e(_frame_label(frames.get(str(cid))))}", f))
    head = [("scope", False)] + [(k, True) for k in ("graph_calls", "captured_ops", "total_ops", "pct_ops", "pct_time")]
    graphs = round(_num(c.get("unique_graphs")))
    return f"<h5>Captured-op coverage ({graphs} graph{'s' if graphs != 1 else ''} ran)</h5>" + _table(head, rows, "entries")


def _entries(profile: dict, frames: dict[str, dict]) -> str:
    rows = [
        [
            f"[{_e(e.get('compile_id'))}] {_e(_frame_label(frames.get(str(e.get('compile_id')))))}",
            _int(e.get("hits")),
            *(_ms(e.get(k)) for k in ("total_ms", "self_ms", "graph_ms", "eager_ms")),
            _int(e.get("eager_ops")),
            _ms(e.get("cache_lookup_ms")),
        ]
        for e in profile.get("entries") or []
        if isinstance(e, dict)
    ]
    head = [("compile id", False), ("hits", True), ("total", True), ("self", True), ("graph", True), ("eager", True)]
    head += [("eager ops", True), ("cache lookup", True)]
    return "<h5>Cache entries</h5>" + _table(head, rows, "cache entries")


def _backward(profile: dict) -> str:
    b = profile.get("backward")
    if not isinstance(b, dict) or _num(b.get("compiled_calls")) + _num(b.get("eager_nodes")) == 0:
        return ""
    calls, nodes = round(_num(b.get("compiled_calls"))), round(_num(b.get("eager_nodes")))
    compiled = f"compiled {calls} call{'s' if calls != 1 else ''}, {_ms(b.get('compiled_ms'))}"
    if _num(b.get("compile_ms")) > 0:
        compiled += f" ({_ms(b.get('compile_ms'))} of it the lazy backward compile)"
    if b.get("device_ms") is not None:
        compiled += f", device {_ms(b.get('device_ms'))}"
    other = round(_num(b.get("other_thread_calls")))
    if other > 0:
        compiled += f"; {('it' if calls == 1 else 'all') if other == calls else other} on another thread than the cell’s"
    return f"<h5>Backward</h5><div>{compiled} · eager {nodes} node{'s' if nodes != 1 else ''}, {_ms(b.get('eager_ms'))}</div>"


def profile_section(report: dict, cell: Any) -> str:
    """The "Why is it slow" section of the static view; ``cell`` is static_html's ``_Cell`` (``where(file, line)``)."""
    profile = report.get("profile") if isinstance(report.get("profile"), dict) else None
    baseline = report.get("eager_baseline") if isinstance(report.get("eager_baseline"), dict) else None
    if profile is None and baseline is None:
        return f'<div class="dx-meta dx-profile-hint">{_e(NO_PROFILE)} (add --compare-eager for the speedup over eager).</div>'
    frames = {str(f.get("compile_id")): f for f in report.get("frames") or [] if isinstance(f, dict)}
    # its CSS only where it is drawn: a report without a profile pays one line ([Note: a lean summary])
    out = [f'<style>{PROFILE_CSS}</style><div class="dx-profile"><h4>{_e(PANE_TITLES["profile"])}</h4>']
    if profile is not None:
        out.append(_split(profile))
        out.append(_device(profile))
    if baseline is not None:
        out.append(_baseline(baseline, frames, cell))
    if profile is None:
        out.append(f'<div class="dx-meta dx-profile-hint">{_e(NO_PROFILE)}.</div>')
    else:
        tables = [_graphs(profile), _eager(profile, frames, cell), _coverage(profile, frames), _entries(profile, frames)]
        out.append('<div class="dx-profile-grid">' + "".join(f"<div>{t}</div>" for t in tables if t) + "</div>")
        out.append(_backward(profile))
    methods = [
        f"<p>--{name}: {_e(part.get('method'))}</p>" for name, part in (("profile", profile), ("compare-eager", baseline)) if part
    ]
    out.append(f'<details class="dx-profile-method"><summary>How this was measured</summary>{"".join(methods)}</details>')
    out.append("</div>")
    return "".join(out)
