"""Why compiled numbers differ from eager (issue 42; [Note: numerics] in compiler/collectors/numerics/): with
``--check-numerics`` each compiled graph's outputs are judged against the same Dynamo graph run eagerly and in
float64, with real inductor on the CPU: a planted post-grad pass that moves constant multiplications by 0.1 % is
worse than eager while an untouched graph of the same cell matches; bfloat16 differs and is no further from float64;
dropout is not compared, and says why; a graph that changes its input leaves the user's tensor as plain Python
would; the program's values and random numbers are the same with the check as without; nothing is held after."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

import pytest
import torch

from compiler import RunOptions
from compiler.collectors.numerics.compare import judge
from compiler.errors import UsageError
from compiler.summary import numerics_line
from kernel_ext.static_html import render

from .helpers import run

GOLDEN = Path(__file__).resolve().parents[1] / "goldens" / "numerics.report.json"


@pytest.fixture(scope="module")
def golden():
    """The golden case ``numerics`` (tests/goldens/cases.py's NUMERICS, real inductor on the CPU); a fresh run of it
    has the same verdicts (test_goldens_and_cli.py's skeleton)."""
    return json.loads(GOLDEN.read_text())


def _graphs(report: dict) -> dict[str, dict]:
    return {g["summary"].split("] ")[1].split(":")[0]: g for g in report["numerics"]["graphs"]}


def test_a_planted_post_grad_pass_is_worse_than_eager_and_an_untouched_graph_matches(golden):
    graphs = _graphs(golden)
    f, g = graphs["f"], graphs["g"]
    assert f["verdict"] == "worse_than_eager"
    (out,) = f["outputs"]
    assert out["eager_error"] == 0.0 and out["compiled_error"] > 1e-4, "x * 2.0 is exact in float32; 2.002 is not"
    assert abs(out["max_rel"] - 1e-3) < 1e-4, "every value 0.1 % off"
    assert f["summary"].startswith("[0/0] f: out[0] worse than eager (")
    assert f["located"] == (
        "from inductor's post-grad passes: post_grad_custom_post_pass (post_grad_passes; inductor is no worse without "
        "it; aot_eager and aot_eager_decomp_partition no worse)"
    ), "torch's compiler bisector, run in process, names the planted pass among inductor's post-grad passes"
    assert f["location"] == {"backend": "inductor", "subsystem": "post_grad_passes", "detail": "post_grad_custom_post_pass"}
    assert all(g["located"] is None for g in golden["numerics"]["graphs"][1:]), "only a graph worse than eager is located"
    assert g["verdict"] == "matches" and g["outputs"][0]["max_abs"] < 1e-5
    assert f["graph_id"] == next(
        x["id"] for x in golden["graphs"] if x["compile_id"] == f["compile_id"] and x["kind"] == "dynamo"
    )
    numerics = golden["numerics"]
    assert f["first_node"] == "mul"
    assert f["summary"].endswith("; first worse node mul (_operator.mul(l_x_, 2.0)), line 11, in cpp_fused_mul_relu_0")
    # three graphs run eagerly and in float64 (6); f located: the bisector's compiles (aot_eager,
    # aot_eager_decomp_partition, inductor; inductor with pre-grad, joint-graph and post-grad passes off, its upper
    # bound, four steps of bisecting the post-grad passes: 11), f's nodes eagerly and in float64 (2), one probe (1)
    assert numerics["runs"] == 20 and numerics["seconds"] > 0
    assert golden["diagnostics"] == []


def test_bfloat16_differs_from_eager_and_is_no_further_from_float64(golden):
    h = _graphs(golden)["h"]
    (out,) = h["outputs"]
    assert h["verdict"] == "differs_no_worse", h["summary"]
    assert out["compiled_error"] <= out["eager_error"], "inductor keeps the chain in float32: closer to float64"
    assert "bfloat16 intermediates in float32" in out["why"]


def test_dropout_is_not_compared_and_says_which_op(golden):
    d = _graphs(golden)["drop"]
    assert d["verdict"] == "not_comparable" and "dropout" in d["why"] and "cannot replay" in d["why"]
    assert d["outputs"] == []


def test_the_summaries_say_it_in_one_line(golden):
    assert numerics_line(golden) == (
        "numerics: 1 graph worse than eager ([0/0] f), 1 differs, no worse than eager, 1 not compared, 1 matches"
    )
    html = render(golden)
    assert "Compiled numbers worse than eager against float64: [0/0] f: out[0] worse than eager" in html
    assert 'data-pane="numerics"' in html and "bfloat16 intermediates in float32" in html


def test_dropout_in_eval_is_compared():
    source = (
        "import torch\ndef d(x):\n    return torch.nn.functional.dropout(x, 0.5, training=False) * 2\ny = d(torch.randn(8))\n"
    )
    (d,) = run(source, backend="aot_eager", check_numerics=1).report["numerics"]["graphs"]
    assert d["verdict"] == "matches" and d["why"] is None


MUTATES = """import torch
def m(x):
    x.mul_(3)
    return x + 1
torch.manual_seed(0)
x = torch.randn(16)
before = x.clone()
y = m(x)
after_call = torch.rand(4)
"""


def test_the_program_sees_what_it_would_without_the_check():
    plain, checked = {"__name__": "__main__"}, {"__name__": "__main__"}
    run(MUTATES, plain, backend="aot_eager")
    report = run(MUTATES, checked, backend="aot_eager", check_numerics=1).report
    (m,) = report["numerics"]["graphs"]
    assert m["verdict"] == "matches"
    assert torch.equal(checked["x"], checked["before"] * 3), "the input changed once, by the compiled call"
    assert torch.equal(checked["y"], plain["y"]) and torch.equal(checked["x"], plain["x"])
    assert torch.equal(checked["after_call"], plain["after_call"]), "the random numbers after it are the same"


def test_n_calls_a_graph_and_nothing_of_the_users_held_after():
    ns = {"__name__": "__main__"}
    source = "import torch\ndef f(x):\n    return x.sin() * 3\nx = torch.randn(32)\nfor _ in range(3):\n    y = f(x)\n"
    report = run(source, ns, backend="aot_eager", check_numerics=2).report
    assert [(g["compile_id"], g["call"], g["verdict"]) for g in report["numerics"]["graphs"]] == [
        ("0/0", 1, "matches"),
        ("0/0", 2, "matches"),
    ], "the first two calls of the entry, not the third"
    assert report["options"]["check_numerics"] == 2
    x = weakref.ref(ns["x"])
    ns.clear()
    gc.collect()
    assert x() is None, "the check keeps no copy of the user's tensor"


def test_a_report_without_the_option_has_no_numerics():
    report = run("import torch\ndef f(x):\n    return x + 1\ny = f(torch.ones(2))\n").report
    assert report.get("numerics") is None and report["options"]["check_numerics"] == 0


@pytest.mark.parametrize("calls", [-1, 1.5, "2"])
def test_a_bad_count_is_one_line_naming_the_fix(calls):
    with pytest.raises(UsageError, match=r"--check-numerics takes a number of calls"):
        RunOptions(check_numerics=calls).validate()


def test_the_rule_is_torchs():
    x = torch.linspace(-3, 3, 101)
    assert judge(x, x.clone(), x.double()).verdict == "matches"
    assert judge(x + 1e-3, x, x.double()).verdict == "worse_than_eager"
    noisy = (x + torch.randn(101) * 1e-3).to(torch.bfloat16)
    assert judge(x.to(torch.bfloat16), noisy, x.double()).verdict == "differs_no_worse", "the compiled one is closer"
    assert judge(torch.tensor([1, 2]), torch.tensor([1, 3]), None).verdict == "worse_than_eager"
    assert judge(torch.tensor([float("nan")]), torch.tensor([float("nan")]), None).verdict == "matches"
    mask = torch.tensor([0.0, float("-inf"), 1.0])  # an attention mask: the same infinity is no difference
    assert judge(mask, mask.clone(), mask.double()).verdict == "matches"
    nan = judge(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]).double())
    assert (nan.verdict, nan.max_abs, nan.compiled_error) == ("worse_than_eager", None, None), "JSON holds no NaN"


