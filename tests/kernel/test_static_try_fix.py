"""The static view's "Try a fix" section (issue 13 item 4), on golden reports (real engine runs) given fixes and a
``--try`` result as the schema writes them.

Each fix with its title, kind, code and targets (the API and the why stay in the rich pane); the ``%%dynamo`` line to copy (the report's own options plus
``--try NAME``) for a runnable fix and none for a hint, no button (no script); the before/after table of a
``--try`` run with each row marked better or worse, a source edit's diff; the section in the pane order; nothing
when nothing is on offer; hostile strings escaped. The same content as the JupyterLab pane
(labextension/tests/tryFix.spec.ts checks the pane with the same fixes).
"""

from __future__ import annotations

import html
import json
import re

import pytest
from kernel_nb import REPO

pytest.importorskip("torch")

from compiler.schema import validate_report as validate
from kernel_ext.static_html import render
from kernel_ext.static_try_fix import magic_line, outcome_rows

XSS = "<script>alert(1)</script>"

ITEM_FIX = {
    "name": "capture_scalar_outputs",
    "title": "Capture .item() in the graph",
    "kind": "config",
    "api": "torch._dynamo.config.capture_scalar_outputs",
    "code": "torch._dynamo.config.capture_scalar_outputs = True",
    "why": "Dynamo breaks the graph at .item() unless it may trace the scalar as a symbolic value.",
    "runnable": True,
    "targets": [{"compile_id": "0/0", "kind": "graph_break", "index": 0}],
}
COND_HINT = {
    "name": "cond",
    "title": "Rewrite the branch with torch.cond",
    "kind": "hint",
    "api": "torch.cond",
    "code": "y = torch.cond(pred, true_fn, false_fn, (x,))",
    "why": "Both branches become subgraphs.",
    "runnable": False,
    "targets": [{"compile_id": "0/0", "kind": "graph_break", "index": 0}],
}


def _outcome(**over):
    base = {"frames": 2, "graphs": 2, "graph_breaks": 1, "recompiles": 0, "error": None, "wall_ms": 900.0}
    return {**base, "compile_ms": 400.0, "compiled_ms": None, "eager_ms": None, **over}


def _golden(name: str) -> dict:
    return json.loads((REPO / "tests" / "goldens" / f"{name}.report.json").read_text(encoding="utf-8"))


def _item(**extra) -> dict:
    report = _golden("item_break")
    report["fixes"] = [ITEM_FIX, COND_HINT]
    report.update(extra)
    return report


def _section(page: str) -> str:
    start = page.index("<h4>Try a fix")
    return page[start : page.index("<h4>", start + 4)]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_each_fix_with_its_line_to_copy_and_a_hint_without_one():
    report = _item()
    validate(report)  # the fixes are as the schema writes them
    section = _section(render(report))
    text = _text(section)
    assert "Try a fix (2 fixes on offer)" in text
    for value in ("Capture .item() in the graph", ITEM_FIX["code"], COND_HINT["code"]):  # api and why: the rich pane
        assert value in text
    assert "graph break in [0/0]: Unsupported Tensor.item() call with capture_scalar_outputs=False at line 4" in text
    assert "To try it, run the cell again as: %%dynamo --backend eager --try capture_scalar_outputs" in text
    assert text.count("--try") == 1  # none for the hint
    assert "A rewrite only you can make" in text
    assert "<button" not in section and "<script" not in section


def test_the_section_sits_after_the_break_list_and_is_absent_with_nothing_on_offer():
    page = render(_item())
    assert page.index("what to fix first") < page.index("<h4>Try a fix") < page.index("<h4>Graphs (")
    assert "Try a fix" not in render(_golden("recompile_dtype"))  # a report without fixes (or before minor 7)


