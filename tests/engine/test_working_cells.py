"""Never turn a working cell into a crash (issue 23): coroutines, resets, methods, the user's own torch.compile
options and threads, each run through the real engine (and the CLI where the process's fate is the point)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import sysconfig

import torch

from .helpers import frames_named, run

REPO = pathlib.Path(__file__).resolve().parents[2]
STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep


def _cli(tmp_path: pathlib.Path, source: str, *options: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    script = tmp_path / "cell.py"
    script.write_text(source)
    out = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", str(script), "--backend", "eager", "--json", str(out), *options],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)},
        timeout=300,
    )
    return proc, json.loads(out.read_text()) if out.exists() else {}


def _no_stdlib_frames(report: dict) -> None:
    stdlib = [f["code"]["name"] for f in report["frames"] if os.path.realpath(f["code"]["filename"]).startswith(STDLIB)]
    assert not stdlib, stdlib


def _callee(report: dict, name: str) -> dict:
    return next(c for c in report["callees"] if c["name"] == name)


# --- 1. coroutines and generators are never handed to Dynamo ---------------------------------------------------

ASYNC_MAIN = """\
import asyncio
import torch

def f(x):
    return torch.sin(x) + 1

async def main():
    await asyncio.sleep(0)
    y = f(torch.randn(4))
    await asyncio.sleep(0)
    return y * 2

out = asyncio.run(main())
print(tuple(out.shape))
"""


def test_an_async_main_runs_plain_and_the_cli_exits_as_python_does(tmp_path):
    plain = subprocess.run([sys.executable, "-c", ASYNC_MAIN], capture_output=True, text=True, timeout=120)
    proc, report = _cli(tmp_path, ASYNC_MAIN)
    assert (proc.returncode, plain.returncode) == (0, 0), proc.stderr[-2000:]
    assert proc.stdout.splitlines()[0] == plain.stdout.strip() == "(4,)"
    assert "Traceback" not in proc.stderr
    assert report["frames"] == [] and report["error"] is None
    main = _callee(report, "main")
    assert not main["compiled"] and main["why"].startswith("a coroutine function (async def): runs as plain Python")
    assert "main (line 13, a coroutine function (async def))" in report["scope_reason"]


def test_generator_and_async_generator_functions_run_plain_even_when_the_user_compiled_them():
    src = (
        "import torch\n"
        "def batches(n):\n    for i in range(n):\n        yield torch.full((2,), float(i)).cos()\n"
        "async def agen():\n    yield 1\n"
        "compiled_batches = torch.compile(batches, backend='eager')\n"
        "total = sum(b.sum() for b in batches(3))\n"
        "again = list(compiled_batches(2))\n"
        "g = agen()\n"
    )
    ns = {"__name__": "__main__"}
    watched = run(src, ns).report  # the cell compiles itself: it runs as it is, as plain torch.compile runs it
    assert watched["scope"] == "watch" and watched["frames"] == [] and watched["error"] is None
    ns = {"__name__": "__main__"}
    rep = run(src, ns, scope="calls").report
    assert rep["frames"] == []
    assert float(ns["total"]) == float(sum(torch.full((2,), float(i)).cos().sum() for i in range(3)))
    assert len(ns["again"]) == 2
    for name, kind in (("batches", "a generator function"), ("compiled_batches", "a generator function"), ("agen", "an async")):
        callee = _callee(rep, name)
        assert not callee["compiled"] and callee["why"].startswith(kind), callee


# --- 2. torch._dynamo.reset() inside the cell -------------------------------------------------------------------

RESET_FIRST = """\
import torch
torch._dynamo.reset()

def f(x):
    return torch.cos(x) * 2

