"""kernel_ext.static_html (the static summary: [Note: a lean summary]) and the extension's entry points, in-process.

The HTML is rendered from reports of real engine runs (compiler.run_cell, eager backend) and from the golden
reports. It has one section per pane of the schema's pane list (``compiler.schema.PANES``), in that order, each
from ``SUMMARIES``: the header, the frames table, the cell source with its breaks marked, the guards by kind and
each guard that failed on a recompile, each distinct graph break with its remedy, small FX pictures drawn by
Graphviz's ``dot`` (one line when ``dot`` is missing: tested with a PATH that has no ``dot``), one line for the
rest; everything escaped; no listing, tree or table that the full explorer draws.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from kernel_nb import MAGIC_OPTIONS, REPO

torch = pytest.importorskip("torch")

from compiler import RunOptions, run_cell  # noqa: E402
from compiler.schema import PANE_TITLES, PANES  # noqa: E402
from compiler.summary import profile_line, try_line  # noqa: E402
from kernel_ext import static_html  # noqa: E402
from kernel_ext.static_fx import MAX_PICTURE_NODES, NO_DOT, fx_picture  # noqa: E402
from kernel_ext.static_html import NO_PROFILE, SUMMARIES, render  # noqa: E402
from kernel_ext.static_markup import MAX_PRE_CHARS  # noqa: E402

#: every element the static view may contain: HTML for the text, SVG for the FX pictures
ALLOWED_TAGS = {
    *("div", "span", "b", "code", "pre", "style", "details", "summary", "table", "thead", "tbody", "tr", "th", "td"),
    *("ul", "ol", "li", "br", "h4", "a"),
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


def _golden(name: str) -> dict:
    return json.loads((REPO / "tests" / "goldens" / f"{name}.report.json").read_text(encoding="utf-8"))


def _text(fragment: str) -> str:
    """The visible text of an HTML fragment, tags dropped, entities read."""
    return html_lib.unescape(re.sub(r"<[^>]+>", "", fragment))


def _section(html: str, pane: str) -> str:
    """The section of one pane ('' when the summary has none for it)."""
    found = re.search(
        rf'<div class="dx-pane" data-pane="{pane}">(.*?)</div>(?=<div class="dx-pane"|<div class="dx-meta">A static)', html, re.S
    )
    return found[1] if found else ""


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
    assert XSS in text  # the exception message and the frame's name, shown as text
    assert text.count(XSS) >= 3
    assert any(f["code"]["name"] == XSS for f in report["frames"])


def test_html_needs_no_script_and_links_only_http():
    report = _run("\ndef f(t):\n    return t * t.sum().item()\nf(torch.ones(3))\n")
    html = render(report)
    page = _page(html)
    assert "script" not in page.tags and set(page.tags) <= ALLOWED_TAGS
    assert page.hrefs and all(h.startswith(("https://", "http://")) for h in page.hrefs)
    assert "hints:" in html and "explanation:" in html


def test_every_pane_of_the_schema_has_its_summary_and_nothing_else_does():
    assert list(SUMMARIES) == list(PANES)


def _marker(pane: str):
    return lambda *_args: f"<i>{pane}</i>"


@pytest.mark.parametrize("order", ["schema", "reversed"])
def test_sections_follow_the_pane_list_with_its_titles(monkeypatch, order):
    # every section writes its pane's name; reversing PANES reverses the page: render() follows the list itself
    panes = PANES if order == "schema" else tuple(reversed(PANES))
    monkeypatch.setattr(static_html, "PANES", panes)
    monkeypatch.setattr(static_html, "SUMMARIES", {pane: _marker(pane) for pane in PANES})
    html = render(_golden("toy_example"))
    assert re.findall(r"<i>([\w-]+)</i>", html) == list(panes)
    titles = re.findall(r'<div class="dx-pane" data-pane="([\w-]+)"><h4>([^<]*)</h4>', html)
    assert titles == [(p, html_lib.escape(PANE_TITLES[p])) for p in panes if p != "header"]


def test_a_real_run_tells_its_story():
    report = _run(
        "\ndef f(a, b):\n    x = a / (torch.abs(a) + 1)\n    if b.sum() < 0:\n        b = b * -1\n"
        "    return x * b\nfor _ in range(20):\n    f(torch.randn(10), torch.randn(10))\n"
    )
    html = render(report)
    frames = _section(html, "frames")
    for frame in report["frames"]:
        assert f"<b>[{frame['compile_id']}]</b>" in frames
    assert "line 4: <code>if b.sum() &lt; 0:</code>" in _section(html, "graph-breaks")
    guards = _text(_section(html, "guards"))
    total = sum(len(f["guards"]) for f in report["frames"])
    assert f"{total} guards in {len(report['frames'])} frames: " in guards and "TENSOR_MATCH" in guards
    modified = _text(_section(html, "modified-bytecode"))
    first = report["frames"][0]
    assert f"[{first['compile_id']}] {len(first['modified_bytecode'])} instructions, calls graph " in modified
    assert "[1/0]" in modified  # the resume function the modified code calls
    original = _text(_section(html, "original-bytecode"))
    assert f"[0/0] f: {len(first['original_bytecode'])} instructions" in original
    assert html.count('<div class="dx-fx"><svg') == sum(1 for g in report["graphs"] if g["kind"] == "dynamo")
    assert "placeholder" in html and "call_function" in html and "var(--jp-" in html


def test_the_summary_holds_no_listing_table_or_tree_of_the_full_explorer():
    for name in ("toy_example", "training_step", "dynamic_sizes", "dispatch", "trace_steps", "decisions", "toy_profile"):
        report = _golden(name)
        html = render(report)
        assert len(html) < len(json.dumps(report)) / 3, name
        opnames = {i["opname"] for f in report["frames"] for i in f["original_bytecode"] if "_" in i["opname"]}
        shown = {op for op in opnames if re.search(rf"\b{op}\b", _text(html))}
        assert not shown, (name, shown)  # no bytecode listing
        for frame in report["frames"]:
            for guard in frame["guards"]:
                for check in guard.get("code") or []:
                    if len(check) > 30:
                        assert html_lib.escape(check) not in html, (name, check)  # no guard's check text


def test_code_of_an_earlier_cell_is_named_in_ipython_style():
    from tests.goldens.regenerate import run_case

    report = run_case("earlier_cell")  # Gate lives in "In [1]", the cell that runs is "In [2]"
    html = render(report)
    gb = next(b for f in report["frames"] for b in f["graph_breaks"])
    assert f"In [1], line {gb['line']}: <code>if y.sum() &gt; 0:</code>" in html  # the break
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
    code = _section(html, "code")
    assert code.startswith("<h4>Graph code and output code</h4><ul><li>") and f"{kernel['name']} ({kernel['language']})" in code
    assert kernel["source"].splitlines()[0] not in html  # the generated code stays in the report
    aot = [g for g in report["graphs"] if g["kind"].startswith("aot_")]
    assert aot
    assert f"<li><b>graph {aot[0]['id']}</b> {aot[0]['kind']} [{aot[0]['compile_id']}]" in html
    assert html.count('<div class="dx-fx">') == sum(1 for g in report["graphs"] if g["kind"] == "dynamo")


def test_big_graphs_are_one_line_and_their_code_cut():
    body = "".join("    t = t + 1\n" for _ in range(MAX_PICTURE_NODES + 10))
    report = _run(f"\ndef big(t):\n{body}    return t\nbig(torch.ones(2))\n")
    nodes = max(len(g["nodes"]) for g in report["graphs"])
    assert nodes > MAX_PICTURE_NODES
    html = render(report)
    assert f"No picture: {nodes} nodes (the static view draws graphs of up to {MAX_PICTURE_NODES})." in html
    assert '<div class="dx-fx">' not in html and "<summary>readable code</summary>" in html  # no FX picture


def test_huge_code_blocks_are_cut_with_a_note():
    report = _run("\ndef f(t):\n    return t.sum()\nf(torch.ones(3))\n")
    report["frames"][0]["fail_type"] = "InternalTorchDynamoError"
    report["frames"][0]["fail_reason"] = "boom\n" + "x = 1\n" * (MAX_PRE_CHARS // 3)
    html = render(report)
    assert "[0/0] compile failed: <b>InternalTorchDynamoError</b>: boom" in html
    assert "more characters: the full explorer shows it" in html
    assert len(html) < 4 * MAX_PRE_CHARS


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


def test_every_failing_guard_of_a_recompile_is_a_row_with_expected_and_actual():
    report = _golden("recompile_many")
    guards = _section(render(report), "guards")
    assert "3 guards of [0/0] failed for this call:" in _text(guards)
    table = guards[guards.index("<th>guard</th>") :]
    rows = [_text(r) for r in re.findall(r"<tr><td>.*?</tr>", table[: table.index("</table>")])]
    assert rows == [
        "EQUALS_MATCH (Dynamo's reason)L['n'] == 223line 4: y = x * n",
        "TENSOR_MATCHL['x'] dtype mismatchtorch.float32torch.float64line 4: y = x * n",
        "TRUE_MATCHL['flag'] == TrueTrueFalseline 5: if flag:",
    ]
    reason = report["frames"][1]["recompile_reasons"][0]
    reason["failures"], reason["failures_note"] = [], "not evaluated: a cache entry of your own torch.compile"
    guards = _text(_section(render(report), "guards"))
    assert "failed for this call" not in guards and "not evaluated: a cache entry of your own torch.compile" in guards
    failure = _golden("recompile_many")
    failure["frames"][1]["recompile_reasons"][0]["failures"][0].update(expected=XSS, actual=XSS, source=XSS, check=XSS)
    page = render(failure)
    assert XSS not in page and "&lt;script&gt;" in page


def test_what_failed_is_the_engines_words_and_an_older_report_gets_the_same():
    """``failures[].what`` (minor 15) is shown as the engine wrote it; a report before minor 15 has none, and the
    engine's own function (``compiler.summary.failure_what``) words it the same."""
    report = _golden("recompile_many")
    failures = report["frames"][1]["recompile_reasons"][0]["failures"]
    assert [f["what"] for f in failures] == ["L['n'] == 2", "dtype mismatch", "L['flag'] == True"]
    page = render(report)
    for f in failures:
        del f["what"]
    assert render(report) == page
    failures[1]["what"] = "as the engine says"
    assert "as the engine says" in render(report) and "dtype mismatch" not in render(report)


