"""Render benchmark: time from a report output to ``data-status="ready"`` in headless chromium.

A benchmark script, not a timed test. It runs a real JupyterLab (tests/browser/labserver.py), a real
kernel and Debian chromium. The report comes from the real engine run on a real model: a
``torch.nn.TransformerEncoder`` of N layers (default 385 layers, about 10,000 FX nodes, backend eager),
called from a cell function so that ``forward`` is one frame. Pass ``--report PATH`` to time any saved
report instead.

For each run a cell displays the report with the same bundle ``%%dynamo`` shows (``kernel_ext.display.bundle``,
with what the report holds in part beside it when ``NAME.parts.json`` is next to the report: a generated report's
is) and the script records, in the page:
- ``render``: renderModel() to the first complete view (the renderer's ``data-render-ms``);
- ``output_to_ready``: the display_data message reaching the page to ``data-status="ready"``;
- ``exec_to_ready``: running the cell to ``data-status="ready"`` (kernel side included);
- ``completed_after_ready``: ready to the output holding every part, those past its first 4 MB written into it once
  the view is drawn ([Note: an output completed once drawn] in kernel_ext/parts.py), with the longest task meanwhile
  and whether the view drawn stayed; the saved notebook's size is then the one with every part.

Usage:
    python benchmarks/render_bench.py [--layers 385 | --report PATH] [--runs 3] [--json OUT]
Prints one line per run and a summary; writes a screenshot to artifacts/bench/render_<nodes>.png.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

import labserver  # noqa: E402

ARTIFACTS = REPO / "artifacts" / "bench"

#: The model every size and render benchmark runs (``{layers}``: about 26 FX nodes per layer), as cell code.
MODEL_CELL = """\
import torch
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True, norm_first=True)
model = torch.nn.TransformerEncoder(layer, num_layers={layers}, enable_nested_tensor=False).train()
def step(x):
    return model(x)
y = step(torch.randn(2, 8, 16))
"""

GENERATE = textwrap.dedent(
    """
    import json, sys, time
    sys.path.insert(0, {repo!r})
    from compiler import RunOptions, run_cell
    source = {source!r}
    started = time.perf_counter()
    run = run_cell(source, {{}}, RunOptions(backend="eager"))
    if run.exception is not None:
        raise run.exception
    with open({out!r}, "w") as f:
        json.dump(run.report, f)
    from kernel_ext.parts import EVERY_PART, held, keep  # the parts as the kernel stores them (the cell holds what %%dynamo would)
    with open({parts!r}, "w") as f:
        json.dump(held(keep(run.parts), budget=EVERY_PART), f)
    print(f"engine: {{time.perf_counter() - started:.1f}} s")
    """
)

CELL = """\
%load_ext kernel_ext
import json
from IPython.display import display
from kernel_ext.display import bundle
with open({path!r}) as f:
    _report = json.load(f)
from kernel_ext.parts import held, shown
try:
    with open({parts!r}) as f:
        _parts = json.load(f)
    _stored = {{key: _parts["blobs"][at] for key, at in _parts["keys"].items()}}
    _parts = held(_stored)  # as %%dynamo: within its budget
except FileNotFoundError:
    _stored, _parts = {{}}, None
