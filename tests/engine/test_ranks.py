"""Issue 25 items 2-4: real torchrun jobs (gloo, 2 processes on this CPU), read back rank by rank and side by side.

- A plain ``torchrun`` job with ``TORCH_TRACE`` and nothing of ours, opened afterwards: rank 1 alone gets a new
  shape, so rank 1 alone recompiles ``[0/1]``; the first divergence names it and the guard that failed there.
- ``dynamo-explorer run --nproc 2`` on a DDP training step with small buckets (DDPOptimizer splits its forward in
  three pieces: live and in each rank's trace), and on an FSDP2 (``fully_shard``)
  step, with ``TORCH_TRACE`` set too: every rank's report names exactly the compile ids of that rank's own
  ``compilation_metrics``, and the ranks compile alike.
- ``run --nproc 2`` on a job that first issues two collectives in a rank-dependent order (the first divergence:
  collective #1 differs, both ranks' sequences aligned), then takes a rank-dependent branch: the same compile id
  traces another graph on rank 1, and the divergence of that compile holds the diff of the two graphs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.ranks import first_divergence, rank_pages
from compiler.schema import validate_report
from compiler.trace import read_trace, trace_report
from kernel_ext.static_html import render

REPO = Path(__file__).resolve().parents[2]

SHAPE_ON_ONE_RANK = """\
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()


def step(x):
    return (x.sin() * 2).sum()


cstep = torch.compile(step, backend="eager")
cstep(torch.randn(4))
cstep(torch.randn(4 if rank == 0 else 6))  # rank 1 alone: a new shape
t = torch.ones(1)
dist.all_reduce(t)
dist.destroy_process_group()
"""

DDP_STEP = """\
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)


class MLP(torch.nn.Module):  # a module of the user's: its forward is a frame Dynamo compiles inside DDP's forward
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(16, 512),
            torch.nn.ReLU(),
            torch.nn.Linear(512, 512),
            torch.nn.ReLU(),
            torch.nn.Linear(512, 512),
            torch.nn.ReLU(),
            torch.nn.Linear(512, 4),
        )

    def forward(self, x):
        return self.layers(x)


model = MLP()
# 1 MB buckets (the least DDPOptimizer takes: its first bucket is c10d's 1 MB) over 2 MB of weights: DDPOptimizer
# compiles the forward in three pieces
ddp = DDP(model, bucket_cap_mb=1)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)


def train_step(x):
    loss = ddp(x).square().mean()
    loss.backward()
    return loss


loss = train_step(torch.randn(8, 16))
opt.step()
print("loss", round(float(loss), 4))
dist.destroy_process_group()
"""

FSDP2_STEP = """\
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
mesh = init_device_mesh("cpu", (dist.get_world_size(),))
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
for layer in model:
    if isinstance(layer, torch.nn.Linear):
        fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train_step(x):
    loss = model(x).square().mean()
    loss.backward()
    return loss


loss = train_step(torch.randn(8, 16))
opt.step()
print("loss", round(float(loss), 4))
dist.destroy_process_group()
"""

RANK_BRANCH = """\
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()


def sync(a, b):  # the collectives in a rank-dependent order: the ranks pair them by position, not by tensor
    if rank == 0:
        dist.all_reduce(a, op=dist.ReduceOp.SUM)
        dist.all_reduce(b, op=dist.ReduceOp.MAX)
    else:
        dist.all_reduce(b, op=dist.ReduceOp.MAX)
        dist.all_reduce(a, op=dist.ReduceOp.SUM)
    return a + b


def step(x):
    y = x.cos() * 2
    if rank == 1:  # a rank-dependent branch: another graph on rank 1
        y = y + 1
    return y.sum()


print("sync", sync(torch.ones(4), torch.arange(4.0) + rank).tolist())
out = step(torch.randn(4))
dist.destroy_process_group()
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TORCH_TRACE", "RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")}
    env["OMP_NUM_THREADS"] = "1"
    return env


def _metrics_ids(log: str) -> list[str]:
    ids = []
    for line in Path(log).read_text().splitlines():
        if '{"compilation_metrics"' in line:
            m = json.loads(line[line.index("{") :])["compilation_metrics"]
            if m.get("is_forward") is not False and not m.get("is_runtime"):
                ids.append(m["compile_id"])
    return ids


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text)
    return path


