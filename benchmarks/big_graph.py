"""Issue 44 item 2's capture figure: the peak memory and time of capturing a 100,000-node graph, against plain
``torch.compile`` on the same work.

    python benchmarks/big_graph.py [--layers 3850] [--repeat 2] [--report OUT.json] [--only plain|explorer]

The model is render_bench.py's (``MODEL_CELL``): a ``torch.nn.TransformerEncoder`` of ``--layers`` layers (3,850: one
frame, a 100,102-node FX graph, 539,093 guards), called from a cell function, backend ``eager``. Each side runs in a
fresh process, the two alternated (and which goes first), wall time and peak resident memory measured from outside
(GNU time's ``%M``):
- plain: the cell's code with ``step`` compiled by ``torch.compile(step, backend="eager")``;
- explorer: ``compiler.run_cell`` on the cell (capture, the report built and checked) and the report written as the
  CLI writes it (``compiler.encoding.write_report``); ``--report`` keeps the last one (render_bench.py ``--report``).
Medians and the spread; one engine run takes about 6 minutes here.
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
sys.path.insert(0, str(REPO / "benchmarks"))

from render_bench import MODEL_CELL  # noqa: E402
from trace_bench import _rss_of  # noqa: E402

PLAIN = """
import sys
sys.setrecursionlimit(100000)
import torch
source = {source!r}.replace("y = step(", "step = torch.compile(step, backend='eager')\\ny = step(")
exec(compile(source, "<cell>", "exec"), {{"__name__": "__main__"}})
"""

EXPLORER = """
import sys
sys.setrecursionlimit(100000)
sys.path.insert(0, {repo!r})
from compiler import RunOptions, run_cell
from compiler.encoding import write_report
run = run_cell({source!r}, {{}}, RunOptions(backend="eager"))
if run.exception is not None:
    raise run.exception
write_report(run.report, {out!r})
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=3850)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--report", type=Path, help="keep the explorer's last report here")
    parser.add_argument("--json", type=Path, help="write the measurements here")
    parser.add_argument("--only", choices=("plain", "explorer"), help="run one side only")
    args = parser.parse_args(argv)
    source = MODEL_CELL.format(layers=args.layers)
    runs: dict[str, list[tuple[float, float]]] = {"plain": [], "explorer": []}
    with tempfile.TemporaryDirectory() as tmp:
        out = str((args.report or Path(tmp) / "report.json").resolve())
        for i in range(args.repeat):
            for side in ("plain", "explorer") if i % 2 == 0 else ("explorer", "plain"):
                if args.only not in (None, side):
                    continue
                code = PLAIN.format(source=source) if side == "plain" else EXPLORER.format(repo=str(REPO), source=source, out=out)
                wall, mb = _rss_of([sys.executable, "-c", code], cwd=tmp)
                runs[side].append((wall, mb))
                print(f"run {i + 1} {side}: {wall:.1f} s, peak {mb:,.0f} MB", flush=True)
    summary = {}
    for side, got in runs.items():
        if not got:
            continue
        walls, peaks = [w for w, _ in got], [m for _, m in got]
        summary[side] = {"wall_s": statistics.median(walls), "peak_mb": statistics.median(peaks), "runs": got}
        print(
            f"{side}: {statistics.median(walls):.1f} s ({min(walls):.1f}-{max(walls):.1f}), peak "
            f"{statistics.median(peaks):,.0f} MB ({min(peaks):,.0f}-{max(peaks):,.0f})"
        )
    if len(summary) < 2:
        return 0
    ratio = summary["explorer"]["peak_mb"] / summary["plain"]["peak_mb"]
    print(f"explorer / plain: time {summary['explorer']['wall_s'] / summary['plain']['wall_s']:.2f}x, peak memory {ratio:.2f}x")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
