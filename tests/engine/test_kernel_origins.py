"""Which FX nodes each inductor kernel computes ([Note: kernel origins] in collectors/output_code/output_code.py).

Real ``torch.compile`` with inductor on the CPU: a Linear + ReLU model called through a function. The ReLU
node is computed by a generated C++ kernel (``cpp_fused_relu_0``), the Linear node by an extern kernel
(``extern_kernels.addmm``), in the forward of a training step and in an inference run alike; the backward's
kernels name the post-grad nodes of the AOT backward graph. Parsing of the wrapper text is checked on its own
too (handles taken out, calls found, the comments inductor writes whatever the tracking level).
"""

from __future__ import annotations

import pytest
import torch
import torch._inductor.debug

from compiler.collectors.output_code.output_code import comment_origins, origins, split_kernels, take_handles
from compiler.model import Kernel

from .helpers import frames_named, run

MODEL = (
    "import torch\n\ntorch.manual_seed(0)\n"
    "model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU())\n\n"
    "def predict(x):\n    return model(x)\n\n"
)


def _dynamo_node(report: dict, compile_id: str, target_part: str) -> str:
    (graph,) = [g for g in report["graphs"] if g["compile_id"] == compile_id and g["kind"] == "dynamo"]
    (name,) = [n["name"] for n in graph["nodes"] if n["op"].startswith("call") and target_part in n["target"].lower()]
    return name


def _check_forward(report: dict, code: dict, compile_id: str) -> None:
    relu = _dynamo_node(report, compile_id, "relu")
    linear = _dynamo_node(report, compile_id, "linear")
    (relu_kernel,) = [k for k in code["kernels"] if relu in k["nodes"]]
    assert relu_kernel["name"].startswith("cpp_fused_") and "relu" in relu_kernel["name"]
    assert relu_kernel["language"] == "cpp" and "relu" in relu_kernel["aot_nodes"]
    lines = code["source"].split("\n")
    by_kernel = {c["kernel"]: c for c in code["calls"]}
    addmm = by_kernel["extern_kernels.addmm"]
    assert addmm["nodes"] == [linear] and "addmm" in addmm["aot_nodes"]
    assert lines[addmm["line"] - 1].strip().startswith("extern_kernels.addmm(")
    relu_call = by_kernel[relu_kernel["name"]]
    assert relu in relu_call["nodes"] and lines[relu_call["line"] - 1].strip().startswith(relu_kernel["name"] + "(")
    assert "Provenance debug handles" not in code["source"]  # taken out of the code the user reads


def test_inference_relu_is_a_cpp_kernel_and_linear_an_extern_addmm():
    rep = run(MODEL + "with torch.no_grad():\n    y = predict(torch.randn(4, 8))\n", backend="inductor").report
    (frame,) = frames_named(rep, "predict")
    (code,) = [o for o in rep["output_code"] if o["compile_id"] == frame["compile_id"]]
    assert code["kind"] == "inference"
    _check_forward(rep, code, frame["compile_id"])


def test_training_step_forward_and_backward_kernels_name_their_nodes():
    source = (
        MODEL + "def step(x):\n    loss = predict(x).sum()\n    loss.backward()\n    return loss\n\nstep(torch.randn(4, 8))\n"
    )
    rep = run(source, backend="inductor").report
    (frame,) = frames_named(rep, "step")
    codes = {o["kind"]: o for o in rep["output_code"] if o["compile_id"] == frame["compile_id"]}
    assert set(codes) == {"forward", "backward"}
    _check_forward(rep, codes["forward"], frame["compile_id"])
    (backward_graph,) = [g for g in rep["graphs"] if g["compile_id"] == frame["compile_id"] and g["kind"] == "aot_backward"]
    names = {n["name"] for n in backward_graph["nodes"]}
    backward = codes["backward"]
    assert backward["calls"] and all(c["aot_nodes"] and set(c["aot_nodes"]) <= names for c in backward["calls"])
    assert all(k["aot_nodes"] and not k["nodes"] for k in backward["kernels"])  # a backward computes no Dynamo node
    assert any(c["kernel"] == "extern_kernels.mm" for c in backward["calls"])
    # the run leaves inductor's settings as it found them
    assert torch._inductor.config.trace.provenance_tracking_level == 0
    assert torch._inductor.debug._pre_grad_graph_id is None


# --- the wrapper text, as inductor writes it (2.13, CPU) ---------------------------------------------------

