"""Try a fix (issue 13 item 4): the fixes on offer and ``--try NAME``, with real Dynamo (eager backend).

Each runnable kind really changes the outcome; everything the fix changed (torch._dynamo.config, the marks
on the user's tensors, Dynamo's trace rules, the helper's name) is back afterwards, also when the cell raises.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch
from torch._dynamo import trace_rules

from compiler.errors import UsageError
from compiler.summary import one_line
from tests.engine.helpers import run

ITEM = "import torch\n\ndef normalize(x):\n    total = x.sum().item()\n    return x / total\n\nz = normalize(torch.rand(5) + 1)\n"
SHAPES = (
    "import torch\n\ndef scale(x):\n    return x * 2\n\n"
    "xs = [torch.rand(n) for n in (4, 8, 16)]\nfor x in xs:\n    w = scale(x)\n"
)
HELPER = (
    "import torch\n\ndef helper(x):\n    print('inside helper')\n    return x + 1\n\n"
    "def f(x):\n    return helper(x) * 2\n\nz = f(torch.rand(3))\n"
)
# a data-dependent guard Dynamo cannot settle: unflatten needs n != 0; the frame fails, the cell raises
CHECK = (
    "import torch\n\ndef f(x, y):\n    n = x.sum().int().item()  # how many rows\n    return y.unflatten(0, (n, -1))\n\n"
    "z = f(torch.tensor([2, 2]), torch.rand(8))\n"
)
BRANCH = "import torch\n\ndef f(x):\n    if x.sum() > 0:\n        return x + 1\n    return x - 1\n\nz = f(torch.rand(4))\n"


def _config() -> dict:
    return torch._dynamo.config.get_config_copy()


def _rules() -> tuple[set[int], set[int], set[int]]:
    return (
        set(trace_rules._allowed_callable_ids()),
        set(trace_rules._nonstrict_trace_callable_ids()),
        set(trace_rules._disallowed_callable_ids()),
    )


def _names(report: dict) -> list[str]:
    return [f["name"] for f in report["fixes"]]


def test_item_break_offers_capture_scalar_outputs_and_it_removes_the_break() -> None:
    plain = run(ITEM).report
    fix = next(f for f in plain["fixes"] if f["name"] == "capture_scalar_outputs")
    assert fix["kind"] == "config" and fix["api"] == "torch._dynamo.config.capture_scalar_outputs"
    assert fix["targets"] == [{"compile_id": plain["frames"][0]["compile_id"], "kind": "graph_break", "index": 0}]
    with torch._dynamo.config.patch(recompile_limit=5):  # a value the user set survives the run
        before = _config()
        result = run(ITEM, try_fix="capture_scalar_outputs")
        assert _config() == before and torch._dynamo.config.recompile_limit == 5
    tried = result.report["try_fix"]
    assert tried["before"]["graph_breaks"] == 1 and tried["after"]["graph_breaks"] == 0
    assert tried["before_from"].startswith("a run of the cell as it is")
    assert "capture_scalar_outputs = True for this run (it was False)" in tried["change"]
    assert tried["restored"] == "torch._dynamo.config.capture_scalar_outputs back to False"
    assert result.report["options"]["try_fix"] == "capture_scalar_outputs"
    assert "tried capture_scalar_outputs: graph breaks 1 → 0" in one_line(result.report)
    assert torch._dynamo.config.capture_scalar_outputs is False


def test_user_set_config_value_of_the_fix_itself_comes_back() -> None:
    with torch._dynamo.config.patch(capture_scalar_outputs=False, capture_dynamic_output_shape_ops=True):
        run(ITEM, try_fix="capture_scalar_outputs")
        assert torch._dynamo.config.capture_dynamic_output_shape_ops is True
        assert torch._dynamo.config.capture_scalar_outputs is False


def test_nonzero_break_offers_capture_dynamic_output_shape_ops() -> None:
    src = "import torch\n\ndef f(x):\n    return torch.nonzero(x) + 1\n\nz = f(torch.tensor([1, 0, 2]))\n"
    assert "capture_dynamic_output_shape_ops" in _names(run(src).report)
    tried = run(src, try_fix="capture_dynamic_output_shape_ops").report["try_fix"]
    assert (tried["before"]["graph_breaks"], tried["after"]["graph_breaks"]) == (1, 0)


def test_print_break_offers_reorderable_logging_functions_and_the_users_set_comes_back(capsys) -> None:
    src = "import torch\n\ndef f(x):\n    h = x.relu()\n    print('sum', h.sum())\n    return h * 2\n\nz = f(torch.ones(3))\n"
    fix = next(f for f in run(src).report["fixes"] if f["name"] == "reorderable_logging_functions")
    assert fix["code"] == "torch._dynamo.config.reorderable_logging_functions.add(print)"
    mine = {len}  # a set the user made: it comes back as it was, the same object
    with torch._dynamo.config.patch(reorderable_logging_functions=mine):
        tried = run(src, try_fix="reorderable_logging_functions").report["try_fix"]
        assert torch._dynamo.config.reorderable_logging_functions is mine and mine == {len}
    assert (tried["before"]["graph_breaks"], tried["after"]["graph_breaks"]) == (1, 0)
    assert (tried["before"]["graphs"], tried["after"]["graphs"]) == (2, 1)
    assert capsys.readouterr().out.count("sum tensor(3.)") == 3  # it still prints: the plain run, before and after


def test_a_scalar_taken_for_numpy_offers_capture_scalar_outputs() -> None:
    src = "import numpy as np, torch\n\ndef f(x):\n    m = float(np.std(x.numpy()))\n    return x * m\n\nz = f(torch.rand(5))\n"
    plain = run(src).report
    assert plain["error"] is None
    assert [b["gb_type"] for f in plain["frames"] for b in f["graph_breaks"]] == ["Data dependent operator"]
    assert "capture_scalar_outputs" in _names(plain)
    tried = run(src, try_fix="capture_scalar_outputs").report["try_fix"]
    assert (tried["before"]["graph_breaks"], tried["after"]["graph_breaks"]) == (1, 0)
    assert tried["before"]["error"] is None and tried["after"]["error"] is None


@pytest.mark.parametrize("name", ["dynamic", "mark_dynamic:x:0", "maybe_mark_dynamic:x:0"])
def test_shape_recompile_fixes_remove_the_recompile_and_marks_come_off(name: str) -> None:
    plain = run(SHAPES).report
    assert {"dynamic", "mark_dynamic:x:0", "maybe_mark_dynamic:x:0"} <= set(_names(plain))
    mark = next(f for f in plain["fixes"] if f["name"] == "mark_dynamic:x:0")
    assert mark["targets"][0]["kind"] == "recompile" and "size mismatch" in plain["frames"][1]["recompile_reasons"][0]["reason"]
    ns: dict = {"__name__": "__main__"}
    report = run(SHAPES, ns, try_fix=name).report
    tried = report["try_fix"]
    assert tried["before"]["recompiles"] == 1 and tried["after"]["recompiles"] == 0
    # the report keeps the user's options: what the fix ran with is in `change`
    assert (report["options"]["dynamic"], report["options"]["fresh"], report["options"]["try_fix"]) == (None, False, name)
    for x in ns["xs"]:  # the after run's tensors: marked during the run, their attributes restored after
        assert not [a for a in vars(x) if a.startswith(("_dynamo", "_specialize_on", "_has_dynamo"))]
    if name != "dynamic":
        assert f"({3} calls)" in tried["change"] and "3 tensors marked" in tried["restored"]


def test_a_users_own_mark_is_restored_after_the_run() -> None:
    src = SHAPES + "torch._dynamo.maybe_mark_dynamic(xs[2], 0)\n"  # the user's own mark, after the calls
    ns: dict = {"__name__": "__main__"}
    src_marked = SHAPES.replace("for x in xs:", "xs[0]._mine = 1\nfor x in xs:")
    run(src_marked, ns, try_fix="mark_dynamic:x:0")
    assert vars(ns["xs"][0]) == {"_mine": 1}
    run(src, ns, try_fix="mark_dynamic:x:0")
    plain: dict = {"__name__": "__main__"}
    exec(compile(src, "<plain>", "exec"), plain)  # noqa: S102 - the cell as plain Python: what its mark gives
    assert _marks(ns["xs"][2]) == _marks(plain["xs"][2]) != {}


# the user's own marks on the fix's dim: before the calls (ys[0]), between them (ys[1], before its own call;
# xs[0], after its call) and after them (ys[2]); xs's sizes recompile, which offers the fixes
OWN_MARKS = (
    "import torch\n\ndef scale(x):\n    return x * 2\n\n"
    "xs = [torch.rand(n) for n in (4, 8, 16)]\nys = [torch.rand(n) for n in (5, 6, 7)]\nMARK(ys[0], 0)\n"
    "for x in xs:\n    w = scale(x)\nMARK(xs[0], 0)\nw = scale(ys[0])\nMARK(ys[1], 0)\n"
    "for y in ys[1:]:\n    w = scale(y)\nMARK(ys[2], 0)\n"
)


def _marks(t: torch.Tensor) -> dict[str, object]:
    return {a: v for a, v in vars(t).items() if a.startswith(("_dynamo", "_specialize_on", "_has_dynamo"))}


@pytest.mark.parametrize("fix", ["mark_dynamic:x:0", "maybe_mark_dynamic:x:0"])
@pytest.mark.parametrize("mark", ["mark_dynamic", "maybe_mark_dynamic", "mark_static"])
def test_the_users_own_marks_made_before_during_and_after_the_run_are_what_the_tensors_carry(fix: str, mark: str) -> None:
    """What the tensors carry after a Try-a-fix run is what the cell's own code gives them in plain Python
    (torch 2.15 ignores a maybe_mark_dynamic of a dim mark_dynamic covers: the fix's mark must not be on then)."""
    src = OWN_MARKS.replace("MARK(", f"torch._dynamo.{mark}(")
    plain: dict = {"__name__": "__main__"}
    exec(compile(src, "<plain>", "exec"), plain)  # noqa: S102 - the cell as plain Python: what its marks give
    ns: dict = {"__name__": "__main__"}
    run(src, ns, try_fix=fix)
    mine = [_marks(t) for t in ns["xs"] + ns["ys"]]
    assert mine == [_marks(t) for t in plain["xs"] + plain["ys"]]
    assert [bool(m) for m in mine] == [True, False, False, True, True, True]


@pytest.mark.parametrize("how", ["allow_in_graph", "nonstrict_trace"])
def test_a_helper_that_breaks_is_registered_for_the_run_only(how: str, capsys: pytest.CaptureFixture[str]) -> None:
    plain = run(HELPER).report
    assert {"allow_in_graph:helper", "nonstrict_trace:helper"} <= set(_names(plain))
    rules = _rules()
    ns: dict = {"__name__": "__main__"}
    tried = run(HELPER, ns, try_fix=f"{how}:helper").report["try_fix"]
    assert tried["after"]["graph_breaks"] < tried["before"]["graph_breaks"]
    assert tried["after"]["graphs"] < tried["before"]["graphs"]
    assert _rules() == rules  # Dynamo's trace rules as they were
    assert ns["helper"].__code__.co_name == "helper" and not hasattr(ns["helper"], "__wrapped__")
    assert f"torch._dynamo.{how}(helper) for this run" in tried["change"] and "undone" in tried["restored"]
    # it ran in both runs (in the graph the second time; allow_in_graph also runs it on fake tensors to compile)
    assert capsys.readouterr().out.count("inside helper") >= 3


def test_torch_check_source_edit_settles_a_data_dependent_guard() -> None:
    with torch._dynamo.config.patch(capture_scalar_outputs=True):
        plain = run(CHECK).report
        fix = next(f for f in plain["fixes"] if f["kind"] == "source_edit")
        assert fix["name"] == "torch_check:4" and fix["code"] == "torch._check(n != 0)"
        # the data-dependent guard fails the frame's compile: Dynamo runs it eagerly, as plain Python would run
        # the cell (issue 23), and the report says why
        assert fix["targets"][0]["kind"] == "failure" and plain["error"] is None
        assert [f["status"] for f in plain["frames"]] == ["error"]
        result = run(CHECK, try_fix="torch_check:4")
    tried = result.report["try_fix"]
    assert tried["before"]["graphs"] == 0 and tried["after"]["graphs"] >= 1 and result.exception is None
    assert [f["status"] for f in result.report["frames"]] != ["error"]
    assert "+    n = x.sum().int().item(); torch._check(n != 0)  # how many rows" in tried["change"]
    assert result.report["cell"]["source"].splitlines()[4] == "    return y.unflatten(0, (n, -1))"  # no line moved


def test_the_cond_hint_is_offered_and_refused_by_try() -> None:
    fix = next(f for f in run(BRANCH).report["fixes"] if f["name"] == "cond")
    assert fix["kind"] == "hint" and fix["runnable"] is False and fix["api"] == "torch.cond"
    with pytest.raises(UsageError, match="only you can make"):
        run(BRANCH, try_fix="cond")


def test_unknown_names_are_one_line_usage_errors() -> None:
    with pytest.raises(UsageError, match=r"unknown fix 'speed_up'.*--try capture_scalar_outputs"):
        run(ITEM, try_fix="speed_up")
    with pytest.raises(UsageError, match="offers no fix 'dynamic'; on offer: capture_scalar_outputs"):
        run(ITEM, try_fix="dynamic")


def test_everything_is_put_back_when_the_cell_raises() -> None:
    rules, config = _rules(), _config()
    ns: dict = {"__name__": "__main__"}
    result = run(SHAPES + "raise ValueError('late')\n", ns, try_fix="mark_dynamic:x:0")
    assert result.report["error"]["type"] == "ValueError" and result.report["try_fix"]["after"]["recompiles"] == 0
    assert not [a for x in ns["xs"] for a in vars(x)]
    assert _config() == config and _rules() == rules
    result = run(HELPER + "raise ValueError('late')\n", ns, try_fix="allow_in_graph:helper")
    assert _rules() == rules and result.report["try_fix"]["after"]["error"] == "ValueError: late"


def test_a_given_before_report_is_used_and_the_cell_runs_once(capsys: pytest.CaptureFixture[str]) -> None:
    from compiler import RunOptions, run_cell

    src = ITEM + "print('ran')\n"
    ns: dict = {"__name__": "__main__"}
    before = run_cell(src, ns, RunOptions(backend="eager"), filename="<try-cell>").report
    capsys.readouterr()
    after = run_cell(
        src,
        ns,
        RunOptions(backend="eager", try_fix="capture_scalar_outputs"),
        filename="<try-cell>",
        before=before,
        before_from="the cell's previous run in this kernel (In [3])",
    ).report
    assert capsys.readouterr().out.count("ran") == 1
    assert after["try_fix"]["before_from"] == "the cell's previous run in this kernel (In [3])"
    assert after["try_fix"]["before"]["graph_breaks"] == 1 and after["try_fix"]["after"]["graph_breaks"] == 0


def test_cli_says_the_script_runs_twice_first(tmp_path) -> None:
    script = tmp_path / "script.py"
    script.write_text("import sys\nprint('ran', file=sys.stderr)\n" + ITEM, encoding="utf-8")
    out = tmp_path / "r.json"
    cmd = [sys.executable, "-m", "dynamo_explorer", "run", str(script), "--backend", "eager", "--try", "capture_scalar_outputs"]
    proc = subprocess.run([*cmd, "--json", str(out)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    notice = next(i for i, ln in enumerate(lines) if "--try capture_scalar_outputs: this cell RUNS TWICE" in ln)
    assert notice < lines.index("ran") and lines.count("ran") == 2
    assert json.loads(out.read_text())["try_fix"]["after"]["graph_breaks"] == 0
    assert "tried capture_scalar_outputs" in proc.stdout
    bad = subprocess.run([*cmd[:-1], "cond", "--json", str(out)], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "only you can make" in bad.stderr and "ran" not in bad.stderr.splitlines()


def test_a_mark_the_user_makes_during_the_call_stays_and_the_guards_set_is_not_emptied() -> None:
    from compiler.try_fix import _marks_of, _take_back

    mine, plain = torch.rand(3, 4), torch.rand(3, 4)
    for t in (mine, plain):
        torch._dynamo.maybe_mark_dynamic(t, 0)  # the user's, before the call
    saved = _marks_of(mine)
    torch._dynamo.mark_dynamic(mine, 0)  # the fix's, for the call
    marked = _marks_of(mine)
    compiled_with = mine._dynamo_dynamic_indices  # what a compiled frame's guards would hold
    for t in (mine, plain):
        torch._dynamo.mark_dynamic(t, 1)  # the user's, inside the call
    _take_back(mine, saved, marked)
    assert _marks_of(mine) == _marks_of(plain)
    assert compiled_with == {0, 1}  # replaced, not changed in place
