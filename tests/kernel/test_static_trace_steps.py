"""The static view's Step through section (kernel_ext/static_trace_steps.py) on the trace_steps golden: a table of
the first steps with the break rows marked, the count of the rest, escaping, and no section without a trace."""

from __future__ import annotations

import copy
import json
import pathlib

from kernel_ext.static_html import render
from kernel_ext.static_trace_steps import STATIC_STEPS, trace_steps_section

GOLDEN = pathlib.Path(__file__).parent.parent / "goldens" / "trace_steps.report.json"


def _report() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_table_of_the_steps_with_the_breaks_marked() -> None:
    report = _report()
    html = trace_steps_section(report, None)
    steps = report["trace_steps"]["steps"]
    assert html.startswith("<h4>Step through: f [0/0]</h4>")
    assert html.count("<tr><td>") + html.count('<tr class="dx-step-break"><td>') == min(len(steps), STATIC_STEPS)
    assert html.count('class="dx-step-break"') == sum(1 for s in steps if s["graph_break"])
    assert "Dynamo restarts the analysis" in html and "the graph so far is compiled here" in html
    assert "&nbsp;&nbsp;helper" in html  # an inlined step, indented by its depth
    assert "Step through" in render(report)


def test_more_steps_than_shown_are_counted_and_strings_escaped() -> None:
    report = _report()
    trace = report["trace_steps"]
    trace["steps"] = [copy.deepcopy(trace["steps"][0]) for _ in range(STATIC_STEPS + 7)]
    trace["steps"][0]["stack"] = ["<script>alert(1)</script>"]
    html = trace_steps_section(report, None)
    assert "… 7 more steps" in html
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_no_section_without_trace_steps() -> None:
    report = _report()
    report["trace_steps"] = None
    assert trace_steps_section(report, None) == ""
    assert "Step through" not in render(report)