y = f(torch.randn(4))
"""


def test_a_reset_on_the_first_line_is_reported_and_the_cli_exits_0(tmp_path):
    proc, report = _cli(tmp_path, RESET_FIRST)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "reset Dynamo at line 2" in proc.stdout
    (reset,) = report["resets"]
    assert reset["line"] == 2 and reset["frames_before"] == 0 and reset["epoch"] is None
    assert [f["compile_id"] for f in report["frames"]] == ["0/0"]  # as a plain run numbers it after a reset
    assert frames_named(report, "f")[0]["graph_ids"]


def test_a_reset_after_compiles_keeps_dynamos_ids_distinct_by_the_reset_and_every_callback_working():
    src = (
        "import torch\n"
        "def f(x):\n    return x.sin() + 1\n"
        "a = f(torch.randn(3))\n"
        "torch.compiler.reset()\n"
        "def g(x):\n    return x.cos() * 2\n"
        "b = g(torch.randn(3))\n"
        "c = f(torch.randn(3))\n"
    )
    handler = torch._dynamo.callback_handler
    before = (list(handler.start_callbacks), list(handler.end_callbacks), "clear" in vars(handler))
    torch._dynamo.reset()  # Dynamo numbers from 0/0, as in a new process
    rep = run(src).report
    ids = [f["compile_id"] for f in rep["frames"]]
    # Dynamo's own ids, its numbering untouched: f is 0/0; after the reset g is Dynamo's 0/0 again, f its 1/0
    assert ids == ["0/0", "0/0@1", "1/0@1"], ids
    (reset,) = rep["resets"]
    assert reset["line"] == 5 and reset["frames_before"] == 1 and reset["epoch"] == 1
    assert "carry @1" in reset["message"]
    # the compiles after the reset were captured like the first: graphs and compile times
    assert all(f["graph_ids"] and f["compile_time_s"] is not None for f in rep["frames"])
    assert (list(handler.start_callbacks), list(handler.end_callbacks), "clear" in vars(handler)) == before


def test_the_users_own_callbacks_and_a_reset_of_them_survive_the_run():
    src = (
        "import torch\n"
        "seen = []\n"
        "def mine(args):\n    seen.append(str(args.compile_id))\n"
        "torch._dynamo.callback_handler.register_start_callback(mine)\n"
        "def f(x):\n    return x * 3\n"
        "y = f(torch.ones(2))\n"
        "torch._dynamo.callback_handler.clear()\n"
        "z = f(torch.ones(3))\n"
    )
    ns = {"__name__": "__main__"}
    rep = run(src, ns).report
    assert len(ns["seen"]) == 1  # the user's own callback, cleared by the user, stays cleared
    assert ns["mine"] not in torch._dynamo.callback_handler.start_callbacks
    assert {f["code"]["name"] for f in rep["frames"]} == {"f"}
    assert all(f["compile_time_s"] is not None for f in rep["frames"])  # ours came back after the user's clear


# --- 3. methods of the user's own classes --------------------------------------------------------------------------

METHODS = """\
import dataclasses
import torch

@dataclasses.dataclass
class Cfg:
    scale: float = 2.0

    def apply(self, x):
        return x * self.scale + 1

class Svc:
    def run(self, x):
        return torch.relu(x) - 1