def test_an_output_that_is_a_view_of_an_input_is_said_apart():
    source = "import torch\ndef v(x):\n    return x[1:], x * 2\na, b = v(torch.randn(8))\n"
    (v,) = run(source, backend="aot_eager", check_numerics=1).report["numerics"]["graphs"]
    assert [o["verdict"] for o in v["outputs"]] == ["not_comparable", "matches"]
    assert v["verdict"] == "matches", "the outputs compared decide; the view is said apart"
    assert v["summary"] == (
        "[0/0] v: 1 output matches eager (largest difference 0.0e+00); out[0] not compared (a view of input 0: its "
        "values are the input's)"
    )


def test_a_graph_that_returns_no_tensor_says_so():
    source = "import torch\ndef step(p):\n    p.add_(1)\nw = torch.zeros(4)\nstep(w)\n"
    report = run(source, backend="aot_eager", check_numerics=1).report
    (s,) = report["numerics"]["graphs"]
    assert s["verdict"] == "not_comparable" and s["why"].startswith("it returns no tensor")
    assert report["diagnostics"] == []


@pytest.mark.parametrize("bisector", ["torch's", "busy"])
def test_a_graph_worse_than_eager_is_located_by_backend_and_decomposition(bisector, capsys):
    """A planted decomposition (sigmoid 0.1 % too large, in inductor's table, which aot_eager_decomp_partition uses
    too): aot_eager is no worse, aot_eager_decomp_partition already is, and torch's compiler bisector, run in process,
    names the decomposition; with a bisection of the user's own in progress (``busy``), its state is left alone and
    the backends alone locate it."""
    from torch._inductor import decomposition
    from torch._inductor.compiler_bisector import CompilerBisector

    sigmoid = torch.ops.aten.sigmoid.default
    planted = {sigmoid: lambda x: 1.001 / (1 + torch.exp(-x))}
    source = "import torch\ndef s(x):\n    return x.sigmoid() * 3\ny = s(torch.randn(32))\n"
    # the plant must reach every compile of this test, whatever compiled before it in this process: torch caches the
    # table it hands inductor (fast_random_decomps) and a compile of the same graph may sit in inductor's caches
    off = {"fx_graph_cache": False}
    try:
        with (
            pytest.MonkeyPatch.context() as mp,
            torch._inductor.config.patch(off),
            torch._functorch.config.patch(enable_autograd_cache=False),
        ):
            mp.setitem(decomposition.decompositions, sigmoid, planted[sigmoid])
            decomposition.fast_random_decomps.cache_clear()
            if bisector == "busy":
                mp.setattr(CompilerBisector, "bisection_enabled", True)
                mp.setattr(CompilerBisector, "in_process_cache", "/nonexistent/the-users-bisection")
            report = run(source, backend="inductor", check_numerics=1).report
            assert CompilerBisector.in_process_cache == (None if bisector != "busy" else "/nonexistent/the-users-bisection")
    finally:
        decomposition.fast_random_decomps.cache_clear()  # torch's table again, without the plant
    assert not CompilerBisector.bisection_enabled, "the bisector is off again after the run"
    assert "isect" not in capsys.readouterr().out, "what the bisector prints stays out of the cell's output"
    (s,) = report["numerics"]["graphs"]
    assert s["verdict"] == "worse_than_eager", s["summary"]
    if bisector == "busy":
        assert (
            s["located"]
            == "from the decompositions or the partitioner: aot_eager_decomp_partition is already worse than eager (aot_eager no worse)"
        )
        assert s["location"] == {"backend": "aot_eager_decomp_partition", "subsystem": None, "detail": None}
    else:
        assert s["located"] == (
            "from the decomposition of aten.sigmoid.default (decomposition; aot_eager_decomp_partition is no worse "
            "without it; aot_eager no worse)"
        )
        assert s["location"] == {
            "backend": "aot_eager_decomp_partition",
            "subsystem": "decomposition",
            "detail": "aten.sigmoid.default",
        }
    assert s["first_node"] == "sigmoid", "the probes compile with the backend that made it worse"
    assert report["dynamo_counters"].get("aot_autograd", {}).get("total", 0) <= 1, "the bisector's compiles are not counted"


