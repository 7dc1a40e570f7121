"""The GPU check of issue 28, in one call on a lent H100/H200 (torch 2.11 there): what only a GPU shows.

    python benchmarks/gpu_check.py OUTDIR [--jobs N]

Everything runs in its own process with fresh ``TORCHINDUCTOR_CACHE_DIR`` and ``TRITON_CACHE_DIR`` (a warm cache
changes what compiles when and on which thread), all at once (``--jobs``, default 9: the machine has 16 cores;
inductor's compile workers are 4 a job), and every verdict is written to ``OUTDIR/results.json`` as it comes, so a run cut short at the device's time
limit keeps what it measured. ``OUTDIR/summary.md`` is the table for BENCHMARKS.md; ``OUTDIR/reports.tar.gz``
holds every report; ``OUTDIR/pytest.log`` the engine tests run with the GPU visible.

Programs, each run plain (the step wrapped with ``torch.compile`` by the program) and through the explorer
(``dynamo-explorer run --backend inductor --profile``, which compiles the step itself), with the checks:

1. ``gpt2_train``: a transformers GPT-2 training step (2 layers, random weights, AdamW), 3 steps. The compiled
   backward, compiled lazily on autograd's device thread, is in the report (backward output code with kernels,
   3 compiled backward calls a graph, all on another thread); the kernels of inductor's autotuning (``FillFunctor``, the
   L2 flush) are charged to the first call's compile work, never to a graph's steady state; the same frames and
   graphs as plain torch.compile (Dynamo's own counters).
2. ``toy_cuda``: the seed's toy_example on CUDA tensors made by ``torch.randn(..., device="cuda")`` in the cell:
   the randn kernels are eager device time, in no graph's kernels.
3. ``dynamic``: a GPT-2 forward on 4 growing lengths: a shape recompile to a dynamic graph (a symbol), Triton
   kernels linked to FX nodes, the same counters as plain.
4. ``cudagraphs_*``: the five reduce-overhead programs of ``benchmarks/gpu_cudagraphs.py`` (recorded, re-recorded
   with its reason, skipped at run time with inductor's reason, replays versus eager runs).
5. ``pytest``: the engine's profile, attribution and CUDA graph tests with the GPU visible (item 4: the same results
   as without one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import gpu_cudagraphs  # noqa: E402 - beside this file

from compiler.summary import one_line  # noqa: E402 - the project from its checkout

# The plain run wraps the step with ``torch.compile`` (its ``= torch.compile(...)`` line); the explorer's run leaves
# that line out, as the explorer compiles what the cell calls itself. The plain run prints Dynamo's counters last.
HEADER = """
import json
import torch
PLAIN = {plain}
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
"""
FOOTER = """
if DEVICE == "cuda":
    torch.cuda.synchronize()
if PLAIN:
    c = torch._dynamo.utils.counters
    print("COUNTERS " + json.dumps({"frames": dict(c["frames"]), "stats": dict(c["stats"])}))
