"""The one output module of every front end (``kernel_ext/outputs.py``, issue 40 item 1): what it refuses before a
run, in the words the command line and the magic print, and the line it says for each file written."""

from __future__ import annotations

import json
import os

from compiler.encoding import decode_report
from kernel_ext import export
from kernel_ext.outputs import Outputs, size_text
from tests.goldens.regenerate import HERE


def _report() -> dict:
    return decode_report(json.loads((HERE / "item_break.report.json").read_text()))


def test_nothing_named_is_no_output_and_no_problem():
    assert not Outputs() and Outputs().problem() is None and Outputs().named() == []
    assert Outputs(json="r.json") and Outputs(json="r.json").named() == [("--json", "r.json")]


def test_problems_are_one_line_naming_the_fix(tmp_path):
    same = str(tmp_path / "r.json")
    assert Outputs(json=same, html=same).problem() == "--json and --html name the same file; give each its own path"
    missing = str(tmp_path / "missing" / "r.json")
    assert Outputs(json=missing).problem() == (
        f"cannot write the report to {missing}: the directory {tmp_path / 'missing'} does not exist; create it or pick "
        "another --json path"
    )
    assert Outputs(html=str(tmp_path)).problem().endswith("it is a directory; name a file, e.g. --html report.html")


def test_an_unbuilt_renderer_is_refused_before_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(export, "BUNDLE_JS", tmp_path / "absent.js")
    problem = Outputs(html=str(tmp_path / "r.html")).problem()
    assert problem.startswith("--html: the standalone renderer is not built (absent.js missing")
    assert Outputs(json=str(tmp_path / "r.json")).problem() is None, "the JSON needs no renderer"


def test_each_file_written_is_said_in_one_line(tmp_path):
    said: list[str] = []
    out = tmp_path / "r.json"
    assert Outputs(json=str(out)).write(_report(), say=said.append) is True
    assert said == [f"wrote {out} ({size_text(out)})"]
    assert json.loads(out.read_text())["frames"], "the report itself"
    assert size_text(out).endswith(" KB") and os.path.getsize(out) < 1_000_000


def test_a_page_that_cannot_be_made_is_complained_of_and_nothing_said(built, tmp_path):
    said: list[str] = []
    complaints: list[str] = []
    broken = {**_report(), "frames": "not a list"}
    ok = Outputs(html=str(tmp_path / "r.html")).write(broken, say=said.append, complain=complaints.append)
    assert ok is False and said == []
    (line,) = complaints
    assert line.startswith(f"the HTML report was not written to {tmp_path / 'r.html'}: the report does not follow")


def test_an_output_holds_the_smallest_parts_within_its_budget():
    """[Note: parts in an output] kernel_ext/parts.held: every part when they fit, else the smallest first up to the
    budget (a part left out is loaded from the kernel); a trace's lazy loader is never held."""
    from compiler.encoding import encode_value
    from kernel_ext.parts import held

    big = encode_value("x" * 300_000 + "".join(str(i) for i in range(200_000)))  # stored gzip + base64
    small = [{"type": "ID_MATCH"}] * 3
    stored = {"a:guard_tree": big, "b:guards": small, "c:lazy": lambda: "read from the log"}
    every = held(stored)
    assert every is not None and set(every["keys"]) == {"a:guard_tree", "b:guards"}
    assert every["blobs"][every["keys"]["a:guard_tree"]] is big
    some = held(stored, budget=len(big["data"]) - 1)
    assert some is not None and set(some["keys"]) == {"b:guards"} and some["blobs"] == [small]
    assert held(stored, budget=10) is None and held({}) is None