cfg = Cfg()
x = torch.randn(5)
out = cfg.apply(x)
out2 = Svc().run(x)
"""


def test_methods_of_classes_the_cell_defines_are_compiled_as_torch_compile_would_compile_them():
    ns = {"__name__": "__main__"}
    rep = run(METHODS, ns).report
    assert rep["scope"] == "calls"
    assert "the cell calls cfg.apply() (line 17), a method of a class it defines" in rep["scope_reason"]
    assert [(f["code"]["name"], len(f["graph_ids"])) for f in rep["frames"]] == [("apply", 1), ("run", 1)]
    _no_stdlib_frames(rep)
    assert _callee(rep, "cfg.apply")["why"] == "a method of a class you defined"
    assert not _callee(rep, "Cfg")["compiled"]  # construction runs plain
    torch.testing.assert_close(ns["out"], ns["x"] * 2.0 + 1)
    # what plain torch.compile does with the same method
    torch._dynamo.reset()
    counters = torch._dynamo.utils.counters
    counters.clear()
    torch.compile(ns["cfg"].apply, backend="eager")(ns["x"])
    assert counters["stats"]["unique_graphs"] == 1 and not counters["graph_break"]


def test_an_inherited_method_and_a_method_of_an_earlier_cells_class_count_too():
    ns = {"__name__": "__main__"}
    run("import torch\nclass Base:\n    def go(self, x):\n        return x.exp()\n", ns)
    rep = run("class Child(Base):\n    pass\nc = Child()\ny = c.go(torch.ones(2))\n", ns).report
    assert rep["scope"] == "calls" and [f["code"]["name"] for f in rep["frames"]] == ["go"]


# --- 4. the user's own torch.compile options ------------------------------------------------------------------------


def test_the_users_backend_and_dynamic_are_kept_and_named_in_the_header():
    src = (
        "import torch\n"
        "def g(x):\n    return torch.tanh(x) * 3\n"
        "cg = torch.compile(g, backend='aot_eager', dynamic=False)\n"
        "a = cg(torch.randn(3))\n"
        "b = cg(torch.randn(5))\n"
    )
    watched = run(src, backend="eager").report  # the cell compiles itself: watched, the same story
    assert watched["scope"] == "watch" and len(watched["frames"]) == 2 and not watched["symbols"]
    rep = run(src, backend="eager", scope="calls").report  # cg runs as the user compiled it, named in the header
    settings = _callee(rep, "cg")["compile"]
    assert settings == {
        "origin": "torch.compile",
        "backend": "aot_eager",
        "mode": None,
        "dynamic": False,
        "fullgraph": False,
        "options": None,
        "recompile_limit": None,
    }
    assert "runs as your torch.compile made it, its compiles watched: backend='aot_eager', dynamic=False" in rep["scope_reason"]
    # aot_eager: AOT graphs exist although the run's backend is eager; dynamic=False: the recompile stays static
    kinds = {g["kind"] for g in rep["graphs"]}
    assert {"aot_forward", "dynamo"} <= kinds or {"aot_inference", "dynamo"} <= kinds, kinds
    assert len(rep["frames"]) == 2 and not rep["symbols"]


def test_fullgraph_true_raises_in_the_users_code_as_plain_python_does_and_override_makes_it_a_break():
    src = (
        "import torch\n"
        "def h(x):\n    if x.sum() > 0:\n        return x + 1\n    return x - 1\n"
        "ch = torch.compile(h, fullgraph=True, backend='eager')\n"
        "try:\n    ch(torch.ones(3))\n    outcome = 'ran'\nexcept Exception as e:\n    outcome = type(e).__name__\n"
    )
    ns = {"__name__": "__main__"}
    rep = run(src, ns).report
    assert ns["outcome"] == "Unsupported" and rep["scope"] == "watch"
    (diag,) = [d for d in rep["diagnostics"] if d["kind"] == "compile_failed"]
    assert diag["message"].endswith(
        "Dynamo raised it to your code (fullgraph=True, or an error it does not suppress), which caught it"
    )
    ns = {"__name__": "__main__"}
    rep = run(src, ns, scope="calls").report
    assert ns["outcome"] == "Unsupported"
    (diag,) = [d for d in rep["diagnostics"] if d["kind"] == "compile_failed"]
    assert diag["message"].endswith("Dynamo raised it (fullgraph=True) and the cell caught it")
    ns = {"__name__": "__main__"}
    overridden = run(src, ns, override_compile_options=True).report
    assert ns["outcome"] == "ran"
    assert _callee(overridden, "ch")["compile"]["origin"] == "run"
    assert "this run's options (--override-compile-options)" in overridden["scope_reason"]
    assert sum(len(f["graph_breaks"]) for f in overridden["frames"]) == 1


def test_model_compile_keeps_its_mode_and_options():
    src = "import torch\nm = torch.nn.Linear(4, 4)\nm.compile(backend='aot_eager')\ny = m(torch.randn(2, 4))\n"
    assert run(src).report["scope"] == "watch"
    rep = run(src, scope="calls").report
    callee = _callee(rep, "m")
    assert callee["why"].startswith("already wrapped with torch.compile (model.compile())")
    assert callee["compile"]["backend"] == "aot_eager"


# --- 5. threads -------------------------------------------------------------------------------------------------------

THREADS = """\
import threading
from concurrent.futures import ThreadPoolExecutor
import torch

results = []

def work(x):
    results.append(torch.sin(x) * 2)

def double(x):
    return x.cos() * 2

ts = [threading.Thread(target=work, args=(torch.randn(4),)) for _ in range(2)]
for t in ts:  # one at a time: compiled code that appends to a shared list from two threads at once can lose an
    t.start()  # append (Dynamo replays the list's contents), under plain torch.compile as here
    t.join()
with ThreadPoolExecutor(2) as pool:
    doubled = list(pool.map(double, [torch.ones(3), torch.zeros(3)]))