WRAPPER = """# AOT ID: ['0_inference']
import torch
async_compile = AsyncCompile()


cpp_fused_relu_0 = async_compile.cpp_pybinding(['float*'], r\'\'\'
extern "C"  void  kernel(float* in_out_ptr0)
{
}
\'\'\')


# kernel path: /tmp/t.py
# Topologically Sorted Source Nodes: [input_2], Original ATen: [aten.relu]
# Source node to ATen node mapping:
#   input_2 => relu
triton_poi_fused_relu_1 = async_compile.triton('triton_poi_fused_relu_1', \'\'\'
@triton.jit
def triton_poi_fused_relu_1(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
\'\'\', device_str='cuda')


async_compile.wait(globals())

class Runner:
    def call(self, args):
        arg0_1, arg1_1, arg2_1 = args
        buf0 = empty_strided_cpu((4, 16), (16, 1), torch.float32)
        # Topologically Sorted Source Nodes: [input_1], Original ATen: [aten.t, aten.addmm]
        # [Provenance debug handles] extern_kernels.addmm:1
        extern_kernels.addmm(arg1_1, arg2_1, reinterpret_tensor(arg0_1, (8, 16), (1, 8), 0), alpha=1, beta=1, out=buf0)
        buf1 = buf0; del buf0  # reuse
        # [Provenance debug handles] cpp_fused_relu_0:2
        cpp_fused_relu_0(buf1)
        # Topologically Sorted Source Nodes: [input_2], Original ATen: [aten.relu]
        stream0 = get_raw_stream(0)
        triton_poi_fused_relu_1.run(buf1, 64, stream=stream0)
        return (buf1, )
"""
MAPPING = (
    {"extern_kernels.addmm:1": ["addmm"], "cpp_fused_relu_0:2": ["relu"]},
    {"permute": ["input_1"], "addmm": ["input_1"], "relu": ["input_2"]},
)


def test_handles_are_taken_out_and_each_names_its_call_line():
    text, handles = take_handles(WRAPPER)
    assert "Provenance" not in text and text.count("\n") == WRAPPER.count("\n") - 2
    lines = text.split("\n")
    assert [(key, kernel) for key, kernel, _ in handles] == [
        ("extern_kernels.addmm:1", "extern_kernels.addmm"),
        ("cpp_fused_relu_0:2", "cpp_fused_relu_0"),
    ]
    (_, _, addmm), (_, _, relu) = handles
    assert lines[addmm - 1].strip().startswith("extern_kernels.addmm(arg1_1")
    assert lines[relu - 1].strip() == "cpp_fused_relu_0(buf1)"


def test_source_node_comments_name_the_call_below_them():
    text, _ = take_handles(WRAPPER)
    found = comment_origins(text, split_kernels(WRAPPER))
    assert [(kernel, names) for kernel, _, names in found] == [
        ("extern_kernels.addmm", ["input_1"]),
        ("triton_poi_fused_relu_1", ["input_2"]),
    ]


def test_kernels_are_split_whatever_the_quote_prefix():
    kernels = split_kernels(WRAPPER)
    assert [(k.name, k.language) for k in kernels] == [("cpp_fused_relu_0", "cpp"), ("triton_poi_fused_relu_1", "triton")]
    assert kernels[0].source.startswith('extern "C"') and "@triton.jit" in kernels[1].source
    assert (kernels[1].nodes, kernels[1].aot_nodes) == (["input_2"], ["relu"])  # its definition's mapping comment


@pytest.mark.parametrize("with_mapping", [True, False], ids=["provenance", "comments only"])
def test_origins_from_provenance_or_from_comments(with_mapping):
    kernels = split_kernels(WRAPPER)
    dynamo = {"x": 0, "input_1": 1, "input_2": 2, "output": 3}
    aot = {"arg0_1": 0, "permute": 1, "addmm": 2, "relu": 3}
    text, calls = origins(WRAPPER, kernels, MAPPING if with_mapping else ({}, {}), dynamo, aot)
    got = {c.kernel: (c.nodes, c.aot_nodes) for c in calls}
    assert got["extern_kernels.addmm"][0] == ["input_1"]
    assert got["triton_poi_fused_relu_1"] == (["input_2"], [])
    if with_mapping:
        assert got["extern_kernels.addmm"] == (["input_1"], ["addmm"])
        assert got["cpp_fused_relu_0"] == (["input_2"], ["relu"])
        assert kernels[0].nodes == ["input_2"] and kernels[0].aot_nodes == ["relu"]
    else:  # a C++ kernel's call carries no comment: nothing is guessed
        assert got["cpp_fused_relu_0"] == ([], []) and kernels[0].nodes == []
    assert all(text.split("\n")[c.line - 1].strip().startswith(c.kernel) for c in calls)


def test_a_kernel_only_lists_nodes_of_the_graphs_it_belongs_to():
    kernel = Kernel(name="k", language="cpp", source="", nodes=["gone"], aot_nodes=[])
    origins("", [kernel], ({}, {}), {"x": 0}, {})
    assert kernel.nodes == []
