"""Issue 42's figure: what ``--check-numerics`` costs on zoo programs, against the plain explorer run.

    python benchmarks/numerics_bench.py [--programs gpt2_generate vit_forward llama_forward] [--repeat 2]

Each program of tests/zoo runs through ``dynamo-explorer run PROG --json OUT`` (inductor, the CPU), with and without
``--check-numerics``, each run in a fresh process, the two sides alternated, after one warm-up run that fills a shared
``TORCHINDUCTOR_CACHE_DIR`` (so that both sides compile from the same warm cache and the difference is the check, not
inductor's C++ compiles). Wall time is measured from outside; the report of a checked run says what the check's own
work took (``numerics.seconds``: copying inputs, the eager and float64 runs, the comparison) and how many graph runs
it made. Medians, with each run listed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZOO = REPO / "tests" / "zoo"


def _run(program: str, check: bool, out: Path, env: dict[str, str]) -> float:
    cmd = [sys.executable, "-m", "dynamo_explorer", "run", str(ZOO / f"{program}.py"), "--json", str(out)]
    if check:
        cmd.append("--check-numerics")
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{program}: exit {proc.returncode}: {proc.stderr[-2000:]}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--programs", nargs="+", default=["gpt2_generate", "vit_forward", "llama_forward"])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_:
        tmp = Path(tmp_)
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp / "inductor"), "PYTHONPATH": str(REPO)}
        for program in args.programs:
            out = tmp / f"{program}.json"
            _run(program, False, out, env)  # warm-up: fills the shared inductor cache
            walls: dict[str, list[float]] = {"plain": [], "checked": []}
            check_s: list[float] = []
            said: list[str] = []
            runs = 0
            for i in range(args.repeat):
                for side in ("plain", "checked") if i % 2 == 0 else ("checked", "plain"):
                    walls[side].append(_run(program, side == "checked", out, env))
                    if side == "checked":
                        numerics = json.loads(out.read_text())["numerics"]
                        check_s.append(numerics["seconds"])
                        runs = numerics["runs"]
                        said = sorted({g["verdict"] for g in numerics["graphs"]})
            plain, checked = statistics.median(walls["plain"]), statistics.median(walls["checked"])
            row = {
                "program": program,
                "plain_s": round(plain, 1),
                "checked_s": round(checked, 1),
                "ratio": round(checked / plain, 3),
                "check_s": round(statistics.median(check_s), 3),
                "graph_runs": runs,
                "verdicts": said,
                "runs": {k: [round(w, 1) for w in v] for k, v in walls.items()},
            }
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
