"""A training step through real inductor (CPU): AOT forward/backward graphs and generated C++."""

from __future__ import annotations

from tests.goldens.cases import CASES

from .helpers import frames_named, run


def test_training_step_shows_aot_graphs_and_inductor_code():
    rep = run(CASES["training_step"]["source"], backend="inductor").report
    (step,) = frames_named(rep, "train_step")
    kinds = [rep["graphs"][g]["kind"] for g in step["graph_ids"]]
    assert kinds[0] == "dynamo" and {"aot_joint", "aot_forward", "aot_backward"} <= set(kinds)
    fw = next(rep["graphs"][g] for g in step["graph_ids"] if rep["graphs"][g]["kind"] == "aot_forward")
    assert any(n["target"].startswith("torch.ops.aten.") for n in fw["nodes"])
    assert any(n["op"] == "placeholder" and n["dtype"] == "float32" for n in fw["nodes"])
    code = {o["kind"]: o for o in rep["output_code"] if o["compile_id"] == step["compile_id"]}
    assert set(code) == {"forward", "backward"}
    kernel = code["forward"]["kernels"][0]
    assert kernel["language"] == "cpp" and 'extern "C"' in kernel["source"]
    assert "def call(" in code["forward"]["source"]
    assert step["compile_time_s"] > 0 and any(p["name"] == "OutputGraph.call_user_compiler" for p in step["phases"])
