"""The inline / skip decisions in the static view (``kernel_ext/static_decisions.py``), on the ``decisions``
golden: the same tree as the JupyterLab pane's default (labextension/tests/decisions.spec.ts), each call with its
decision, rule and line, a call that broke the graph naming its break, torch ops and builtins left to the report."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from kernel_ext.static_decisions import MAX_DECISION_ROWS, decisions_section, kept_tree
from kernel_ext.static_html import render

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "decisions.report.json").read_text())


def _frame_part(html: str, compile_id: str) -> str:
    start = html.index("Inline / skip decisions", html.index(f"<b>[{compile_id}]</b> "))
    return html[start:]


def test_each_decision_is_drawn_with_its_rule_and_line():
    html = render(copy.deepcopy(GOLDEN))
    part = _frame_part(html, "0/0")
    assert "Inline / skip decisions (23 calls: inline 9, skip 1, disabled 1, allow_in_graph 1, builtin 11)" in part
    assert re.search(
        r"<code>helper</code> <span class=\"dx-d dx-d-inline\">inline</span> <span class=\"dx-meta\">inlined by default</span> · line 27",
        part,
    )
    assert "<code>copy.deepcopy</code>" in part and "file matches BUILTIN_INLINE_WHEN_CALLED" in part
    assert re.search(
        r"<code>re\.match</code> <span class=\"dx-d dx-d-skip\">skip</span> <span class=\"dx-meta\">file is under skip directory",
        part,
    )
    assert '<code>opaque</code> <span class="dx-d dx-d-allow_in_graph">' in part
    disabled = re.search(r'<li class="dx-d-broke"><code>disabled</code>.*?</li>', part)
    assert disabled and "graph break</b>: Skip calling `torch.compiler.disable()`d function" in disabled.group(0)
    assert "<code>len</code>" not in part, "builtins stay in the report"
    resume = _frame_part(html, "1/0")
    assert "<code>networkx.utils.misc.pairwise</code>" in resume and "Attempted to call function marked as skipped" in resume


def test_the_tree_nests_inlined_calls_and_folds_library_internals():
    frame = GOLDEN["frames"][0]
    tree = kept_tree(frame["decisions"])
    names = [frame["decisions"][i]["name"] for i, _ in tree]
    assert names == ["helper", "deepcopy", "match", "opaque", "disabled"]
    assert [frame["decisions"][i]["name"] for i, _ in tree[0][1]] == ["helper2"]
    part = decisions_section(frame, _CellStub())
    assert "<details open><summary><code>helper</code>" in part
    assert "<details><summary><code>copy.deepcopy</code>" in part, "a library's internals start folded"


def test_a_report_without_decisions_has_no_part_and_a_long_one_is_cut():
    old = copy.deepcopy(GOLDEN)
    for frame in old["frames"]:
        del frame["decisions"]
    assert "Inline / skip decisions" not in render(old)
    many = copy.deepcopy(GOLDEN["frames"][0])
    leaf = dict(many["decisions"][0], parent=None, name="h")
    many["decisions"] = [dict(leaf) for _ in range(MAX_DECISION_ROWS + 5)]
    part = decisions_section(many, _CellStub())
    assert part.count("<code>h</code>") == MAX_DECISION_ROWS and "the report itself holds all 205" in part


def test_strings_from_the_report_are_escaped():
    evil = copy.deepcopy(GOLDEN)
    evil["frames"][0]["decisions"][0]["name"] = "<script>alert(1)</script>"
    evil["frames"][0]["decisions"][0]["rule"] = "<img src=x onerror=alert(1)>"
    html = render(evil)
    assert "<script>alert" not in html and "<img src=x" not in html


class _CellStub:
    """What decisions_section reads of the static view's cell: its filename, labels and line places."""

    filename = "<cell>"

    def label_paths(self, text: object) -> object:
        return text

    def where(self, filename: object, line: object) -> str:
        return f"line {line}"
