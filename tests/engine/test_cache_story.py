"""The cache story of every compile (issue 41 item 3; [Note: cache story] in compiler/collectors/caches/): inductor's FX
graph cache and AOTAutograd's cache, hit, miss or bypass, and for a miss the key components whose HASH differs from the
nearest earlier entry of the same code, with the lines that changed; live (the collector, on the run's stream) and
from a structured trace (the same reader), in one line of the engine's words a compile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.collectors.caches.cache_guards import check
from compiler.collectors.caches.cache_story import attach, cache_line, read
from compiler.events import TraceEvent
from compiler.model import CodeInfo, CompileReport, Frame, Graph, Node, Symbol

REPO = Path(__file__).resolve().parents[2]

# issue 41's acceptance cell: a miss, a hit, a miss whose graph changed (S), a bypass (a custom pass)
CELL = """import torch
S = 2.0
def f(x): return (x * S).relu()
x = torch.randn(8)
f(x); torch._dynamo.reset(); f(x)
S = 3.0; torch._dynamo.reset(); f(x)
torch._inductor.config.post_grad_custom_post_pass = lambda g: None; torch._dynamo.reset(); f(x)
"""


def _event(cid: str, cache: str, status: str, **payload: object) -> TraceEvent:
    return TraceEvent(f"artifact:{cache}_cache_{status}", cid, 0, {}, json.dumps(payload), None)


def _report(*ids: str) -> CompileReport:
    report = CompileReport(
        torch_version="",
        python_version="",
        device="cpu",
        backend="inductor",
        options={},
        scope="cell",
        scope_reason="",
        cell={"filename": "cell.py", "source": ""},
    )
    code = CodeInfo(name="f", filename="cell.py", firstlineno=3, is_resume=False, in_cell=True)
    report.frames = [Frame(compile_id=i, attempt=0, status="ok", code=code) for i in ids]
    return report


def test_a_miss_names_the_components_whose_hash_changed_never_a_text_that_differs_alone():
    decomp_a = "[samehash] fx_kwargs[get_decomp_fn]: <function select_decomp_table at 0x7f01>"
    decomp_b = "[samehash] fx_kwargs[get_decomp_fn]: <function select_decomp_table at 0x7f99>"
    gm = "[{h}] gm: def forward(self, arg0_1):\n    mul = torch.ops.aten.mul.Tensor(arg0_1, {s});  arg0_1 = None\n    return (mul,)"
    events = [
        _event(
            "0/0",
            "fx_graph",
            "miss",
            cache_status_detailed="full_miss",
            key="k1",
            components=[gm.format(h="g1", s="2.0"), decomp_a],
        ),
        _event(
            "0/0@1",
            "fx_graph",
            "hit",
            cache_status_detailed="hit",
            key="k1",
            time_saved_ns=2.5e9,
            components=[gm.format(h="g1", s="2.0"), decomp_b],
        ),
        _event(
            "0/0@2",
            "fx_graph",
            "miss",
            cache_status_detailed="full_miss",
            key="k2",
            components=[gm.format(h="g2", s="3.0"), decomp_b],
        ),
        _event(
            "0/0@3",
            "aotautograd",
            "bypass",
            cache_bypass_reason="Unsupported post grad custom pass",
            cache_bypass_exception_type="BypassAOTAutogradCache",
        ),
    ]
    report = _report("0/0", "0/0@1", "0/0@2", "0/0@3")
    attach(report, read(events))
    first, hit, changed, bypass = (f.caches[0] for f in report.frames)
    assert (first.status, first.detail, first.compared_with, first.differs) == ("miss", "full_miss", None, [])
    assert hit.time_saved_ms == 2500.0 and hit.differs == [], "a hit is not compared"
    assert changed.compared_with == "0/0@1"
    (diff,) = changed.differs  # get_decomp_fn's text differs (an address), its hash does not
    assert (diff.component, diff.before, diff.after) == ("gm", "g1", "g2")
    assert diff.lines == [
        "- mul = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None",
        "+ mul = torch.ops.aten.mul.Tensor(arg0_1, 3.0);  arg0_1 = None",
    ]
    assert (bypass.reason, bypass.exception_type, bypass.key) == (
        "Unsupported post grad custom pass",
        "BypassAOTAutogradCache",
        None,
    )
    assert [cache_line(f.caches) for f in report.frames] == [
        "inductor miss (full_miss)",
        "inductor hit (2.5 s saved)",
        "inductor miss (full_miss): gm differs from [0/0@1]",
        "AOT bypass: Unsupported post grad custom pass (BypassAOTAutogradCache)",
    ]


def test_another_code_or_another_cache_is_never_the_entry_compared_with():
    events = [
        _event("0/0", "fx_graph", "miss", components=["[a] gm: x"]),
        _event("1/0", "fx_graph", "miss", components=["[b] gm: y"]),  # another function
        _event("1/0", "aotautograd", "miss", components=["[c] gm: y"]),  # another cache
    ]
    report = _report("0/0", "1/0")
    report.frames[1].code = CodeInfo(name="g", filename="cell.py", firstlineno=9, is_resume=False, in_cell=True)
    attach(report, read(events))
    assert [c.compared_with for f in report.frames for c in f.caches] == [None, None, None]


def test_a_trace_whose_compile_ids_repeat_places_each_record_in_its_own_compile():
    metrics = TraceEvent("compilation_metrics", "0/0", 0, {}, None, None)
    events = [_event("0/0", "fx_graph", "miss"), metrics, _event("0/0", "fx_graph", "hit"), metrics]
    report = _report("0/0", "0/0")
    attach(report, read(events))
    assert [[c.status for c in f.caches] for f in report.frames] == [["miss"], ["hit"]]


# a guard miss: the same graph (x * 2) compiled for s77 >= 5, then after a reset for s77 = 3 (issue 41 item 3)
GUARD_CELL = """import torch
def f(x, y):
    if x.shape[0] > 4:
        return (x * 2).relu() + y.sum()
    return (x * 2).relu() + y.sum()
