"""What ``--trace-steps`` costs over the same explorer run without it (issue 13 item 2).

    python benchmarks/trace_steps_overhead.py [--repeats N] [--json OUT.json]

One medium cell, run through ``run_cell`` in this process: a hand-written transformer block (LayerNorm,
attention, MLP: nn.Modules and helper functions Dynamo inlines, ~2,900 instructions traced) called once,
eager backend, so the compile is all Dynamo tracing (the part the recording slows; an inductor compile
adds backend time the recording does not touch). Three sides, alternated N times, each repeat defining
its code anew (fresh code objects, so every side compiles): ``off``; ``on`` (``--trace-steps``, the default
cap of 2,000 steps); ``all`` (``--trace-steps --trace-steps-max 1000000``: every instruction recorded).
Reported per side: the median wall time of the run (compile and report building included), its spread
(min-max), the ratio of medians to ``off``, the steps recorded and the report's JSON size.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import orjson
import torch

from compiler import RunOptions, run_cell

_ids = itertools.count()

BLOCK = """
import torch
import torch.nn.functional as F

torch.manual_seed(0)

def split_heads_{i}(t, heads):
    b, n, d = t.shape
    return t.view(b, n, heads, d // heads).transpose(1, 2)

def merge_heads_{i}(t):
    b, h, n, d = t.shape
    return t.transpose(1, 2).reshape(b, n, h * d)

class Attention_{i}(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.out = torch.nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (split_heads_{i}(t, self.heads) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / (q.shape[-1] ** 0.5)
        return self.out(merge_heads_{i}(scores.softmax(-1) @ v))

class Block_{i}(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(dim)
        self.attn = Attention_{i}(dim, heads)
        self.ln2 = torch.nn.LayerNorm(dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))

class Model_{i}(torch.nn.Module):
    def __init__(self, dim=32, heads=4, depth=8):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block_{i}(dim, heads) for _ in range(depth))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return F.layer_norm(x, x.shape[-1:])

model = Model_{i}()
out = model(torch.randn(2, 16, 32))
"""

SIDES = {
    "off": {},
    "on": {"trace_steps": ""},
    "all": {"trace_steps": "", "trace_steps_max": 1_000_000},
}


def run_once(side: str) -> tuple[float, int, int]:
    source = BLOCK.replace("{i}", str(next(_ids)))
    started = time.perf_counter()
    run = run_cell(source, {"__name__": "__main__"}, RunOptions(backend="eager", **SIDES[side]))  # type: ignore[arg-type]
    wall = time.perf_counter() - started
    trace = run.report.get("trace_steps") or {}
    return wall, len(trace.get("steps") or []), len(orjson.dumps(run.report))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json")
    args = parser.parse_args()
    run_once("off")  # warm-up: imports, first-compile caches
    walls: dict[str, list[float]] = {s: [] for s in SIDES}
    info: dict[str, tuple[int, int]] = {}
    for _ in range(args.repeats):
        for side in SIDES:
            wall, steps, size = run_once(side)
            walls[side].append(wall)
            info[side] = (steps, size)
    base = statistics.median(walls["off"])
    rows = {}
    print(f"torch {torch.__version__}, Python {platform.python_version()}, {args.repeats} repeats per side, alternated")
    print(f"{'side':5} {'median s':>9} {'min-max s':>15} {'ratio':>6} {'steps':>6} {'report KB':>10}")
    for side, values in walls.items():
        med = statistics.median(values)
        steps, size = info[side]
        rows[side] = {
            "median_s": med,
            "min_s": min(values),
            "max_s": max(values),
            "ratio": med / base,
            "steps": steps,
            "report_bytes": size,
        }
        print(f"{side:5} {med:9.3f} {min(values):7.3f}-{max(values):<7.3f} {med / base:6.2f} {steps:6d} {size / 1024:10.0f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
