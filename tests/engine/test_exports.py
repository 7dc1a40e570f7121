"""torch.export's story (issue 43; [Note: export calls] in compiler/collectors/exports/exports.py): a cell that exports
is watched (nothing of its top level compiled), and each export call is reported as it was made and how it ended: a
failure's kind, the user's line in ``forward`` and export's own suggested fixes; an exported program's graph
signature and the range of each dynamic dimension with its ``Dim``; ``draft_export``'s assumptions. Strict and
non-strict, with real torch.export on the CPU. That the program behaves as plain Python does (exit status, stdout,
globals) is checked with the programs that compile themselves (tests/compiles_itself/export_*.py)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from compiler.schema import report_errors
from compiler.summary import exports_line
from compiler.trace import read_trace
from kernel_ext.static_html import render
from tests.goldens.cases import EXPORTS, EXPORTS_STRICT

from .helpers import run

GOLDEN = Path(__file__).resolve().parents[1] / "goldens" / "exports.report.json"


@pytest.fixture(scope="module")
def golden():
    """The golden case ``exports`` (tests/goldens/cases.py's EXPORTS); a fresh run of it has the same calls,
    outcomes, kinds, lines, ranges and assumptions (test_goldens_and_cli.py's skeleton)."""
    return json.loads(GOLDEN.read_text())


def test_a_cell_that_exports_is_watched_and_compiles_nothing_of_its_own(golden):
    assert golden["scope"] == "watch"
    assert golden["frames"] == [], "non-strict export runs forward as Python: no Dynamo frame"
    assert [(g["kind"], g["compile_id"]) for g in golden["graphs"]] == [("export", None)] * 2, "the exported graphs only"
    assert [c["api"] for c in golden["exports"]] == ["torch.export.export", "torch.export.export", "torch.export.draft_export"]
    assert [c["line"] for c in golden["exports"]] == [31, 34, 35], "the user's line of each call"
    assert exports_line(golden) == "export: 1 failed (Gate at line 7: a guard on a data-dependent value), 2 exported"


def test_a_failed_export_says_its_kind_the_users_line_and_what_helps(golden):
    gate = golden["exports"][0]
    assert (gate["mode"], gate["module"], gate["outcome"]) == ("non_strict", "Gate", "failed")
    assert gate["inputs"] == [{"name": "x", "shape": [4], "dtype": "float32"}]
    f = gate["failure"]
    assert (f["exception"], f["kind"]) == ("GuardOnDataDependentSymNode", "data_dependent")
    assert (f["line"], f["function"], f["code"]) == (7, "forward", "if x.sum() > 0:"), "the user's line, not torch's"
    assert f["message"].startswith("Could not guard on data-dependent expression")
    assert any(r.startswith("torch._check") for r in f["remedies"]) and any(r.startswith("torch.cond") for r in f["remedies"])
    assert gate["summary"] == (
        "export Gate (non-strict, line 31) failed at line 7: a guard on a data-dependent value (GuardOnDataDependentSymNode)"
    )


def test_an_exported_program_has_its_signature_ranges_and_graph(golden):
    scale = golden["exports"][1]
    assert scale["outcome"] == "exported" and scale["failure"] is None
    assert scale["dynamic_shapes"] == '{"x": {"0": "batch"}}', "each Dim by its name"
    inputs = [(s["kind"], s["name"], s["target"]) for s in scale["signature"] if s["direction"] == "input"]
    assert inputs == [("PARAMETER", "p_w", "w"), ("BUFFER", "b_n", "n"), ("USER_INPUT", "x", None)], "torch's InputKind names"
    assert [s["kind"] for s in scale["signature"] if s["direction"] == "output"][-1] == "USER_OUTPUT"
    (batch,) = scale["ranges"]
    assert (batch["dim"], batch["place"], batch["min"], batch["max"]) == ("batch", "x.shape[0]", 2, 64)
    graph = golden["graphs"][scale["graph_id"]]
    assert (graph["kind"], graph["compile_id"], graph["name"]) == ("export", None, "Scale"), "export's graph, no compile's"
    assert scale["graph_nodes"] == len(graph["nodes"]) == 8 and "torch.ops.aten.relu.default" in graph["code"]
    relu = next(n for n in graph["nodes"] if n["target"] == "torch.ops.aten.relu.default")
    assert relu["line"] == 20 and relu["filename"] == golden["cell"]["filename"], "a node links to the cell's line"
    assert [(c["kind"], c["expr"]) for c in scale["checks"]] == [
        ("range", "2 <= x.shape[0] <= 64"),
        ("static", "x.shape[1] == 8"),
    ]
    assert golden["exports"][0]["graph_id"] is None and golden["exports"][2]["graph_id"] != scale["graph_id"]
    assert "graph_code" not in scale, "the code is its graph's (minor 22)"


SHARED_AND_DERIVED = """import torch
from torch.export import Dim


class Pair(torch.nn.Module):
    def forward(self, x, y, z):
        return x + y, z[: x.shape[0] * 2] * 2


b = Dim("b", min=3, max=32)
ep = torch.export.export(
    Pair(), (torch.randn(8, 4), torch.randn(8, 4), torch.randn(16)), dynamic_shapes={"x": {0: b}, "y": {0: b}, "z": {0: 2 * b}}
)
"""


def test_what_an_exported_program_checks_of_its_inputs():
    """The checks ExportedProgram.module() makes before it runs: a size shared by two inputs is one check of its range
    and an equality; a derived Dim is its own range; the shape guards export kept come last."""
    report = run(SHARED_AND_DERIVED, {"__name__": "__main__"}).report
    (call,) = report["exports"]
    checks = [(c["kind"], c["expr"], c["input"]) for c in call["checks"]]
    assert checks[:5] == [
        ("range", "3 <= x.shape[0] <= 32", "x"),
        ("static", "x.shape[1] == 4", "x"),
        ("equal", "y.shape[0] == x.shape[0]", "y"),
        ("static", "y.shape[1] == 4", "y"),
        ("range", "6 <= z.shape[0] <= 64", "z"),
    ]
    assert all(kind == "guard" and inp is None for kind, _, inp in checks[5:])


def test_draft_export_says_what_it_assumed_and_where(golden):
    pick = golden["exports"][2]
    assert (pick["mode"], pick["outcome"]) == ("draft", "exported")
    (entry,) = pick["draft"]
    assert (entry["kind"], entry["expr"], entry["assumed"]) == ("DATA_DEPENDENT_ERROR", "u0 > 2", "True")
    assert (entry["line"], entry["code"]) == (25, "if n.item() > 2:"), "the user's line of forward, in the cell"
    assert "1 failure in its report (DATA_DEPENDENT_ERROR at line 25)" in pick["summary"]
    assert [(r["min"], r["max"]) for r in pick["ranges"]] == [(3, None)], "u0 > 2 assumed: u0 in [3, inf]"


def test_the_static_summary_shows_each_call(golden):
    html = render(golden)
    assert 'data-pane="export"' in html
    assert "failed at line 7: a guard on a data-dependent value" in html and "if x.sum() &gt; 0:" in html
    assert "x.shape[0]" in html and "BUFFER" in html


STRICT_AND_DIM = """import torch
from torch.export import Dim


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class Fold(torch.nn.Module):
    def forward(self, x):
        return x.reshape(-1, 4, 2).sum(1)


outcomes = []
for mod, x, shapes in ((Gate(), torch.randn(4), None), (Fold(), torch.randn(4, 8), {"x": {1: Dim("feat", min=2, max=16)}})):
    try:
        torch.export.export(mod, (x,), dynamic_shapes=shapes, strict=True)
    except Exception as e:
        outcomes.append(type(e).__name__)
"""


def test_strict_mode_and_a_dim_whose_range_the_trace_violates():
    """Strict mode fails on the same branch through Dynamo (its user stack gives the line); a Dim's range that the
    trace narrows is a constraint violation with export's suggested fix."""
    ns = {"__name__": "__main__"}
    report = run(STRICT_AND_DIM, ns).report
    assert ns["outcomes"] == ["Unsupported", "UserError"], "the cell's own exceptions, as plain Python raises them"
    gate, fold = report["exports"]
    assert (gate["mode"], gate["failure"]["kind"], gate["failure"]["line"]) == ("strict", "data_dependent", 7)
    assert gate["failure"]["code"] == "if x.sum() > 0:"
    f = fold["failure"]
    assert (f["kind"], f["exception"]) == ("constraint_violation", "UserError")
    assert f["suggested"] == ["feat = 8"], "export's own suggested fix"
    assert fold["line"] == 20 and len(report["exports"]) == 2, "strict export's inner torch._dynamo.export is not another call"
    # strict mode's Dynamo compiles are frames, as torch.compile's are: each strict call resets Dynamo (0/0 again)
    assert [c["compile_ids"] for c in report["exports"]] == [["0/0"], ["0/0@1"]]
    first, second = report["frames"]
    assert (first["compile_id"], first["status"], first["fail_type"]) == ("0/0", "error", "Unsupported")
    assert first["code"]["name"] == "forward" and first["code"]["filename"].endswith("functional_export.py"), (
        "the frame Dynamo traced is export's wrapper, which inlines the module's forward"
    )
    (gb,) = first["graph_breaks"]
    assert (gb["gb_type"], gb["line"]) == ("Data-dependent branching", 7), "the break at the user's line"
    assert first["original_bytecode"] and first["compile_time_s"] > 0
    assert (second["compile_id"], second["status"]) == ("0/0@1", "ok"), "Dynamo traced Fold; export then checked the Dims"
    fixes = {f["name"]: f for f in report["fixes"]}
    assert {"export_draft:0", "export_suggested:1", "export_dim_auto:1", "cond"} <= set(fixes)
    assert "export_non_strict:0" not in fixes, "a branch on data fails the same way in non-strict mode"
    assert fixes["export_suggested:1"]["code"].splitlines()[0] == "feat = 8"
    assert fixes["export_dim_auto:1"]["code"] == 'dynamic_shapes = {"x": {1: Dim.AUTO}}'
    assert {"compile_id": None, "kind": "export", "index": 0} in fixes["cond"]["targets"]


def test_a_strict_export_that_succeeds_is_a_frame_with_its_guards_and_bytecode():
    """A strict export's Dynamo compile goes through fullgraph_capture (no compile start callback, no bytecode
    hook): the run shows it as a frame all the same, its graph the compile's, its guards and bytecode Dynamo's."""
    src = EXPORTS.split("try:")[0] + (
        'ep = torch.export.export(Scale(), (torch.randn(4, 8),), dynamic_shapes={"x": {0: Dim("batch", min=2, max=64)}}, '
        "strict=True)\n"
    )
    report = run(src).report
    (call,) = report["exports"]
    assert call["outcome"] == "exported" and call["compile_ids"] == ["0/0"]
    (frame,) = report["frames"]
    assert frame["status"] == "ok" and frame["modified_bytecode"] and frame["original_bytecode"]
    kinds = {g["type"] for g in frame["guards"]}
    assert "TENSOR_MATCH" in kinds, kinds
    dynamo = [g for g in report["graphs"] if g["kind"] == "dynamo"]
    assert [g["compile_id"] for g in dynamo] == ["0/0"] and frame["graph_ids"] == [dynamo[0]["id"]]
    mul = next(n for n in dynamo[0]["nodes"] if n["op"] == "call_function" and "mul" in n["target"])
    assert mul["line"] == 20, "Dynamo's graph of the module's forward, at the cell's line"


TRY_EXPORT = """import torch
from torch.export import Dim


class Pair(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class Noisy(torch.nn.Module):
    def forward(self, x):
        import numpy

        return x * float(numpy.random.rand() * 0 + 2)


x, y = torch.randn(4, 8), torch.randn(4, 8)
shapes = {"x": {0: Dim("a"), 1: Dim("f")}, "y": {0: Dim("b")}}
outcomes = []
for call in (
    lambda: torch.export.export(Pair(), (x, y), dynamic_shapes=shapes),
    lambda: torch.export.export(Gate(), (torch.ones(4),)),
    lambda: torch.export.export(Noisy(), (torch.ones(4),), strict=True),
):
    try:
        outcomes.append(type(call()).__name__)
    except Exception as e:
        outcomes.append(type(e).__name__)
"""


@pytest.mark.parametrize(
    ("name", "index", "after"),
    [
        ("export_suggested:0", 0, ("exported", "non_strict", '{"x": {"0": "a", "1": 8}, "y": {"0": "a"}}')),
        ("export_dim_auto:0", 0, ("exported", "non_strict", '{"x": {"0": "Dim.AUTO", "1": "Dim.AUTO"}, "y": {"0": "Dim.AUTO"}}')),
        ("export_draft:1", 1, ("exported", "draft", None)),
        ("export_non_strict:2", 2, ("exported", "non_strict", None)),
    ],
)
def test_a_failed_exports_fix_runs_on_that_call_only(name, index, after):
    """--try export_*:N makes the run's N-th export call otherwise (its dynamic_shapes refined by export's suggested
    fixes or with Dim.AUTO, draft_export in its place, strict=False) and every other call as it came; the cell's
    own objects are left as they were."""
    ns = {"__name__": "__main__"}
    report = run(TRY_EXPORT, ns, try_fix=name).report
    tried = report["try_fix"]
    assert (tried["before"]["exports_failed"], tried["after"]["exports_failed"]) == (3, 2)
    calls = report["exports"]
    assert (calls[index]["outcome"], calls[index]["mode"], calls[index]["dynamic_shapes"]) == after
    assert [c["outcome"] for i, c in enumerate(calls) if i != index] == ["failed", "failed"], "the other calls as they came"
    assert ns["outcomes"][index] == "ExportedProgram"
    assert ns["shapes"]["x"][1].__name__ == "f", "the cell's own dynamic_shapes untouched"
    assert tried["change"].startswith(f"export call {index} of this run made with ")
    if name == "export_draft:1":
        (entry,) = calls[1]["draft"]
        assert (entry["kind"], entry["line"], entry["code"]) == ("DATA_DEPENDENT_ERROR", 12, "if x.sum() > 0:")


def test_torchs_export_is_put_back_and_nothing_of_the_users_is_held():
    import torch._dynamo.eval_frame
    import torch.export._draft_export
    import torch.export._trace

    before = (torch.export._trace._export, torch.export._draft_export.draft_export, torch._dynamo.export)
    ns = {"__name__": "__main__"}
    source = (
        "import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n        return x + 1\n"
        "m = M()\nep = torch.export.export(m, (torch.ones(2),))\n"
    )
    report = run(source, ns).report
    assert report["exports"][0]["outcome"] == "exported"
    assert (torch.export._trace._export, torch.export._draft_export.draft_export, torch._dynamo.export) == before
    held = [weakref.ref(ns.pop("m")), weakref.ref(ns.pop("ep"))]
    gc.collect()
    assert [r() for r in held] == [None, None], "the report keeps words and numbers, never the module or the program"
    assert isinstance(torch.export.export(torch.nn.ReLU(), (torch.ones(2),)), torch.export.ExportedProgram)


UNSUPPORTED_OP = """import torch


@torch.library.custom_op("dx_export_test::scramble", mutates_args=())
def scramble(x: torch.Tensor) -> torch.Tensor:
    return x.flip(0).clone()


class Mix(torch.nn.Module):
    def forward(self, x):
        y = scramble(x)
        return y + 1


outcomes = []
for strict in (False, True):
    try:
        torch.export.export(Mix(), (torch.randn(4),), strict=strict)
    except Exception as e:
        outcomes.append(type(e).__name__)
draft = torch.export.draft_export(Mix(), (torch.randn(4),))
"""


def test_an_op_without_a_fake_kernel_is_unsupported_in_either_mode_and_draft_export_places_it():
    """A custom op with no fake kernel: both modes fail at the user's line, as an unsupported op whose remedy is
    torch.library.register_fake; draft_export's MISSING_FAKE_KERNEL entry (only the op in torch's report) is placed at
    the line of the exported graph's node that calls it."""
    ns = {"__name__": "__main__"}
    report = run(UNSUPPORTED_OP, ns).report
    assert ns["outcomes"] == ["RuntimeError", "TorchRuntimeError"], "the cell's own exceptions, as plain Python raises them"
    non_strict, strict, draft = report["exports"]
    for call in (non_strict, strict):
        f = call["failure"]
        assert (f["kind"], f["line"], f["code"]) == ("unsupported", 11, "y = scramble(x)"), call["mode"]
        assert any("register_fake" in r for r in f["remedies"])
    (entry,) = draft["draft"]
    assert (entry["kind"], entry["op"], entry["line"], entry["code"]) == (
        "MISSING_FAKE_KERNEL",
        "dx_export_test.scramble.default",
        11,
        "y = scramble(x)",
    )


def _traced(source: str, tmp_path: Path) -> list[dict]:
    """``source`` run as plain Python with TORCH_DTRACE (TORCH_TRACE records no export), and its trace opened: a
    report a log."""
    program, trace_dir = tmp_path / "program.py", tmp_path / "dtrace"
    program.write_text(source)
    env = {k: v for k, v in os.environ.items() if k not in ("TORCH_TRACE", "TORCH_DTRACE")}
    done = subprocess.run(
        [sys.executable, str(program)], env={**env, "TORCH_DTRACE": str(trace_dir)}, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [o.report for o in read_trace([str(trace_dir)])]


def test_an_export_job_read_from_its_trace_tells_what_the_live_run_told(golden, tmp_path):
    """The golden's program run as plain Python with TORCH_DTRACE (TORCH_TRACE records no export), then opened: each
    export call with the live run's outcome, kind, user line and code, the exported program's signature, ranges,
    input checks and graph; draft_export's own log is a draft call. A Dim's name and export's suggested fixes are
    not in a trace."""
    opened = _traced(EXPORTS, tmp_path)
    for report in opened:
        assert report_errors(report) == []
    calls = [c for r in opened for c in r["exports"]]
    by_api = sorted(calls, key=lambda c: c["api"] != "torch.export.export")
    gate, scale, draft = by_api
    live_gate, live_scale, live_draft = golden["exports"]
    assert [(c["mode"], c["outcome"], c["module"]) for c in (gate, scale, draft)] == [
        ("non_strict", "failed", "Gate"),
        ("non_strict", "exported", "Scale"),
        ("draft", "exported", "?"),
    ]
    assert (gate["line"], scale["line"]) == (live_gate["line"], live_scale["line"]), "the user's line of each call"
    f, live_f = gate["failure"], live_gate["failure"]
    assert (
        (f["kind"], f["line"], f["code"])
        == (live_f["kind"], live_f["line"], live_f["code"])
        == ("data_dependent", 7, "if x.sum() > 0:")
    )
    assert scale["signature"] == live_scale["signature"]
    assert [{**r, "dim": None} for r in live_scale["ranges"]] == scale["ranges"], "the same ranges, less the Dim's name"
    assert scale["checks"] == [c for c in live_scale["checks"] if c["kind"] != "guard"]
    report = next(r for r in opened if scale in r["exports"])
    graph = report["graphs"][scale["graph_id"]]
    live_graph = golden["graphs"][live_scale["graph_id"]]
    assert (graph["kind"], graph["compile_id"]) == ("export", None)
    assert [(n["name"], n["op"], n["target"], n["line"]) for n in graph["nodes"]] == [
        (n["name"], n["op"], n["target"], n["line"]) for n in live_graph["nodes"]
    ], "the graph's nodes and their lines, as live"
    assert draft["graph_nodes"] == live_draft["graph_nodes"] and draft["ranges"] == live_draft["ranges"]


def test_a_strict_export_job_read_from_its_trace_tells_the_failures_line_and_the_program(tmp_path):
    """Strict mode from a trace: the failed call's user line from the reason Dynamo recorded (its compilation metrics
    name no user frame), and the exported program, as the live run (golden exports_strict) told them."""
    live = json.loads((GOLDEN.parent / "exports_strict.report.json").read_text())["exports"]
    (report,) = _traced(EXPORTS_STRICT, tmp_path)
    assert report_errors(report) == []
    gate, scale = report["exports"]
    assert [(c["mode"], c["outcome"]) for c in (gate, scale)] == [("strict", "failed"), ("strict", "exported")]
    f, live_f = gate["failure"], live[0]["failure"]
    assert (f["kind"], f["line"], f["function"], f["code"]) == (live_f["kind"], live_f["line"], "forward", live_f["code"])
    assert scale["signature"] == live[1]["signature"]
    assert [{**r, "dim": None} for r in live[1]["ranges"]] == scale["ranges"]


def test_tlparses_export_log_opens_into_its_draft_export_call():
    """tlparse's own export test log (a torch of January 2025: the signature printed as its repr, no export start
    record): its draft_export call, at the user's test line, with its signature, graph and unbacked symbols."""
    log = Path(__file__).resolve().parents[1] / "traces" / "tlparse" / "ezyang" / "export.log.gz"
    [opened] = read_trace([str(log)])
    (call,) = opened.report["exports"]
    assert (call["api"], call["mode"], call["outcome"]) == ("torch.export.draft_export", "draft", "exported")
    assert call["filename"].endswith("test/export/test_draft_export.py") and call["line"] == 184
    assert [(s["direction"], s["kind"], s["name"]) for s in call["signature"]] == [
        ("input", "USER_INPUT", "a"),
        ("input", "USER_INPUT", "b"),
        ("input", "USER_INPUT", "c"),
        ("output", "USER_OUTPUT", "slice_1"),
    ]
    assert [r["symbol"] for r in call["ranges"]][:3] == ["u0", "u1", "u2"] and call["ranges"][0]["max"] is None
    assert opened.report["graphs"][call["graph_id"]]["kind"] == "export" and call["graph_nodes"] == 29
