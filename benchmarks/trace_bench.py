"""Issue 25's figures: ``dynamo-explorer open`` against tlparse on the same trace, and ``run --nproc`` against torchrun.

    python benchmarks/trace_bench.py open [--scale 1 200 1000] [--repeat 3]   # needs `pip install tlparse`
    python benchmarks/trace_bench.py open --log LOG [--before CHECKOUT]      # a log of your own (server_trace.py)
    python benchmarks/trace_bench.py nproc [--repeat 3]

``open``: a real trace is written first (``TORCH_TRACE``, the program of tests/engine/test_trace_open.py: six frames,
breaks, recompiles, AOT graphs, inductor's code), then scaled: the log's records repeated ``scale`` times, each copy's
``frame_id`` (and the ``compile_id`` its metrics name) moved past the last (a log of ``scale`` times as many compiles, every record a real one);
``--log`` takes a log of your own instead (``benchmarks/server_trace.py`` writes one of big compiles). ``--before
CHECKOUT``: a third side, the same ``open`` of an earlier checkout of this repository (its code first on the path, the
same Python). On each log,
alternating the two sides, each in a fresh process: ``dynamo-explorer open LOG --json`` (the report written: what a
view needs) and ``tlparse LOG -o DIR --overwrite`` (its whole HTML output; it has no lighter mode), timed by the wall
clock and measured by the peak resident memory of the process (``ru_maxrss`` of the child). Medians and the spread.

``nproc``: the DDP step of tests/engine/test_ranks.py with ``torch.compile(train_step, backend="eager")`` under
``python -m torch.distributed.run --standalone --nproc_per_node 2`` against the same step under
``dynamo-explorer run --nproc 2 --backend eager --json`` (every rank captured, the reports merged), alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

_FRAME_ID = re.compile(r'"frame_id": (\d+)')
_COMPILE_ID = re.compile(r'"compile_id": "(\d+)/(\d+)"')


def _rss_of(cmd: list[str], **kw: object) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of ``cmd``, measured by GNU time's own child accounting (one process each)."""
    if not os.path.exists("/usr/bin/time"):
        raise SystemExit("this benchmark reads peak memory with GNU time: apt-get install time")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, *cmd], capture_output=True, **kw)  # type: ignore[call-overload]
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{cmd[:4]} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-2000:]}")
        return wall, int(out.read().strip().splitlines()[-1]) / 1024


def write_trace(tmp: Path, source: str | None = None, name: str = "program") -> Path:
    """The log of one plain run of ``source`` (tests/engine/test_trace_open.py's program by default) under TORCH_TRACE."""
    from tests.engine.test_trace_open import PROGRAM

    program = tmp / f"{name}.py"
    program.write_text(PROGRAM if source is None else source)
    trace = tmp / f"trace_{name}"
    env = {k: v for k, v in os.environ.items() if k != "TORCH_TRACE"}
    subprocess.run([sys.executable, str(program)], env={**env, "TORCH_TRACE": str(trace)}, check=True, capture_output=True)
    [log] = list(trace.iterdir())
    return log


def scaled(log: Path, scale: int, out: Path) -> Path:
    text = log.read_text()
    ids = [int(m) for m in _FRAME_ID.findall(text)]
    step = max(ids, default=0) + 1
    with out.open("w") as fh:
        for i in range(scale):
            shift = i * step
            copy = _FRAME_ID.sub(lambda m, shift=shift: f'"frame_id": {int(m.group(1)) + shift}', text)
            copy = _COMPILE_ID.sub(lambda m, shift=shift: f'"compile_id": "{int(m.group(1)) + shift}/{m.group(2)}"', copy)
            fh.write(copy if i else text)
    return out


