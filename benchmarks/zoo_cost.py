"""Whole-process cost of ``dynamo-explorer run`` against plain ``torch.compile`` on the zoo (issue 9).

    python benchmarks/zoo_cost.py [--backend eager inductor] [--repeats N] [--only NAME ...] [--json OUT.json]

For each tests/zoo script and backend, two commands run as separate processes, alternating, N times:
- plain: ``python -m tests.zoo.reference SCRIPT BACKEND OUT --plain``: the script with the header's
  ``torch.compile`` wrap, nothing listening;
- explorer: ``python -m dynamo_explorer run SCRIPT --backend BACKEND --json OUT`` (scope auto).
Each process's wall time is measured from outside (interpreter start, imports, the run, the report
and its JSON). Inductor runs share one warm cache directory per backend (a first, untimed run of
each side fills it), so both sides compile with FX graph / AOTAutograd cache hits. The table gives
the medians, the ratio of medians, the spread of each side (min-max) and whether the report's
frames, graphs and breaks equal the reference's (tests/zoo/compare.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.zoo.compare import differences, summary  # noqa: E402
from tests.zoo.harness import SCRIPTS, env, reference, script_path  # noqa: E402


def timed(cmd: list[str], environ: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=environ, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return wall


def bench(name: str, backend: str, repeats: int, tmp: Path, cache: Path) -> dict:
    environ = {**env(), "TORCHINDUCTOR_CACHE_DIR": str(cache)}
    report_path, ref_path = tmp / f"{name}.{backend}.report.json", tmp / f"{name}.{backend}.ref.json"
    plain = [sys.executable, "-m", "tests.zoo.reference", str(script_path(name)), backend, str(ref_path), "--plain"]
    explorer = [
        sys.executable,
        "-m",
        "dynamo_explorer",
        "run",
        str(script_path(name)),
        "--backend",
        backend,
        "--json",
        str(report_path),
    ]
    if backend != "eager":  # fill the shared cache once per side, untimed
        timed(plain, environ), timed(explorer, environ)
    times: dict[str, list[float]] = {"plain": [], "explorer": []}
    for i in range(repeats):
        order = [("plain", plain), ("explorer", explorer)] if i % 2 == 0 else [("explorer", explorer), ("plain", plain)]
        for side, cmd in order:
            times[side].append(timed(cmd, environ))
    report = json.loads(report_path.read_text())
    # the reference runs with the same (warm) cache as the timed runs
    diffs = differences(report, reference(name, backend, str(cache) if backend != "eager" else None))
    s = summary(report)
    med = {k: statistics.median(v) for k, v in times.items()}
    return {
        "name": name,
        "backend": backend,
        "frames": len(s["frames"]),
        "graphs": s["graphs"],
        "breaks": len(s["breaks"]),
        "recompiles": s["recompiles"],
        "equal": not diffs,
        "differences": diffs,
        "times": times,
        "plain_s": med["plain"],
        "explorer_s": med["explorer"],
        "ratio": med["explorer"] / med["plain"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", nargs="+", default=["eager", "inductor"])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    names = args.only or SCRIPTS
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for backend in args.backend:
            cache = tmp / f"inductor-cache-{backend}"
            for name in names:
                row = bench(name, backend, args.repeats, tmp, cache)
                rows.append(row)
                t = row["times"]
                print(
                    f"| {name} | {backend} | {row['frames']} | {row['graphs']} | {row['breaks']} | {row['recompiles']} | "
                    f"{'yes' if row['equal'] else 'NO'} | {row['plain_s']:.2f} s ({min(t['plain']):.2f}-{max(t['plain']):.2f}) | "
                    f"{row['explorer_s']:.2f} s ({min(t['explorer']):.2f}-{max(t['explorer']):.2f}) | **{row['ratio']:.2f}×** |",
                    flush=True,
                )
                for diff in row["differences"]:
                    print(f"    difference: {diff[:300]}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
