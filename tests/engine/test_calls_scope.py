"""Scope ``calls`` (torch.compile on what the cell calls) and the bugs found on real programs (issue 9).

Each test runs the real engine; the equivalence with plain ``torch.compile`` on third-party models
is tests/zoo.
"""

from __future__ import annotations

import dis
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from compiler import RunOptions, UsageError, run_cell
from compiler._compat import cache_entries
from compiler.schema import validate_report

from .helpers import frames_named, run

REPO = Path(__file__).resolve().parents[2]


def test_auto_compiles_the_callees_and_runs_construction_and_library_calls_plain():
    src = (
        "import torch\n"
        "class Net(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.l = torch.nn.Linear(4, 4)\n"
        "    def forward(self, x):\n        return self.l(x).relu()\n"
        "net = Net()\n"
        "def step(x):\n    return net(x).sum()\n"
        "x = torch.randn(2, 4)\n"
        "loss = step(x)\n"
        "out = net(x)\n"
        "y = torch.randn(3).sin()\n"
    )
    rep = run(src).report
    assert rep["scope"] == "calls"
    compiled = {c["name"]: c for c in rep["callees"] if c["compiled"]}
    assert list(compiled) == ["step", "net"] and compiled["net"]["why"] == "an nn.Module"
    plain = {c["name"] for c in rep["callees"] if not c["compiled"]}
    assert {"Net", "torch.randn", "torch.randn(3).sin"} <= plain
    # Dynamo started on step and on net only: no __init__, no class body, no library frame
    assert [f["code"]["name"] for f in rep["frames"]] == ["step", "forward"]
    assert "compiled with torch.compile: step (line 12" in rep["scope_reason"]
    assert rep["dynamo_counters"]["frames"] == {"total": 2, "ok": 2}


def test_a_cell_that_calls_nothing_of_its_own_is_one_frame():
    rep = run("import torch\nx = torch.ones(3)\ny = x.sin() * 2\n").report
    assert rep["scope"] == "cell" and [f["code"]["name"] for f in rep["frames"]] == ["<module>"]


def test_decorated_user_function_is_compiled():
    rep = run("import torch\n@torch.no_grad()\ndef f(x):\n    return x * 2\ny = f(torch.ones(2))\n").report
    assert [c["name"] for c in rep["callees"] if c["compiled"]] == ["f"] and rep["frames"]


@pytest.mark.parametrize("choice", ["user", "all", "none"])
def test_decompile_choice_decides_which_frames_get_source(choice):
    # the frame Dynamo starts on for nn.Sequential is torch's (library) code; f is the user's
    src = (
        "import torch\nseq = torch.nn.Sequential(torch.nn.Linear(4, 4))\n"
        "def f(x):\n    return x.cos() + 1\n"
        "a = seq(torch.randn(2, 4))\nb = f(torch.randn(3))\n"
    )
    rep = run(src, decompile=choice).report
    assert rep["options"]["decompile"] == choice
    (user,) = (f for f in rep["frames"] if f["code"]["name"] == "f")
    (library,) = (f for f in rep["frames"] if f["code"]["name"] != "f")
    assert "site-packages" in library["code"]["filename"] or "/torch/" in library["code"]["filename"]
    assert bool(library["decompiled_source"]) == (choice == "all")
    assert bool(user["decompiled_source"]) == (choice != "none")
    if choice == "user":
        assert (
            library["decompile_error"].startswith("not decompiled: library code")
            and "--decompile all" in library["decompile_error"]
        )
    assert library["modified_bytecode"]  # the listing is always there


def test_unknown_decompile_choice_is_a_one_line_usage_error():
    with pytest.raises(UsageError, match="unknown decompile choice 'some': use one of user, all, none"):
        run_cell("x = 1\n", {}, RunOptions(backend="eager", decompile="some"))


def test_old_frames_scope_name_says_what_to_use():
    with pytest.raises(UsageError, match=r"renamed: use --scope calls .* or --scope all-frames"):
        run_cell("x = 1\n", {}, RunOptions(backend="eager", scope="frames"))


def test_closure_does_not_crash_the_frames_collector():
    src = (
        "import torch\n"
        "def foo(a, b):\n    x = a + b\n    def bar(d):\n        return x - d + 2\n    x += 1\n    return bar(a)\n"
        "result = foo(torch.rand(10), torch.rand(10))\n"
    )
    for backend in ("eager", "aot_eager"):
        rep = run(src, backend=backend).report
        assert frames_named(rep, "foo")


def test_decompile_of_code_with_an_unhashable_constant():
    from compiler.bytecode import decompile

    def f():
        return 1

    code = f.__code__.replace(co_consts=(*f.__code__.co_consts, {"a": 1}))
    source, error = decompile(code)
    assert error is None and "return 1" in source


TOY = (
    "import torch\n"
    "def toy(a, b):\n    x = a / (torch.abs(a) + 1)\n    if b.sum() < 0:\n        b = b * -1\n    return x * b\n"
    "for _ in range(4):\n    toy(torch.randn(10), torch.randn(10))\n"
)


def _helpers(ns):
    return sorted(k for k in ns if k.startswith(("__compiled_fn", "__resume_at")))


def test_no_helper_globals_are_left_after_any_number_of_reruns():
    ns = {"__name__": "__main__"}
    for _ in range(4):
        rep = run(TOY, ns).report
        assert len(frames_named(rep, "toy")) == 1  # every re-run compiles (and reports) again
        assert _helpers(ns) == []


