"""What keeping the parts over the report's caps costs, and what loading one costs (issue 24 item 2).

A benchmark script, not a timed test. A real ``torch.nn.TransformerEncoder`` of N layers (default 385: about
54,000 guards in one frame, the model of render_bench.py) runs through the real engine (backend eager) in this
process, alternately:
- ``capped``: the guards collector copies only the first 5,000 guards (what it did before parts existed);
- ``parts``: it copies every guard and keeps those past the cap, and the whole guard tree, as parts
  (``CellRun.parts``).
For each run: ``capture_s`` (building the report after the run, the report's own ``timings``), and for the
``parts`` side the parts (rows, tree characters, an estimate of their memory as the run hands them over), what
keeping them costs (``kernel_ext.parts.keep``: each part's JSON, gzip + base64 above 256 KB) and what answering a
view costs (``kernel_ext.parts.answer``: its time and the message's size, which is also what the kernel holds).

Usage:
    python benchmarks/parts_bench.py [--layers 385] [--runs 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

SOURCE = """
import torch
layer = torch.nn.TransformerEncoderLayer(32, 2, 64, batch_first=True)
enc = torch.nn.TransformerEncoder(layer, num_layers={layers}, enable_nested_tensor=False)
def forward(x):
    return enc(x)
y = forward(torch.randn(2, 5, 32))
"""


def deep_size(obj: Any) -> int:
    """Bytes held by ``obj`` and what it reaches through lists, dicts and dataclass slots (each object once)."""
    seen: set[int] = set()
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
        elif hasattr(o, "__slots__"):
            stack.extend(getattr(o, s) for s in o.__slots__ if hasattr(o, s))
    return total


def one_run(layers: int, side: str) -> dict[str, Any]:
    import torch

    from compiler import RunOptions, run_cell
    from compiler.collectors.guards import guards
    from kernel_ext import parts

    original = guards.GuardsCollector.on_guards

    def capped(self, ctx, compile_id, exported):  # the collector before parts: the first 5,000 rows only
        with guards.gc_paused():
            self.exports[compile_id] = guards.export_rows(exported, guards.MAX_GUARDS_PER_FRAME)

    if side == "capped":
        guards.GuardsCollector.on_guards = capped
    torch._dynamo.reset()
    try:
        started = time.perf_counter()
        run = run_cell(SOURCE.format(layers=layers), {}, RunOptions(backend="eager"))
        wall = time.perf_counter() - started
    finally:
        guards.GuardsCollector.on_guards = original
    report = run.report
    out: dict[str, Any] = {"side": side, "wall_s": wall, "capture_s": report["timings"]["capture_s"]}
    out["report_bytes"] = len(json.dumps(report, separators=(",", ":")))
    out["cut"] = [(c["part"], c["compile_id"], c["kept"], c["total"]) for c in report["parts_cut"]]
    if side == "parts":
        out["parts_bytes_estimate"] = deep_size(run.parts)  # as the run hands them over
        t = time.perf_counter()
        parts.keep(run.parts)  # what the kernel keeps: each part's JSON, gzip + base64 when big
        out["keep_s"] = time.perf_counter() - t
        run.parts.clear()
        for c in report["parts_cut"]:
            t = time.perf_counter()
            message = parts.answer(c["key"])
            out[f"answer_{c['part']}_s"] = time.perf_counter() - t
            out[f"answer_{c['part']}_bytes"] = len(json.dumps(message, separators=(",", ":")))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=385)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", help="write every run's numbers here")
    args = parser.parse_args()
    runs = []
    for i in range(args.runs * 2):
        side = ("capped", "parts")[i % 2] if (i // 2) % 2 == 0 else ("parts", "capped")[i % 2]  # ABBA
        runs.append(one_run(args.layers, side))
        r = runs[-1]
        print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}), flush=True)
    for side in ("capped", "parts"):
        cap = sorted(r["capture_s"] for r in runs if r["side"] == side)
        print(f"{side}: capture_s median {statistics.median(cap):.3f} (range {cap[0]:.3f}-{cap[-1]:.3f}, n={len(cap)})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(runs, f, indent=1)


if __name__ == "__main__":
    main()
