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
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.zoo_cost import timed  # noqa: E402
from tests.zoo.harness import env, script_path  # noqa: E402


def _run(program: str, check: bool, out: Path, environ: dict[str, str]) -> float:
    """One ``dynamo-explorer run`` of a zoo program in a fresh process (``zoo_cost.timed``): its wall time."""
    cmd = [sys.executable, "-m", "dynamo_explorer", "run", str(script_path(program)), "--json", str(out)]
    return timed([*cmd, "--check-numerics"] if check else cmd, environ)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--programs", nargs="+", default=["gpt2_generate", "vit_forward", "llama_forward"])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_:
        tmp = Path(tmp_)
        environ = {**env(), "TORCHINDUCTOR_CACHE_DIR": str(tmp / "inductor")}
        for program in args.programs:
            out = tmp / f"{program}.json"
            _run(program, False, out, environ)  # warm-up: fills the shared inductor cache
            walls: dict[str, list[float]] = {"plain": [], "checked": []}
            check_s: list[float] = []
            said: list[str] = []
            runs = 0
            for i in range(args.repeat):
                for side in ("plain", "checked") if i % 2 == 0 else ("checked", "plain"):
                    walls[side].append(_run(program, side == "checked", out, environ))
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