def test_state_carried_from_an_earlier_run_and_the_compile_that_marked_an_input_dynamic_are_said():
    """rerun_dynamic: the dynamic_sizes cell run twice in one process ([Note: automatic dynamic memory])."""
    rerun = render(_golden("rerun_dynamic"))
    assert "Dynamic from an earlier run" in rerun and "--fresh" in rerun
    assert 'scaled_relu: <span class="dx-mono">L[&#x27;x&#x27;]</span> dim 0 (size (?))' in rerun
    report = _golden("dynamic_sizes")
    first = render(report)
    assert "Dynamic from an earlier run" not in first
    guards = _text(_section(first, "guards"))
    assert "[0/1] automatic dynamic: this compile marked L['x'] dim 0 (size (?)), was size (8)" in guards
    symbol = next(s for s in report["symbols"] if s["compile_id"] == "0/1")
    assert f"[0/1] {symbol['symbol']} = {symbol['source']}" in guards


def test_each_distinct_graph_break_once_with_the_compiles_that_met_it():
    report = _golden("toy_example")
    again = json.loads(json.dumps(report["frames"][0]))
    again["compile_id"] = "0/1"
    report["frames"].append(again)  # the same break, met by a second compile
    breaks = _section(render(report), "graph-breaks")
    items = re.findall(r'<li class="dx-break">(.*?)</li>(?=<li class="dx-break">|</ol>)', breaks, re.S)
    brk = report["frames"][0]["graph_breaks"][0]
    assert len(items) == 1 and f"<b>{brk['gb_type']}</b> ({brk['gb_id']}) at line {brk['line']}" in items[0]
    assert "in [0/0] [0/1]" in _text(items[0])
    assert all(html_lib.escape(h) in items[0] for h in brk["hints"]) and brk["doc_url"] in items[0]
    assert _section(render(_golden("recompile_dtype")), "graph-breaks") == ""