"""

PROGRAMS: dict[str, str] = {
    "gpt2_train": """
        from transformers import GPT2Config, GPT2LMHeadModel
        config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=256, n_positions=64)
        model = GPT2LMHeadModel(config).to(DEVICE)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

        def train_step(ids):
            loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            return loss

        train_step = torch.compile(train_step)
        for _ in range(3):
            ids = torch.randint(0, 256, (4, 32), device=DEVICE)
            loss = train_step(ids)
            opt.step()
            opt.zero_grad(set_to_none=True)
    """,
    "toy_cuda": """
        def toy_example(a, b):
            x = a / (torch.abs(a) + 1)
            if b.sum() < 0:
                b = b * -1
            return x * b

        toy_example = torch.compile(toy_example)
        for _ in range(20):
            out = toy_example(torch.randn(10, device=DEVICE), torch.randn(10, device=DEVICE))
    """,
    "dynamic": """
        from transformers import GPT2Config, GPT2Model
        config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=256, n_positions=128)
        model = GPT2Model(config).to(DEVICE).eval()

        def forward(ids):
            return model(input_ids=ids).last_hidden_state

        forward = torch.compile(forward)
        with torch.no_grad():
            for n in (8, 16, 32, 64):
                h = forward(torch.randint(0, 256, (2, n), device=DEVICE))
    """,
}

_lock = threading.Lock()


def _env(tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "TORCHINDUCTOR_CACHE_DIR": str(tmp / "inductor"),
        "TRITON_CACHE_DIR": str(tmp / "triton"),
        "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p),
        "PYTHONUNBUFFERED": "1",
        # up to 9 jobs share the machine's 16 cores: inductor's compile workers per job kept to 4
        "TORCHINDUCTOR_COMPILE_THREADS": os.environ.get("TORCHINDUCTOR_COMPILE_THREADS", "4"),
    }


def _program(name: str, plain: bool) -> str:
    body = textwrap.dedent(PROGRAMS[name])
    if not plain:
        body = "\n".join(line for line in body.splitlines() if "= torch.compile(" not in line)
    return HEADER.format(plain=plain) + body + FOOTER


def run_pair(name: str, work: Path) -> dict[str, Any]:
    """Program ``name`` run plain and through the explorer, each in its own process; the explorer's report checked."""
    verdict: dict[str, Any] = {"name": name}
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        for plain in (True, False):
            script = tmp / f"{name}_{'plain' if plain else 'explorer'}.py"
            script.write_text(_program(name, plain))
            run_dir = tmp / ("p" if plain else "e")
            run_dir.mkdir()
            report_path = work / f"{name}.json"
            cmd = [sys.executable, str(script)]
            if not plain:
                cmd = [sys.executable, "-m", "dynamo_explorer", "run", str(script), "--backend", "inductor", "--profile"]
                cmd += ["--json", str(report_path)]
            started = time.perf_counter()
            proc = subprocess.run(cmd, cwd=ROOT, env=_env(run_dir), capture_output=True, text=True, timeout=420)
            side = "plain" if plain else "explorer"
            verdict[f"{side}_s"] = round(time.perf_counter() - started, 1)
            verdict[f"{side}_rc"] = proc.returncode
            if proc.returncode != 0:
                verdict.setdefault("problems", []).append(f"{side} exited {proc.returncode}: {proc.stderr[-1500:]}")
            if plain:
                counters = [ln for ln in proc.stdout.splitlines() if ln.startswith("COUNTERS ")]
                verdict["plain_counters"] = json.loads(counters[-1][9:]) if counters else None
        if not report_path.exists():
            verdict.setdefault("problems", []).append("no report")
            return verdict
        report = json.loads(report_path.read_text())
    verdict["summary"] = one_line(report)
    verdict["problems"] = [*verdict.get("problems", []), *check(name, report, verdict.get("plain_counters"))]
    verdict["figures"] = figures(report)
    return verdict


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """The numbers BENCHMARKS.md quotes for a report."""
    prof = report.get("profile") or {}
    graphs = prof.get("graphs") or []
    return {
        "device": report.get("device"),
        "frames": len(report["frames"]),
        "graphs": sum(1 for g in report["graphs"] if g["kind"] == "dynamo"),
        "output_code": [(o["compile_id"], o["kind"], len(o.get("kernels") or [])) for o in report["output_code"]],
        "wall_ms": prof.get("wall_ms"),
        "compiled_ms": prof.get("compiled_ms"),
        "eager_ms": prof.get("eager_ms"),
        "compile_ms": prof.get("compile_ms"),
        "eager_device_ms": prof.get("eager_device_ms"),
        "compile_device_ms": prof.get("compile_device_ms"),
        "backward": prof.get("backward"),
        "graphs_device": [
            (
                g["compile_id"],
                g["calls"],
                g.get("device_ms"),
                (g.get("first_call") or {}).get("compile_device_ms"),
                (g.get("first_call") or {}).get("compile_kernels"),
                (g.get("steady") or {}).get("device_ms"),
            )
            for g in graphs
        ],
        "eager_kernels": [k.get("name") for k in prof.get("eager_kernels") or []][:8],
    }