def test_a_plain_torchrun_trace_opens_rank_by_rank_and_names_the_rank_that_recompiled(tmp_path: Path) -> None:
    script, trace = _write(tmp_path, "job.py", SHAPE_ON_ONE_RANK), tmp_path / "trace"
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", str(script)],
        cwd=tmp_path,
        env={**_env(), "TORCH_TRACE": str(trace)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    opened = read_trace([str(trace)])
    assert [o.log.rank for o in opened] == [0, 1]
    for o in opened:  # each rank's report names exactly that rank's compile ids
        validate_report(o.report)
        assert [f["compile_id"] for f in o.report["frames"]] == _metrics_ids(o.log.path)
    assert [f["compile_id"] for f in opened[1].report["frames"]] == ["0/0", "0/1"]
    report = trace_report(opened)
    validate_report(report)
    ranks = report["ranks"]
    assert ranks["shown_rank"] == 0 and ranks["world_size"] == 2
    assert [[c["compile_id"] for c in r["compiles"]] for r in ranks["ranks"]] == [["0/0"], ["0/0", "0/1"]]
    div = ranks["divergence"]
    assert (div["kind"], div["compile_id"], div["ranks"], div["index"]) == ("compile_ids", "0/1", [1], 1)
    assert div["summary"] == "rank 1 compiled [0/1], rank 0 did not"
    assert "0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6" in div["detail"]
    assert trace_report(opened, rank=1)["ranks"]["shown_rank"] == 1
    # one time axis for the job: seconds after the first compile of any rank, from each compile's compilation_metrics
    starts = {r["rank"]: [c["start_s"] for c in r["compiles"]] for r in ranks["ranks"]}
    assert min(s for row in starts.values() for s in row) == 0.0
    assert starts[1][0] < starts[1][1] and all(0 <= s < 120 for row in starts.values() for s in row), starts
    metrics = {o.log.rank: [f["start_time"] for f in o.report["frames"]] for o in opened}
    origin = min(t for row in metrics.values() for t in row)
    assert starts == {rank: [round(t - origin, 6) for t in row] for rank, row in metrics.items()}
    html = render(report)
    assert "the ranks first diverge at [0/1] (compile_ids): rank 1 compiled [0/1], rank 0 did not" in html
    assert "size mismatch at index 0" in html and "2 ranks of 2, this is rank 0" in html
    cli = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "open", str(trace), "--html", str(tmp_path / "job.html")],
        cwd=REPO,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert cli.returncode == 0, cli.stderr
    assert "ranks: first divergence: rank 1 compiled [0/1], rank 0 did not" in cli.stdout
    # --html: a page a rank, each rank's full report, each page's ranks view linking the other's page
    assert cli.stdout.count("dynamo-explorer: wrote ") == 2, cli.stdout
    main, other = (tmp_path / "job.html").read_text(), (tmp_path / "job.rank1.html").read_text()
    assert "job.rank1.html" in main and "job.html" in other
    assert re.search(r'"shown_rank":\s*0', main) and re.search(r'"shown_rank":\s*1', other)


def test_rank_pages_are_each_rank_s_report_with_the_same_ranks_view_and_links(tmp_path: Path) -> None:
    reports = {r: {"frames": [], "graphs": [], "which": r} for r in (0, 1, 2)}
    view = {"world_size": 3, "shown_rank": 1, "ranks": [{"rank": r, "compiles": []} for r in (0, 1, 2)], "divergence": None}
    pages = rank_pages({**reports[1], "ranks": view}, reports, str(tmp_path / "out.html"))
    assert [(Path(p).name, page["which"], page["ranks"]["shown_rank"]) for p, page in pages] == [
        ("out.html", 1, 1),
        ("out.rank0.html", 0, 0),
        ("out.rank2.html", 2, 2),
    ]
    assert all(
        [s["page"] for s in page["ranks"]["ranks"]] == ["out.rank0.html", "out.html", "out.rank2.html"] for _, page in pages
    )
    assert "page" not in view["ranks"][0]  # the merged report itself is left as it was


def _nproc(tmp: Path, script: Path, trace: Path | None = None) -> tuple[subprocess.CompletedProcess[str], dict]:
    out = tmp / "report.json"
    env = _env() if trace is None else {**_env(), "TORCH_TRACE": str(trace)}
    done = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", "--nproc", "2", str(script), "--backend", "eager", "--json", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done, json.loads(out.read_text())


