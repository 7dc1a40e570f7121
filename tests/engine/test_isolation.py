"""The explorer leaves the process as it found it: caches, hooks, handlers, config, namespace."""

from __future__ import annotations

import logging

import torch
from torch._dynamo.eval_frame import _debug_get_cache_entry_list

from compiler import RunOptions, run_cell
from tests.goldens.cases import TOY_EXAMPLE

from .helpers import frames_named, run


def _process_state():
    from torch._dynamo import convert_frame
    from torch._logging._internal import trace_log

    torch_handlers = {
        name: [(h, tuple(h.filters)) for h in logger.handlers]
        for name, logger in logging.root.manager.loggerDict.items()
        if isinstance(logger, logging.Logger) and name.startswith("torch")
    }
    return {
        "trace_handlers": list(trace_log.handlers),
        "bytecode_hooks": len(convert_frame._bytecode_hooks),
        "torch_handlers": torch_handlers,
        "dynamo_config": torch._dynamo.config.get_config_copy(),
        "eval_frame_callback": torch._C._dynamo.eval_frame.get_eval_frame_callback(),
    }


def test_users_compiled_function_keeps_its_cache_and_nothing_is_left_installed():
    def users_fn(x):
        return torch.sin(x) + 1

    compiled = torch.compile(users_fn, backend="eager")
    compiled(torch.randn(3))
    before_entries = [str(e.compile_id) for e in _debug_get_cache_entry_list(users_fn.__code__)]
    before = _process_state()
    ns = {"__name__": "__main__"}
    run(TOY_EXAMPLE, ns)
    failing = run_cell("import torch\nx = torch.ones(2)\nraise RuntimeError('no')\n", ns, RunOptions(backend="eager"))
    assert isinstance(failing.exception, RuntimeError)
    assert _process_state() == before
    assert [str(e.compile_id) for e in _debug_get_cache_entry_list(users_fn.__code__)] == before_entries


def test_keyboard_interrupt_still_removes_every_hook():
    before = _process_state()
    ns = {"__name__": "__main__"}
    result = run_cell("import torch\ndef stop(x):\n    raise KeyboardInterrupt\nstop(torch.ones(1))\n", ns, RunOptions(backend="eager"))
    assert isinstance(result.exception, KeyboardInterrupt)
    assert _process_state() == before


def test_rerunning_a_cell_recaptures_its_frames():
    ns = {"__name__": "__main__"}
    first = run(TOY_EXAMPLE, ns).report
    second = run("out = toy_example(torch.randn(10), torch.randn(10))\n", ns).report
    assert frames_named(first, "toy_example") and frames_named(second, "toy_example")
    assert frames_named(second, "toy_example")[0]["graph_breaks"]
    for _ in range(10):  # more runs than recompile_limit: the explorer's entries do not pile up
        again = run("out = toy_example(torch.randn(10), torch.randn(10))\n", ns).report
    assert frames_named(again, "toy_example")[0]["status"] == "graph_break"
    assert not again["diagnostics"]


def test_function_shared_with_users_own_compile_is_still_explored_and_flagged():
    ns = {"__name__": "__main__"}
    run("import torch\n\ndef shared(x):\n    return x.cos()\n", ns)
    torch.compile(ns["shared"], backend="eager")(torch.ones(2))
    users = [str(e.compile_id) for e in _debug_get_cache_entry_list(ns["shared"].__code__)]
    rep = run("y = shared(torch.ones(2))\n", ns).report
    assert frames_named(rep, "shared")
    assert any(d["kind"] == "shared_cache" for d in rep["diagnostics"])
    remaining = [str(e.compile_id) for e in _debug_get_cache_entry_list(ns["shared"].__code__)]
    assert set(users) <= set(remaining)


def test_other_threads_are_not_captured():
    import threading

    ns = {"__name__": "__main__"}
    done = threading.Event()

    def background():
        f = torch.compile(lambda t: t * 3, backend="eager")
        while not done.is_set():
            f(torch.ones(2))

    worker = threading.Thread(target=background)
    worker.start()
    try:
        rep = run(TOY_EXAMPLE, ns).report
    finally:
        done.set()
        worker.join()
    assert {f["code"]["name"] for f in rep["frames"]} <= {"toy_example", "torch_dynamo_resume_in_toy_example_at_8"}
