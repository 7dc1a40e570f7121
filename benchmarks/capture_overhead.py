"""Capture overhead of Dynamo Explorer against plain ``torch.compile`` on the same work.

    python benchmarks/capture_overhead.py [--repeats N] [--only abcd] [--json OUT.json]

Four workloads, each timed as a median over repeated runs in one process (CPU, ``eager`` backend unless said):

(a) one frame whose graph has ~2,600 FX nodes (an MLP of 650 Linear+ReLU blocks);
(b) 100 recompiles of a small function (a new input size each call, ``dynamic=False``);
(c) steady-state calls of a compiled function (per-call time, after compiling): the explorer's
    frames scope against the same Dynamo call path without the explorer (``optimize`` as a context
    manager with the same backend), and against calling a ``torch.compile`` wrapper;
(d) an AOT-based backend (``aot_eager``), where the explorer listens on torch's structured trace
    while the backend compiles: the toy_example called with 4 input sizes (``dynamic=False``).

For each repeat the workload's functions are created anew (fresh code objects), so both sides
really compile; nothing calls ``torch._dynamo.reset()`` between the two sides. "explorer" is what
the CLI does: ``run_cell`` (capture while running + building the report) plus writing the JSON.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import platform
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch

from compiler import RunOptions, run_cell
from compiler.encoding import write_report

_ids = itertools.count()

MLP = """
import torch
torch.manual_seed(0)
blocks = []
for _ in range(650):
    blocks += [torch.nn.Linear(16, 16), torch.nn.ReLU()]
model = torch.nn.Sequential(*blocks)
x = torch.randn(4, 16)
def run(x):
    return model(x)
"""

SMALL = """
import torch
def f(x):
    return torch.sin(x) * 2 + 1
"""

LOOP_RECOMPILES = "for n in range(1, 102):\n    y = f(torch.randn(n))\n"
STEADY = (
    "y = f(x)\n"  # compile
    "import time as _t\n"
    "_t0 = _t.perf_counter()\n"
    "for _ in range(CALLS):\n"
    "    y = f(x)\n"
    "per_call_us = (_t.perf_counter() - _t0) / CALLS * 1e6\n"
)


def fresh_namespace(setup: str) -> dict:
    gc.collect()  # each side starts from the same heap: the last repeat's model is garbage, not GC debt
    ns: dict = {"__name__": "__main__"}
    exec(compile(setup, f"<bench-setup-{next(_ids)}>", "exec"), ns)  # noqa: S102 - new code objects every time
    return ns


def plain(setup: str, cell: str, compiled_names: list[str], backend: str = "eager", **compile_kw) -> tuple[float, dict]:
    ns = fresh_namespace(setup)
    for name in compiled_names:
        ns[name] = torch.compile(ns[name], backend=backend, **compile_kw)
    code = compile(cell, f"<bench-plain-{next(_ids)}>", "exec")
    t0 = time.perf_counter()
    exec(code, ns)  # noqa: S102
    return time.perf_counter() - t0, ns


def explorer(setup: str, cell: str, backend: str = "eager", **options) -> tuple[float, dict, dict]:
    ns = fresh_namespace(setup)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run = run_cell(cell, ns, RunOptions(backend=backend, scope="all-frames", **options))
        write_report(run.report, os.path.join(tmp, "report.json"))  # what the CLI does
        total = time.perf_counter() - t0
    if run.exception is not None:
        raise run.exception
    return total, ns, run.report


def median_ratio(plain_times: list[float], explorer_times: list[float]) -> float:
    return statistics.median(explorer_times) / statistics.median(plain_times)


def bench_a(repeats: int) -> dict:
    p, e, run_only = [], [], []
    nodes = 0
    for _ in range(repeats):
        t, _ = plain(MLP, "y = run(x)\n", ["run"])
        p.append(t)
        t, _, rep = explorer(MLP, "y = run(x)\n")
        e.append(t)
        run_only.append(rep["timings"]["wall_s"])
        nodes = max(len(g["nodes"]) for g in rep["graphs"])
    return {
        "fx_nodes": nodes,
        "plain_s": p,
        "explorer_s": e,
        "explorer_run_only_s": run_only,
        "ratio": median_ratio(p, e),
        "ratio_run_only": median_ratio(p, run_only),
    }


def bench_b(repeats: int) -> dict:
    p, e, run_only = [], [], []
    frames = 0
    with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
        for _ in range(repeats):
            with torch._dynamo.config.patch(recompile_limit=200):
                t, _ = plain(SMALL, LOOP_RECOMPILES, ["f"], dynamic=False)
            p.append(t)
            t, _, rep = explorer(SMALL, LOOP_RECOMPILES, dynamic=False, recompile_limit=200)
            e.append(t)
            run_only.append(rep["timings"]["wall_s"])
            frames = len(rep["frames"])
    return {
        "frames_compiled": frames,
        "recompiles": frames - 1,
        "plain_s": p,
        "explorer_s": e,
        "explorer_run_only_s": run_only,
        "ratio": median_ratio(p, e),
        "ratio_run_only": median_ratio(p, run_only),
    }


TOY = """
import torch
def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b
"""
TOY_CALLS = "for n in (4, 8, 16, 32):\n    out = toy_example(torch.randn(n), torch.randn(n))\n"


def bench_d(repeats: int) -> dict:
    p, e, run_only = [], [], []
    for _ in range(repeats):
        t, _ = plain(TOY, TOY_CALLS, ["toy_example"], backend="aot_eager", dynamic=False)
        p.append(t)
        t, _, rep = explorer(TOY, TOY_CALLS, backend="aot_eager", dynamic=False)
        e.append(t)
        run_only.append(rep["timings"]["wall_s"])
    return {
        "plain_s": p,
        "explorer_s": e,
        "explorer_run_only_s": run_only,
        "ratio": median_ratio(p, e),
        "ratio_run_only": median_ratio(p, run_only),
    }


def same_path(setup: str, cell: str) -> dict:
    """The explorer's Dynamo call path with none of its hooks: optimize(...) as a context manager."""
    from compiler.backend import explorer_backend

    ns = fresh_namespace(setup)
    code = compile(cell, f"<bench-ctx-{next(_ids)}>", "exec")
    with (
        torch._dynamo.config.patch(raise_on_ctx_manager_usage=False),
        torch._dynamo.optimize(explorer_backend("eager", None, None)),
    ):
        exec(code, ns)  # noqa: S102
    return ns


