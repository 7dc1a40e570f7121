"""The static view's recompile diagnosis (issue 12 item 4), on the golden reports (real engine runs).

Every failing guard of an old cache entry as a table (expected, actual, line; the one Dynamo's reason names
marked), the note when the list is empty or incomplete, the automatic-dynamic decision tied to the recompile
that led to it, and the folded guard diff against the compile whose guard failed, the same diff the JupyterLab
view draws (``diffGuards``), hostile strings escaped.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from kernel_nb import REPO

pytest.importorskip("torch")

from kernel_ext.static_html import diff_guards, render

XSS = "<script>alert(1)</script>"


def _golden(name: str) -> dict:
    return json.loads((REPO / "tests" / "goldens" / f"{name}.report.json").read_text())


def _text(fragment: str) -> str:
    """The visible text of an HTML fragment, tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _frame_html(page: str, compile_id: str) -> str:
    """The ``<details>`` of one frame in the frames section."""
    start = page.index(f"<summary><b>[{compile_id}]</b>")
    end = page.find('<div class="dx-frame">', start)
    return page[start : end if end > 0 else len(page)]


def test_every_failing_guard_of_the_old_entry_is_a_row_with_expected_and_actual():
    page = render(_golden("recompile_many"))
    second = _frame_html(page, "0/1")
    assert "3 guards of [0/0] failed for this call:" in _text(second)
    table = second[second.index("<th>guard</th>") :]
    rows = [_text(r) for r in re.findall(r"<tr><td>.*?</tr>", table[: table.index("</table>")])]
    assert rows == [
        "EQUALS_MATCH (Dynamo's reason)L['n'] == 223line 4: y = x * n",
        "TENSOR_MATCHL['x'] dtype mismatchtorch.float32torch.float64line 4: y = x * n",
        "TRUE_MATCHL['flag'] == TrueTrueFalseline 5: if flag:",
    ]


def test_the_decision_to_mark_an_input_dynamic_names_the_failure_and_the_symbol():
    report = _golden("dynamic_sizes")
    symbol = next(s["symbol"] for s in report["symbols"] if s["compile_id"] == "0/1")
    banner = _text(_frame_html(render(report), "0/1"))
    assert (
        "automatic dynamic: this compile marked L['x'] dim 0 (size (?)), was size (8) — after [0/0]: size mismatch on "
        f"L['x']; [0/1] compiled with {symbol} = L['x'].size()[0]"
    ) in banner
    many = _text(_frame_html(render(_golden("recompile_many")), "0/1"))
    assert "this compile marked L['n'] (any value), was 2 — after [0/0]: L['n'] == 2 failed; [0/1] compiled with s" in many


def test_the_guard_diff_is_folded_under_its_counts_with_the_failed_guards_marked():
    report = _golden("recompile_many")
    frames = {f["compile_id"]: f for f in report["frames"]}
    diff = diff_guards(frames["0/0"]["guards"], frames["0/1"]["guards"])
    assert diff["unchanged"] + len(diff["changed"]) + len(diff["added"]) == len(frames["0/1"]["guards"])
    assert diff["unchanged"] + len(diff["changed"]) + len(diff["removed"]) == len(frames["0/0"]["guards"])
    second = _frame_html(render(report), "0/1")
    summary = re.search(r"<details><summary>(diff vs guards of \[0/0\]: [^<]*)</summary><pre>(.*?)</pre>", second, re.S)
    assert summary is not None
    counts = ", ".join(
        [f"{len(diff[k])} {k}" for k in ("changed", "removed", "added") if diff[k]] + [f"{diff['unchanged']} unchanged"]
    )
    assert summary.group(1) == f"diff vs guards of [0/0]: {counts}"
    lines = html.unescape(summary.group(2)).splitlines()
    assert "~ TENSOR_MATCH L['x']   ◀ failed" in lines
    assert any(line.startswith("  - check_tensor(L['x'], Tensor,") and "torch.float32" in line for line in lines)
    assert any(line.startswith("  + check_tensor(L['x'], Tensor,") and "torch.float64" in line for line in lines)
    assert "- EQUALS_MATCH L['n']: L['n'] == 2   ◀ failed" in lines
    assert "<summary>diff vs guards" not in _frame_html(render(report), "0/0")  # the first compile has none


def test_an_empty_or_cut_list_and_cut_guards_say_so():
    report = _golden("recompile_many")
    reason = report["frames"][1]["recompile_reasons"][0]
    reason["failures"], reason["failures_note"] = [], "not evaluated: a cache entry of your own torch.compile"
    report["diagnostics"].append({"kind": "truncated", "message": "[0/1] f: kept 5000 of 9000 guards", "compile_id": "0/1"})
    second = _text(_frame_html(render(report), "0/1"))
    assert "failed for this call" not in second
    assert "not evaluated: a cache entry of your own torch.compile" in second
    assert "incomplete: [0/1] f: kept 5000 of 9000 guards" in second
    del reason["failures"], reason["failures_note"]  # a report older than minor 6: Dynamo's reason only
    assert "not evaluated" not in _text(_frame_html(render(report), "0/1"))


def test_failures_are_escaped():
    report = _golden("recompile_many")
    failure = report["frames"][1]["recompile_reasons"][0]["failures"][0]
    failure["expected"], failure["actual"], failure["source"], failure["check"] = XSS, XSS, XSS, XSS
    page = render(report)
    assert XSS not in page and "&lt;script&gt;" in page