def test_a_try_run_shows_before_and_after_with_the_changes_marked():
    try_fix = {
        "fix": ITEM_FIX,
        "before_from": "the cell's previous run in this kernel (In [2])",
        "before": _outcome(compiled_ms=2.0, eager_ms=10.0),
        "after": _outcome(frames=1, graphs=1, graph_breaks=0, recompiles=1, compiled_ms=4.0, eager_ms=9.5),
        "change": "--- cell\n+++ cell (for this run)\n@@ -4 +4,2 @@\n     total = x.sum().item()\n+    torch._check(total > 0)\n",
        "restored": "torch._dynamo.config.capture_scalar_outputs = False",
    }
    report = _item(try_fix=try_fix)
    report["options"]["try_fix"] = "capture_scalar_outputs"
    validate(report)
    section = _section(render(report))
    rows = re.findall(r'<tr class="dx-(\w+)"><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>', section)
    assert rows[:6] == [
        ("better", "frames compiled", "2", "1"),
        ("better", "graphs", "2", "1"),
        ("better", "graph breaks", "1", "0"),
        ("worse", "recompiles", "0", "1"),
        ("worse", "time in compiled graphs", "2.00 ms", "4.00 ms"),
        ("same", "eager time between graphs", "10.0 ms", "9.50 ms"),  # within 10%: noise
    ]
    text = _text(section)
    assert "Try a fix (2 fixes on offer: capture_scalar_outputs applied)" in text
    assert "before: the cell's previous run in this kernel (In [2])" in text
    assert '<span class="dx-diff-add">+    torch._check(total &gt; 0)</span>' in section
    assert "restored after the run: torch._dynamo.config.capture_scalar_outputs = False" in text
    assert "applied in this run" in text
    assert [r["key"] for r in outcome_rows({**try_fix, "after": _outcome(error="RuntimeError: x")})][-1] == "error"


def test_the_line_writes_back_every_option_that_is_not_the_default():
    options = _golden("toy_profile")["options"]  # --backend eager --profile --compare-eager
    assert magic_line(options, "dynamic") == "%%dynamo --backend eager --profile --compare-eager --try dynamic"
    options = {**options, "backend": "inductor", "mode": "max-autotune", "dynamic": False, "scope": "cell"}
    options.update(recompile_limit=2, decompile="none", fresh=True, profile=False, compare_eager=False, fullgraph=True)
    assert magic_line(options, "allow_in_graph:my helper") == (
        "%%dynamo --mode max-autotune --no-dynamic --fullgraph --scope cell --recompile-limit 2 --decompile none "
        '--fresh --try "allow_in_graph:my helper"'
    )


def test_strings_from_the_report_are_escaped():
    hostile = {**ITEM_FIX, "name": XSS, "title": XSS, "api": XSS, "code": XSS, "why": XSS}
    section = _section(render(_item(fixes=[hostile])))
    assert "<script" not in section
    assert _text(section).count(XSS) >= 4  # title, name, code, the --try line (api and why: the rich pane)


def test_the_try_fix_golden_a_real_try_run():
    # D1's golden: --try capture_scalar_outputs on a cell with an .item() break and a shape recompile
    report = _golden("try_fix")
    section = _section(render(report))
    rows = re.findall(r'<tr class="dx-(\w+)"><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>', section)
    assert ("better", "graph breaks", "1", "0") in rows
    assert ("same", "recompiles", "1", "1") in rows
    text = _text(section)
    assert "This run applied capture_scalar_outputs" in text
    # the fixes still on offer, each with the line to copy: the user's options (not the engine's --fresh)
    for fix in report["fixes"]:
        assert f"%%dynamo --backend eager --try {fix['name']}" in text


def test_the_line_keeps_trace_steps_the_kernel_matches_the_run_before_on():
    options = {**_golden("toy_profile")["options"], "profile": False, "compare_eager": False}
    assert magic_line({**options, "trace_steps": ""}, "x") == "%%dynamo --backend eager --trace-steps --try x"
    assert magic_line({**options, "decisions": True}, "x") == "%%dynamo --backend eager --decisions --try x"
    assert magic_line({**options, "trace_steps": "f", "trace_steps_max": 50}, "x") == (
        "%%dynamo --backend eager --trace-steps f --trace-steps-max 50 --try x"
    )
