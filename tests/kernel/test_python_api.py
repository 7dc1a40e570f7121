"""``explore(fn, **torch_compile_kwargs)(*args)`` in this process, no kernel (kernel_ext/python_api.py, issue 24).

The same story as ``torch.compile(fn, **kwargs)``: the frames Dynamo compiled for a plain ``torch.compile`` call
of the same function are the report's; torch's own argument checks; the exception of ``fn`` raised as from a
plain call, its report kept; and nothing of the caller's (a model, its input) kept alive by the explorer.
"""

from __future__ import annotations

import gc
import weakref

import pytest
import torch

from compiler.schema import validate_report
from kernel_ext import explore


def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


def _compiled_names(fn, *args, input=None, **kwargs) -> list[str]:
    """The code names plain ``torch.compile(fn, **kwargs)(*args)`` (``input=``: passed by keyword) makes Dynamo
    compile, in order."""
    from torch._dynamo.utils import clear_compilation_metrics, get_compilation_metrics

    torch._dynamo.reset()
    clear_compilation_metrics()  # reset() keeps them, and their window may be full of earlier tests' compiles
    compiled = torch.compile(fn, **kwargs)
    compiled(*args) if input is None else compiled(input=input)
    return [m.co_name for m in get_compilation_metrics() if m.is_forward is not False and not m.is_runtime]


def test_explore_compiles_what_torch_compile_compiles_and_returns_the_value():
    a, b = torch.randn(10), -torch.ones(10)
    plain = _compiled_names(toy_example, a, b, backend="eager")
    torch._dynamo.reset()
    ex = explore(toy_example, backend="eager")(a, b)
    validate_report(ex.report)
    assert [f["code"]["name"] for f in ex.report["frames"]] == plain
    assert torch.equal(ex.value, toy_example(a, b))
    assert ex.report["scope"] == "calls"
    assert [(c["name"], c["compile"]["backend"]) for c in ex.report["callees"]] == [("toy_example", "eager")]
    assert repr(ex).startswith("<Exploration dynamo: 2 frames")


def test_keyword_arguments_and_an_nn_module():
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
    x = torch.randn(2, 4)
    plain = _compiled_names(model, input=x, backend="eager", dynamic=False)
    torch._dynamo.reset()
    ex = explore(model, backend="eager", dynamic=False)(input=x)
    assert torch.equal(ex.value, model(x))
    assert [c["name"] for c in ex.report["callees"]] == ["Sequential"]
    assert [f["code"]["name"] for f in ex.report["frames"]] == plain and plain


def test_torch_checks_the_arguments_and_explore_checks_the_function():
    with pytest.raises(TypeError, match="must be callable"):
        explore(42)
    with pytest.raises(Exception, match="no_such_backend"):
        explore(toy_example, backend="no_such_backend")


def test_the_exception_of_fn_propagates_and_its_report_is_kept():
    with pytest.raises(torch._dynamo.exc.Unsupported) as info:
        explore(toy_example, backend="eager", fullgraph=True)(torch.randn(3), torch.randn(3))
    assert "explore.last" in info.value.__notes__[-1]
    assert explore.last is not None and explore.last.value is None
    assert explore.last.report["frames"][0]["code"]["name"] == "toy_example"


def test_nothing_of_the_callers_stays_alive():
    model = torch.nn.Linear(3, 3)
    x = torch.randn(2, 3)
    alive = weakref.ref(model), weakref.ref(x)
    ex = explore(model, backend="eager")(x)
    assert ex.value.shape == (2, 3)
    del model, x, ex
    torch._dynamo.reset()  # Dynamo's own caches hold what plain torch.compile would hold too
    gc.collect()
    assert [r() is None for r in alive] == [True, True]


CAPTURE_SCRIPT = """
import json, sys
import torch
from torch._dynamo.utils import clear_compilation_metrics, get_compilation_metrics
from kernel_ext import explore
from kernel_ext.capture import CaptureError

def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b

def compiled_names():
    return [m.co_name for m in get_compilation_metrics() if m.is_forward is not False and not m.is_runtime]

a, b = torch.randn(10), -torch.ones(10)
clear_compilation_metrics()
compiled = torch.compile(toy_example, backend="eager")
for _ in range(3):
    plain = compiled(a, b)
plain_names = compiled_names()
torch._dynamo.reset()
runs = 0
with explore.capture(backend="eager") as ex:
    runs += 1
    print("the body prints once")
    for _ in range(3):
        out = toy_example(a, b)
    label = "set by the body"
after = sys.gettrace()
errors = {}
def in_a_function():
    with explore.capture(backend="eager"):
        pass
try:
    in_a_function()
except CaptureError as exc:
    errors["function"] = str(exc)
try:
    with explore.capture(backend="eager"): toy_example(a, b)
except CaptureError as exc:
    errors["one_line"] = str(exc)
for i in range(2):
    try:
        with explore.capture(backend="eager"):
            for j in range(2):
                if j:
                    break  # the block's own loop: fine
            if i:
                continue
            runs += 100
    except CaptureError as exc:
        errors["jump"] = str(exc)
try:
    with explore.capture(backend="eager", options={"trace.enabled": True}):
        pass
except TypeError as exc:
    errors["options"] = str(exc)
try:
    with explore.capture(backend="eager"):
        partial = toy_example(a, b)
        raise ValueError("the body's own error")
except ValueError as exc:
    errors["raised"] = [str(exc), exc.__notes__, "partial" in globals(), len(explore.last.report["frames"])]
print(json.dumps({
    "plain": plain_names, "frames": [f["code"]["name"] for f in ex.report["frames"]], "runs": runs,
    "equal": bool(torch.equal(out, plain)), "label": label, "trace": repr(after), "errors": errors,
    "line": ex.report["frames"][0]["code"]["firstlineno"], "scope": ex.report["scope"],
}))
"""


def test_capture_runs_the_block_once_under_the_explorer_in_the_scripts_namespace(tmp_path):
    """``with explore.capture(**kwargs) as ex:`` at a script's top level: the body runs once, as a ``%%dynamo`` cell
    would (the frames of plain ``torch.compile`` on what it calls), its names land in the script's namespace, no
    trace function is left; misuse is a one-line error naming the fix, and the body's exception propagates."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "capture_script.py"
    script.write_text(CAPTURE_SCRIPT)
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": str(repo)},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines.count("the body prints once") == 1
    got = json.loads(lines[-1])
    assert got["frames"] == got["plain"] and got["plain"]
    assert (got["runs"], got["equal"], got["label"], got["trace"]) == (1, True, "set by the body", "None")
    assert got["line"] == CAPTURE_SCRIPT.splitlines().index("def toy_example(a, b):") + 1  # the script's own lines
    assert got["scope"] == "calls"
    errors = got["errors"]
    assert "explore(in_a_function, ...)(*args)" in errors["function"]
    assert "lines of its own" in errors["one_line"]
    assert "`continue` (line" in errors["jump"] and "around the whole loop" in errors["jump"]
    assert "got options" in errors["options"]
    message, notes, partial_bound, frames = errors["raised"]
    assert message == "the body's own error" and "explore.last" in notes[-1]
    assert partial_bound and frames >= 1
