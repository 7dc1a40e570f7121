"""What the cache story costs a compile (BENCHMARKS.md §15): a small MLP compiled with inductor from a warm cache
(the FX graph cache and AOTAutograd's cache hit: what a re-run pays), captured with every collector and with every
collector but the cache story's (``CachesCollector``, which turns AOTAutograd's cache logger to DEBUG so that its
key's components are computed), alternated, ``--repeats`` times each; the medians and ranges of the run's wall time.

    python benchmarks/cache_story_overhead.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CELL = """
import torch
model = torch.nn.Sequential(*[torch.nn.Linear(64, 64) if i % 2 == 0 else torch.nn.ReLU() for i in range(16)])
model(torch.randn(8, 64))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp(prefix="cache-story-bench-"))
    import torch

    from compiler import RunOptions, run_cell
    from compiler.collectors import DEFAULT_COLLECTORS
    from compiler.collectors.caches.caches import CachesCollector

    without = [c for c in DEFAULT_COLLECTORS if c is not CachesCollector]
    options = RunOptions(backend="inductor", fresh=True)

    def once(collectors: list | None) -> tuple[float, str | None]:
        torch._dynamo.reset()
        run = run_cell(CELL, {"__name__": "__main__"}, options, collectors=collectors)
        story = next((f.get("cache_story") for f in run.report["frames"] if f.get("cache_story")), None)
        return run.report["timings"]["wall_s"], story

    print("warm-up (fills the caches):", once(None)[1])
    times: dict[str, list[float]] = {"with the cache story": [], "without": []}
    for _ in range(args.repeats):
        wall, story = once(None)
        times["with the cache story"].append(wall)
        times["without"].append(once(without)[0])
    print("story of the last run:", story)
    for name, values in times.items():
        print(
            f"{name}: median {statistics.median(values) * 1000:.0f} ms (range {min(values) * 1000:.0f}-{max(values) * 1000:.0f}, n={len(values)})"
        )


if __name__ == "__main__":
    main()
