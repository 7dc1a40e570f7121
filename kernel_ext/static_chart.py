"""The static view's compile-time section: one frame's phases as a small inline SVG icicle, no script.

The same chart as the JupyterLab pane (``labextension/src/compileChart.ts``), drawn once: each phase of
``frames[].phases`` (schema minor 6) is a rectangle in the row of its depth, its width to scale on an axis of
compile time (top-level phases side by side, the real time between them cut out and hatched); hovering one
shows its SVG ``<title>``: the readable label, Dynamo's name, its time and its share of the frame's compile.
Above it, one line says where the time went by kind of phase (the time of each phase outside the phases
inside it). To stay a lean summary ([Note: a lean summary] in static_html.py) it charts the
``MAX_CHARTS`` longest compiles of a report only, each with at most ``MAX_CHART_PHASES`` phases, the
longest (with the phases they ran inside), none shorter than ``MIN_SHARE`` of the compile; a report before
minor 6 (summed, overlapping phases) gets one line.

Contents: ``compile_time_section(frame) -> str`` (a ``StaticSection.frame`` part) and ``CHART_CSS``.
Every string from the report goes through ``_e`` (``html.escape`` with quotes: [Note: escaping] in
static_html.py); every number is formatted here.
"""

from __future__ import annotations

import html
import math
from typing import Any

from compiler.schema import PANE_TITLES

__all__ = ["CHART_CSS", "MAX_CHARTS", "MAX_CHART_PHASES", "MIN_SHARE", "compile_time_section"]

#: At most this many phases drawn per frame (the longest first), and none shorter than this share.
MAX_CHART_PHASES = 60
MIN_SHARE = 0.004
#: Cache-lookup marks (instant events) drawn per frame, inside drawn phases.
MAX_INSTANTS = 8
#: Frames charted per report: those with the longest compiles (the others get their line of time by kind).
MAX_CHARTS = 8

_W = 1000  # viewBox width
_ROW = 18
_AXIS = 14
_GAP_SHARE = 0.02  # GAP_SHARE in compileChart.ts
_KIND_WORDS = {  # KIND_LABELS in compileChart.ts
    "dynamo": "Dynamo",
    "guards": "guards",
    "backend": "backend",
    "aot": "AOTAutograd",
    "inductor": "inductor",
    "compile": "compiling code",
    "cache": "caches",
    "other": "other",
}
_KIND_COLOR = {
    "dynamo": "var(--jp-brand-color1,#1976d2)",
    "guards": "var(--jp-mirror-editor-meta-color,#a2f)",
    "backend": "var(--jp-border-color1,#9e9e9e)",
    "aot": "var(--jp-success-color1,#388e3c)",
    "inductor": "var(--jp-warn-color1,#f57c00)",
    "compile": "var(--jp-error-color1,#d32f2f)",
    "cache": "var(--jp-info-color1,#0097a7)",
    "other": "var(--jp-ui-font-color2,#757575)",
}

CHART_CSS = (
    ".dx-chart{color:var(--jp-ui-font-color1,#222);max-width:100%}"
    ".dx-chart svg{width:100%;height:auto;max-width:1000px}"
    ".dx-chart text{fill:currentColor;font-family:var(--jp-ui-font-family,sans-serif);font-size:11px}"
    ".dx-chart .dx-axis{fill:var(--jp-ui-font-color2,#555)}"
    ".dx-chart line{stroke:var(--jp-border-color1,#bbb)}"
    ".dx-chart .dx-gap{fill:var(--jp-border-color1,#bbb);fill-opacity:.35}"
    ".dx-sw{display:inline-block;width:9px;height:9px;margin:0 3px 0 8px;border-radius:2px;opacity:.5}"
    + "".join(
        f".dx-ph-{k}{{fill:{c};fill-opacity:.35;stroke:none}}.dx-sw.dx-ph-{k}{{background:{c}}}" for k, c in _KIND_COLOR.items()
    )
    + ".dx-chart .dx-inst{fill:currentColor;fill-opacity:1}"
)


def escape(value: Any) -> str:
    """Escape anything for HTML or SVG text and quoted attributes ([Note: escaping] in static_html.py): the one
    escaping function of the static view, every section's ``_e``."""
    return html.escape("" if value is None else str(value), quote=True)


_e = escape


def _ms(ms: float) -> str:
    """Milliseconds for people, as the pane writes them: '0.04 ms', '12 ms', '2.40 s'."""
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 10:
        return f"{ms:.0f} ms"
    if ms >= 1:
        return f"{ms:.1f} ms"
    return f"{ms:.2f} ms"