def bench_c(repeats: int, calls: int) -> dict:
    setup = SMALL + "x = torch.randn(64)\n"
    cell = STEADY.replace("CALLS", str(calls))
    p, w, e = [], [], []
    for _ in range(repeats):
        p.append(same_path(setup, cell)["per_call_us"])
        _, ns = plain(setup, cell, ["f"])
        w.append(ns["per_call_us"])
        _, ns, _ = explorer(setup, cell)
        e.append(ns["per_call_us"])
    return {
        "calls": calls,
        "same_path_us_per_call": p,
        "torch_compile_wrapper_us_per_call": w,
        "explorer_us_per_call": e,
        "ratio": median_ratio(p, e),
        "ratio_vs_wrapper": median_ratio(w, e),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--json", default=None)
    parser.add_argument("--only", default="abcd", help="which workloads to run, e.g. 'ab' (default: abcd)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    # warm-up: first compiles in a process pay for imports and lazy init on both sides
    plain(SMALL + "x = torch.ones(2)\n", "y = f(x)\n", ["f"])
    explorer(SMALL + "x = torch.ones(2)\n", "y = f(x)\n")
    results: dict = {"machine": {"python": platform.python_version(), "torch": torch.__version__, "cpus": os.cpu_count()}}
    if "a" in args.only:
        results["a_2600_node_graph"] = bench_a(args.repeats)
    if "b" in args.only:
        results["b_100_recompiles"] = bench_b(args.repeats)
    if "c" in args.only:
        results["c_steady_state"] = bench_c(args.repeats, args.calls)
    if "d" in args.only:
        results["d_aot_backend"] = bench_d(args.repeats)
    for key in [k for k in results if k != "machine"]:
        r = results[key]
        extra = (
            f" (run only {r['ratio_run_only']:.3f}x)"
            if "ratio_run_only" in r
            else f" (vs a torch.compile wrapper {r['ratio_vs_wrapper']:.3f}x)"
        )
        print(f"{key}: median ratio explorer/plain = {r['ratio']:.3f}x{extra}")
    print(json.dumps(results, indent=1))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