"""


def test_a_function_handed_to_threads_is_compiled_where_the_threads_call_it(tmp_path):
    from compiler import _compat

    ns = {"__name__": "__main__"}
    rep = run(THREADS, ns).report
    assert rep["scope"] == "calls" and "hands work to threading.Thread (line 13)" in rep["scope_reason"]
    if not _compat.THREADS_RUN_COMPILED_CODE:  # torch 2.11: compiled code on threads at once crashes, plain or not
        assert rep["frames"] == [] and f"(on torch {torch.__version__} it runs plain there)" in rep["scope_reason"]
        assert len(ns["results"]) == 2 and len(ns["doubled"]) == 2
        return
    assert {f["code"]["name"] for f in rep["frames"]} == {"work", "double"}
    _no_stdlib_frames(rep)
    assert _callee(rep, "work")["thread_api"] == "threading.Thread"
    assert _callee(rep, "double")["thread_api"] == "ThreadPoolExecutor.map"
    assert len(ns["results"]) == 2 and len(ns["doubled"]) == 2
    torch.testing.assert_close(ns["doubled"][0], torch.ones(3).cos() * 2)


def test_a_pool_from_an_earlier_cell_compiles_for_the_run_and_its_own_work_does_not():
    from concurrent.futures import ThreadPoolExecutor

    ns = {"__name__": "__main__", "pool": ThreadPoolExecutor(1)}
    try:
        ns["pool"].submit(lambda: None).result()  # the worker thread exists before the run
        rep = run(
            "import torch\ndef tri(x):\n    return x * 3\nfut = pool.submit(tri, torch.ones(2))\nr = fut.result()\n", ns
        ).report
        from compiler import _compat

        assert [f["code"]["name"] for f in rep["frames"]] == (["tri"] if _compat.THREADS_RUN_COMPILED_CODE else [])
        torch.testing.assert_close(ns["r"], torch.full((2,), 3.0))
    finally:
        ns["pool"].shutdown()


def test_a_process_pool_is_handed_the_plain_function():
    from concurrent.futures import ProcessPoolExecutor

    from compiler.calls import _thread_api

    with ProcessPoolExecutor(1) as pool:
        assert _thread_api(pool.submit) is None


def test_the_users_own_compiled_function_that_compiles_during_the_run_still_works_afterwards():
    ns = {"__name__": "__main__"}
    exec("import torch\ndef f(x):\n    return x.sin() * 2\ncf = torch.compile(f, backend='eager')\n", ns)  # noqa: S102 - an earlier cell
    # scope calls: map runs plain and calls cf, which compiles with its own backend during the run
    run("ys = list(map(cf, [torch.ones(2), torch.ones(2, 2)]))\n", ns, scope="calls")
    torch.testing.assert_close(ns["cf"](torch.ones(2)), torch.ones(2).sin() * 2)  # its helper globals are still there
    torch.testing.assert_close(ns["cf"](torch.ones(2, 2)), torch.ones(2, 2).sin() * 2)


def test_python_and_the_renderer_write_compile_options_in_the_same_words():
    from compiler.summary import callee_text, describe_settings

    settings = {
        "origin": "torch.compile",
        "backend": "inductor",
        "mode": "reduce-overhead",
        "dynamic": True,
        "fullgraph": True,
        "options": {"max_autotune": True},
        "recompile_limit": 3,
    }
    text = "backend='inductor', mode='reduce-overhead', dynamic=True, fullgraph=True, options={'max_autotune': True}, recompile_limit=3"
    assert describe_settings(settings) == text  # labextension/tests/header.spec.ts checks the same string
    row = {"name": "f", "line": 2, "compiled": True, "why": "a function you defined", "compile": settings}
    assert callee_text(row) == f"f (line 2, your torch.compile: {text})"


TRAIN = """\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

def train_step(x):
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss

for _ in range(2):
    loss = train_step(torch.randn(4, 8))
"""


def test_dynamo_meets_none_of_the_explorers_own_frames():
    # the lazy backward compile runs inside compiled code, where the explorer's hooks (chromium events, log handlers)
    # are called with Dynamo's frame evaluation live: Dynamo must not count or compile their frames
    counters = torch._dynamo.utils.counters

    def plain() -> dict:
        torch._dynamo.reset()
        counters.clear()
        ns = {"__name__": "__main__"}
        exec(TRAIN.replace("for _ in", "train_step = torch.compile(train_step, backend='aot_eager')\nfor _ in"), ns)  # noqa: S102 - the plain run
        return dict(counters["frames"])

    plain()  # a process's first compile evaluates more frames (lazy initialisation, seen in torch 2.11): warm up
    expected = plain()
    torch._dynamo.reset()
    rep = run(TRAIN, backend="aot_eager").report
    assert rep["dynamo_counters"]["frames"] == expected
