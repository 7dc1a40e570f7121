"""Bytes per FX node of a compile report, and where they go (issue 10, item 7: at most 1 KB per node).

    python benchmarks/report_size.py [--layers 77]

Runs ``torch.nn.TransformerEncoder`` of N layers (77 layers: about 2,000 FX nodes; backend eager) through
the engine in a fresh process (benchmarks/render_bench.py's generator), then prints the report's size as
compact JSON (what the CLI writes) per FX node, its stored form (``compiler.encoding``: what a notebook
output and a ``--html`` page hold) per FX node, and each top-level field's and each frame field's share.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.render_bench import generate
from compiler.encoding import encode_report


def size(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=77)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "report.json"
        generate(args.layers, path)
        report = json.loads(path.read_text())
    nodes = sum(len(g["nodes"]) for g in report["graphs"] if g["kind"] == "dynamo")
    total = size(report)
    print(f"{nodes} FX nodes, report {total / 1e6:.2f} MB, {total / nodes / 1024:.2f} KB per node")
    stored = size(encode_report(report))
    print(f"stored form (notebook output, --html page): {stored / 1e6:.2f} MB, {stored / nodes / 1024:.2f} KB per node")
    parts: Counter[str] = Counter()
    for key, value in report.items():
        if key == "frames":
            for frame in value:
                for fkey, fvalue in frame.items():
                    parts[f"frames.{fkey}"] += size(fvalue)
        elif key == "graphs":
            for graph in value:
                for gkey, gvalue in graph.items():
                    parts[f"graphs.{gkey}"] += size(gvalue)
        else:
            parts[key] += size(value)
    for key, n in parts.most_common(10):
        print(f"  {key:28} {n / 1e3:9.1f} KB  {100 * n / total:5.1f} %")


if __name__ == "__main__":
    main()
