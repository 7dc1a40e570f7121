"""DDP's graph splits (issue 25 item 3, [Note: DDP splits]): a frame compiled inside a DistributedDataParallel forward
goes to the backend in pieces, cut by DDPOptimizer at DDP's bucket boundaries.

One process (gloo, world size 1: DDP and DDPOptimizer behave as on every rank of a job), in this test's process: a
user's module of four Linear layers (2.1 MB of parameters) under ``DDP(bucket_cap_mb=1)``. The report must hold
the whole Dynamo graph, the split graph and the three pieces the backend compiled, each with its parameters and
their bytes (every parameter in one piece, the pieces as DDP's 1 MB buckets fill), and a ``TORCH_TRACE`` of the same
run, opened afterwards, must tell the same split.
"""

from __future__ import annotations

import socket

import pytest
import torch.distributed as dist

from compiler.trace import read_trace, trace_report
from kernel_ext.static_html import render
from tests.engine.helpers import run

CELL = """\
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(16, 512), torch.nn.ReLU(),
            torch.nn.Linear(512, 512), torch.nn.ReLU(),
            torch.nn.Linear(512, 512), torch.nn.ReLU(),
            torch.nn.Linear(512, 4),
        )

    def forward(self, x):
        return self.layers(x)


torch.manual_seed(0)
ddp = DDP(MLP(), bucket_cap_mb=1)


def step(x):
    return ddp(x).square().mean()


loss = step(torch.randn(8, 16))
loss.backward()
"""


@pytest.fixture
def one_rank_group():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1)
    try:
        yield
    finally:
        dist.destroy_process_group()


def _params(cell_ns) -> dict[str, int]:
    return {name: p.numel() * p.element_size() for name, p in cell_ns["ddp"].module.named_parameters()}


def test_a_ddp_forward_is_split_at_its_buckets_and_each_piece_is_the_graph_the_backend_got(one_rank_group, tmp_path):
    trace_dir = tmp_path / "trace"
    # what TORCH_TRACE=DIR installs when torch sets its logging up (torch._logging._internal._init_logs), for this run
    from torch._logging._internal import LazyTraceHandler, TorchLogsFormatter, trace_log

    handler = LazyTraceHandler(str(trace_dir))
    handler.setFormatter(TorchLogsFormatter(trace=True))
    trace_log.addHandler(handler)
    try:
        ns: dict = {"__name__": "__main__"}
        report = run(CELL, ns).report
    finally:
        trace_log.removeHandler(handler)
        handler.close()
    assert float(ns["loss"].detach()) >= 0 and all(p.grad is not None for p in ns["ddp"].parameters())

    [split] = report["ddp_splits"]
    assert split["bucket_cap_bytes"] == 1 << 20
    names = [s["name"] for s in split["submodules"]]
    assert names == ["submod_0", "submod_1", "submod_2"]
    graphs = {g["id"]: g for g in report["graphs"]}
    frame_graphs = [graphs[i] for i in next(f for f in report["frames"] if f["compile_id"] == split["compile_id"])["graph_ids"]]
    # the whole graph as Dynamo traced it, the split graph calling each piece in turn, and the pieces
    assert sorted(g["kind"] for g in frame_graphs) == ["ddp_split_child"] * 3 + ["ddp_split_graph", "dynamo"]
    outer = graphs[split["graph_id"]]
    assert [n["target"] for n in outer["nodes"] if n["op"] == "call_module"] == names
    whole = next(g for g in frame_graphs if g["kind"] == "dynamo")
    linears = [n for n in whole["nodes"] if n["target"].endswith("linear")]
    assert len(linears) == 4
    pieces = [graphs[s["graph_id"]] for s in split["submodules"]]
    assert [g["name"] for g in pieces] == names and all(g["kind"] == "ddp_split_child" for g in pieces)
    assert sum(sum(n["target"].endswith("linear") for n in g["nodes"]) for g in pieces) == 4

    # every parameter in exactly one piece, with its bytes; the pieces in forward order: the first layer first
    sizes = _params(ns)
    got = [p for s in split["submodules"] for p in s["parameters"]]
    assert sum(p["bytes"] for p in got) == sum(sizes.values()) == sum(s["bytes"] for s in split["submodules"])
    assert len(got) == len(sizes) == 8
    assert "modules_0_parameters_weight" in split["submodules"][0]["parameters"][0]["name"]
    # DDP's buckets are filled backwards from the last layer and closed once they hold the cap: every piece but the
    # first (the remainder) holds at least 1 MB, the first less: layer 0 | layer 2 | layers 4 and 6
    assert [s["bytes"] >= 1 << 20 for s in split["submodules"]] == [False, True, True]
    assert [len(s["parameters"]) for s in split["submodules"]] == [2, 2, 4]

    # the same run's TORCH_TRACE, opened afterwards: the same split (the trace does not record the cap)
    opened = trace_report(read_trace([str(trace_dir)]))
    [traced] = opened["ddp_splits"]
    assert traced["bucket_cap_bytes"] is None
    assert [(s["name"], s["bytes"], [p["name"] for p in s["parameters"]]) for s in traced["submodules"]] == [
        (s["name"], s["bytes"], [p["name"] for p in s["parameters"]]) for s in split["submodules"]
    ]
    assert [g["kind"] for g in opened["graphs"] if g["compile_id"] == traced["compile_id"]].count("ddp_split_child") == 3

    page = render(report)
    assert "DDPOptimizer split" in page and "submod_2" in page
