"""What recording Dynamo's inline / skip decisions costs (issue 13 item 1, ``collectors/decisions/decisions.py``).

    python benchmarks/decisions_overhead.py [--repeats N] [--only NAME ...] [--json OUT.json]

Each workload is one cell run through ``run_cell`` in this process, alternating the two sides (the default,
decisions off / ``--decisions``) N times; the runner drops the cache entries of what it compiled after each
run, and each repeat defines the cell's functions anew, so both sides compile everything. Reported: the median
wall time of each side (Dynamo's tracing, the backend, the report), the ratio of medians, each side's spread
(min-max) and how many calls the decisions side recorded.

- ``gpt2_generate``: transformers' GPT-2 (tiny config, random weights), generate() of 4 tokens (eager backend,
  so the tracing the wrapper sits in is most of the time): ~30 frames, thousands of calls into a real library;
- ``mlp``: one frame of 650 Linear+ReLU modules (eager backend): 1,300 module calls inlined, ~2,600 FX nodes.
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

import torch

from compiler import RunOptions, run_cell

_ids = itertools.count()

GPT2 = """
import torch
from transformers import GPT2Config, GPT2LMHeadModel
torch.manual_seed(0)
config = GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=128, n_positions=64)
model = GPT2LMHeadModel(config).eval()
ids = torch.randint(0, 128, (1, 5))
def gen_{i}(ids):
    return model.generate(ids, max_new_tokens=4, do_sample=False, pad_token_id=0)
out = gen_{i}(ids)
"""

MLP = """
import torch
torch.manual_seed(0)
blocks = []
for _ in range(650):
    blocks += [torch.nn.Linear(16, 16), torch.nn.ReLU()]
model = torch.nn.Sequential(*blocks)
def run_{i}(x):
    return model(x)
y = run_{i}(torch.randn(4, 16))
"""

WORKLOADS = {"gpt2_generate": GPT2, "mlp": MLP}


def _run(cell: str, with_decisions: bool) -> tuple[float, int]:
    source = cell.replace("{i}", str(next(_ids)))
    start = time.perf_counter()
    result = run_cell(source, {"__name__": "__main__"}, RunOptions(backend="eager", decisions=with_decisions))
    wall = time.perf_counter() - start
    calls = sum(len(f.get("decisions") or []) for f in result.report["frames"])
    return wall, calls


def measure(name: str, repeats: int) -> dict[str, object]:
    cell = WORKLOADS[name]
    _run(cell, True)  # warm up imports and Dynamo's own one-time work
    off: list[float] = []
    on: list[float] = []
    calls = 0
    for _ in range(repeats):
        off.append(_run(cell, False)[0])
        wall, calls = _run(cell, True)
        on.append(wall)
    med_off, med_on = statistics.median(off), statistics.median(on)
    return {
        "workload": name,
        "repeats": repeats,
        "off_s": round(med_off, 3),
        "on_s": round(med_on, 3),
        "ratio": round(med_on / med_off, 3),
        "off_spread_s": [round(min(off), 3), round(max(off), 3)],
        "on_spread_s": [round(min(on), 3), round(max(on), 3)],
        "decisions_recorded": calls,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=sorted(WORKLOADS))
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = [measure(name, args.repeats) for name in args.only or WORKLOADS]
    meta = {"torch": torch.__version__, "python": platform.python_version(), "cpus": os.cpu_count()}
    for row in rows:
        print(
            f"{row['workload']:>14}: off {row['off_s']:.3f} s {row['off_spread_s']}, on {row['on_s']:.3f} s "
            f"{row['on_spread_s']}, ratio {row['ratio']:.3f}, {row['decisions_recorded']} decisions recorded"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
