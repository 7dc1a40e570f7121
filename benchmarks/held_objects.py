"""What the calls scope keeps alive, and what each call through it costs (issue 39, item 2).

    python benchmarks/held_objects.py [--repeats N] [--repo PATH ...] [--json OUT.json]

Two programs, each run as ``python PROGRAM.py`` and as ``dynamo-explorer run PROGRAM.py --backend eager`` (scope
``auto``: ``calls``), in fresh processes, the sides alternated ``--repeats`` times:

- ``sweep``: four models of 100 MB (``Linear(5000, 5000)``), each built, called directly, through a function, a
  bound method and a callable object, then deleted; after each it prints how many are still alive (``weakref``) and
  the process's resident set (``/proc/self/statm``). Plain Python frees each model at once.
- ``calls``: 3,000 iterations of three calls the scope compiles (a module, a bound method, a function), after a
  warm-up that compiles them: the time per iteration, what the scope's ``__dynamo_call__`` adds to Dynamo's own
  cache lookup.

``--repo`` runs the explorer side from other checkouts too (a worktree of an earlier commit: the before side of a
change), alternated with this one. Linux only (the resident set).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

SWEEP = """
import gc, weakref
import torch

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20

class Big(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(5000, 5000)

    def forward(self, x):
        return self.lin(x).relu().sum()

class Scorer:
    def __init__(self, model):
        self.model = model

    def score(self, x):
        return self.model(x) * 2

def total(model, x):
    return model(x) + 1

x = torch.ones(2, 5000)
refs = []
for i in range(4):
    model = Big()
    y = model(x) + total(model, x) + Scorer(model).score(x)
    refs.append(weakref.ref(model))
    del model, y
    gc.collect()
    print("SWEEP", sum(r() is not None for r in refs), round(rss_mb()))
"""

CALLS = """
import time
import torch

class Tiny(torch.nn.Module):
    def forward(self, x):
        return x + 1

class Obj:
    def step(self, x):
        return x * 2

def f(x):
    return x - 1

m, o, x = Tiny(), Obj(), torch.ones(2)
for _ in range(50):
    m(x), o.step(x), f(x)
t = time.perf_counter()
for _ in range(3000):
    m(x)
    o.step(x)
    f(x)
print("CALLS", (time.perf_counter() - t) / 3000 * 1e6)
"""


def _run(program: Path, repo: Path | None, out: Path) -> str:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    if repo is None:
        cmd = [sys.executable, str(program)]
    else:
        cmd = [sys.executable, "-m", "dynamo_explorer", "run", str(program), "--backend", "eager", "--json", str(out)]
    done = subprocess.run(cmd, cwd=repo or program.parent, env=env, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--repo", action="append", default=[], help="another checkout whose explorer to run too")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sides: dict[str, Path | None] = {"plain": None, "explorer": REPO}
    sides.update({f"explorer@{Path(r).name}": Path(r).resolve() for r in args.repo})
    found: dict[str, dict[str, list]] = {s: {"alive": [], "rss_growth_mb": [], "us_per_iteration": []} for s in sides}
    with tempfile.TemporaryDirectory() as tmp:
        sweep, calls = Path(tmp, "sweep.py"), Path(tmp, "calls.py")
        sweep.write_text(textwrap.dedent(SWEEP))
        calls.write_text(textwrap.dedent(CALLS))
        for _ in range(args.repeats):
            for side, repo in sides.items():  # the sides alternated
                lines = re.findall(r"^SWEEP (\d+) (\d+)$", _run(sweep, repo, Path(tmp, "s.json")), re.M)
                alive, rss = [int(a) for a, _ in lines], [int(r) for _, r in lines]
                found[side]["alive"].append(alive)
                found[side]["rss_growth_mb"].append(rss[-1] - rss[0])
                us = float(re.search(r"^CALLS ([\d.]+)$", _run(calls, repo, Path(tmp, "c.json")), re.M).group(1))
                found[side]["us_per_iteration"].append(round(us, 1))
    for side, values in found.items():
        us = values["us_per_iteration"]
        print(
            f"{side:>24}: alive after each step {values['alive'][-1]}, resident set step 1 -> 4: "
            f"+{statistics.median(values['rss_growth_mb'])} MB (median), per iteration of 3 calls "
            f"{statistics.median(us):.0f} us (median; {min(us):.0f}-{max(us):.0f})"
        )
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