def test_run_nproc_captures_every_rank_of_a_ddp_step_as_dynamo_compiled_it(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    done, report = _nproc(tmp_path, _write(tmp_path, "ddp_step.py", DDP_STEP), trace)
    validate_report(report)
    assert done.stdout.count("loss ") == 2  # each rank's own output, as under plain torchrun
    assert "ranks: every rank compiled alike" in done.stdout
    ranks = report["ranks"]
    assert ranks["divergence"] is None and ranks["world_size"] == 2
    logs = {o.log.rank: o.log.path for o in read_trace([str(trace)])}
    for summary in ranks["ranks"]:
        assert [c["compile_id"] for c in summary["compiles"]] == _metrics_ids(logs[summary["rank"]]), summary["rank"]
    assert report["graphs"] and all(r["compiles"] for r in ranks["ranks"])
    # captured live: each compile's start from the rank's own compilation metrics, on the job's axis
    assert all(c["start_s"] is not None and c["start_s"] >= 0 for r in ranks["ranks"] for c in r["compiles"])
    # DDP's graph splits, live (rank 0's report) and in every rank's trace: the forward in three pieces
    [split] = report["ddp_splits"]
    assert [s["name"] for s in split["submodules"]] == ["submod_0", "submod_1", "submod_2"]
    assert split["bucket_cap_bytes"] == 1 << 20
    for opened in read_trace([str(trace)]):
        [traced] = opened.report["ddp_splits"]
        assert [(s["name"], s["bytes"]) for s in traced["submodules"]] == [(s["name"], s["bytes"]) for s in split["submodules"]]


def test_run_nproc_captures_every_rank_of_an_fsdp2_step(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    done, report = _nproc(tmp_path, _write(tmp_path, "fsdp2_step.py", FSDP2_STEP), trace)
    validate_report(report)
    assert done.stdout.count("loss ") == 2
    logs = {o.log.rank: o.log.path for o in read_trace([str(trace)])}
    for summary in report["ranks"]["ranks"]:
        assert summary["compiles"], summary
        assert [c["compile_id"] for c in summary["compiles"]] == _metrics_ids(logs[summary["rank"]]), summary["rank"]
    assert report["ranks"]["divergence"] is None, report["ranks"]["divergence"]


def test_run_nproc_shows_where_the_ranks_collectives_part_and_the_graph_a_branch_changes(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    done, report = _nproc(tmp_path, _write(tmp_path, "branch.py", RANK_BRANCH), trace)
    validate_report(report)
    # what the wrong pairing did: rank 0's sum of `a` met rank 1's max of `b` (plain torchrun prints the same)
    assert done.stdout.count("[3.0, 4.0, 6.0, 8.0]") == 2  # print's pieces are separate writes: ranks interleave them
    lines = done.stdout.splitlines()  # each rank's summary is a line of its own, though the ranks write at once
    assert [line.split(" · ")[0] for line in lines if line.startswith("rank ")] in (
        ["rank 0: dynamo: 2 frames", "rank 1: dynamo: 2 frames"],
        ["rank 1: dynamo: 2 frames", "rank 0: dynamo: 2 frames"],
    )
    div = report["ranks"]["divergence"]
    assert (div["kind"], div["compile_id"], div["ranks"], div["index"]) == ("collectives", "0/0", [1], 0)
    assert div["summary"] == (
        "[0/0]: collective #1 differs: rank 0 all_reduce(float32[4], 'sum', '0'), rank 1 all_reduce(float32[4], 'max', '0')"
    )
    assert "#2: rank 0 all_reduce(float32[4], 'max', '0') | rank 1 all_reduce(float32[4], 'sum', '0')" in div["detail"]
    issued = [[(c["op"], c["args"], c["graph"]) for c in r["compiles"][0]["collectives"]] for r in report["ranks"]["ranks"]]
    assert issued == [
        [("all_reduce", "'sum', '0'", "dynamo"), ("all_reduce", "'max', '0'", "dynamo")],
        [("all_reduce", "'max', '0'", "dynamo"), ("all_reduce", "'sum', '0'", "dynamo")],
    ]
    assert [c["collectives"] for r in report["ranks"]["ranks"] for c in r["compiles"][1:]] == [[], []]
    html = render(report)
    assert "the ranks first diverge at [0/0] (collectives): [0/0]: collective #1 differs" in html
    assert "rank 1 all_reduce(float32[4], &#x27;max&#x27;, &#x27;0&#x27;)" in html
    # the branch's compile [1/0] on its own: the ranks' reports from their traces, their first divergence there
    step_only = {}
    for o in read_trace([str(trace)]):
        step_only[o.log.rank] = {**o.report, "frames": [f for f in o.report["frames"] if f["compile_id"] == "1/0"]}
    apart = first_divergence(step_only)
    assert apart is not None and (apart["kind"], apart["compile_id"], apart["ranks"]) == ("graph", "1/0", [1])
    assert apart["summary"] == "[1/0]: rank 1 traced another graph than rank 0"
    assert "+        y_1: " in apart["detail"] or "+ 1" in apart["detail"], apart["detail"]
    assert "first divergence: [0/0]: collective #1 differs" in done.stdout


@pytest.mark.parametrize("argv", [["--nproc", "0"]])
def test_run_nproc_refuses_a_bad_count_in_one_line(argv: list[str], tmp_path: Path) -> None:
    script = _write(tmp_path, "s.py", "print(1)\n")
    done = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", *argv, str(script), "--json", str(tmp_path / "r.json")],
        cwd=REPO,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--nproc needs" in done.stderr