@pytest.mark.parametrize(
    ("found", "words"),
    [
        (
            ("inductor", "lowerings", "mul_1", False),
            "from inductor's lowering of mul_1, a node of its post-grad graph (lowerings; inductor is no worse with it "
            "run by its ATen fallback; aot_eager and aot_eager_decomp_partition no worse)",
        ),
        (
            ("inductor", "inductor_emulate_precision_casts", "emulate_precision_casts=True", True),
            "from inductor's setting emulate_precision_casts (inductor_emulate_precision_casts; inductor is no worse "
            "with emulate_precision_casts=True; aot_eager and aot_eager_decomp_partition no worse)",
        ),
        (
            ("inductor", None, None, False),
            "from inductor's kernels (no pass, lowering or setting the compiler bisector turns off makes it no worse; "
            "aot_eager and aot_eager_decomp_partition no worse)",
        ),
        (None, "from the my_backend backend itself (aot_eager and aot_eager_decomp_partition no worse)"),
    ],
)
def test_what_the_bisector_finds_in_words(found, words):
    """The bisector's findings that a CPU test cannot plant cheaply (a lowering, a setting, inductor's kernels, a
    backend of the user's), in the engine's words; a post-grad pass and a decomposition are found for real above."""
    from compiler.collectors.numerics.numerics import _located_words
    from compiler.collectors.numerics.numerics_torch import Bisected

    assert _located_words(Bisected(*found) if found else None, "my_backend", ["aot_eager", "aot_eager_decomp_partition"]) == words


def test_inductors_settings_kept_for_locating_hold_nothing_of_the_users_after():
    """The settings a graph compiled with are kept to locate it (a custom pass among them): not beyond the run."""
    ns = {"__name__": "__main__"}
    source = (
        "import torch\ndef my_pass(graph):\n    pass\ndef f(x):\n    return x * 2\ncf = torch.compile(f, backend='aot_eager')\n"
        "with torch._inductor.config.patch(post_grad_custom_post_pass=my_pass):\n    y = cf(torch.ones(4))\n"
    )
    report = run(source, ns, backend="aot_eager", check_numerics=1).report
    assert report["numerics"]["graphs"][0]["verdict"] == "matches"
    held = weakref.ref(ns.pop("my_pass"))
    gc.collect()
    assert callable(ns["cf"]), "f's compiled entry (the check's wrapper in it) lives on in Dynamo's cache"
    assert held() is None, "the check keeps no setting of the user's after the run"