_bundle = bundle(_report, parts=_parts)
print({{k: len(v) if isinstance(v, str) else len(json.dumps(v)) for k, v in _bundle.items()}})
_handle = display(_bundle, raw=True, display_id=True)
shown(_stored, _parts, _handle.display_id, _bundle)  # as %%dynamo: the rest written into the output once drawn
"""

# Before JupyterLab loads: note when a big websocket message (the report) reaches the page, before
# JupyterLab parses it (listeners added in the constructor run before JupyterLab's onmessage).
INIT = """(() => {
    const Native = window.WebSocket;
    window.__bench = {iopub: null};
    window.WebSocket = function (...args) {
        const ws = new Native(...args);
        ws.addEventListener('message', event => {
            const size = typeof event.data === 'string' ? event.data.length : (event.data.byteLength || event.data.size || 0);
            if (size > 100000 && window.__bench.iopub === null) {
                window.__bench.iopub = performance.now();
            }
        });
        return ws;
    };
    window.WebSocket.prototype = Native.prototype;
    Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""

RUN = """async lacking => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    await app.commands.execute('notebook:clear-all-cell-outputs');
    panel.content.activeCellIndex = 0;
    window.__bench.iopub = null;
    const t0 = performance.now();
    const readyAt = new Promise(resolve => {
        const check = () => {
            const el = document.querySelector('.jp-DynamoExplorer[data-status="ready"]');
            if (el) { resolve([performance.now(), el]); return true; }
            return false;
        };
        const obs = new MutationObserver(() => { if (check()) obs.disconnect(); });
        obs.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-status']});
    });
    app.commands.execute('notebook:run-cell');
    const [t1, el] = await readyAt;
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const t2 = performance.now();
    const fx = el.querySelector('[data-pane="fx-graph"]');
    // [Note: an output completed once drawn]: the parts past the output's budget come after the view is drawn; how
    // long after, and the longest the page was busy meanwhile (long tasks)
    const longest = {ms: 0};
    const watch = new PerformanceObserver(list => {
        for (const e of list.getEntries()) { longest.ms = Math.max(longest.ms, e.duration); }
    });
    watch.observe({type: 'longtask'});
    const all = String(Number(el.dataset.partsHeld) + lacking);
    let completed = null;
    if (lacking > 0) {
        const until = performance.now() + 120000;
        while (el.dataset.partsHeld !== all && performance.now() < until) {
            await new Promise(r => setTimeout(r, 20));
        }
        completed = el.dataset.partsHeld === all ? performance.now() - t1 : null;
        await new Promise(r => setTimeout(r, 200));
    }
    watch.disconnect();
    return {
        completed_after_ready: completed,
        longest_task_while_completing: lacking > 0 ? longest.ms : null,
        kept_view: el.isConnected && el.dataset.status === 'ready' && document.querySelectorAll('.jp-DynamoExplorer').length === 1,
        exec_to_ready: t1 - t0,
        output_to_ready: window.__bench.iopub === null ? null : t1 - window.__bench.iopub,
        render: Number(el.dataset.renderMs),
        painted_after_ready: t2 - t1,
        svg_boxes: fx.querySelectorAll('svg g.node').length,
        graph_info: fx.querySelector('.jp-DynamoExplorer-graphInfo').textContent,
    };
}"""


def parts_path(report: Path) -> Path:
    """Where the parts of a generated report are (what ``%%dynamo``'s output holds beside it: ``kernel_ext.parts.held``)."""
    return report.with_name(report.name.replace(".report.json", "") + ".parts.json")


def generate(layers: int, out: Path) -> None:
    code = GENERATE.format(repo=str(REPO), source=MODEL_CELL.format(layers=layers), out=str(out), parts=str(parts_path(out)))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=385, help="TransformerEncoder layers (about 26 FX nodes each)")
    parser.add_argument("--report", type=Path, help="time this saved report instead of generating one")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the measurements here")
    args = parser.parse_args(argv)

    problem = labserver.browser_missing() or labserver.labextension_problem()
    if problem:
        print(f"render_bench: {problem}", file=sys.stderr)
        return 2
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    report_path = args.report
    if report_path is None:
        report_path = ARTIFACTS / f"transformer_{args.layers}.report.json"
        if not report_path.exists():
            print(f"generating the report: TransformerEncoder x{args.layers}, backend eager ...", flush=True)
            generate(args.layers, report_path)
    report = json.loads(report_path.read_text())
    nodes = max((len(g["nodes"]) for g in report["graphs"]), default=0)
    size = report_path.stat().st_size
    print(
        f"report: {report_path} ({size / 1e6:.1f} MB JSON, {len(report['frames'])} frames, "
        f"largest graph {nodes} nodes, {sum(len(f['guards']) for f in report['frames'])} guards)"
    )

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(REPO))
    from kernel_ext.parts import held

    every = json.loads(parts_path(report_path).read_text()) if parts_path(report_path).exists() else {"keys": {}}
    first = held({key: every["blobs"][at] for key, at in every["keys"].items()}) if every["keys"] else None
    lacking = len(every["keys"]) - (len(first["keys"]) if first else 0)  # the parts the output gets once drawn

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        server = labserver.LabServer(Path(tmp)).start()
        try:
            cell = CELL.format(path=str(report_path.resolve()), parts=str(parts_path(report_path).resolve()))
            labserver.write_notebook(server.root / "bench.ipynb", [cell])
            with sync_playwright() as pw:
                browser = labserver.launch_chromium(pw)
                page = browser.new_page(viewport={"width": 1500, "height": 2200})
                page.add_init_script(INIT)
                labserver.open_notebook(page, server, "bench.ipynb")
                page.evaluate(RUN, lacking)  # warm-up: imports in the kernel, wasm graphviz and highlighters in the page
                for i in range(args.runs):
                    r = page.evaluate(RUN, lacking)
                    results.append(r)
                    done = r["completed_after_ready"]
                    print(
                        f"run {i + 1}: render {r['render']:.0f} ms, output->ready {r['output_to_ready']:.0f} ms, "
                        f"exec->ready {r['exec_to_ready']:.0f} ms; {r['graph_info']}"
                        + (
                            f"; every part in the output {done:.0f} ms after ready (longest task "
                            f"{r['longest_task_while_completing']:.0f} ms, view kept: {r['kept_view']})"
                            if done is not None
                            else ""
                        ),
                        flush=True,
                    )
                page.locator(".jp-DynamoExplorer").screenshot(path=str(ARTIFACTS / f"render_{nodes}.png"))
                page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
                time.sleep(2)
                nb_size = (server.root / "bench.ipynb").stat().st_size
                browser.close()
        finally:
            left = server.stop()
            if left:
                print(f"warning: processes left: {left}", file=sys.stderr)
    summary = {
        "report": str(report_path),
        "report_bytes": size,
        "notebook_bytes_with_output": nb_size,
        "nodes": nodes,
        "runs": results,
        "median_render_ms": statistics.median(r["render"] for r in results),
        "median_output_to_ready_ms": statistics.median(r["output_to_ready"] for r in results),
        "median_exec_to_ready_ms": statistics.median(r["exec_to_ready"] for r in results),
        "parts_written_once_drawn": lacking,
    }
    done = [r["completed_after_ready"] for r in results if r["completed_after_ready"] is not None]
    if done:
        summary["median_completed_after_ready_ms"] = statistics.median(done)
        summary["median_longest_task_ms"] = statistics.median(r["longest_task_while_completing"] for r in results)
    print(
        f"summary: {nodes} nodes, report {size / 1e6:.1f} MB, saved notebook {nb_size / 1e6:.1f} MB; median render "
        f"{summary['median_render_ms']:.0f} ms, output->ready {summary['median_output_to_ready_ms']:.0f} ms, "
        f"exec->ready {summary['median_exec_to_ready_ms']:.0f} ms"
        + (
            f"; {lacking} parts written into the output {summary['median_completed_after_ready_ms']:.0f} ms after "
            f"ready (longest task {summary['median_longest_task_ms']:.0f} ms)"
            if done
            else ""
        )
    )
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