def _want(out: list[str], what: str, got: Any, ok: bool) -> None:
    if not ok:
        out.append(f"{what}: got {got!r}")


def check(name: str, report: dict[str, Any], plain: dict[str, Any] | None) -> list[str]:
    """What is wrong with the explorer's report of program ``name`` (empty: all good)."""
    out: list[str] = []
    bad = [d for d in report.get("diagnostics", []) if d["kind"] in ("collector_failed", "schema_mismatch")]
    _want(out, "capture diagnostics", bad, not bad)
    cuda = report.get("device") == "cuda"
    _want(out, "device", report.get("device"), cuda)
    prof = report.get("profile") or {}
    _want(out, "profile device", prof.get("device"), prof.get("device") == report.get("device"))
    split = sum(prof.get(k) or 0.0 for k in ("compiled_ms", "eager_ms", "compile_ms"))
    _want(
        out,
        "compiled + eager + compile vs wall (ms)",
        (split, prof.get("wall_ms")),
        abs(split - (prof.get("wall_ms") or 0)) < 0.05,
    )
    if plain is not None:  # the same frames and graphs as plain torch.compile, by Dynamo's own counters
        mine = report.get("dynamo_counters") or {}
        for cat, key in (("frames", "total"), ("frames", "ok"), ("stats", "unique_graphs")):
            _want(
                out,
                f"counters {cat}.{key} explorer vs plain",
                ((mine.get(cat) or {}).get(key), plain[cat].get(key)),
                (mine.get(cat) or {}).get(key) == plain[cat].get(key),
            )
    graphs = prof.get("graphs") or []
    for g in graphs:  # a graph's steady state holds no compile work
        steady = g.get("steady")
        if steady:
            _want(
                out,
                f"graph {g['compile_id']} steady compile kernels",
                steady.get("compile_kernels"),
                not steady.get("compile_kernels"),
            )
        _want(
            out,
            f"graph {g['compile_id']} kernels hold a FillFunctor",
            [k["name"] for k in g.get("kernels") or []],
            not any("FillFunctor" in k["name"] for k in g.get("kernels") or []),
        )
    if name == "gpt2_train":
        bw = [o for o in report["output_code"] if o["kind"] == "backward"]
        _want(
            out,
            "backward output code with kernels",
            [(o["compile_id"], len(o.get("kernels") or [])) for o in bw],
            bool(bw) and all(o.get("kernels") for o in bw),
        )
        back = prof.get("backward") or {}
        steps = 3 * len(bw)  # each compiled graph's backward runs once a step
        _want(out, "compiled backward calls (3 steps x graphs)", back.get("compiled_calls"), back.get("compiled_calls") == steps)
        if cuda:  # autograd's device thread runs a CUDA backward
            _want(
                out,
                "compiled backward calls on another thread",
                back.get("other_thread_calls"),
                back.get("other_thread_calls") == steps,
            )
            _want(out, "backward device ms", back.get("device_ms"), (back.get("device_ms") or 0) > 0)
        _want(out, "backward compile ms (lazy, first call)", back.get("compile_ms"), (back.get("compile_ms") or 0) > 0)
    if name == "toy_cuda" and cuda:
        _want(out, "eager device ms (the cell's randn)", prof.get("eager_device_ms"), (prof.get("eager_device_ms") or 0) > 0)
        eager = [k.get("name", "") for k in prof.get("eager_kernels") or []]
        _want(
            out,
            "a randn/normal kernel among the eager kernels",
            eager,
            any("normal" in k.lower() or "randn" in k.lower() for k in eager),
        )
        for g in graphs:
            names = [k["name"] for k in g.get("kernels") or []]
            _want(out, f"graph {g['compile_id']} holds no randn kernel", names, not any("normal" in n.lower() for n in names))
    if name == "dynamic":
        _want(out, "a symbol (dynamic recompile)", [s["symbol"] for s in report["symbols"]], bool(report["symbols"]))
        linked = [k for o in report["output_code"] for k in o.get("kernels") or [] if k.get("nodes")]
        _want(out, "kernels linked to FX nodes", len(linked), bool(linked))
    return out


