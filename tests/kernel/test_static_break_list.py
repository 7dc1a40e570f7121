"""The graph-break action list of the static view (``kernel_ext/static_html.py``) and the text/plain line.

The same rules as the JupyterLab pane (labextension/src/breakList.ts, labextension/tests/breakList.spec.ts,
on the same fixture): one row per distinct break across every frame and compile, most costly first (the
eager time ``--profile`` attributes to it, then how many times it ran, then how many compiles met it), each
with where it is, its cost, reason and remedy; a frame lists its breaks in one line each.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from compiler.summary import one_line
from kernel_ext.static_html import render

GOLDENS = Path(__file__).resolve().parents[1] / "goldens"

EXPLICIT = {
    "gb_id": "GB0025",
    "gb_type": "Call to `torch._dynamo.graph_break()`",
    "reason": "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break.",
    "explanation": "User-inserted graph break. Message: None",
    "hints": ["Remove the `torch._dynamo.graph_break()` call."],
    "doc_url": "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html",
    "context": None,
    "filename": "<cell>",
    "line": 9,
    "user_stack": [],
}


def _two_breaks(profile: dict | None = None) -> dict:
    """toy_example with [0/0] recompiled as [0/1] (the same break, met by two compiles) and an explicit break
    in the resume function [1/0] on line 9."""
    report = json.loads((GOLDENS / "toy_example.report.json").read_text())
    again = copy.deepcopy(report["frames"][0])
    again["compile_id"] = "0/1"
    again["recompile_reasons"] = [
        {"failed_compile_id": "0/0", "reason": "tensor 'a' dtype mismatch. expected Float, actual Double"}
    ]
    report["frames"].append(again)
    report["frames"][1]["graph_breaks"].append(copy.deepcopy(EXPLICIT))
    if profile is not None:
        report["profile"] = profile
    return report


def _profile(explicit_ms: float) -> dict:
    """The parts of ``report.profile`` the list reads: [0/0] ran once, [0/1] 99 times, [1/0] 100 times."""
    return {
        "entries": [
            {"compile_id": "0/0", "hits": 1},
            {"compile_id": "0/1", "hits": 99},
            {"compile_id": "1/0", "hits": 100},
        ],
        "eager": [
            {"cause": "graph_break", "compile_id": "0/0", "break_index": 0, "calls": 1, "ms": 0.5, "ops": 4},
            {"cause": "graph_break", "compile_id": "0/1", "break_index": 0, "calls": 99, "ms": 39.5, "ops": 396},
            {"cause": "graph_break", "compile_id": "1/0", "break_index": 0, "calls": 100, "ms": explicit_ms, "ops": 300},
            {"cause": "outside", "compile_id": None, "break_index": None, "calls": 1, "ms": 5.0, "ops": 12},
        ],
    }


def _items(html: str) -> tuple[str, list[str]]:
    """The action list's title and its items."""
    found = re.search(r"<h4>(Graph breaks: what to fix first[^<]*)</h4><ol class=\"dx-breaks\">(.*?)</ol>", html, re.S)
    assert found, "no action list"
    return found[1], re.findall(r'<li class="dx-break">(.*?)</li>(?=<li class="dx-break">|$)', found[2], re.S)


def test_each_break_once_with_its_compiles_reason_and_remedy():
    html = render(_two_breaks())
    title, items = _items(html)
    assert title == "Graph breaks: what to fix first (2 distinct, 3 in all, most compiles first)"
    assert len(items) == 2
    branch, explicit = items
    assert branch.startswith("<b>Data-dependent branching</b> (GB0170) at line 8: <code>if b.sum() &lt; 0:</code>")
    assert "2 compiles" in branch and "in [0/0] [0/1]" in branch and "ran " not in branch and " eager" not in branch
    assert "explanation: Detected data-dependent branching" in branch and "<li>Use `torch.cond`" in branch
    assert explicit.startswith("<b>Call to `torch._dynamo.graph_break()`</b> (GB0025) at line 9:")
    assert "1 compile" in explicit and "in [1/0]" in explicit
    assert '<a href="https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html"' in explicit
    # inside a frame, a break is one line: the remedy is in the list, once
    assert html.count("Remove the `torch._dynamo.graph_break()` call.") == 1
    frame = next(c for c in html.split('<div class="dx-frame">')[1:] if "<b>[1/0]</b>" in c[:200])
    assert re.search(r'<div class="dx-break"><b>graph break \(GB0025\): Call to .*?</b> at line 9', frame)
    assert "hints:" not in frame


def test_the_most_eager_time_first_with_a_profile():
    _, items = _items(render(_two_breaks(_profile(10.0))))
    assert [i.split("</b>")[0] for i in items] == ["<b>Data-dependent branching", "<b>Call to `torch._dynamo.graph_break()`"]
    assert "2 compiles · ran 100× · 40.0 ms eager (400 ATen ops)" in items[0]
    assert "1 compile · ran 100× · 10.0 ms eager (300 ATen ops)" in items[1]
    title, items = _items(render(_two_breaks(_profile(250.0))))
    assert title.endswith("most eager time first)")
    assert items[0].startswith("<b>Call to `torch._dynamo.graph_break()`")  # one compile, but it costs the most
    assert "250 ms eager" in items[0]


def test_the_cell_is_named_as_ipython_names_it():
    report = _two_breaks()
    report["sources"] = [{"filename": "<cell>", "label": "In [3]", "kind": "cell", "excerpts": []}]
    _, items = _items(render(report))
    assert "at In [3], line 8: <code>if b.sum() &lt; 0:</code>" in items[0]


def test_no_list_without_breaks():
    report = json.loads((GOLDENS / "recompile_dtype.report.json").read_text())
    assert "what to fix first" not in render(report)


def test_text_plain_counts_a_break_met_by_several_compiles_once_among_the_distinct():
    assert one_line(_two_breaks()).startswith(
        "dynamo: 4 frames · 3 graphs · 3 graph breaks (2 distinct; lines 8, 9) · 1 recompile"
    )
    toy = json.loads((GOLDENS / "toy_example.report.json").read_text())
    assert "1 graph break (line 8)" in one_line(toy)
