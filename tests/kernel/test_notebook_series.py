"""The teaching series (notebooks/series/): each notebook runs headless in a real kernel, and what it claims
holds on the real report, in the fresh run and in the outputs saved with it.

Each notebook keeps its reports in variables (``%%dynamo --out NAME``); ``CLAIMS`` holds, per notebook, the
checks of what its text says: the frames and graphs of the toy example, the guard on a list's length, the
symbols of a dynamic size, the captured-op counts, ... The saved outputs are refreshed by
``python notebooks/refresh.py`` (README).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from kernel_nb import MIME, REPO, execute, outputs, reports

from compiler.encoding import decode_report, is_encoded

SERIES = REPO / "notebooks" / "series"
NOTEBOOKS = sorted(SERIES.glob("[0-9][0-9]_*.ipynb"))
Reports = dict[str, dict]


def _reports(nb) -> Reports:
    """The report of each ``%%dynamo --out NAME`` cell, by NAME."""
    out: Reports = {}
    for cell in nb.cells:
        m = re.match(r"%%dynamo\b.*--out (\w+)", cell.source) if cell.cell_type == "code" else None
        if m:
            shown = reports(cell)
            assert len(shown) == 1, f"{m[1]}: {len(shown)} reports"
            data = shown[0].data[MIME]
            out[m[1]] = decode_report(data) if is_encoded(data) else data
    return out


def _frames(report: dict, name: str | None = None) -> list[dict]:
    return [f for f in report["frames"] if name is None or f["code"]["name"] == name]


def _dynamo_graphs(report: dict) -> list[dict]:
    return [g for g in report["graphs"] if g["kind"] == "dynamo"]


def _ops(graph: dict) -> list[str]:
    return [str(n["target"]) for n in graph["nodes"] if n["op"] in ("call_function", "call_method")]


def what_dynamo_does(r: Reports) -> None:
    toy = r["toy"]
    names = [f["code"]["name"] for f in toy["frames"]]
    assert names[0] == "toy_example" and len(names) == 3
    assert all(n.startswith("torch_dynamo_resume_in_toy_example") for n in names[1:])
    assert [(b["line"], b["gb_type"]) for f in toy["frames"] for b in f["graph_breaks"]] == [(4, "Data-dependent branching")]
    graphs = _dynamo_graphs(toy)
    assert len(graphs) == 3 and {"_operator.lt", "sum"} <= set(_ops(graphs[0]))
    calls = {i["argrepr"] for i in toy["frames"][0]["modified_bytecode"]}
    assert any("__compiled_fn" in a for a in calls) and sum("__resume_at" in a for a in calls) == 2
    guards = {(g["type"], g["source"]) for g in toy["frames"][0]["guards"]}
    assert {("TENSOR_MATCH", "L['a']"), ("TENSOR_MATCH", "L['b']")} <= guards
    assert guards & {("ID_MATCH", "G['torch']"), ("FUNCTION_MATCH", "G['torch']")}


def guards_and_recompiles(r: Reports) -> None:
    dtypes = r["dtypes"]
    failures = [g for f in dtypes["frames"] for x in f["recompile_reasons"] for g in x["failures"]]
    assert [(g["guard_type"], g["source"], g["property"], g["expected"], g["actual"]) for g in failures] == [
        ("TENSOR_MATCH", "L['x']", "dtype", "torch.float32", "torch.float64")
    ]
    (dispatch,) = dtypes["dispatch"]
    assert [e["compile_id"].split("/")[1] for e in dispatch["entries"]] == ["1", "0"]  # the newest entry is tried first
    assert [[g["value"] for g in e["distinguishing"]] for e in dispatch["entries"]] == [["torch.float64"], ["torch.float32"]]
    assert dispatch["fallback"]["action"] == "recompile"
    frames = r["shapes"]["frames"]
    assert len(frames) == 2 and "size mismatch at index 0. expected 4, actual 8" in frames[1]["recompile_reasons"][0]["reason"]
    assert [(a["source"], a["now"]) for a in frames[1]["automatic_dynamic"]] == [("L['x']", "size (?)")]


def inline_skip_allow(r: Reports) -> None:
    calls = r["calls"]
    first = calls["frames"][0]
    decided = {d["name"].split(".")[-1]: d for d in first["decisions"]}
    assert decided["helper"]["decision"] == "inline"
    assert decided["deepcopy"]["decision"] == "inline" and "BUILTIN_INLINE_WHEN_CALLED" in decided["deepcopy"]["rule"]
    assert decided["match"]["decision"] == "skip" and decided["match"]["outcome"] == "ok"  # skipped, evaluated on constants
    assert "skip directory" in decided["match"]["rule"]
    assert decided["opaque"]["decision"] == "allow_in_graph"
    eager = decided["eager_only"]
    assert eager["decision"] == "disabled" and eager["outcome"] == "graph_break" and eager["graph_break"] is not None
    targets = [t for g in _dynamo_graphs(calls) for t in _ops(g)]
    assert any("opaque" in t for t in targets) and not any("sin" in t for t in targets)  # one node, not traced into


def fixes(r: Reports) -> None:
    for name in ("item", "printing", "numpyish", "shapes"):
        plain, tried = r[name], r[f"{name}_fixed"]["try_fix"]
        assert tried["fix"]["name"] in [f["name"] for f in plain["fixes"]]
        assert tried["before_from"].startswith("the cell's previous run in this kernel (In [")
        assert (tried["before"]["graph_breaks"], tried["after"]["graph_breaks"]) == (1, 0)
        assert (tried["before"]["graphs"], tried["after"]["graphs"]) == (2, 1)
        assert tried["after"]["error"] is None


def debug_a_model(r: Reports) -> None:
    before, after = r["before"], r["after"]
    failures = [(g["source"], g["expected"]) for f in before["frames"] for x in f["recompile_reasons"] for g in x["failures"]]
    assert ("G['model'].config.problem_type", "None") in failures
    kinds = {b["gb_type"] for f in before["frames"] for b in f["graph_breaks"]}
    assert "Unsupported Tensor.backward() call" in kinds
    assert sum(len(f["recompile_reasons"]) for f in after["frames"]) == 0
    assert len(after["frames"]) < len(before["frames"])
    graphs = before["profile"]["graphs"]
    assert [g["total_ms"] for g in graphs] == sorted((g["total_ms"] for g in graphs), reverse=True)  # ranked by time


def closures(r: Reports) -> None:
    whole = r["closures"]
    assert [(f["code"]["name"], len(f["graph_breaks"])) for f in whole["frames"]] == [("outer", 0)]
    assert len(_dynamo_graphs(whole)) == 1 and len(_ops(_dynamo_graphs(whole)[0])) >= 4  # both calls of scale inlined
    broken = r["broken"]
    names = [f["code"]["name"] for f in broken["frames"]]
    assert "scale" in names and len(names) > 2 and any(n.startswith("torch_dynamo_resume_in_outer") for n in names)
    stacks = [b["user_stack"] for f in broken["frames"] for b in f["graph_breaks"]]
    assert stacks and all(s[-1]["name"] == "scale" and s[-1]["line"] == 4 for s in stacks)
    assert any(len(s) >= 2 and s[-2]["name"] == "outer" for s in stacks)  # the break is inside the inlined closure


def list_mutations(r: Reports) -> None:
    step = _frames(r["appending"], "step")
    assert [f["compile_id"].split("/")[1] for f in step] == ["0", "1", "2", "3"]  # 4 calls, 4 compiles
    for n, frame in enumerate(step[1:], start=1):  # each recompile: the guard on the length of the list
        first = next(x for x in frame["recompile_reasons"] if x["failed_compile_id"] == step[n - 1]["compile_id"])
        expected = "not G['history']" if n == 1 else f"len(G['history']) == {n - 1}"
        assert first["reason"].startswith(expected), first["reason"]
    outside = r["outside"]
    assert [len(f["recompile_reasons"]) for f in _frames(outside, "step")] == [0]


def dynamic_shapes(r: Reports) -> None:
    sizes = r["sizes"]
    frames = _frames(sizes, "double")
    assert len(frames) == 2 and "size mismatch at index 0. expected 4, actual 6" in frames[1]["recompile_reasons"][0]["reason"]
    assert [(s["source"], s["range"]) for s in sizes["symbols"]] == [("L['x'].size()[0]", "[2, int_oo]")]
    marked = r["marked"]
    assert len(_frames(marked, "double")) == 1 and [s["source"] for s in marked["symbols"]] == ["L['x'].size()[0]"]
    branchy = r["branchy"]
    assert len(_frames(branchy, "pad_or_cut")) == 3
    assert any("<= 5" in g["expr"] for g in branchy["shape_guards"])


def coverage(r: Reports) -> None:
    def table(name: str) -> dict:
        return r[name]["profile"]["coverage"]

    assert {k: table("whole")[k] for k in ("graph_calls", "captured_ops", "total_ops")} == {
        "graph_calls": 10,
        "captured_ops": 30,
        "total_ops": 30,
    }
    assert table("whole")["pct_ops"] == 1.0 and table("whole")["pct_time"] > 0.9
    split = table("split")
    assert (split["graph_calls"], split["captured_ops"], split["total_ops"]) == (20, 30, 50) and split["pct_ops"] == 0.6
    assert 0.0 < split["pct_time"] < 1.0
    assert table("numpyish")["graph_calls"] == 10 and table("numpyish")["pct_ops"] == 1.0  # numpy traced into the graph


def numerics(r: Reports) -> None:
    (bf16,) = r["bf16"]["numerics"]["graphs"]
    (out,) = bf16["outputs"]
    assert bf16["verdict"] == "differs_no_worse" and out["compiled_error"] < out["eager_error"]
    assert out["max_abs"] > 1e-2, "far beyond bfloat16's tolerance of eager, and still no bug"
    f, g = r["planted"]["numerics"]["graphs"]
    assert (f["verdict"], f["outputs"][0]["eager_error"]) == ("worse_than_eager", 0.0)
    assert f["location"] == {"backend": "inductor", "subsystem": "post_grad_passes", "detail": "post_grad_custom_post_pass"}
    assert f["first_node"] == "mul"
    assert g["verdict"] == "matches"


CLAIMS: dict[str, Callable[[Reports], None]] = {
    "01_what_dynamo_does_to_a_function": what_dynamo_does,
    "02_guards_and_recompiles": guards_and_recompiles,
    "03_closures_and_multiple_graphs": closures,
    "04_list_mutations": list_mutations,
    "05_inline_skip_allow_in_graph": inline_skip_allow,
    "06_graph_breaks_you_can_fix": fixes,
    "07_dynamic_shapes": dynamic_shapes,
    "08_how_much_did_dynamo_capture": coverage,
    "09_debug_your_own_model": debug_a_model,
    "10_why_compiled_numbers_differ": numerics,
}


def test_every_notebook_of_the_series_has_its_claims_checked():
    assert {p.stem for p in NOTEBOOKS} == set(CLAIMS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_saved_outputs_are_complete_short_and_hold_the_claims(path: Path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert 5 <= len(nb.cells) <= 15
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "run: python notebooks/refresh.py"
    assert [n for c in code for n in ("USDT", "Traceback") if any(n in o.get("text", "") for o in c.outputs)] == []
    assert all(outputs(c, "error") == [] for c in code)
    CLAIMS[path.stem](_reports(nb))


@pytest.mark.kernel
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_a_real_kernel_and_its_claims_hold(path: Path, kernel_name):
    nb = execute(None, kernel_name, nb=nbformat.read(path, as_version=4))
    assert all(outputs(c, "error") == [] for c in nb.cells if c.cell_type == "code")
    CLAIMS[path.stem](_reports(nb))
