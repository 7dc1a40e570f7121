"""Issue 41's figure: ``dynamo-explorer diff`` of two big traces against ``dynamo-explorer open`` of one.

    python benchmarks/diff_bench.py [--scale 2000] [--repeat 2]

Two real traces are written (``TORCH_TRACE``): tests/engine/test_trace_open.py's program (six frames, graph breaks,
recompiles, AOT graphs, inductor's code) and the same program changed in two places (a constant in ``f``, an op in
``g``), then each is scaled as ``trace_bench.py`` scales it (its records repeated ``scale`` times, each copy's frame and
compile ids moved past the last: ``scale`` × 6 compiles, every record a real one). Measured, alternating the two
sides, each in a fresh process, by wall time and peak resident memory (GNU time's ``%M``): ``dynamo-explorer open A
--json OUT`` and ``dynamo-explorer diff A B --json OUT``. The aim (issue 41): diff at most 2× open of one.
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

from benchmarks.trace_bench import _rss_of, scaled, write_trace  # noqa: E402
from tests.engine.test_trace_open import PROGRAM  # noqa: E402

CHANGED = PROGRAM.replace("torch.sin(x) * 2", "torch.sin(x) * 3").replace("(a @ a.T).relu()", "(a @ a.T).sigmoid()")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    assert CHANGED != PROGRAM
    with tempfile.TemporaryDirectory() as tmp_:
        tmp = Path(tmp_)
        a = scaled(write_trace(tmp), args.scale, tmp / "a.log")
        b = scaled(write_trace(tmp, CHANGED, "changed"), args.scale, tmp / "b.log")
        out = tmp / "out.json"
        cmds = {
            "open": [sys.executable, "-m", "dynamo_explorer", "open", str(a), "--json", str(out)],
            "diff": [sys.executable, "-m", "dynamo_explorer", "diff", str(a), str(b), "--json", str(out)],
        }
        runs: dict[str, list[tuple[float, float]]] = {"open": [], "diff": []}
        said = ""
        for i in range(args.repeat):
            for side in ("open", "diff") if i % 2 == 0 else ("diff", "open"):
                if side == "diff":
                    # diff exits 1 (the stories differ): through a shell that turns 1 into 0, so that _rss_of's check
                    # holds (GNU time measures the shell's children too: the peak is diff's)
                    cmd = ["sh", "-c", '"$@"; [ $? -le 1 ]', "sh", *cmds["diff"]]
                    runs["diff"].append(_rss_of(cmd, cwd=REPO))
                    said = json.loads(out.read_text())["first_difference"]
                else:
                    runs["open"].append(_rss_of(cmds["open"], cwd=REPO))
        row = {
            "scale": args.scale,
            "compiles": 6 * args.scale,
            "log_mb": [round(a.stat().st_size / 1e6), round(b.stat().st_size / 1e6)],
            "open_s": [round(w, 1) for w, _ in runs["open"]],
            "open_mb": [round(m) for _, m in runs["open"]],
            "diff_s": [round(w, 1) for w, _ in runs["diff"]],
            "diff_mb": [round(m) for _, m in runs["diff"]],
            "first_difference": said,
        }
        med = {k: statistics.median(row[k]) for k in ("open_s", "open_mb", "diff_s", "diff_mb")}
        print(
            f"x{args.scale} ({row['compiles']} compiles a side, logs {row['log_mb']} MB): open {med['open_s']:.1f} s "
            f"{med['open_mb']:.0f} MB | diff {med['diff_s']:.1f} s {med['diff_mb']:.0f} MB | ratio "
            f"{med['diff_s'] / med['open_s']:.2f}× time, {med['diff_mb'] / med['open_mb']:.2f}× memory"
        )
        print(json.dumps(row))


if __name__ == "__main__":
    main()
