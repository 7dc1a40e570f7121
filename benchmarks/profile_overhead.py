"""What ``--profile`` costs over the same explorer run without it (issue 12).

    python benchmarks/profile_overhead.py [--repeats N] [--only NAME ...] [--json OUT.json]

Each workload is one cell run through ``run_cell`` in this process, alternating the two sides
(``profile=False`` / ``profile=True``) N times; each repeat defines its functions anew (fresh code
objects), so both sides compile. Reported: the median wall time of each side (compiles included,
report building included), the ratio of medians and each side's spread (min-max), plus the ratio of
the medians of the steady-state part (the cell's calls after the first one, timed inside the cell).

- ``loop``: a small function with a graph break called 200 times (eager backend): the per-call
  cost of the profiler on graph calls, cache lookups and eager ops;
- ``mlp_train``: an MLP training step with AdamW, 20 steps (aot_eager): forward graphs, compiled
  backward, the optimizer's eager ops;
- ``gpt2_generate``: transformers' GPT-2 (tiny config, random weights), generate() of 8 tokens, 3 calls
  (eager backend): ~30 frames, a real library's graph breaks.
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

LOOP = """
import time, torch
def f_{i}(x):
    y = x.sin() + 1
    if y.sum() > 0:
        y = y * 2
    return y.cos()
x = torch.randn(64)
f_{i}(x)
t0 = time.perf_counter()
for _ in range(199):
    f_{i}(x)
STEADY = time.perf_counter() - t0
"""

MLP_TRAIN = """
import time, torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
def step_{i}(x, y):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss
x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
step_{i}(x, y)
t0 = time.perf_counter()
for _ in range(19):
    step_{i}(x, y)
STEADY = time.perf_counter() - t0
"""

GPT2 = """
import time, torch
from transformers import GPT2Config, GPT2LMHeadModel
torch.manual_seed(0)
model = GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=128, n_positions=64)).eval()
ids = torch.randint(0, 128, (1, 5))
def gen_{i}(ids):
    return model.generate(ids, max_new_tokens=8, do_sample=False, pad_token_id=0)
gen_{i}(ids)
t0 = time.perf_counter()
for _ in range(2):
    gen_{i}(ids)
STEADY = time.perf_counter() - t0
"""

WORKLOADS = {"loop": (LOOP, "eager"), "mlp_train": (MLP_TRAIN, "aot_eager"), "gpt2_generate": (GPT2, "eager")}


def once(name: str, profile: bool) -> tuple[float, float]:
    source, backend = WORKLOADS[name]
    ns: dict = {"__name__": "__main__"}
    started = time.perf_counter()
    run = run_cell(source.format(i=next(_ids)), ns, RunOptions(backend=backend, profile=profile))
    wall = time.perf_counter() - started
    if run.exception is not None:
        raise run.exception
    assert (run.report.get("profile") is not None) == profile
    return wall, ns["STEADY"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=list(WORKLOADS))
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.set_num_threads(1)
    rows = []
    for name in args.only:
        once(name, False), once(name, True)  # warm up imports and lazy initialisation, untimed
        walls: dict[bool, list[float]] = {False: [], True: []}
        steady: dict[bool, list[float]] = {False: [], True: []}
        for r in range(args.repeats):
            for profile in (False, True) if r % 2 == 0 else (True, False):
                w, s = once(name, profile)
                walls[profile].append(w)
                steady[profile].append(s)
        med = {p: statistics.median(v) for p, v in walls.items()}
        smed = {p: statistics.median(v) for p, v in steady.items()}
        row = {
            "workload": name,
            "backend": WORKLOADS[name][1],
            "plain_s": round(med[False], 4),
            "profile_s": round(med[True], 4),
            "ratio": round(med[True] / med[False], 3),
            "plain_spread": [round(min(walls[False]), 4), round(max(walls[False]), 4)],
            "profile_spread": [round(min(walls[True]), 4), round(max(walls[True]), 4)],
            "steady_plain_ms": round(smed[False] * 1000, 3),
            "steady_profile_ms": round(smed[True] * 1000, 3),
            "steady_ratio": round(smed[True] / smed[False], 3),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    meta = {"torch": torch.__version__, "python": platform.python_version(), "repeats": args.repeats}
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
