"""Notebook semantics of both scopes: namespace write-through, exceptions, lines, stdout, traps."""

from __future__ import annotations

import traceback

import pytest

from compiler import RunOptions, UsageError, run_cell

from .helpers import frames_named, run


def test_cell_scope_keeps_assignments_before_an_exception_and_reports_the_cell_line():
    ns = {"__name__": "__main__"}
    result = run("import torch\np = 1\nq = torch.ones(2) * 3\nraise ValueError('boom')\nr = 2\n", ns)
    assert result.report["scope"] == "cell"
    assert isinstance(result.exception, ValueError) and ns["p"] == 1 and ns["q"].tolist() == [3.0, 3.0]
    assert "r" not in ns
    assert result.report["error"] == {"type": "ValueError", "message": "boom", "line": 4, "compile_id": None}
    tb = traceback.extract_tb(result.exception.__traceback__)
    assert tb[0].filename == result.report["cell"]["filename"] and tb[-1].lineno == 4


def test_frames_scope_exception_keeps_variables():
    ns = {"__name__": "__main__"}
    src = "import torch\n\ndef f(x):\n    return x + 1\n\na = f(torch.ones(1))\nb = 2\nraise KeyError('k')\n"
    result = run(src, ns)
    assert result.report["scope"] == "calls" and isinstance(result.exception, KeyError)
    assert ns["a"].item() == 2.0 and ns["b"] == 2 and result.report["error"]["line"] == 8


def test_last_expression_value_and_print_order(capsys):
    result = run("import torch\nx = torch.arange(3)\nprint('first')\ny = x * 2\nprint('second', y.tolist())\ny.sum()\n")
    assert result.value.item() == 6
    assert capsys.readouterr().out == "first\nsecond [0, 2, 4]\n"
    (cell,) = frames_named(result.report, "<module>")
    assert cell["graph_breaks"][0]["line"] == 3  # print breaks the graph; lines are the cell's own


def test_trace_time_error_runs_the_statements_before_it_like_plain_python():
    """A fake-tensor error aborts the traced frame before any statement ran: the cell still behaves as Python."""
    ns = {"__name__": "__main__"}
    result = run("import torch\nx = torch.randn(8)\na = x * 2\nb = a.reshape(3, -1)\n", ns)
    assert isinstance(result.exception, RuntimeError) and "a" in ns and "b" not in ns
    assert result.report["error"]["line"] == 4
    (cell,) = frames_named(result.report, "<module>")
    assert cell["status"] == "error" and cell["fail_type"] == "TorchRuntimeError"
    assert any("WON'T CONVERT" in log["message"] for log in result.report["logs"])


def test_fresh_globals_read_back_in_the_same_frame_do_not_break():
    """GB0354 'failed to find name in frame builtins' is avoided by pre-seeding new names."""
    ns = {"__name__": "__main__"}
    result = run("import torch\nz = torch.ones(3)\nw = z * 2\nv = w + z\n", ns)
    (cell,) = frames_named(result.report, "<module>")
    assert cell["graph_breaks"] == [] and cell["status"] == "ok"
    assert ns["v"].tolist() == [3.0, 3.0, 3.0]
    assert not any(k.startswith("__dynamo_") for k in ns)


def test_top_level_del_and_resume_frames_stay_compiled():
    ns = {"__name__": "__main__", "old": 1}
    result = run("import torch\nt = torch.ones(2)\ndel old\nprint('x')\nu = t + 1\ndel t\n", ns)
    assert "old" not in ns and "t" not in ns and ns["u"].tolist() == [2.0, 2.0]
    names = [f["code"]["name"] for f in result.report["frames"]]
    assert names[0] == "<module>" and any(n.startswith("torch_dynamo_resume_in_<module>_at_") for n in names)


def test_fullgraph_error_names_the_user_line_and_keeps_the_partial_report():
    src = "import torch\n\ndef f(x):\n    y = x * 2\n    print('hi')\n    return y\n\nout = f(torch.randn(3))\n"
    result = run(src, fullgraph=True)
    assert type(result.exception).__name__ == "Unsupported"
    assert result.report["error"]["line"] == 5 and result.report["error"]["type"] == "Unsupported"
    (frame,) = frames_named(result.report, "f")
    assert result.report["error"]["compile_id"] == frame["compile_id"]
    assert frame["status"] == "error"
    (brk,) = frame["graph_breaks"]
    assert brk["gb_id"] == "GB0059" and brk["line"] == 5 and brk["user_stack"][-1]["code"] == "print('hi')"


@pytest.mark.parametrize(
    ("source", "scope", "needle"),
    [
        ("from math import *\nr = pi\n", "cell", "`from math import *` (line 1)"),
        ("exec('def triple(x):\\n    return 3 * x')\ny = triple(2)\n", "cell", "`exec(...)` (line 1) reads or makes names"),
        ("x = 1\nlocals()['y'] = x\n", "cell", "`locals()` (line 2)"),
        ("x = 1\nreturn x\n", "auto", "top-level `return` at line 2"),
        ("yield 3\n", "all-frames", "top-level `yield`"),
        ("await foo()\n", "auto", "top-level `await`"),
        ("def f():\n    pass\nnonlocal q\n", "cell", "`nonlocal`"),
    ],
)
def test_rejected_constructs_give_one_line_errors_naming_the_fix(source, scope, needle):
    ns = {"__name__": "__main__"}
    with pytest.raises(UsageError) as info:
        run_cell(source, ns, RunOptions(backend="eager", scope=scope))
    message = str(info.value)
    assert needle in message and "\n" not in message and ":" in message
    assert set(ns) <= {"__name__", "__builtins__"}, "nothing ran"


def test_star_import_runs_in_frames_scope():
    ns = {"__name__": "__main__"}
    run("from math import *\nr = pi\n", ns, scope="all-frames")
    assert ns["r"] > 3.14


def test_syntax_error_is_raised_before_anything_runs():
    with pytest.raises(SyntaxError):
        run_cell("x = (\n", {}, RunOptions(backend="eager"))


def test_bad_options_are_one_line_usage_errors():
    with pytest.raises(UsageError, match="unknown backend 'inductr': did you mean 'inductor'"):
        run_cell("x = 1\n", {}, RunOptions(backend="inductr"))
    with pytest.raises(UsageError, match="--mode applies to the inductor backend"):
        run_cell("x = 1\n", {}, RunOptions(backend="eager", mode="max-autotune"))


def test_auto_scope_decisions():
    ns = {"__name__": "__main__"}
    run("import torch\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n\nm = M()\n", ns)
    assert run("y = m(__import__('torch').ones(1))\n", ns).report["scope"] == "calls"
    assert run("import torch\ny = torch.ones(2).sum()\n", ns).report["scope"] == "cell"
    assert run("import math\ny = math.sqrt(4.0)\n", ns).report["scope"] == "cell"