g = torch.compile(f, dynamic=True)
g(torch.randn(8), torch.randn(5, 6))
torch._dynamo.reset()
g(torch.randn(3), torch.randn(5, 7))
"""
TORCH_GUARDS = "L['t1']*L['t2'] <= 4096 and 5 <= L['t0'] and 2 <= L['t1'] and 2 <= L['t2']"  # torch 2.13's own


def test_a_guard_expression_is_evaluated_conjunct_by_conjunct_in_the_frames_symbols():
    checked = check(TORCH_GUARDS, ["s77", "s17", "s94"], {"s77": 3, "s17": 5, "s94": 7})
    assert checked.expr == "s17*s94 <= 4096 and 5 <= s77 and 2 <= s17 and 2 <= s94"
    assert (checked.failed, checked.hints) == (["5 <= s77"], {"s77": 3, "s17": 5, "s94": 7})
    big = check(TORCH_GUARDS, ["s77", "s17", "s94"], {"s77": 3, "s17": 500, "s94": 70})
    assert big.failed == ["s17*s94 <= 4096", "5 <= s77"]
    printer = "(L['t0'] % 16) == 0 and L['t0'] // 2 == math.floor(L['t0'] / 2) and max(L['t0'], 1) ** 2 >= 1"
    assert check(printer, ["s0"], {"s0": 24}).failed == ["(s0 % 16) == 0"], "what torch's PythonPrinter writes"


def test_a_guard_expression_is_never_run_and_what_cannot_be_evaluated_is_said(tmp_path):
    mark = tmp_path / "ran"
    hostile = f"5 <= L['t0'] and open({str(mark)!r}, 'w') and L['t0'] < 9"
    checked = check(hostile, ["s0"], {"s0": 3})
    assert checked.failed == ["5 <= s0"] and not mark.exists(), "only arithmetic is evaluated, never a call of the trace's"
    assert check("5 <= L['t0']", [], {}).failed is None, "no symbol known for t0: not evaluated"
    assert check("IsNonOverlappingAndDenseIndicator(L['t0']) == 1", ["s0"], {"s0": 3}).failed is None
    assert check("5 <= L['t0'", ["s0"], {"s0": 3}).failed is None, "not Python: shown as torch wrote it"


def test_a_guard_miss_names_its_failing_guards_with_the_compiles_hints():
    inputs = ["[h0] example_inputs[0]: ('s77',)", "[h1] example_inputs[1]: TensorMetadata(shape=[s77])"]
    events = [
        _event("0/0", "fx_graph", "miss", cache_status_detailed="full_miss", components=["[g] gm: x", *inputs]),
        _event(
            "0/0@1",
            "fx_graph",
            "miss",
            cache_status_detailed="guard_miss",
            cache_status_guard_expr="5 <= L['t0'] and 2 <= L['t0']",
            components=["[g] gm: x", *inputs],
        ),
        # AOTAutograd's components on torch 2.15 name its inputs s_0: t0 is the Dynamo graph's first Sym placeholder
        _event(
            "0/0@1",
            "aotautograd",
            "miss",
            cache_status_detailed="guard_miss",
            cache_status_guard_expr="5 <= L['t0']",
            components=["[a] gm: y", "[h2] example_inputs[0]: ('s_0',)"],
        ),
    ]
    report = _report("0/0", "0/0@1")
    report.symbols = [
        Symbol(compile_id="0/0", symbol="s77", source="L['x'].size()[0]", value="8", range="[2, int_oo]", line=3),
        Symbol(compile_id="0/0@1", symbol="s77", source="L['x'].size()[0]", value="3", range="[2, int_oo]", line=3),
    ]
    node = dict(target="", args="", kwargs="", users=[], line=None, filename=None, nn_module_stack=[])
    report.graphs = [
        Graph(
            id=0,
            compile_id="0/0@1",
            kind="dynamo",
            name=None,
            code="",
            nodes=[
                Node(name="s77", op="placeholder", shape=None, dtype="Sym", **node),
                Node(name="L_x_", op="placeholder", shape=["s77"], dtype="float32", **node),
            ],
        )
    ]
    attach(report, read(events))
    inductor, aot = report.frames[1].caches
    assert (inductor.guard_expr, inductor.guard_hints, inductor.guard_failed) == (
        "5 <= s77 and 2 <= s77",
        {"s77": 3},
        ["5 <= s77"],
    )
    assert (aot.guard_expr, aot.guard_failed) == ("5 <= s77", ["5 <= s77"])
    assert cache_line(report.frames[1].caches) == (
        "inductor miss (guard_miss: 5 <= s77 is false for s77 = 3) → AOT miss (guard_miss: 5 <= s77 is false for s77 = 3)"
    )
    assert report.frames[0].caches[0].guard_expr is None, "a full miss has no entry's guards"


def _inductor_run(tmp: Path, cell: str) -> tuple[dict, subprocess.CompletedProcess]:
    """``cell`` through ``dynamo-explorer run`` with inductor and a fresh cache in ``tmp``, its structured trace kept
    in ``tmp / 'trace'``: the report and the process."""
    (tmp / "cell.py").write_text(cell)
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp / "inductor"), "TORCH_TRACE": str(tmp / "trace")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", "cell.py", "--backend", "inductor", "--json", "r.json"],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((tmp / "r.json").read_text()), proc


@pytest.fixture(scope="module")
def cache_run(tmp_path_factory):
    """The acceptance cell through ``dynamo-explorer run`` with inductor and a fresh cache, its structured trace kept."""
    tmp = tmp_path_factory.mktemp("cache")
    report, proc = _inductor_run(tmp, CELL)
    return tmp, report, proc


def test_live_a_miss_then_a_hit_then_a_miss_naming_gm_then_a_bypass(cache_run):
    _, report, proc = cache_run
    stories = [f["cache_story"] for f in report["frames"]]
    assert [f["compile_id"] for f in report["frames"]] == ["0/0", "0/0@1", "0/0@2", "0/0@3"]
    assert stories[0] == "AOT miss (full_miss) → inductor miss (full_miss)"
    assert "inductor hit (" in stories[1] and "AOT hit (" in stories[1] and "saved" in stories[1]
    assert stories[2] == "AOT miss (full_miss): gm differs from [0/0@1] → inductor miss (full_miss): gm differs from [0/0@1]"
    assert "AOT bypass: Unsupported post grad custom pass (BypassAOTAutogradCache)" in stories[3]
    assert "inductor bypass: Unsupported post grad custom pass" in stories[3]
    inductor = next(c for c in report["frames"][2]["caches"] if c["cache"] == "fx_graph")
    assert [d["component"] for d in inductor["differs"]] == ["gm"], "not fx_kwargs[get_decomp_fn]: its hash is the same"
    assert any("3.0" in line and line.startswith("+ ") for line in inductor["differs"][0]["lines"])
    aot = next(c for c in report["frames"][2]["caches"] if c["cache"] == "aotautograd")
    assert aot["components"], "AOTAutograd's components exist: its logger was at DEBUG for the run"
    assert "hash details" not in proc.stderr + proc.stdout, "quietly: the DEBUG records were not printed"
    assert report["diagnostics"] == []


def test_from_its_trace_the_same_story(cache_run):
    from compiler.trace import read_trace, trace_report

    tmp, live, _ = cache_run
    report = trace_report(read_trace([str(tmp / "trace")]), None)
    statuses = [(c["cache"], c["status"]) for c in report["trace"]["caches"]]
    assert statuses == [(c["cache"], c["status"]) for f in live["frames"] for c in f["caches"]]
    differs = [d["component"] for f in report["frames"] for c in f["caches"] for d in c["differs"]]
    assert differs == ["gm", "gm"], "the trace's reader is the live one: gm, for both caches"


@pytest.fixture(scope="module")
def guard_run(tmp_path_factory):
    """GUARD_CELL through ``dynamo-explorer run`` with inductor and a fresh cache, its structured trace kept."""
    tmp = tmp_path_factory.mktemp("guard")
    return tmp, _inductor_run(tmp, GUARD_CELL)[0]


def test_live_and_from_its_trace_a_guard_miss_says_which_guard_failed_for_which_hint(guard_run):
    from compiler.trace import read_trace, trace_report

    tmp, live = guard_run
    assert [f["compile_id"] for f in live["frames"]] == ["0/0", "0/0@1"]
    words = "guard_miss: 5 <= s77 is false for s77 = 3"
    assert live["frames"][1]["cache_story"] == f"AOT miss ({words}) → inductor miss ({words})"
    for c in live["frames"][1]["caches"]:
        assert c["detail"] == "guard_miss" and c["guard_failed"] == ["5 <= s77"]
        assert c["guard_hints"] == {"s77": 3, "s17": 5, "s94": 7} and "L['t" not in c["guard_expr"]
    traced = trace_report(read_trace([str(tmp / "trace")]), None)
    assert words in (traced["frames"][-1]["cache_story"] or ""), "the trace's reader is the live one"
