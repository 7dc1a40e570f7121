"""The static view's compile-time section (issue 12 item 6), ``kernel_ext/static_chart.py``, in-process.

- A real training step (``aot_eager``): the frame's ``<details>`` holds the section after the graph breaks,
  with a line of time by kind and an inline SVG whose rectangles sit in their depth's row, start where the
  phase starts and are as wide as it lasted (to scale, the gap before the backward compile cut out and
  hatched); each has a ``<title>`` with the label, Dynamo's name, the time and the share of the compile.
- Only SVG and text, everything from the report escaped.
- A frame with hundreds of phases draws at most ``MAX_CHART_PHASES`` and says how many it left out; a report
  with many frames charts its ``MAX_CHARTS`` longest compiles, the others get their line of time by kind.
- A report before minor 6 gets one line of its longest phases.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from compiler import RunOptions, run_cell  # noqa: E402
from kernel_ext.static_chart import MAX_CHART_PHASES, MAX_CHARTS, MIN_SHARE, compile_time_section  # noqa: E402
from kernel_ext.static_html import render  # noqa: E402
from tests.goldens.cases import CASES  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
RECT = re.compile(r'<rect class="dx-ph-(\w+)" x="([\d.]+)" y="(\d+)" width="([\d.]+)"')


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attrs: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.update(n for n, _ in attrs)


def _tags(html: str) -> _Tags:
    page = _Tags()
    page.feed(html)
    page.close()
    return page


@pytest.fixture(scope="module")
def training():
    run = run_cell(CASES["training_step"]["source"], {"__name__": "__main__"}, RunOptions(backend="aot_eager"))
    frame = next(f for f in run.report["frames"] if f["code"]["name"] == "train_step")
    return run.report, frame


def test_a_training_step_is_charted_to_scale_inside_its_frame(training):
    report, frame = training
    html = render(report)
    chunk = next(c for c in html.split('<div class="dx-frame">')[1:] if f"[{frame['compile_id']}]" in c[:300])
    assert "<h5>Compile time: " in chunk
    section = compile_time_section(frame)
    assert section in chunk
    phases = frame["phases"]
    total = sum(p["ms"] for p in phases if p["parent"] is None)
    said = re.search(r"<h5>Compile time: ([\d.]+) (m?s)</h5>", section)
    assert said and abs(float(said[1]) * (1 if said[2] == "ms" else 1000) - total) <= max(0.5, total * 0.005), (said, total)
    assert re.search(r"by kind, outside nested phases:.*AOTAutograd [\d.]+ m?s \(\d+(\.\d)?%\)", section)
    rects = RECT.findall(section)
    drawn = [i for i, p in enumerate(phases) if not p["instant"] and p["ms"] >= MIN_SHARE * total]  # a small frame
    assert len(rects) == len(drawn)
    # to scale: width per ms the same for every rectangle (1000 units across), rows by depth
    per_ms = [float(w) / phases[i]["ms"] for (_, _, _, w), i in zip(rects, drawn, strict=True) if phases[i]["ms"] > 50]
    assert len(per_ms) >= 3 and max(per_ms) / min(per_ms) < 1.02
    depth = {}
    for i, p in enumerate(phases):
        depth[i] = 0 if p["parent"] is None else depth[p["parent"]] + 1
    assert [int(y) for _, _, y, _ in rects] == [depth[i] * 18 for i in drawn]
    assert [kind for kind, *_ in rects] == [phases[i]["kind"] for i in drawn]
    # the backward compile sits after the forward's, past a hatched gap
    roots = [i for i, p in enumerate(phases) if p["parent"] is None]
    assert [phases[i]["name"] for i in roots] == ["dynamo", "backward._backward_impl"]
    assert section.count('class="dx-gap"') == 1
    forward, backward = (rects[drawn.index(i)] for i in roots)
    assert float(backward[1]) > float(forward[1]) + float(forward[3])
    backend = next(p for p in phases if p["name"] == "OutputGraph.call_user_compiler")
    assert re.search(
        r"<title>backend compile: OutputGraph\.call_user_compiler \(backend_compile\), [\d.]+ m?s, \d+(\.\d)?% of this frame's compile</title>",
        section,
    ), backend


def test_only_svg_and_text_and_everything_escaped():
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    phases = [
        {
            "name": evil,
            "ms": 10.0,
            "start_ms": 0.0,
            "parent": None,
            "event": evil,
            "label": evil,
            "kind": "dynamo",
            "instant": False,
        },
        {"name": evil, "ms": 0.0, "start_ms": 1.0, "parent": 0, "event": None, "label": evil, "kind": evil, "instant": True},
    ]
    section = compile_time_section({"compile_id": evil, "phases": phases})
    page = _tags(section)
    assert set(page.tags) <= {"h5", "div", "span", "svg", "rect", "title", "g", "text", "line"}
    assert "<script" not in section and "<img" not in section and "&lt;script&gt;" in section
    assert page.attrs <= {"class", "viewbox", "role", "aria-label", "x", "y", "width", "height", "rx", "x1", "x2", "y1", "y2"}


def test_a_frame_with_many_phases_draws_the_longest_and_says_what_it_left_out():
    phases = [
        {"name": "dynamo", "ms": 10_000.0, "start_ms": 0.0, "parent": None, "event": None, "label": "whole", "kind": "dynamo"}
    ]
    for k in range(400):
        phases.append(
            {
                "name": "compile_file",
                "ms": 5.0 + k,
                "start_ms": 20.0 * k,
                "parent": 0,
                "event": None,
                "label": "C++ compile",
                "kind": "compile",
            }
        )
    section = compile_time_section({"compile_id": "0/0", "phases": phases})
    rects = RECT.findall(section)
    assert len(rects) == MAX_CHART_PHASES
    widths = sorted(float(w) for _, _, _, w in rects)
    assert widths[0] >= (5.0 + 400 - MAX_CHART_PHASES) / 10_000 * 1000 * 0.99  # the longest ones
    assert f"{401 - MAX_CHART_PHASES} shorter phases not drawn here" in section


def test_only_the_longest_compiles_of_a_report_are_charted():
    base = json.loads((REPO / "tests" / "goldens" / "toy_example.report.json").read_text())
    template = base["frames"][0]

    def frame(i: int) -> dict:
        root = {
            "name": "dynamo",
            "ms": 10.0 + i,
            "start_ms": 0.0,
            "parent": None,
            "event": None,
            "label": "whole",
            "kind": "dynamo",
        }
        return {**template, "compile_id": f"9/{i}", "phases": [root]}

    frames = [frame(i) for i in range(MAX_CHARTS + 3)]
    html = render({**base, "frames": frames})
    charted = [c for c in html.split('<div class="dx-frame">')[1:] if '<div class="dx-chart">' in c]
    assert [re.search(r"\[(9/\d+)\]", c)[1] for c in charted] == [f"9/{i}" for i in range(3, MAX_CHARTS + 3)]  # the longest
    assert html.count(f"charted here for the {MAX_CHARTS} longest compiles only") == 3


def test_a_report_before_minor_6_gets_one_line():
    section = compile_time_section(
        {
            "compile_id": "0/0",
            "phases": [{"name": "bytecode_tracing", "ms": 30.0}, {"name": "OutputGraph.call_user_compiler", "ms": 120.0}],
        }
    )
    assert "<svg" not in section
    assert "longest phases (summed per name, nested ones overlap): <code>OutputGraph.call_user_compiler</code> 120 ms" in section
    assert compile_time_section({"compile_id": "0/0", "phases": []}) == ""
