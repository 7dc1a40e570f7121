"""The static view's "Step through" section: the report's ``trace_steps`` (``--trace-steps``, schema minor 7) as a
compact table of the first ``STATIC_STEPS`` instructions, saying how many more there are.

The same content as the JupyterLab pane (``labextension/src/panes/traceSteps.ts``) without its stepping: one
row per instruction with its attempt, the call depth as indentation of the code's name, the user line, the
instruction, the symbolic stack it starts from, the FX nodes it added and the graph break it met (the row marked).
Without ``--trace-steps``: no section (the pane names the option). Every string from the report goes through ``html.escape``
([Note: escaping] in static_html.py).

Contents: ``trace_steps_section(report, cell) -> str`` (a ``StaticSection.report`` part) and ``TRACE_STEPS_CSS``.
"""

from __future__ import annotations

from typing import Any

from compiler.schema import PANE_TITLES

from .static_chart import escape as _e

__all__ = ["STATIC_STEPS", "TRACE_STEPS_CSS", "trace_steps_section"]

#: Instructions the static view lists; the report keeps the rest (up to --trace-steps-max).
STATIC_STEPS = 60

TRACE_STEPS_CSS = ".dx-report tr.dx-step-break td{background:var(--jp-warn-color3,#fff2cc)}"

_ACTIONS = {
    "restart": "graph break: Dynamo restarts the analysis to break here",
    "compiled": "graph break: the graph so far is compiled here",
    "unsupported": "graph break inside an inlined call",
    "error": "an error left this instruction",
}


def _depth(step: dict) -> int:
    """The step's inline depth as a count, whatever a report read from a file holds there."""
    depth = step.get("depth")
    return min(depth, 20) if isinstance(depth, int) and not isinstance(depth, bool) and depth > 0 else 0


def trace_steps_section(report: dict, cell: Any) -> str:
    """The section: a table of the first steps; nothing without ``--trace-steps``."""
    title = _e(PANE_TITLES["trace-steps"])
    trace = report.get("trace_steps")
    if not trace:  # a lean summary: no section without --trace-steps (the pane names the option)
        return ""
    steps = trace.get("steps") or []
    codes = trace.get("codes") or []
    head = f"<h4>{title}: {_e(trace.get('code_name') or '')} [{_e(trace.get('compile_id') or '–')}]</h4>"
    meta = [f"{len(steps)} of {trace.get('total_steps', len(steps))} instructions kept"]
    attempts = trace.get("attempts") or []
    if attempts:
        meta.append(", ".join(f"attempt {a['attempt']}: {a['steps']} ({a['outcome']})" for a in attempts))
    if trace.get("note"):
        meta.append(str(trace["note"]))
    out = [head, f'<div class="dx-meta">{_e("; ".join(meta))}</div>']
    if not steps:
        return "".join(out)
    rows = []
    for s in steps[:STATIC_STEPS]:
        code = codes[s["code"]]["name"] if 0 <= s["code"] < len(codes) else "?"
        gb = s.get("graph_break")
        nodes = ", ".join(n["name"] for n in s.get("fx_nodes") or [])
        what = ""
        if gb:
            what = _e(_ACTIONS.get(gb["action"], gb["action"])) + (f": {_e(gb['gb_type'])}" if gb.get("gb_type") else "")
        cls = ' class="dx-step-break"' if gb else ""
        rows.append(
            f"<tr{cls}><td>{_e(s.get('index'))}</td><td>{_e(s.get('attempt'))}</td>"
            f'<td class="dx-mono dx-nowrap">{"&nbsp;&nbsp;" * _depth(s)}{_e(code)}</td>'
            f"<td>{_e(s.get('line') if s.get('line') is not None else '')}</td>"
            f'<td class="dx-mono">{_e(s["opname"])} {_e(s.get("argrepr") or "")}</td>'
            f'<td class="dx-mono">{_e(" | ".join(s.get("stack") or []))}</td>'
            f'<td class="dx-mono">{_e(nodes)}</td><td>{what}</td></tr>'
        )
    out.append(
        "<table><thead><tr><th>#</th><th>attempt</th><th>code</th><th>line</th><th>instruction</th>"
        "<th>stack (top last)</th><th>FX nodes added</th><th>graph break</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )
    if len(steps) > STATIC_STEPS:
        out.append(
            f'<div class="dx-meta">… {len(steps) - STATIC_STEPS} more steps: step through all of them in the report '
            "itself (JupyterLab or Notebook 7 with dynamo-explorer, or <code>--html</code>)</div>"
        )
    return "".join(out)