def test_rerun_of_code_the_user_also_compiled_reports_every_time_and_keeps_their_cache():
    ns = {"__name__": "__main__"}
    exec(  # noqa: S102
        "import torch\ndef g(x):\n    return x.cos() + 1\ncg = torch.compile(g, backend='eager')\nuser_out = cg(torch.ones(3))\n",
        ns,
    )
    code = ns["g"].__code__
    users = [e for e in cache_entries(code) if e.backend is not None]
    assert len(users) == 1
    for _ in range(3):
        rep = run("out = g(torch.ones(3))\n", ns).report
        assert frames_named(rep, "g"), rep["frames"]
        assert any(d["kind"] == "shared_cache" for d in rep["diagnostics"])
    assert [e for e in cache_entries(code) if e.backend is not None] == users  # the user's entry, only
    assert torch.equal(ns["cg"](torch.ones(3)), torch.ones(3).cos() + 1)
    assert _helpers({k: v for k, v in ns.items() if k not in ("__builtins__",)}) == sorted(
        k for k in ns if k.startswith("__compiled_fn") and any(k in e.code.co_names for e in users)
    )


def test_fullgraph_error_names_the_cell_not_an_eager_fallback():
    src = "import torch\ndef f(x):\n    y = x + 1\n    print('hi')\n    return y\nout = f(torch.ones(2))\n"
    rep = run_cell(src, {"__name__": "__main__"}, RunOptions(backend="eager", fullgraph=True)).report
    assert rep["error"] is not None and rep["error"]["line"] == 4
    msgs = [d["message"] for d in rep["diagnostics"] if d["kind"] == "compile_failed"]
    assert msgs and all("ran this frame eagerly" not in m for m in msgs)


def test_fullgraph_keeps_the_code_and_the_graph_dynamo_traced_before_the_error():
    src = (
        "import torch\ndef f(x):\n    y = x.sin() * 2\n    if y.sum() > 0:\n        y = y + 1\n    return y\n"
        "out = f(torch.ones(3))\n"
    )
    ns: dict = {"__name__": "__main__"}
    result = run_cell(src, ns, RunOptions(backend="eager", fullgraph=True))
    rep = result.report
    validate_report(rep)
    (frame,) = rep["frames"]
    assert frame["status"] == "error" and rep["error"]["line"] == 4
    # the original bytecode of the frame Dynamo gave up on (no modified code exists): f's own, as dis reads it
    # on this Python (3.11 writes POP_JUMP_FORWARD_IF_FALSE, 3.12 POP_JUMP_IF_FALSE)
    assert [i["opname"] for i in frame["original_bytecode"]] == [i.opname for i in dis.get_instructions(ns["f"])]
    assert any(i["opname"].startswith("POP_JUMP") for i in frame["original_bytecode"])
    assert frame["modified_bytecode"] == []
    # the partial graph Dynamo attaches to a data-dependent error: sin, mul, sum, gt, up to line 4
    (graph,) = [rep["graphs"][i] for i in frame["graph_ids"]]
    assert graph["kind"] == "dynamo_partial" and graph["name"] == "traced before the error"
    targets = [n["target"] for n in graph["nodes"] if n["op"] == "call_function"]
    assert any("sin" in t for t in targets) and {n["line"] for n in graph["nodes"] if n["line"]} == {3, 4}
    users = {n["name"]: n["users"] for n in graph["nodes"]}
    assert users["L_x_"] == ["sin"] and users["sin"] == ["y"] and users["y"] == ["sum_1"]  # l_x_ = L_x_ folded
    assert rep["dynamo_counters"].get("stats", {}).get("unique_graphs", 0) == 0  # never compiled, not counted
    assert sum(g["kind"] == "dynamo" for g in rep["graphs"]) == 0


def test_parse_readable_links_users_by_reads_not_by_op_names():
    from compiler.collectors.aot_graphs import parse_readable

    text = (
        'class GraphModule(torch.nn.Module):\n    def forward(self, primals_1: "f32[4][1]cpu"):\n'
        '        permute: "f32[4][1]cpu" = torch.ops.aten.permute.default(primals_1, [0])\n'
        '        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(permute, 2);  permute = None\n'
        "        return (mul,)\n"
    )
    users = {n.name: n.users for n in parse_readable(text)}
    assert users == {"primals_1": ["permute"], "permute": ["mul"], "mul": ["output"], "output": []}


def test_cli_checks_the_json_path_before_running(tmp_path):
    marker = tmp_path / "ran"
    script = tmp_path / "s.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", str(script), "--json", str(tmp_path / "missing" / "out.json")],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode == 2 and not marker.exists()
    assert proc.stderr.count("\n") == 1 and "does not exist; create it or pick another --json path" in proc.stderr


def test_empty_resume_frame_is_linked_to_its_parent():
    src = (
        "import torch\ndef g(x):\n    n = x.sum().item()\n    if n > 0:\n        return 1\n    return x\nout = g(torch.ones(3))\n"
    )
    rep = run(src).report
    resumes = [f for f in rep["frames"] if f["code"]["is_resume"]]
    assert [f["status"] for f in resumes] == ["empty"], [f["code"]["name"] for f in rep["frames"]]
    (parent,) = frames_named(rep, "g")
    refs = [i["ref"] for i in parent["modified_bytecode"] if i["ref"] and i["ref"]["kind"] == "resume"]
    assert refs and all(r["compile_id"] for r in refs)
    assert all(f["parent_compile_id"] == parent["compile_id"] for f in resumes)
