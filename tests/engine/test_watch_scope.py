"""Scope ``watch`` in-process (issue 38): which cells compile themselves, and what the run leaves as it was.

The whole programs, each against Dynamo's own record of a plain run in a fresh process, are
``test_self_compiling.py``; here the rule's edges and the run's promises, one at a time, through the real engine.
"""

from __future__ import annotations

import torch

from compiler import RunOptions, run_cell
from compiler.self_compile import compiles_itself, mentions

from .helpers import run


def test_the_rule_reads_what_a_source_mentions_by_what_its_names_are_bound_to():
    src = (
        "import torch as t\nimport re\nfrom torch._dynamo import optimize as opt\n"
        "p = re.compile('x')\n"  # a regular expression: not a compile
        "y = compile('1', 's', 'eval')\n"  # the builtin
        "@opt('eager')\ndef f(x):\n    return x\n"
        "model.compile()\n"  # an object that may be an nn.Module
        "t._dynamo.config.compiled_autograd = True\n"
    )
    assert [what for what, _ in mentions(src, {})] == ["torch._dynamo.optimize", "nn.Module.compile", "compiled autograd"]
    # a name from the namespace counts by its value: torch's entry point, or an object that is no nn.Module
    assert mentions("c = tc(f)\n", {"tc": torch.compile}) == [("torch.compile", 1)]
    assert mentions("cfg.compile()\n", {"cfg": object()}) == []
    assert mentions("net.compile()\n", {"net": torch.nn.Linear(2, 2)}) == [("nn.Module.compile", 1)]


def test_auto_watches_a_cell_that_compiles_itself_and_calls_what_it_does_not():
    ns: dict = {"__name__": "__main__"}
    rep = run("import torch\ndef g(x):\n    return x.cos()\ncg = torch.compile(g, backend='eager')\ny = cg(torch.ones(2))\n", ns)
    assert rep.report["scope"] == "watch" and "the cell compiles itself (torch.compile, line 4)" in rep.report["scope_reason"]
    # a later cell calling what the first compiled: watched too (the user's compile is the compile)
    again = run("z = cg(torch.ones(3))\n", ns).report
    assert again["scope"] == "watch" and "the cell compiles itself (cg, which you compiled, line 1)" in again["scope_reason"]
    # a function of an earlier cell whose code compiles something
    run("def trains(x):\n    return torch.compile(lambda t: t + 1, backend='eager')(x)\n", ns)
    third = run("w = trains(torch.ones(2))\n", ns).report
    assert third["scope"] == "watch" and "which compiles itself (torch.compile, line 2)" in third["scope_reason"]
    # a cell written for the explorer: its callees are compiled, as before
    assert run("def h(x):\n    return x.sin()\nh(torch.ones(2))\n", ns).report["scope"] == "calls"
    # --override-compile-options: the explorer compiles what the code compiled, with the line's options
    assert run("z = cg(torch.ones(3))\n", ns, override_compile_options=True).report["scope"] == "calls"


def test_a_regionally_compiled_model_compiles_itself():
    layer = torch.nn.Linear(2, 2)
    model = torch.nn.Sequential(layer, torch.nn.ReLU())
    assert compiles_itself(model) is None
    layer.compile(backend="eager")
    assert compiles_itself(model) == "its submodule '0' is compiled"


def test_watch_changes_no_dynamo_setting_and_names_the_options_it_did_not_apply():
    config = torch._dynamo.config
    before = (config.suppress_errors, config.recompile_limit)
    seen: list = []
    src = "import torch\nseen.append((torch._dynamo.config.suppress_errors, torch._dynamo.config.recompile_limit))\n"
    result = run_cell(src, {"seen": seen}, RunOptions(scope="watch", backend="eager", fullgraph=True))
    assert seen == [before] and (config.suppress_errors, config.recompile_limit) == before
    (said,) = [d["message"] for d in result.report["diagnostics"] if d["kind"] == "options_not_applied"]
    assert said.startswith("--backend eager, --fullgraph: not applied")
    assert result.report["backend"] == "none (nothing was compiled)"


def test_a_compile_in_a_loop_is_one_compile_and_the_backend_is_the_users():
    ns: dict = {"__name__": "__main__"}
    src = "import torch\ndef g(x):\n    return x.sin() + 1\nfor _ in range(10):\n    y = torch.compile(g, backend='aot_eager')(torch.ones(3))\n"
    rep = run(src, ns, backend="inductor").report  # the default options: nothing to say about them
    assert [f["compile_id"] for f in rep["frames"]] == ["0/0"] and rep["backend"] == "aot_eager"
    assert {g["kind"] for g in rep["graphs"]} >= {"dynamo", "aot_inference"}  # the user's backend's own graphs
    assert rep["diagnostics"] == []


def test_explain_and_a_reset_keep_dynamos_ids_and_name_the_reset_each_came_after():
    src = (
        "import torch\n"
        "f = torch.compile(lambda x: x + 1, backend='eager')\n"
        "a = f(torch.ones(2))\n"
        "def g(x):\n    y = x.cos()\n    torch._dynamo.graph_break()\n    return y * 2\n"
        "out = torch._dynamo.explain(g)(torch.ones(2))\n"
    )
    rep = run(src).report
    assert rep["scope"] == "watch" and rep["backend"] == "eager, dynamo_graph_accumulating_compiler"
    assert [f["compile_id"] for f in rep["frames"]] == ["0/0", "0/0@1", "1/0@1"]
    (first, *_) = rep["resets"]
    assert first["line"] == 8 and first["epoch"] == 1 and "made by explain()" in first["message"]
    assert [len(f["graph_breaks"]) for f in rep["frames"]] == [0, 1, 0]


def test_a_graph_break_s_user_stack_starts_at_the_cell_and_holds_no_frame_of_the_explorer():
    src = "import torch\n@torch.compile(backend='eager')\ndef f(x):\n    y = x + 1\n    print('here')\n    return y\nf(torch.ones(2))\n"
    rep = run(src).report
    (gb,) = [b for f in rep["frames"] for b in f["graph_breaks"]]
    assert gb["user_stack"][0]["filename"] == rep["cell"]["filename"] and gb["user_stack"][0]["line"] == 7
    assert all("/compiler/" not in s["filename"] and "/kernel_ext/" not in s["filename"] for s in gb["user_stack"])
