"""What ``--try NAME`` costs (issue 13 item 4, ``compiler/try_fix.py``): one more run of the cell, or two.

    python benchmarks/try_fix_overhead.py [--repeats N] [--json OUT.json]

Each workload is one cell run through ``run_cell`` in this process, three sides alternated N times: the plain
run (what the cell costs under ``%%dynamo``), ``--try NAME`` given the plain run's report as its before (what the
kernel does when the cell ran before: one run with the fix) and ``--try NAME`` with no before (the CLI, or a
cell not run before: the cell as it is, then with the fix). Reported: each side's median wall time, its spread
(min-max) and its ratio to the plain side's median, and the graph breaks / recompiles before and after.

- ``item_break``: ``.item()`` in a small function, ``--try capture_scalar_outputs`` (eager backend);
- ``bert_recompile``: transformers' BERT (tiny config, random weights), 3 training steps, whose shape recompile
  ``--try dynamic`` removes (inductor, the default backend: the after run compiles dynamic kernels).
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

ITEM = """
import torch
def normalize_{i}(x):
    total = x.sum().item()
    return x / total
z = normalize_{i}(torch.rand(64) + 1)
"""

BERT = """
import torch
from transformers import BertConfig, BertForSequenceClassification
torch.manual_seed(0)
config = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                    vocab_size=128, max_position_embeddings=64, num_labels=3, problem_type="single_label_classification")
model = BertForSequenceClassification(config).train()
def step_{i}(ids, labels):
    return model(input_ids=ids, labels=labels).loss
for n in (8, 12, 16):
    loss = step_{i}(torch.randint(0, 128, (2, n)), torch.randint(0, 3, (2,)))
    loss.backward()
"""

WORKLOADS = {
    "item_break": (ITEM, RunOptions(backend="eager"), "capture_scalar_outputs"),
    "bert_recompile": (BERT, RunOptions(), "dynamic"),
}


def _run(source: str, options: RunOptions, before: dict | None = None) -> tuple[float, dict]:
    namespace: dict = {"__name__": "__main__"}
    start = time.perf_counter()
    kwargs = {"before": before, "before_from": "the plain run of this benchmark"} if before is not None else {}
    run = run_cell(source, namespace, options, filename=f"<bench-{next(_ids)}>", **kwargs)
    return time.perf_counter() - start, run.report


def _counts(report: dict) -> tuple[int, int]:
    frames = report["frames"]
    return sum(len(f["graph_breaks"]) for f in frames), sum(len(f["recompile_reasons"]) for f in frames)


def measure(name: str, repeats: int) -> dict:
    template, options, fix = WORKLOADS[name]
    tried = RunOptions(**{**options.to_json(), "try_fix": fix})
    times: dict[str, list[float]] = {"plain": [], "try, before given": [], "try, no before": []}
    outcome = None
    for _ in range(repeats + 1):  # the first round warms imports and inductor's caches: dropped
        t_plain, plain = _run(template.format(i=next(_ids)), options)
        t_given, after = _run(template.format(i=next(_ids)), tried, before=plain)
        t_none, _ = _run(template.format(i=next(_ids)), tried)
        if outcome is None:
            outcome = {"fix": fix, "before": _counts(plain), "after": _counts(after)}
            assert after["try_fix"]["after"]["error"] is None, after["try_fix"]["after"]
            continue
        for side, t in zip(times, (t_plain, t_given, t_none), strict=True):
            times[side].append(t)
    base = statistics.median(times["plain"])
    sides = {
        side: {"median_s": statistics.median(ts), "min_s": min(ts), "max_s": max(ts), "ratio": statistics.median(ts) / base}
        for side, ts in times.items()
    }
    return {"workload": name, "repeats": repeats, "sides": sides, **(outcome or {})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=list(WORKLOADS))
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    results = []
    for name in args.only:
        r = measure(name, args.repeats)
        results.append(r)
        print(f"{name}: --try {r['fix']}: breaks, recompiles {tuple(r['before'])} -> {tuple(r['after'])}")
        for side, s in r["sides"].items():
            print(f"  {side:18} median {s['median_s']:.2f} s ({s['min_s']:.2f}-{s['max_s']:.2f})  ratio {s['ratio']:.2f}")
    meta = {"torch": torch.__version__, "python": platform.python_version(), "cpus": os.cpu_count()}
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