def test_the_one_line_panes_say_what_the_full_explorer_holds():
    profiled = render(_golden("toy_profile"))
    assert html_lib.escape(profile_line(_golden("toy_profile"))) in _section(profiled, "profile")
    assert html_lib.escape(NO_PROFILE) in _section(render(_golden("toy_example")), "profile")
    tried = _golden("try_fix")
    section = _text(_section(render(tried), "try-fix"))
    assert try_line(tried) in section and all(f["name"] in section for f in tried["fixes"])
    steps = _golden("trace_steps")["trace_steps"]
    assert f"{steps['total_steps']} steps of Dynamo's symbolic execution of [{steps['compile_id']}]" in _text(
        _section(render(_golden("trace_steps")), "trace-steps")
    )
    decisions = _golden("decisions")
    n = sum(len(f["decisions"]) for f in decisions["frames"])
    assert f"{n} calls Dynamo met while tracing" in _text(_section(render(decisions), "decisions"))
    dispatch = _text(_section(render(_golden("dispatch")), "dispatch"))
    assert "scale (<cell>, line 3): 3 cache entries, tried in the order [0/2], [0/1], [0/0]" in dispatch
    assert "the slowest: [0/0]" in _text(_section(render(_golden("training_step")), "compile-time"))


def test_a_long_cell_source_shows_the_lines_around_its_marks():
    from kernel_ext.static_source import MAX_SOURCE_LINES

    filler = "".join(f"v{i} = {i}\n" for i in range(MAX_SOURCE_LINES))
    report = _run(f"\n{filler}def f(t):\n    return t * t.sum().item()\nf(torch.ones(3))\n")
    line = next(b["line"] for fr in report["frames"] for b in fr["graph_breaks"])
    listing = re.search(r'<pre class="dx-src">(.*?)</pre>', render(report), re.S)[1]
    numbers = [int(n) for n in re.findall(r"^(?:<span class=\"dx-hit\">)?\s*(\d+)  ", listing, re.M)]
    assert numbers == [n for n in range(line - 3, line + 4) if n <= len(report["cell"]["source"].splitlines())]
    assert listing.startswith('<span class="dx-meta">…</span>\n') and "graph break 1" in listing


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