def run_cudagraphs(name: str, work: Path) -> dict[str, Any]:
    verdict = gpu_cudagraphs.run_one(name, work)
    verdict["name"] = f"cudagraphs_{name}"
    return verdict


def run_pytest(out: Path) -> dict[str, Any]:
    tests = ["tests/engine/test_profile.py", "tests/engine/test_profile_attribution.py", "tests/engine/test_cudagraphs.py"]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *tests],
            cwd=ROOT,
            env=_env(Path(tmp)),
            capture_output=True,
            text=True,
            timeout=480,
        )
    (out / "pytest.log").write_text(proc.stdout[-200_000:] + proc.stderr[-50_000:])
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    verdict: dict[str, Any] = {"name": "pytest", "rc": proc.returncode, "wall_s": round(time.perf_counter() - started, 1)}
    verdict["summary"] = last
    verdict["problems"] = [] if proc.returncode == 0 else [last or proc.stderr[-1500:]]
    return verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--jobs", type=int, default=9)
    parser.add_argument(
        "--only", nargs="*", help="names of the jobs to run (gpt2_train, toy_cuda, dynamic, cudagraphs_NAME, pytest)"
    )
    args = parser.parse_args(argv)
    import torch

    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="gpu_check_"))
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA device (a dry run on the CPU)"
    header = {
        "device": device,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": sys.version.split()[0],
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    print(json.dumps(header), flush=True)
    # the longest first: every job is started at once with the default --jobs
    jobs: list[tuple[str, Any]] = [(n, lambda n=n: run_pair(n, work)) for n in PROGRAMS]
    jobs.insert(1, ("pytest", lambda: run_pytest(out)))
    if torch.cuda.is_available():
        jobs += [(f"cudagraphs_{n}", lambda n=n: run_cudagraphs(n, work)) for n in gpu_cudagraphs.PROGRAMS]
    if args.only:
        jobs = [(n, j) for n, j in jobs if n in args.only]
    results: list[dict[str, Any]] = []

    def record(verdict: dict[str, Any]) -> None:
        with _lock:
            results.append(verdict)
            (out / "results.json").write_text(json.dumps({**header, "results": results}, indent=1, default=str))
            status = "ok" if not verdict.get("problems") else "FAILED"
            print(f"{verdict['name']}: {status} {json.dumps(verdict.get('problems') or '')[:1500]}", flush=True)
            with tarfile.open(out / "reports.tar.gz", "w:gz") as tar:
                for path in sorted(work.glob("*.json")):
                    tar.add(path, arcname=path.name)

    def guarded(name: str, job: Any) -> None:
        try:
            record(job())
        except Exception as exc:  # noqa: BLE001 - one job's failure is a verdict, the others go on
            record({"name": name, "problems": [f"{type(exc).__name__}: {exc}"]})

    with ThreadPoolExecutor(args.jobs) as pool:
        for name, job in jobs:
            pool.submit(guarded, name, job)
    lines = [f"# GPU check: {header['device']}, torch {header['torch']}, Python {header['python']}", ""]
    lines += ["| job | verdict | plain s | explorer s | summary |", "|---|---|---|---|---|"]
    for v in sorted(results, key=lambda v: v["name"]):
        verdict = "ok" if not v.get("problems") else "FAILED: " + "; ".join(v["problems"])[:300]
        lines.append(
            f"| {v['name']} | {verdict} | {v.get('plain_s', '')} | {v.get('explorer_s', v.get('wall_s', ''))} | {v.get('summary', '')} |"
        )
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)
    return 1 if any(v.get("problems") for v in results) else 0


if __name__ == "__main__":
    sys.exit(main())
