"""The "Why is it slow" section of the static view (``kernel_ext/static_profile.py``) and the text/plain line.

The same content as the JupyterLab pane (labextension/src/panes/profile.ts, labextension/tests/profile.spec.ts,
on the same fixture: the golden toy_profile with known times): the section sits after the header; the run
split as a bar whose parts' widths are their shares, with ms and %; the speedup over eager and after how many
runs the compile pays back; the graphs ranked by time; eager time by cause naming the graph break and its line;
Update 5's coverage columns for the cell and each cache entry; cache entries; GPU kernels; one line without a
profile; every report string escaped. One test renders a real ``--profile --compare-eager`` run.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from compiler import RunOptions, run_cell
from compiler.schema import PANES
from compiler.summary import one_line, profile_line
from kernel_ext.static_html import render
from kernel_ext.static_profile import NO_PROFILE, payback_runs

GOLDENS = Path(__file__).resolve().parents[1] / "goldens"


def _timed() -> dict:
    """toy_profile with the times profile.spec.ts sets: 30 ms in graphs, 20 ms eager, 950 ms compiling;
    graph 1 the most, then 0, then 2; the break of [0/0] the most eager time; eager 10 ms vs compiled 4 ms."""
    report = json.loads((GOLDENS / "toy_profile.report.json").read_text())
    p = report["profile"]
    p.update(wall_ms=1000, compiled_ms=30, eager_ms=20, compile_ms=950, cache_lookups=10, cache_lookup_ms=0.5)
    for g in p["graphs"]:
        g["total_ms"] = {0: 6, 1: 20, 2: 4}[g["graph_id"]]
        g["mean_ms"] = g["total_ms"] / g["calls"]
        # the first call holds a quarter of the time (all of it when it is the only one), the calls after it the rest
        g["first_call"] = _calls(host_ms=g["total_ms"] / 4 if g["calls"] > 1 else g["total_ms"])
        g["steady"] = _calls(calls=g["calls"] - 1, host_ms=g["total_ms"] * 3 / 4) if g["calls"] > 1 else None
    ms = {"graph_break": 12, "outside": 6.5, "1/0": 1, "2/0": 0.5}
    for e in p["eager"]:
        e["ms"] = ms[e["compile_id"]] if e["cause"] == "frame" else ms[e["cause"]]
    p["coverage"]["pct_time"] = 0.6
    for e in p["entries"]:
        e.update(total_ms=2, self_ms=1.5, graph_ms=1, eager_ms=0.5, cache_lookup_ms=0.05)
    report["eager_baseline"].update(eager_ms=10, compiled_ms=4, compile_ms=600, speedup=2.5)
    report["eager_baseline"]["functions"][0].update(eager_ms=9, compiled_ms=3.5, speedup=9 / 3.5)
    return report


class _Tables(HTMLParser):
    """The text of each table cell, per table, with the heading (h5) before each table."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._heading: str | None = None
        self._in_h5 = False
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "h5":
            self._in_h5, self._heading = True, ""
        elif tag == "table":
            self._rows = self.tables.setdefault(self._heading or "", [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "h5":
            self._in_h5 = False
        elif tag in ("td", "th") and self._cell is not None and self._rows is not None:
            self._rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._rows = None

    def handle_data(self, data: str) -> None:
        if self._in_h5:
            self._heading = (self._heading or "") + data
        if self._cell is not None:
            self._cell.append(data)


def _section(html: str) -> str:
    found = re.search(r'<div class="dx-profile"><h4>Why is it slow</h4>(.*?)<details class="dx-profile-method">', html, re.S)
    assert found, "no profile section"
    return found[1]


def _tables(html: str) -> dict[str, list[list[str]]]:
    parser = _Tables()
    parser.feed(_section(html))
    return parser.tables


def test_the_section_follows_the_header_as_the_pane_does():
    assert list(PANES[:3]) == ["header", "profile", "frames"]
    html = render(_timed())
    assert html.index("<b>Dynamo Explorer</b>") < html.index('<div class="dx-profile">') < html.index("<h4>Frames")


def test_the_run_split_is_one_bar_sized_by_shares_with_ms_and_percent():
    section = _section(render(_timed()))
    widths = re.findall(r'<span class="dx-sp-(\w+)" style="width:([\d.]+)%"', section)
    assert widths == [("compiled", "3.000"), ("eager", "2.000"), ("compile", "95.000")]
    assert "The profiled run: 1.00 s" in section
    assert "<b>compiled</b> 30.0 ms (3.0%)" in section
    assert '<b>eager</b> 20.0 ms (2.0%) <span class="dx-meta">incl. 10 cache lookups, 0.50 ms</span>' in section
    assert "<b>compile</b> 950 ms (95%)" in section


def test_the_speedup_and_when_the_compile_pays_back():
    report = _timed()
    section = _section(render(report))
    assert "<b>compiled run 4.00 ms vs eager 10.0 ms: 2.50× (compile 600 ms not included)</b>" in section
    assert "The compile pays back after 100 runs of the cell (600 ms compile / 6.00 ms saved per run)." in section
    assert payback_runs(report["eager_baseline"]) == 100
    assert payback_runs({"eager_ms": 3, "compiled_ms": 4, "compile_ms": 600}) is None
    assert payback_runs({"eager_ms": 10, "compiled_ms": 4, "compile_ms": 0}) == 0
    assert payback_runs({"eager_ms": 10, "compiled_ms": 4, "compile_ms": 601}) == 101
    (fn,) = _tables(render(report))["Speedup per compiled function"][1:]
    assert fn == ["toy_example line 13: out = toy_example(torch.randn(10), torch.randn(10)) [0/0] [1/0] [2/0]", "5",
                  "9.00 ms", "3.50 ms", "2.57×"]  # fmt: skip
    report["eager_baseline"].update(eager_ms=3, speedup=0.75)
    assert "The compiled run is slower than eager here, so its compile never pays back." in render(report)


def test_graphs_ranked_eager_causes_coverage_and_entries():
    tables = _tables(render(_timed()))
    graphs = tables["Graphs by time"]
    assert graphs[0] == ["#", "graph", "calls", "total", "mean", "% compiled", "ops/call", "first call", "then"]
    assert graphs[1:] == [
        ["1", "[1/0] graph 1", "4", "20.0 ms", "5.00 ms", "67%", "2", "5.00 ms", "3× 5.00 ms"],
        ["2", "[0/0] graph 0", "5", "6.00 ms", "1.20 ms", "20%", "5", "1.50 ms", "4× 1.12 ms"],
        ["3", "[2/0] graph 2", "1", "4.00 ms", "4.00 ms", "13%", "1", "4.00 ms", "–"],
    ]
    eager = tables["Eager time by cause"]
    assert [r[1] for r in eager[1:]] == ["graph_break", "outside", "frame", "frame"]
    assert eager[1] == ["1", "graph_break", "GB0170 Data-dependent branching at line 8: if b.sum() < 0: [0/0]", "5",
                        "12.0 ms", "60%", "5"]  # fmt: skip
    assert eager[3][2] == "[1/0] toy_example after line 8: Dynamo’s glue"
    coverage = tables["Captured-op coverage (3 graphs ran)"]
    assert coverage == [
        ["scope", "graph_calls", "captured_ops", "total_ops", "pct_ops", "pct_time"],
        ["cell", "10", "34", "49", "69%", "60%"],
        ["[0/0] toy_example", "5", "25", "30", "83%", "0%"],
        ["[1/0] toy_example after line 8", "4", "8", "8", "100%", "0%"],
        ["[2/0] toy_example after line 8", "1", "1", "1", "100%", "0%"],
    ]
    entries = tables["Cache entries"]
    assert entries[2] == ["[1/0] toy_example after line 8", "4", "2.00 ms", "1.50 ms", "1.00 ms", "0.50 ms", "0", "0.05 ms"]


def test_gpu_device_time_and_kernels_the_most_first():
    report = _timed()
    g = next(g for g in report["profile"]["graphs"] if g["graph_id"] == 1)
    g["device_ms"] = 3.5
    g["kernels"] = [
        {"name": "triton_poi_fused_mul_0", "calls": 4, "device_ms": 0.5},
        {"name": "triton_poi_fused_abs_add_div_1", "calls": 4, "device_ms": 3.0},
    ]
    report["profile"]["device"] = "cuda"
    html = render(report)
    graphs = _tables(html)["Graphs by time"]
    assert graphs[0][-2:] == ["device", "kernels"]
    assert graphs[1][-2:] == ["3.50 ms", "triton_poi_fused_abs_add_div_1 · 4× · 3.00 mstriton_poi_fused_mul_0 · 4× · 0.50 ms"]
    assert graphs[2][-2:] == ["–", "–"]
    assert "(with CUDA kernel times)" in html


def test_the_method_is_folded_and_a_backward_is_split():
    report = _timed()
    html = render(report)
    method = re.search(r'<details class="dx-profile-method"><summary>How this was measured</summary>(.*?)</details>', html)
    assert method and "<p>--profile: torch.profiler" in method[1] and "<p>--compare-eager: The cell ran twice" in method[1]
    assert "<h5>Backward</h5>" not in html
    report["profile"]["backward"] = {"compiled_calls": 4, "compiled_ms": 1.2, "eager_nodes": 1, "eager_ms": 0.5}
    assert "<h5>Backward</h5><div>compiled 4 calls, 1.20 ms · eager 1 node, 0.50 ms</div>" in render(report)


def test_without_a_profile_one_line():
    toy = json.loads((GOLDENS / "toy_example.report.json").read_text())
    html = render(toy)
    assert f'<div class="dx-meta dx-profile-hint">{NO_PROFILE} (add --compare-eager for the speedup over eager).</div>' in html
    assert '<div class="dx-profile">' not in html
    assert profile_line(toy) == ""
    only_baseline = _timed()
    only_baseline["profile"] = None
    html = render(only_baseline)
    assert "2.50× (compile 600 ms not included)" in html and f"{NO_PROFILE}.</div>" in html
    assert "Graphs by time" not in html


def test_report_strings_are_escaped():
    report = _timed()
    report["frames"][0]["graph_breaks"][0]["gb_type"] = '<img src=x onerror="alert(1)">'
    report["eager_baseline"]["functions"][0]["name"] = "</table><script>alert(1)</script>"
    report["profile"]["method"] = "<b>bold</b>"
    section = render(report)
    assert "<img src=x" not in section and "<script>alert" not in section and "<b>bold</b>" not in section
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in section
    assert "&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in section


def test_text_plain_ends_with_the_run_split_coverage_and_speedup():
    assert one_line(_timed()) == (
        "dynamo: 3 frames · 3 graphs · 1 graph break (line 8) · run 30.0 ms compiled / 20.0 ms eager / 950 ms compile"
        " · 69% of ops captured · 2.50× vs eager"
    )
    toy = json.loads((GOLDENS / "toy_example.report.json").read_text())
    assert one_line(toy) == "dynamo: 3 frames · 3 graphs · 1 graph break (line 8)"


def test_a_real_profiled_run():
    src = (
        "import torch\n"
        "def f(x):\n"
        "    y = x.sin().cos()\n"
        "    if y.sum() > 0:\n"
        "        y = y * 2\n"
        "    return y.exp()\n"
        "for _ in range(3):\n"
        "    f(torch.randn(16))\n"
    )
    report = run_cell(src, {}, RunOptions(backend="eager", profile=True, compare_eager=True)).report
    html = render(report)
    tables = _tables(html)
    coverage = report["profile"]["coverage"]
    cell = tables[f"Captured-op coverage ({coverage['unique_graphs']} graphs ran)"][1]
    assert cell[:4] == ["cell", str(coverage["graph_calls"]), str(coverage["captured_ops"]), str(coverage["total_ops"])]
    ranked = [r[1] for r in tables["Graphs by time"][1:]]
    by_time = sorted(report["profile"]["graphs"], key=lambda g: (-g["total_ms"], -g["calls"]))
    assert ranked == [f"[{g['compile_id']}] graph {g['graph_id']}" for g in by_time]
    assert any(r[1] == "graph_break" and "at line 4" in r[2] for r in tables["Eager time by cause"][1:])
    assert "vs eager" in one_line(report) and "% of ops captured" in one_line(report)


def _calls(**extra: float | None) -> dict:
    out: dict = {"calls": 1, "host_ms": 0, "compile_ms": 0, "device_ms": None, "kernels": 0}
    return out | {"compile_device_ms": None, "compile_kernels": 0} | extra


def test_a_graphs_first_call_apart_and_the_device_time_no_graph_ran():
    # as profile.spec.ts's onGpu(): graph 1 autotuned in its first call (70 ms of 80, 4,900 kernels), then 3 calls
    report = _timed()
    p = report["profile"]
    p.update(device="cuda", eager_device_ms=0.02, compile_device_ms=70.4)
    p["eager_kernels"] = [{"name": "normal_kernel", "calls": 1, "device_ms": 0.02}]
    for g in p["graphs"]:
        g["device_ms"] = 0
        g["first_call"] = _calls(host_ms=g["mean_ms"], device_ms=0)
        g["steady"] = (
            _calls(calls=g["calls"] - 1, host_ms=g["mean_ms"] * (g["calls"] - 1), device_ms=0) if g["calls"] > 1 else None
        )
    g1 = next(g for g in p["graphs"] if g["graph_id"] == 1)
    g1.update(calls=4, total_ms=89, mean_ms=22.25, device_ms=3.5)
    g1["first_call"] = _calls(host_ms=80, compile_ms=70, device_ms=0.5, kernels=2, compile_device_ms=70.4, compile_kernels=4900)
    g1["steady"] = _calls(calls=3, host_ms=9, device_ms=3, kernels=6)
    p["backward"] = {"compiled_calls": 3, "compiled_ms": 6500, "eager_nodes": 6, "eager_ms": 0.2}
    p["backward"] |= {"compile_ms": 6400, "device_ms": 2.0, "other_thread_calls": 3}
    html = render(report)
    graphs = _tables(html)["Graphs by time"]
    head = graphs[0]
    assert head[-4:] == ["first call", "then", "device", "kernels"]
    row = next(r for r in graphs[1:] if r[1] == "[1/0] graph 1")
    assert row[head.index("first call")] == "80.0 ms (70.0 ms compile)"
    assert row[head.index("then")] == "3× 3.00 ms"
    assert "4,900 kernels, 70.4 ms on the device" in html  # the first call's tooltip
    once = next(r for r in graphs[1:] if r[1] == "[2/0] graph 2")
    assert once[head.index("then")] == "–"
    assert (
        "Device time outside the graphs’ own runs: eager 0.02 ms (1 kernel launched outside any graph call) · "
        "compile work 70.4 ms (kernels its autotuning launched)"
    ) in html
    assert "normal_kernel</span> · 1× · 0.02 ms" in html
    assert (
        "compiled 3 calls, 6.50 s (6.40 s of it the lazy backward compile), device 2.00 ms; all on another thread than the"
        " cell’s · eager 6 nodes, 0.20 ms"
    ) in html
    # the CPU: no device line; a report before schema minor 8 (no first_call, steady): no first-call columns
    before = _timed()
    for g in before["profile"]["graphs"]:
        del g["first_call"], g["steady"]
    plain = render(before)
    assert "Device time outside" not in plain and "first call" not in _tables(plain)["Graphs by time"][0]
