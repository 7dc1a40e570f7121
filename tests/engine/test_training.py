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


BACKWARD_ON_A_THREAD = """\
import threading
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

def step(x):
    return model(x).pow(2).mean()

for _ in range(3):
    loss = step(torch.randn(4, 8))
    t = threading.Thread(target=loss.backward)  # as autograd's device thread runs a CUDA backward
    t.start()
    t.join()
"""


def test_a_backward_compiled_and_run_on_another_thread_shows_its_code_and_its_calls(tmp_path):
    """Issue 28 item 1 on the CPU: AOTAutograd compiles the backward lazily, at its first call, on the thread that
    runs it. With a cold inductor cache (a warm one loads the backward at compile time, on the cell's thread, and
    hides the gap) the report holds the backward's code, its kernels and its compiled calls."""
    import json
    import os
    import subprocess
    import sys

    script = tmp_path / "step.py"
    script.write_text(BACKWARD_ON_A_THREAD)
    out = tmp_path / "r.json"
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {
        **os.environ,
        "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "inductor"),
        "PYTHONPATH": os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH")) if p),
    }
    cmd = [sys.executable, "-m", "dynamo_explorer", "run", str(script), "--backend", "inductor", "--profile", "--json", str(out)]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rep = json.loads(out.read_text())
    (frame,) = frames_named(rep, "step")
    code = {o["kind"]: o for o in rep["output_code"] if o["compile_id"] == frame["compile_id"]}
    assert set(code) == {"forward", "backward"}
    assert code["backward"]["kernels"] and all(k["aot_nodes"] for k in code["backward"]["kernels"])  # to AOT nodes
    assert any(p["name"] == "backward._backward_impl" for p in frame["phases"])  # the lazy compile's phases
    bwd = rep["profile"]["backward"]
    assert bwd["compiled_calls"] == 3 and bwd["other_thread_calls"] == 3 and bwd["compile_ms"] > 0