def bench_open(scales: list[int], repeat: int, given: Path | None = None, before: Path | None = None) -> dict:
    tlparse = shutil.which("tlparse")
    if tlparse is None:
        raise SystemExit("tlparse is not installed: pip install tlparse")
    results = {}
    with tempfile.TemporaryDirectory() as tmp_:
        tmp = Path(tmp_)
        base = given or write_trace(tmp)
        for scale in scales:
            log = base if scale == 1 and given is not None else scaled(base, scale, tmp / f"x{scale}.log")
            size_mb = log.stat().st_size / 1e6
            ours: list[tuple[float, float]] = []
            theirs: list[tuple[float, float]] = []
            earlier: list[tuple[float, float]] = []
            ours_cmd = [sys.executable, "-m", "dynamo_explorer", "open", str(log), "--json", str(tmp / "r.json")]
            theirs_cmd = [tlparse, str(log), "-o", str(tmp / "tl"), "--overwrite", "--no-browser"]
            before_cmd = [sys.executable, "-m", "dynamo_explorer", "open", str(log), "--json", str(tmp / "b.json")]
            sides = ["ours", "theirs", *(["before"] if before is not None else [])]
            for i in range(repeat):  # alternate the sides (which goes first too): the VM's noise hits them alike
                for side in sides[i % len(sides) :] + sides[: i % len(sides)]:
                    if side == "ours":
                        ours.append(_rss_of(ours_cmd, cwd=REPO))
                    elif side == "theirs":
                        theirs.append(_rss_of(theirs_cmd))
                    else:
                        env = {**os.environ, "PYTHONPATH": str(before)}
                        earlier.append(_rss_of(before_cmd, cwd=before, env=env))
            report_mb = (tmp / "r.json").stat().st_size / 1e6
            frames = len(json.loads((tmp / "r.json").read_text())["frames"])
            results[scale] = {
                "log_mb": round(size_mb, 1),
                "frames": frames,
                "report_mb": round(report_mb, 1),
                "open_s": [round(w, 2) for w, _ in ours],
                "open_mb": [round(m) for _, m in ours],
                "tlparse_s": [round(w, 2) for w, _ in theirs],
                "tlparse_mb": [round(m) for _, m in theirs],
                "before_s": [round(w, 2) for w, _ in earlier],
                "before_mb": [round(m) for _, m in earlier],
            }
            r = results[scale]
            print(
                f"x{scale}: log {r['log_mb']} MB, {frames} frames, report {r['report_mb']} MB | open "
                f"{statistics.median(r['open_s']):.2f} s (spread {min(r['open_s'])}-{max(r['open_s'])}), "
                f"{statistics.median(r['open_mb']):.0f} MB | tlparse {statistics.median(r['tlparse_s']):.2f} s "
                f"(spread {min(r['tlparse_s'])}-{max(r['tlparse_s'])}), {statistics.median(r['tlparse_mb']):.0f} MB"
                + (
                    f" | before {statistics.median(r['before_s']):.2f} s (spread {min(r['before_s'])}-{max(r['before_s'])}), "
                    f"{statistics.median(r['before_mb']):.0f} MB"
                    if earlier
                    else ""
                ),
                flush=True,
            )
    return results


def bench_nproc(repeat: int) -> dict:
    """The DDP step compiled as a user would (``train_step = torch.compile(train_step, backend="eager")``) under plain
    torchrun, against the same script (without the wrap) under ``run --nproc 2 --backend eager``: the cost of the
    launcher, each rank's capture and the merge, not of a backend."""
    from tests.engine.test_ranks import DDP_STEP
    from tests.zoo.reference import with_compile

    env = {k: v for k, v in os.environ.items() if k not in ("TORCH_TRACE", "RANK", "WORLD_SIZE")}
    env["OMP_NUM_THREADS"] = "1"
    plain_s: list[float] = []
    ours_s: list[float] = []
    with tempfile.TemporaryDirectory() as tmp_:
        tmp = Path(tmp_)
        source = "# torch.compile: train_step\n" + DDP_STEP
        (tmp / "ddp_step.py").write_text(source)
        (tmp / "ddp_step_compiled.py").write_text(with_compile(source, "eager"))
        torchrun = [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            "2",
            "ddp_step_compiled.py",
        ]
        ours = [sys.executable, "-m", "dynamo_explorer", "run", "--nproc", "2", str(tmp / "ddp_step.py"), "--backend", "eager"]
        ours += ["--json", str(tmp / "r.json")]
        for i in range(repeat):
            for side in ("plain", "ours") if i % 2 == 0 else ("ours", "plain"):
                if side == "plain":
                    plain_s.append(round(_rss_of(torchrun, env=env, cwd=tmp)[0], 2))
                else:
                    ours_s.append(round(_rss_of(ours, env=env, cwd=REPO)[0], 2))
    print(
        f"torchrun {statistics.median(plain_s):.2f} s (spread {min(plain_s)}-{max(plain_s)}) | run --nproc "
        f"{statistics.median(ours_s):.2f} s (spread {min(ours_s)}-{max(ours_s)})"
    )
    return {"torchrun_s": plain_s, "nproc_s": ours_s}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["open", "nproc"])
    parser.add_argument("--scale", type=int, nargs="+", default=[1, 200])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--log", type=Path, help="open: this log (scale 1: as it is) instead of the test program's")
    parser.add_argument("--before", type=Path, help="open: a checkout of earlier code, measured as a third side")
    args = parser.parse_args()
    result = bench_open(args.scale, args.repeat, args.log, args.before) if args.what == "open" else bench_nproc(args.repeat)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
