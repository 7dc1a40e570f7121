"""Size of saved notebooks with ``%%dynamo`` reports, and what each part of the outputs takes.

    python benchmarks/notebook_size.py [--layers 385] [--json OUT]   # one big model (issue 10, item 7)
    python benchmarks/notebook_size.py --tour [--json OUT]           # per cell of notebooks/*.ipynb (issue 11, item 4)
    python benchmarks/notebook_size.py --widgets [--json OUT]        # what the widget adds (issue 24)

Both run real notebooks in a real kernel (nbclient) and save them with nbformat.

- ``--layers N``: ``%load_ext kernel_ext``, then a ``%%dynamo --backend eager`` cell that calls a
  ``torch.nn.TransformerEncoder`` of N layers (385 layers: about 10,000 FX nodes in one frame;
  benchmarks/render_bench.py's model); prints the file's size, the size of each MIME type of the report
  output, and the FX node count read back from the saved report.
- ``--tour``: every notebook of notebooks/; for each ``%%dynamo`` cell, the bytes of its saved outputs
  (as nbformat writes them), split into the report (the JSON part), its static ``text/html`` view, and the
  rest (``text/plain``, the user's own outputs); plus the outputs that show nothing (an empty ``data``).
- ``--widgets``: notebooks/01_tour.ipynb executed twice, without and with nbclient's widget state (issue 24):
  the saved file's bytes, each ``%%dynamo`` cell's outputs and its widget-view entry, and the widget state.
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
from kernel_ext.widget import WIDGET_VIEW  # noqa: E402

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


def _bytes(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":")).encode())


def tour(notebooks: list[Path]) -> list[dict[str, object]]:
    """Per ``%%dynamo`` cell of each notebook: the saved bytes of its outputs, by part."""
    rows: list[dict[str, object]] = []
    for source in notebooks:
        nb = nbformat.read(source, as_version=4)
        NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}).execute()
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / source.name
            nbformat.write(nb, path)
            saved = nbformat.read(path, as_version=4)
        magic = [c for c in saved.cells if c.cell_type == "code" and c.source.startswith("%%dynamo")]
        for number, c in enumerate(magic, 1):
            parts = {"report": 0, "html": 0, "other": 0}
            for o in c.outputs:
                data = o.get("data") or {}
                for mime, value in data.items():
                    key = "report" if mime == MIME_TYPE else "html" if mime == "text/html" else "other"
                    parts[key] += _bytes(value)
            rows.append(
                {
                    "notebook": source.name,
                    "cell": number,
                    "first_line": c.source.splitlines()[0],
                    "outputs_bytes": _bytes(c.outputs),
                    **{f"{k}_bytes": v for k, v in parts.items()},
                    "empty_outputs": sum(1 for o in c.outputs if o.output_type == "display_data" and not o.get("data")),
                }
            )
    return rows


def widget_sizes(source: Path) -> dict[str, object]:
    """The tour saved without and with widget state: what the explorer's widget adds to a notebook."""
    out: dict[str, object] = {"notebook": source.name}
    for store in (False, True):
        nb = nbformat.read(source, as_version=4)
        NotebookClient(
            nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}, store_widget_state=store
        ).execute()
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / source.name
            nbformat.write(nb, path)
            file_bytes = path.stat().st_size
            saved = nbformat.read(path, as_version=4)
        magic = [c for c in saved.cells if c.cell_type == "code" and c.source.startswith("%%dynamo")]
        views = [o.data[WIDGET_VIEW] for c in magic for o in c.outputs if WIDGET_VIEW in (o.get("data") or {})]
        state = saved.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        out["with_state" if store else "without_state"] = {
            "file_bytes": file_bytes,
            "dynamo_cells": len(magic),
            "outputs_bytes": sum(_bytes(c.outputs) for c in magic),
            "widget_view_bytes": sum(len(json.dumps({WIDGET_VIEW: v}, indent=1).encode()) for v in views),
            "widget_state_bytes": _bytes(state) if state else 0,
            "widget_models": len(state),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=385)
    ap.add_argument("--tour", action="store_true", help="measure every %%dynamo cell of notebooks/*.ipynb instead")
    ap.add_argument("--widgets", action="store_true", help="what the explorer's widget adds to the saved tour")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.widgets:
        sizes = widget_sizes(REPO / "notebooks" / "01_tour.ipynb")
        print(json.dumps(sizes, indent=1))
        if args.json:
            args.json.write_text(json.dumps(sizes, indent=1))
        return
    if args.tour:
        rows = tour(sorted((REPO / "notebooks").glob("*.ipynb")))
        print(f"{'notebook':16} {'cell':>4} {'outputs KB':>10} {'report KB':>9} {'html KB':>8} {'other KB':>8} {'empty':>5}")
        for r in rows:
            print(
                f"{r['notebook']:16} {r['cell']:>4} {r['outputs_bytes'] / 1024:10.1f} {r['report_bytes'] / 1024:9.1f} "  # type: ignore[operator]
                f"{r['html_bytes'] / 1024:8.1f} {r['other_bytes'] / 1024:8.1f} {r['empty_outputs']:>5}"  # type: ignore[operator]
            )
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
        return
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
