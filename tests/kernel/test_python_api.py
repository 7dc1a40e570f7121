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
