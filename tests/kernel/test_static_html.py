"""kernel_ext.static_html and the extension's entry points, in-process (no kernel).

The HTML is rendered from reports of real engine runs (compiler.run_cell, eager backend) and from the
golden reports. Its sections follow the report view's pane list (``compiler.schema.PANES``): every pane has
a static section or a documented reason to be absent. It is a lean summary ([Note: a lean summary]): the
cell source with its breaks marked, small FX pictures drawn by Graphviz's ``dot`` (one line when ``dot`` is
missing: tested with a PATH that has no ``dot``), depyf failures in one line, everything escaped.
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
from kernel_ext.static_html import (  # noqa: E402
    MAX_INSTRUCTIONS,
    MAX_PICTURE_NODES,
    MAX_PRE_CHARS,
    NO_DOT,
    StaticSection,
    fx_picture,
    render,
)

#: every element the static view may contain: HTML for the text, SVG for the FX pictures
ALLOWED_TAGS = {
    *("div", "span", "b", "code", "pre", "style", "details", "summary", "table", "thead", "tbody", "tr", "th", "td"),
    *("ul", "ol", "li", "br", "h4", "h5", "a"),
    *("svg", "g", "polygon", "polyline", "ellipse", "path", "text"),
}

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
    # the cell's source marks the call that led to the break in the earlier cell, and names where it is
    assert '<span class="dx-hit">3  out = gate(torch.randn(2, 4))</span>' in html
    assert f"(in In [1], line {gb['line']})" in html
    assert "golden-earlier" not in html


def test_aot_graphs_and_output_code_are_one_line_each():
    report = run_cell(
        "\ny = torch.ones(4).sin() + 1\n", {"torch": torch}, RunOptions(backend="inductor"), filename="<static-html-inductor>"
    ).report
    assert report["output_code"], report["diagnostics"]
    html = render(report)
    kernel = report["output_code"][0]["kernels"][0]
    assert "<h4>Inductor output code</h4><ul><li>" in html and f"{kernel['name']} ({kernel['language']})" in html
    assert kernel["source"].splitlines()[0] not in html  # the generated code stays in the report
    aot = [g for g in report["graphs"] if g["kind"].startswith("aot_")]
    assert aot
    assert f"<li><b>graph {aot[0]['id']}</b> {aot[0]['kind']} [{aot[0]['compile_id']}]" in html
    assert html.count('<div class="dx-fx">') == sum(1 for g in report["graphs"] if g["kind"] == "dynamo")


def test_big_graphs_and_listings_are_one_line_and_cut():
    body = "".join("    t = t + 1\n" for _ in range(MAX_INSTRUCTIONS))
    report = _run(f"\ndef big(t):\n{body}    return t\nbig(torch.ones(2))\n")
    nodes = max(len(g["nodes"]) for g in report["graphs"])
    assert nodes > MAX_PICTURE_NODES
    html = render(report)
    assert f"No picture: {nodes} nodes (the static view draws graphs of up to {MAX_PICTURE_NODES})." in html
    assert '<div class="dx-fx">' not in html and "<summary>readable code</summary>" in html  # no FX picture
    assert "more instructions: the report itself holds them" in html


def test_huge_code_blocks_are_cut_with_a_note():
    report = _run("\ndef f(t):\n    return t.sum()\nf(torch.ones(3))\n")
    report["frames"][0]["decompiled_source"] = "x = 1\n" * (MAX_PRE_CHARS // 3)
    html = render(report)
    assert "more characters not shown here" in html
    assert len(html) < 4 * MAX_PRE_CHARS


def _golden(name: str) -> dict:
    return json.loads((REPO / "tests" / "goldens" / f"{name}.report.json").read_text(encoding="utf-8"))


def test_the_view_is_a_lean_summary_not_a_second_copy():
    for name in ("toy_example", "training_step", "dynamic_sizes"):
        report = _golden(name)
        html = render(report)
        assert len(html) < len(json.dumps(report)) / 2, name
        assert "<summary>guard tree" not in html
        for frame in report["frames"]:  # the modified code: what it calls, not its listing
            if frame["modified_bytecode"]:
                assert f"{len(frame['modified_bytecode'])} instructions (Dynamo's glue included)" in html


def test_text_columns_are_left_aligned_over_jupyterlab_and_nbconvert_css():
    # JupyterLab's and nbconvert's `:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td` (two classes) right-align
    # every cell; the view's rule must outrank it (checked in a browser: tests/browser/test_static_view.py)
    css = re.search(r"<style>(.*?)</style>", render(_golden("toy_example")), re.S)[1]
    assert re.search(r"\.dx-report th,\.dx-report td\{[^}]*text-align:left!important", css)


def test_cell_source_marks_each_graph_break_line_with_its_reason():
    report = _golden("toy_example")
    html = render(report)
    brk = next(b for f in report["frames"] for b in f["graph_breaks"])
    line = brk["line"]
    source = re.search(r'<h4>Source</h4><pre class="dx-src">(.*?)</pre><ol>(.*?)</ol>', html, re.S)
    assert source, "no cell source with notes"
    listing, notes = source[1], source[2]
    marked = re.findall(
        r'<span class="dx-hit">\s*(\d+)  .*?</span>  <span class="dx-mark" title="([^"]*)">◀ graph break 1</span>', listing
    )
    assert marked == [(str(line), marked[0][1])]
    assert brk["gb_type"] in marked[0][1] and "Dynamo does not support tracing dynamic control flow" in marked[0][1]
    assert notes.count("<li>") == 1 and f"line {line}: <b>{brk['gb_type']}</b> ({brk['gb_id']})" in notes
    # every other line is there, unmarked, numbered as the report numbers it
    assert "13      out = toy_example(torch.randn(10), torch.randn(10))" in listing
    assert listing.count("dx-hit") == 1


def test_cell_source_marks_the_line_that_raised():
    report = _run("\nx = torch.ones(2)\nraise ValueError('boom')\n")
    html = render(report)
    line = re.search(r'<span class="dx-hit">3  raise ValueError\(&#x27;boom&#x27;\)</span>  (.*?)</pre>', html)
    assert line and line[1].endswith('<span class="dx-mark" title="ValueError: boom">◀ ValueError</span>')


def test_fx_picture_is_a_small_inline_svg_of_allowed_elements_only():
    report = _golden("toy_example")
    graph = report["graphs"][0]
    svg = fx_picture(graph)
    page = _page(svg)
    assert page.tags[0] == "svg" and set(page.tags) <= ALLOWED_TAGS
    assert page.attrs <= {"width", "height", "viewbox", "role", "class", "transform", "points", "fill", "stroke"} | {
        "cx", "cy", "rx", "ry", "d", "x", "y", "text-anchor", "font-size",
    }  # fmt: skip
    assert page.tags.count("ellipse") == sum(1 for n in graph["nodes"] if n["op"] in ("placeholder", "output"))
    assert sum(1 for n in graph["nodes"] for _ in n["users"]) == svg.count('<g class="edge">')
    assert "abs_1" in page.text and "<title>" not in svg and "<!--" not in svg
    assert len(svg) < 600 * len(graph["nodes"]) + 1000  # 3.7 KB for these 8 nodes and 8 edges


def test_fx_picture_escapes_hostile_node_names():
    graph = {
        "nodes": [
            {"name": XSS, "op": "placeholder", "target": XSS, "users": ["out"]},
            {"name": "out", "op": "call_function", "target": '"><svg onload=alert(3)>', "users": []},
        ]
    }
    svg = fx_picture(graph)
    page = _page(svg)
    assert set(page.tags) <= {"svg", "g", "polygon", "ellipse", "path", "text"}
    assert not [a for a in page.attrs if a.startswith("on")]
    assert "<script" not in svg and "<img" not in svg
    assert XSS[:20] in "".join(page.text)  # the name, as text (cut to a short label)


def test_without_dot_the_view_says_so_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # a real PATH with no dot on it
    report = _golden("toy_example")
    html = render(report)
    assert "<svg" not in html
    assert html.count(NO_DOT) == 1 and "apt install graphviz" in NO_DOT
    assert html.count("<summary>readable code</summary>") == sum(1 for g in report["graphs"] if g["kind"] == "dynamo")


def test_a_depyf_failure_is_one_clear_line():
    report = _golden("toy_example")
    frame = report["frames"][0]
    frame["decompiled_source"] = None
    frame["decompile_error"] = (
        'Traceback (most recent call last):\n  File "depyf/decompiler.py", line 1\nIndexError: pop from empty list'
    )
    html = render(report)
    line = re.search(r'<div class="dx-meta">No decompiled source: ([^<]*)</div>', html)
    assert line and line[1] == "Traceback (most recent call last): (the listing is in the JupyterLab view)."
    assert "IndexError" not in html.split("No decompiled source")[1].split("</div>")[0]


def test_importing_kernel_ext_is_cheap():
    probe = "import sys, kernel_ext; print(sorted(m for m in ('torch', 'compiler', 'kernel_ext.magic', 'IPython') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_help_has_an_example_for_every_option():
    from kernel_ext.magic import DynamoMagics

    doc = " ".join(DynamoMagics.dynamo.__doc__.split())
    assert doc.startswith("Usage: %%dynamo [--backend NAME] [--mode MODE] [--dynamic | --no-dynamic]")
    options = doc.split(" options: ", 1)[1]
    for option in MAGIC_OPTIONS:
        assert f"%%dynamo {option}" in options, option  # each option's help ends with its example


def test_help_is_plain_text_without_restructuredtext_artifacts():
    from IPython.core.interactiveshell import InteractiveShell

    from kernel_ext.magic import DynamoMagics

    doc = DynamoMagics.dynamo.__doc__
    assert "::" not in doc and "<OUT.html>" not in doc and "--html OUT.html" in doc
    # what `%%dynamo?` pages: IPython's inspector on the magic, as the shell shows it
    shell = InteractiveShell.instance()
    shell.register_magics(DynamoMagics)
    info = shell._object_find("dynamo")
    assert info.found
    text = shell.inspector._get_info(info.obj, "dynamo", detail_level=0)["text/plain"]
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "Usage: %%dynamo [--backend NAME]" in text and "Example (after %load_ext kernel_ext):" in text
    assert "::" not in text.split("Docstring:", 1)[1]


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
    side = re.search(r'<div class="dx-side"><div><h5>Original bytecode</h5>.*?</div><div><h5>Modified bytecode</h5>', chunk, re.S)
    assert side, "the bytecode columns are not side by side"
    decompiled = "decompiled modified code" if frame["decompiled_source"] else "No decompiled source"
    marks = ["<summary>source: ", "<h5>Original bytecode</h5>", "<h5>Modified bytecode</h5>", decompiled]
    marks += ["<h5>Guards (", '<div class="dx-break">']
    # the cell's source with its break marks comes after the frames, before the graphs
    html = render(report)
    assert html.index("<h4>Frames (") < html.index("<h4>Source</h4>") < html.index("<h4>Graphs (")
    assert [chunk.index(m) for m in marks] == sorted(chunk.index(m) for m in marks)


def test_a_long_cell_source_shows_the_lines_around_its_marks():
    from kernel_ext.static_html import MAX_SOURCE_LINES

    filler = "".join(f"v{i} = {i}\n" for i in range(MAX_SOURCE_LINES))
    report = _run(f"\n{filler}def f(t):\n    return t * t.sum().item()\nf(torch.ones(3))\n")
    line = next(b["line"] for fr in report["frames"] for b in fr["graph_breaks"])
    listing = re.search(r'<pre class="dx-src">(.*?)</pre>', render(report), re.S)[1]
    numbers = [int(n) for n in re.findall(r"^(?:<span class=\"dx-hit\">)?\s*(\d+)  ", listing, re.M)]
    assert numbers == [n for n in range(line - 3, line + 4) if n <= len(report["cell"]["source"].splitlines())]
    assert listing.startswith('<span class="dx-meta">…</span>\n') and "graph break 1" in listing


def test_state_carried_from_an_earlier_run_and_the_compile_that_marked_an_input_dynamic_are_said():
    """rerun_dynamic: the dynamic_sizes cell run twice in one process ([Note: automatic dynamic memory])."""
    rerun = render(_golden("rerun_dynamic"))
    assert "Dynamic from an earlier run" in rerun and "--fresh" in rerun
    assert 'scaled_relu: <span class="dx-mono">L[&#x27;x&#x27;]</span> dim 0 (size (?))' in rerun
    first = render(_golden("dynamic_sizes"))
    assert "Dynamic from an earlier run" not in first
    assert 'this compile marked <span class="dx-mono">L[&#x27;x&#x27;]</span> dim 0 (size (?)), was size (8)' in first