def format_share(share: float) -> str:
    """A share (0..1) as a percentage, as the panes write it: '0%', '<0.1%', '4.2%', '42%'."""
    pct = share * 100
    return f"{pct:.0f}%" if pct >= 10 else f"{pct:.1f}%" if pct >= 0.1 else ("<0.1%" if pct > 0 else "0%")


def compile_time_section(frame: dict, cell: Any = None) -> str:
    """The frame's compile-time part: a heading, the time by kind and the chart ('' with no phases). With the
    report at hand (``cell.report``), only its ``MAX_CHARTS`` longest compiles get a chart."""
    phases = [p for p in frame.get("phases") or [] if isinstance(p, dict)]
    if not phases:
        return ""
    if not all("start_ms" in p and "parent" in p for p in phases):  # a report before minor 6
        top = sorted(phases, key=lambda p: -float(p.get("ms") or 0))[:8]
        said = ", ".join(f"<code>{_e(p.get('name'))}</code> {_ms(float(p.get('ms') or 0))}" for p in top)
        return (
            f"<h5>{_e(PANE_TITLES['compile-time'])}</h5>"
            f'<div class="dx-meta">longest phases (summed per name, nested ones overlap): {said}</div>'
        )
    n = len(phases)
    parent = [_parent(p, i) for i, p in enumerate(phases)]
    depth = [0] * n
    for i in range(n):
        up = parent[i]
        depth[i] = depth[up] + 1 if up is not None else 0
    ms = [0.0 if p.get("instant") else max(0.0, float(p.get("ms") or 0)) for p in phases]
    start = [float(p.get("start_ms") or 0) for p in phases]
    roots = sorted((i for i in range(n) if parent[i] is None), key=lambda i: start[i])
    total = sum(ms[i] for i in roots)
    if total <= 0:
        return ""
    inside = [0.0] * n
    for i in range(n):
        up = parent[i]
        if up is not None:
            inside[up] += ms[i]
    by_kind: dict[str, float] = {}
    for i, p in enumerate(phases):
        kind = _kind(p)
        by_kind[kind] = by_kind.get(kind, 0.0) + max(0.0, ms[i] - inside[i])
    legend = "".join(
        f'<span class="dx-sw dx-ph-{k}"></span>{_e(_KIND_WORDS[k])} {_ms(v)} ({format_share(v / total)})'
        for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])
        if v > 0
    )
    # the axis: roots side by side, the real time between two of them cut to a hatched gap
    root_of = list(range(n))
    for i in range(n):
        up = parent[i]
        if up is not None:
            root_of[i] = root_of[up]
    shift: dict[int, float] = {}
    gaps: list[tuple[float, float]] = []
    cursor = 0.0
    for k, r in enumerate(roots):
        if k > 0:
            before = roots[k - 1]
            real = start[r] - (start[before] + ms[before])
            if real > 0:
                gaps.append((cursor, real))
                cursor += total * _GAP_SHARE
        shift[r] = cursor - start[r]
        cursor += ms[r]
    axis = cursor
    x = [start[i] + shift.get(root_of[i], 0.0) for i in range(n)]
    drawn = _chosen(phases, parent, ms, total)
    rows = max((depth[i] for i in drawn), default=0) + 1
    scale = _W / axis
    out = [
        f'<svg viewBox="0 0 {_W} {rows * _ROW + _AXIS}" role="img" aria-label="compile phases of [{_e(frame.get("compile_id"))}]">'
    ]
    for gx, real in gaps:
        out.append(
            f'<rect class="dx-gap" x="{gx * scale:.1f}" y="0" width="{total * _GAP_SHARE * scale:.1f}" height="{rows * _ROW}">'
            f"<title>{_e(_ms(real))} between these compiles (not to scale)</title></rect>"
        )
    for i in drawn:
        p = phases[i]
        kind = _kind(p)
        name = _e(p.get("name")) + (f" ({_e(p.get('event'))})" if p.get("event") else "")
        label = _e(p.get("label") or p.get("name"))
        px, py = x[i] * scale, depth[i] * _ROW
        if p.get("instant"):
            tip = f"{label}: {name}, at +{_ms(start[i])}"
            out.append(
                f'<rect class="dx-inst" x="{px - 1:.1f}" y="{py + 2}" width="2" height="{_ROW - 5}"><title>{tip}</title></rect>'
            )
            continue
        w = max(1.0, ms[i] * scale)
        tip = f"{label}: {name}, {_ms(ms[i])}, {format_share(ms[i] / total)} of this frame's compile"
        text = ""
        chars = int((w - 6) // 6.2)
        if chars >= 4:
            words = str(p.get("label") or p.get("name"))
            text = f'<text x="{px + 3:.1f}" y="{py + 12}">{_e(words if len(words) <= chars else words[: chars - 1] + "…")}</text>'
        out.append(
            f'<g><title>{tip}</title><rect class="dx-ph-{kind}" x="{px:.1f}" y="{py}" width="{w:.1f}" height="{_ROW - 2}" rx="2"/>'
            f"{text}</g>"
        )
    out.append(_ticks(roots, ms, shift, start, scale, rows * _ROW))
    out.append("</svg>")
    left_out = sum(1 for p in phases if not p.get("instant")) - sum(1 for i in drawn if not phases[i].get("instant"))
    note = f'<div class="dx-meta">{left_out} shorter phases not drawn here: {_FULL}</div>' if left_out > 0 else ""
    head = f"<h5>{_e(PANE_TITLES['compile-time'])}: {_ms(total)}</h5>"
    said = f'{head}<div class="dx-meta">by kind, outside nested phases:{legend}</div>'
    report = getattr(cell, "report", None)
    if isinstance(report, dict) and not _among_longest(frame, report):
        return f'{said}<div class="dx-meta">charted here for the {MAX_CHARTS} longest compiles only: {_FULL}</div>'
    return f'{said}<div class="dx-chart">{"".join(out)}</div>{note}'


_FULL = "the JupyterLab view charts them all"


def _compile_ms(frame: dict) -> float:
    """A frame's compile as its chart counts it: its top-level phases together."""
    phases = frame.get("phases") or []
    return sum(float(p.get("ms") or 0) for p in phases if isinstance(p, dict) and p.get("parent") is None)


def _among_longest(frame: dict, report: dict) -> bool:
    frames = [f for f in report.get("frames") or [] if isinstance(f, dict)]
    if len(frames) <= MAX_CHARTS:
        return True
    mine = _compile_ms(frame)
    return sum(1 for f in frames if _compile_ms(f) > mine) < MAX_CHARTS


def _parent(phase: dict, index: int) -> int | None:
    """The index of the phase's parent; a parent that does not come before it (a broken report) counts as none."""
    up = phase.get("parent")
    return up if isinstance(up, int) and 0 <= up < index else None


def _kind(phase: dict) -> str:
    kind = phase.get("kind")
    return kind if isinstance(kind, str) and kind in _KIND_COLOR else "other"


def _chosen(phases: list[dict], parent: list[int | None], ms: list[float], total: float) -> list[int]:
    """Indexes of the phases drawn, in tree order: the longest (at least ``MIN_SHARE`` of the compile, at
    most ``MAX_CHART_PHASES``) with the phases they ran inside, and a few cache marks inside those."""
    timed = sorted((i for i, p in enumerate(phases) if not p.get("instant") and ms[i] >= total * MIN_SHARE), key=lambda i: -ms[i])
    keep: set[int] = set()
    for i in timed:
        if len(keep) >= MAX_CHART_PHASES:
            break
        at: int | None = i
        while at is not None and at not in keep:
            keep.add(at)
            at = parent[at]
    instants = [i for i, p in enumerate(phases) if p.get("instant") and parent[i] in keep][:MAX_INSTANTS]
    return sorted(keep | set(instants))


def _ticks(roots: list[int], ms: list[float], shift: dict[int, float], start: list[float], scale: float, y: int) -> str:
    """Axis ticks in compile time (gaps left out), at a round step."""
    total = sum(ms[r] for r in roots)
    raw = total / 6
    power = 10.0 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)  # tickStep in compileChart.ts
    out = [f'<line x1="0" y1="{y + 0.5}" x2="{_W}" y2="{y + 0.5}"/>']
    done = 0.0
    for r in roots:
        t = -(-done // step) * step
        while t <= done + ms[r] + 1e-9:
            px = (start[r] + shift[r] + (t - done)) * scale
            if px <= _W - 30:
                out.append(f'<text class="dx-axis" x="{px + 2:.1f}" y="{y + _AXIS - 2}">{_ms(t) if t else "0"}</text>')
                out.append(f'<line x1="{px:.1f}" y1="{y}" x2="{px:.1f}" y2="{y + 4}"/>')
            t += step
        done += ms[r]
    return "".join(out)
