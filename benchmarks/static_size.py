"""The static ``text/html`` view of each golden report: its bytes and the median time of ``render()`` (BENCHMARKS.md §4c).

Usage: ``.venv/bin/python benchmarks/static_size.py [--repeat 3] [--json OUT]``. To compare with an earlier commit, run
the same script in a worktree of it (``git worktree add /tmp/before REV``; ``PYTHONPATH=/tmp/before`` so that its
``kernel_ext`` is the one imported) and alternate the two.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

GOLDENS = Path(__file__).resolve().parents[1] / "tests" / "goldens"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="write {golden: [html bytes, median ms, report bytes]} here")
    args = parser.parse_args()
    from kernel_ext.static_html import render

    rows = {}
    for path in sorted(GOLDENS.glob("*.report.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            page = render(report)
            times.append(time.perf_counter() - start)
        name = path.name.removesuffix(".report.json")
        rows[name] = [len(page.encode()), statistics.median(times) * 1000, len(json.dumps(report).encode())]
        print(f"{name:20} report {rows[name][2] / 1024:7.1f} KB  html {rows[name][0] / 1024:6.1f} KB  {rows[name][1]:6.0f} ms")
    print(
        f"{'all':20} report {sum(r[2] for r in rows.values()) / 1024:7.0f} KB  html {sum(r[0] for r in rows.values()) / 1024:6.0f} KB"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows), encoding="utf-8")


if __name__ == "__main__":
    main()
