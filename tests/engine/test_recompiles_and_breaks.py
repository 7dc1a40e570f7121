"""Recompiles (dtype, list length), `.item()` breaks, dynamic shapes, breaks inside inlined callees."""

from __future__ import annotations

from tests.goldens.cases import CASES

from .helpers import frames_named, run


def test_float64_after_float32_recompiles_naming_the_dtype():
    rep = run(CASES["recompile_dtype"]["source"]).report
    first, second = frames_named(rep, "scale")
    assert second["status"] == "recompile"
    (reason,) = second["recompile_reasons"]
    assert reason["failed_compile_id"] == first["compile_id"]
    assert "dtype mismatch" in reason["reason"] and "Double" in reason["reason"]


def test_list_append_recompiles_on_every_length():
    """The over-specialisation fixed upstream in PyTorch PR #178426, still present in 2.13."""
    rep = run(CASES["list_append"]["source"]).report
    chain = frames_named(rep, "accumulate")
    assert len(chain) == 4
    assert [len(f["recompile_reasons"]) for f in chain] == [0, 1, 2, 3]
    assert "not items" in chain[1]["recompile_reasons"][0]["reason"]
    assert "len(items) == 1" in chain[2]["recompile_reasons"][0]["reason"]


def test_item_break_has_explanation_and_hint():
    result = run(CASES["item_break"]["source"])
    (frame,) = frames_named(result.report, "normalize")
    (brk,) = frame["graph_breaks"]
    assert brk["gb_id"] == "GB0124" and "item()" in brk["gb_type"]
    assert brk["line"] == 4 and "capture_scalar_outputs" in brk["explanation"]
    assert any("capture_scalar_outputs = True" in h for h in brk["hints"])


def test_sizes_8_16_32_recompile_then_dynamic_symbol_from_the_input_size():
    rep = run(CASES["dynamic_sizes"]["source"]).report
    _static, dynamic = frames_named(rep, "scaled_relu")
    assert "size mismatch" in dynamic["recompile_reasons"][0]["reason"]
    (sym,) = [s for s in rep["symbols"] if s["compile_id"] == dynamic["compile_id"]]
    assert sym["source"] == "L['x'].size()[0]" and sym["value"] == "16" and sym["range"].startswith("[2")
    assert any(g["expr"] == "2 <= L['x'].size()[0]" for g in rep["shape_guards"] if g["compile_id"] == dynamic["compile_id"])
    (graph,) = [rep["graphs"][g] for g in dynamic["graph_ids"]]
    assert any(isinstance(d, str) for n in graph["nodes"] for d in (n["shape"] or []))


def test_break_inside_an_inlined_callee_is_reported_with_the_full_stack():
    src = "import torch\n\ndef inner(x):\n    torch._dynamo.graph_break()\n    return x + 1\n\ndef outer(x):\n    return inner(x * 2) - 1\n\nv = outer(torch.randn(3))\n"
    rep = run(src).report
    (outer,) = frames_named(rep, "outer")
    (brk,) = outer["graph_breaks"]
    assert [(fs["name"], fs["line"]) for fs in brk["user_stack"]] == [
        ("<module>", 10),
        ("outer", 8),
        ("inner", 4),
    ]  # from the cell line that called outer
    assert frames_named(rep, "inner"), "the callee is compiled as a frame of its own after the break"


def test_recompile_limit_hit_is_reported():
    result = run(CASES["list_append"]["source"], recompile_limit=2)
    (diag,) = [d for d in result.report["diagnostics"] if d["kind"] == "recompile_limit"]
    assert "recompile_limit (2)" in diag["message"] and "accumulate (" in diag["message"]
    assert any("hit config.recompile_limit" in log["message"] for log in result.report["logs"])
    chain = frames_named(result.report, "accumulate")
    assert [f["status"] for f in chain][:2] == ["ok", "recompile"] and len(chain) <= 3
