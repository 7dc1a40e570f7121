"""Size of a saved notebook that holds one ``%%dynamo`` report of a big model (issue 10, item 7: at most 10 MB
for 10,000 FX nodes), and what each part of the output takes.

    python benchmarks/notebook_size.py [--layers 385] [--json OUT]

Runs a real notebook in a real kernel (nbclient): ``%load_ext kernel_ext``, then a ``%%dynamo --backend eager``
cell that calls a ``torch.nn.TransformerEncoder`` of N layers (385 layers: about 10,000 FX nodes in one
frame; benchmarks/render_bench.py's model), saves it with nbformat and prints the file's size, the size of
each MIME type of the report output, and the FX node count read back from the saved report.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.render_bench import MODEL_CELL  # noqa: E402
from compiler import MIME_TYPE  # noqa: E402

CELL = "%%dynamo --backend eager\n" + MODEL_CELL


def run(layers: int) -> dict[str, object]:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%load_ext kernel_ext"), nbformat.v4.new_code_cell(CELL.format(layers=layers))]
    started = time.perf_counter()
    NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}).execute()
    seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.ipynb"
        nbformat.write(nb, path)
        file_bytes = path.stat().st_size
        saved = nbformat.read(path, as_version=4)
    (output,) = [o for o in saved.cells[1].outputs if o.get("output_type") == "display_data" and MIME_TYPE in o.data]
    parts = {mime: len(json.dumps(value, separators=(",", ":")).encode()) for mime, value in output.data.items()}
    from compiler.encoding import decode_report

    report = decode_report(output.data[MIME_TYPE])
    nodes = sum(len(g["nodes"]) for g in report["graphs"] if g["kind"] == "dynamo")
    return {"layers": layers, "fx_nodes": nodes, "notebook_bytes": file_bytes, "parts": parts, "run_s": round(seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=385)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result = run(args.layers)
    print(
        f"{result['fx_nodes']} FX nodes: notebook {result['notebook_bytes'] / 1e6:.2f} MB "
        f"({result['notebook_bytes'] / result['fx_nodes'] / 1024:.2f} KB per node), run {result['run_s']} s"
    )
    for mime, n in result["parts"].items():  # type: ignore[union-attr]
        print(f"  {mime:48} {n / 1e6:7.2f} MB")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
