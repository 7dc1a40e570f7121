"""CUDA graphs on a GPU (issue 28 item 3): five small programs run under ``--mode reduce-overhead --profile``, and
what each report's ``cudagraphs`` must say. Only a CUDA machine records, re-records, replays or skips at run time
([Note: cudagraphs] in compiler/collectors/cudagraphs/cudagraphs.py); the CPU path is tested in tests/engine/test_cudagraphs.py.

    python benchmarks/gpu_cudagraphs.py OUTDIR [--only NAME ...]

Each program runs through the CLI in its own process with a fresh ``TORCHINDUCTOR_CACHE_DIR`` and
``TRITON_CACHE_DIR``; its report goes to ``OUTDIR/cudagraphs_<name>.json`` and every verdict to
``OUTDIR/cudagraphs_check.json`` as it is made (a run cut short keeps what it measured). Exit 1 when a check
failed, 0 when all passed or when there is no CUDA device (nothing to check). ``benchmarks/gpu_check.py`` can
call ``run_all`` or take ``PROGRAMS`` and ``check``.

- ``inference``: an MLP under no_grad, 10 calls: recorded once after one warm-up, then replayed;
- ``training``: an MLP training step with SGD, 6 steps: the forward and its backward (autograd's device thread)
  both recorded;
- ``mutation``: a function that writes into its input, 4 calls: skipped at run time with inductor's
  "mutated inputs" reason, every call eager;
- ``rerecord``: a Linear whose weight gets new storage before the 4th of 6 calls: re-recorded, the reason
  naming the static input whose address changed;
- ``dynamic``: sizes 8, 16, 24, 32, 3 calls each: the static compile recorded once, the dynamic one once per size.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from compiler.summary import one_line  # noqa: E402 - the project from its checkout

PROGRAMS: dict[str, str] = {
    "inference": """
        import torch
        m = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64)).cuda()
        x = torch.randn(8, 64, device="cuda")
        with torch.no_grad():
            for _ in range(10):
                y = m(x)
        torch.cuda.synchronize()
    """,
    "training": """
        import torch
        m = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).cuda()
        opt = torch.optim.SGD(m.parameters(), lr=0.01)
        x = torch.randn(32, 64, device="cuda")
        for _ in range(6):
            loss = m(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
    """,
    "mutation": """
        import torch
        def bump(x):
            x.add_(1)
            return x * 2
        x = torch.zeros(8, device="cuda")
        for _ in range(4):
            y = bump(x)
        torch.cuda.synchronize()
    """,
    "rerecord": """
        import torch
        m = torch.nn.Linear(16, 16).cuda()
        x = torch.randn(4, 16, device="cuda")
        with torch.no_grad():
            for i in range(6):
                if i == 3:
                    m.weight.data = torch.randn_like(m.weight)  # new storage for a static input (a parameter)
                y = m(x)
        torch.cuda.synchronize()
    """,
    "dynamic": """
        import torch
        def f(x):
            return (x * 2).relu().sum(0)
        for n in (8, 16, 24, 32):
            x = torch.randn(n, 4, device="cuda")
            for _ in range(3):
                y = f(x)
        torch.cuda.synchronize()
    """,
}


def _problems_common(report: dict[str, Any]) -> list[str]:
    out = []
    bad = [d for d in report.get("diagnostics", []) if d["kind"] in ("collector_failed", "schema_mismatch")]
    if bad:
        out.append(f"diagnostics {bad}")
    if report.get("device") != "cuda":
        out.append(f"device {report.get('device')!r}, not 'cuda'")
    leaked = [r for r in report.get("logs", []) if r["level"] == "DEBUG" and "cudagraph" in r["logger"]]
    if leaked:
        out.append(f"{len(leaked)} DEBUG records of inductor's cudagraphs log reached the report")
    frames = {f["compile_id"] for f in report.get("frames", [])}
    graphs = {g["id"]: g for g in report.get("graphs", [])}
    for r in report.get("cudagraphs", []):
        if r["compile_id"] not in frames:
            out.append(f"row {r['compile_id']} {r['kind']} names no frame")
        g = graphs.get(r["graph_id"]) if r["graph_id"] is not None else None
        if g is None or (g["compile_id"], g["kind"]) != (r["compile_id"], f"aot_{r['kind']}"):
            out.append(f"row {r['compile_id']} {r['kind']}: graph_id {r['graph_id']} is not its AOT graph")
        if r["calls"] is None or r["replays"] is None or r["eager_runs"] is None:
            out.append(f"row {r['compile_id']} {r['kind']}: no call counts with --profile")
        elif r["status"] != "skipped" and r["replays"] + r["eager_runs"] > r["calls"]:
            out.append(f"row {r['compile_id']} {r['kind']}: replays + eager runs > calls")
    return out


def _want(out: list[str], what: str, got: Any, ok: bool) -> None:
    if not ok:
        out.append(f"{what}: got {got!r}")


def check(name: str, report: dict[str, Any]) -> list[str]:
    """What is wrong with the report of program ``name`` (empty: all good)."""
    out = _problems_common(report)
    rows = report.get("cudagraphs", [])
    by = {r["kind"]: r for r in rows}
    skips = (report.get("dynamo_counters", {}).get("inductor") or {}).get("cudagraph_skips", 0)
    if name == "inference":
        _want(
            out,
            "rows",
            [(r["kind"], r["status"]) for r in rows],
            [(r["kind"], r["status"]) for r in rows] == [("inference", "recorded")],
        )
        r = by.get("inference")
        if r:
            _want(out, "recordings, partitions", (r["recordings"], r["partitions"]), (r["recordings"], r["partitions"]) == (1, 1))
            _want(out, "warmups", r["warmups"], r["warmups"] >= 1)
            _want(
                out,
                "calls, replays, eager runs",
                (r["calls"], r["replays"], r["eager_runs"]),
                (r["calls"], r["replays"], r["eager_runs"]) == (10, 8, 1),
            )
        _want(out, "cudagraph_skips", skips, skips == 0)
    elif name == "training":
        _want(out, "kinds", sorted(by), sorted(by) == ["backward", "forward"])
        for kind in ("forward", "backward"):
            r = by.get(kind)
            if r:
                _want(out, f"{kind} status", r["status"], r["status"] in ("recorded", "rerecorded"))
                _want(out, f"{kind} recordings", r["recordings"], r["recordings"] >= 1)
                _want(out, f"{kind} calls", r["calls"], r["calls"] == 6)
                _want(out, f"{kind} replays", r["replays"], (r["replays"] or 0) >= 3)
        _want(out, "cudagraph_skips", skips, skips == 0)
    elif name == "mutation":
        r = by.get("inference")
        _want(out, "rows", [(x["kind"], x["status"], x["skipped_at"]) for x in rows], r is not None and len(rows) == 1)
        if r:
            _want(out, "status", (r["status"], r["skipped_at"]), (r["status"], r["skipped_at"]) == ("skipped", "run"))
            _want(
                out, "reason", r["reason"], str(r["reason"]).startswith("skipping cudagraphs due to mutated inputs (1 instances)")
            )
            _want(out, "recordings", r["recordings"], r["recordings"] == 0)
            _want(
                out,
                "calls, replays, eager runs",
                (r["calls"], r["replays"], r["eager_runs"]),
                (r["calls"], r["replays"], r["eager_runs"]) == (4, 0, 4),
            )
        warned = [x for x in report.get("logs", []) if x["level"] == "WARNING" and "mutated inputs" in x["message"]]
        _want(out, "the skip warning in report.logs", len(warned), len(warned) == 1)
        _want(out, "cudagraph_skips", skips, skips == 1)
    elif name == "rerecord":
        r = by.get("inference")
        _want(out, "rows", [(x["kind"], x["status"]) for x in rows], r is not None and len(rows) == 1)
        if r:
            _want(out, "status", r["status"], r["status"] == "rerecorded")
            _want(out, "recordings", r["recordings"], r["recordings"] == 2)
            _want(
                out,
                "rerecord_reasons",
                r["rerecord_reasons"],
                any("static input data pointer changed" in x for x in r["rerecord_reasons"]),
            )
            _want(out, "calls, replays", (r["calls"], r["replays"]), (r["calls"], r["replays"]) == (6, 3))
    elif name == "dynamic":
        _want(
            out,
            "rows",
            [(x["compile_id"], x["kind"], x["status"]) for x in rows],
            len(rows) == 2 and all(x["status"] == "recorded" for x in rows),
        )
        if len(rows) == 2:
            first, dyn = rows
            _want(
                out,
                "static compile: recordings, calls, replays",
                (first["recordings"], first["calls"], first["replays"]),
                (first["recordings"], first["calls"], first["replays"]) == (1, 3, 1),
            )
            _want(
                out,
                "dynamic compile: recordings, warmups, calls, replays",
                (dyn["recordings"], dyn["warmups"], dyn["calls"], dyn["replays"]),
                (dyn["recordings"], dyn["warmups"], dyn["calls"], dyn["replays"]) == (3, 3, 9, 3),
            )
    if rows and "CUDA graphs: " not in one_line(report):
        out.append(f"the one-line summary says nothing of CUDA graphs: {one_line(report)}")
    return out


def run_one(name: str, outdir: Path, timeout_s: int = 240) -> dict[str, Any]:
    """Run program ``name`` through the CLI in its own process and check its report."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / f"{name}.py"
        script.write_text(textwrap.dedent(PROGRAMS[name]))
        out = outdir / f"cudagraphs_{name}.json"
        env = {
            **os.environ,
            "TORCHINDUCTOR_CACHE_DIR": str(Path(tmp) / "inductor"),
            "TRITON_CACHE_DIR": str(Path(tmp) / "triton"),
            "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p),
        }
        cmd = [
            sys.executable,
            "-m",
            "dynamo_explorer",
            "run",
            str(script),
            "--mode",
            "reduce-overhead",
            "--profile",
            "--json",
            str(out),
        ]
        started = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout_s)
        verdict: dict[str, Any] = {"name": name, "rc": proc.returncode, "wall_s": round(time.perf_counter() - started, 1)}
        if "Recording function=" in proc.stderr or "Running warmup function=" in proc.stderr:
            verdict.setdefault("problems", []).append("inductor's DEBUG cudagraphs lines reached stderr")
        if not out.exists():
            verdict["problems"] = [*verdict.get("problems", []), f"no report: {proc.stderr[-2000:]}"]
            return verdict
        report = json.loads(out.read_text())
        verdict["rows"] = report.get("cudagraphs")
        verdict["problems"] = [*verdict.get("problems", []), *check(name, report)]
        return verdict


def run_all(outdir: Path, only: list[str] | None = None) -> list[dict[str, Any]]:
    outdir.mkdir(parents=True, exist_ok=True)
    verdicts = []
    for name in only or list(PROGRAMS):
        verdicts.append(run_one(name, outdir))
        (outdir / "cudagraphs_check.json").write_text(json.dumps(verdicts, indent=1))
    return verdicts


def main(argv: list[str]) -> int:
    import torch

    if not torch.cuda.is_available():
        print("no CUDA device: nothing to check")
        return 0
    only = argv[argv.index("--only") + 1 :] if "--only" in argv else None
    verdicts = run_all(Path(argv[0]), only)
    for v in verdicts:
        print(f"{v['name']}: {'ok' if not v.get('problems') else 'FAILED'} ({v['wall_s']} s) {v.get('problems') or ''}")
    return 1 if any(v.get("problems") for v in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
