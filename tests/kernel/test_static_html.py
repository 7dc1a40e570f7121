"""kernel_ext.static_html and the extension's entry points, in-process (no kernel).

The HTML is rendered from reports of real engine runs (compiler.run_cell, eager backend) and from the
golden reports. Its sections follow the report view's pane list (``compiler.schema.PANES``): every pane has
a static section or a documented reason to be absent.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from kernel_nb import MAGIC_OPTIONS, REPO

torch = pytest.importorskip("torch")

from compiler import RunOptions, run_cell  # noqa: E402
from compiler.schema import PANES  # noqa: E402
from kernel_ext import static_html  # noqa: E402
from kernel_ext.static_html import MAX_PRE_CHARS, MAX_ROWS, StaticSection, render  # noqa: E402

XSS = "<script>alert(1)</script><img src=x onerror=alert(2)>"


class _Page(HTMLParser):
    """Collects start tags, attribute names, hrefs and the text."""

    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.hrefs, self.text = [], set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.update(n for n, _ in attrs)
        self.hrefs += [v for n, v in attrs if n == "href"]

    def handle_data(self, data):
        self.text.append(data)


def _run(source: str, **options):
    run = run_cell(source, {"torch": torch}, RunOptions(backend="eager", **options), filename="<static-html-test>")
    return run.report


def _page(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


def test_html_escapes_user_strings_everywhere():
    source = (
        f"\ndef f(t):\n    s = {XSS!r}\n    return t * len(s)\n"
        f"f.__code__ = f.__code__.replace(co_name={XSS!r}, co_qualname={XSS!r})\n"
        f"f(torch.ones(2))\nraise ValueError({XSS!r})\n"
    )
    report = _run(source)
    assert report["error"]["message"] == XSS
    page = _page(render(report))
    assert not {"script", "img"} & set(page.tags)
    assert not [a for a in page.attrs if a.startswith("on")]
    text = "".join(page.text)
    assert XSS in text  # the exception message, shown as text
    assert f"'{XSS}'" in text  # the constant in the bytecode
    assert any(f["code"]["name"] == XSS for f in report["frames"])


def test_html_needs_no_script_and_links_only_http():
    report = _run("\ndef f(t):\n    return t * t.sum().item()\nf(torch.ones(3))\n")
    html = render(report)
    page = _page(html)
    assert "script" not in page.tags
    assert page.hrefs and all(h.startswith(("https://", "http://")) for h in page.hrefs)
    assert "graph break" in html and "hints:" in html and "explanation:" in html


def test_html_has_every_pane():
    report = _run(
        "\ndef f(a, b):\n    x = a / (torch.abs(a) + 1)\n    if b.sum() < 0:\n        b = b * -1\n"
        "    return x * b\nfor _ in range(20):\n    f(torch.randn(10), torch.randn(10))\n"
    )
    html = render(report)
    for needle in (
        "Frames (",
        "Original bytecode",
        "Modified bytecode",
        "Guards (",
        "graph break",
        "line 4: <code>if b.sum() &lt; 0:</code>",
        "<b>graph ",
        "placeholder",
        "call_function",
        "var(--jp-",
        "<details",
    ):
        assert needle in html, needle
    for frame in report["frames"]:
        assert f"[{frame['compile_id']}]" in html


def test_code_of_an_earlier_cell_is_shown_and_named_in_ipython_style():
    from tests.goldens.regenerate import run_case

    report = run_case("earlier_cell")  # Gate lives in "In [1]", the cell that runs is "In [2]"
    html = render(report)
    gb = next(b for f in report["frames"] for b in f["graph_breaks"])
    assert f"In [1], line {gb['line']}: <code>if y.sum() &gt; 0:</code>" in html  # the break
    assert "<summary>source: In [1]</summary>" in html and "10          if y.sum() &gt; 0:" in html
    assert "# File: In [1], line 9 in forward" in html  # the FX graph's own comments
    assert "golden-earlier" not in html


def test_aot_graphs_and_output_code_sit_behind_details():
    report = run_cell(
        "\ny = torch.ones(4).sin() + 1\n", {"torch": torch}, RunOptions(backend="inductor"), filename="<static-html-inductor>"
    ).report
    assert report["output_code"], report["diagnostics"]
    html = render(report)
    assert "<h4>Inductor output code</h4><details><summary>" in html
    aot = [g for g in report["graphs"] if g["kind"].startswith("aot_")]
    assert aot
    assert f"<details><summary><b>graph {aot[0]['id']}</b> {aot[0]['kind']}" in html


def test_big_tables_are_cut_with_a_note():
    body = "".join("    t = t + 1\n" for _ in range(MAX_ROWS + 50))
    report = _run(f"\ndef big(t):\n{body}    return t\nbig(torch.ones(2))\n")
    nodes = max(len(g["nodes"]) for g in report["graphs"])
    assert nodes > MAX_ROWS
    assert "more nodes not shown here" in render(report)


def test_huge_code_blocks_are_cut_with_a_note():
    report = _run("y = torch.ones(3).sum()\n")
    report["graphs"][0]["code"] = "x = 1\n" * (MAX_PRE_CHARS // 3)
    html = render(report)
    assert "more characters not shown here" in html
    assert len(html) < 4 * MAX_PRE_CHARS


def test_importing_kernel_ext_is_cheap():
    probe = "import sys, kernel_ext; print(sorted(m for m in ('torch', 'compiler', 'kernel_ext.magic', 'IPython') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_help_has_an_example_for_every_option():
    from kernel_ext.magic import DynamoMagics

    doc = " ".join(DynamoMagics.dynamo.__doc__.split())
    assert doc.startswith(":: %%dynamo [--backend NAME]")
    for option in MAGIC_OPTIONS:
        assert f"Example: %%dynamo {option}" in doc, option


def _golden(name: str) -> dict:
    return json.loads((REPO / "tests" / "goldens" / f"{name}.report.json").read_text(encoding="utf-8"))


def test_every_pane_has_a_static_section_or_a_reason_to_be_absent():
    sections, absent = static_html.SECTIONS, static_html.ABSENT
    missing = [pane for pane in PANES if pane not in sections and pane not in absent]
    assert not missing, f"panes of compiler.schema.PANES with no static section and no reason in ABSENT: {missing}"
    assert not (set(sections) | set(absent)) - set(PANES), "a static section or reason names no pane of PANES"
    assert not set(sections) & set(absent), "a pane is both shown and absent"
    assert all(isinstance(reason, str) and reason.strip() for reason in absent.values())
    for pane, section in sections.items():
        assert section.report is not None or section.frame is not None, f"{pane}: a section that draws nothing"
        assert section.frame is not None or not (section.column or section.below), f"{pane}: column without a frame part"


def _marker(where: str, pane: str):
    return lambda *_args: f"<i>{where}:{pane}</i>"


@pytest.mark.parametrize("order", ["schema", "reversed"])
def test_sections_follow_the_pane_list(monkeypatch, order):
    # every section writes its pane's name; the real frames section draws each frame's <details>, whose frame
    # parts are drawn in the same order. Reversing PANES reverses the page: render() follows the list itself.
    panes = PANES if order == "schema" else tuple(reversed(PANES))
    monkeypatch.setattr(static_html, "PANES", panes)
    fake = {pane: StaticSection(report=_marker("report", pane), frame=_marker("frame", pane)) for pane in PANES}
    fake["frames"] = StaticSection(report=static_html.SECTIONS["frames"].report, frame=_marker("frame", "frames"))
    monkeypatch.setattr(static_html, "SECTIONS", fake)
    report = _golden("toy_example")
    html = render(report)
    found = re.findall(r"<i>report:([\w-]+)</i>|(<h4>Frames \()", html)
    assert [name or "frames" for name, frames in found] == list(panes)
    for chunk in html.split('<div class="dx-frame">')[1:]:
        assert re.findall(r"<i>frame:([\w-]+)</i>", chunk) == list(panes)
    assert html.count('<div class="dx-frame">') == len(report["frames"])


def test_real_sections_are_in_pane_order():
    # header (banners, logs) < frames < dynamic shapes (guards) < graphs (fx-graph) < output code (code)
    html = render(_golden("item_break"))
    assert html.index("Dynamo Explorer") < html.index("torch logs (") < html.index("<h4>Frames (")
    html = render(_golden("dynamic_sizes"))
    assert html.index("<h4>Frames (") < html.index("<h4>Dynamic shapes</h4>") < html.index("<h4>Graphs (")
    html = render(_golden("training_step"))
    assert html.index("<h4>Graphs (") < html.index("<h4>Inductor output code</h4>")
    # inside a frame: source excerpt < original | modified bytecode (side by side) < decompiled < guards < breaks
    report = _golden("earlier_cell")
    frame = next(f for f in report["frames"] if f["graph_breaks"] and not f["code"]["in_cell"])
    chunk = next(c for c in render(report).split('<div class="dx-frame">')[1:] if f"[{frame['compile_id']}]" in c[:300])
    side = re.search(r'<div class="dx-side"><div><h5>Original bytecode</h5>.*?</div><div><h5>Modified bytecode</h5>', chunk)
    assert side, "the bytecode columns are not side by side"
    decompiled = "decompiled modified code" if frame["decompiled_source"] else "No decompiled source"
    marks = ["<summary>source: ", "<h5>Original bytecode</h5>", "<h5>Modified bytecode</h5>", decompiled]
    marks += ["<h5>Guards (", '<div class="dx-break">']
    assert [chunk.index(m) for m in marks] == sorted(chunk.index(m) for m in marks)
