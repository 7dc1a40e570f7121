"""The explorer leaves the process as it found it: caches, hooks, handlers, config, namespace."""

from __future__ import annotations

import logging

import torch
from torch._dynamo.eval_frame import _debug_get_cache_entry_list

from compiler import RunOptions, run_cell
from tests.goldens.cases import TOY_EXAMPLE

from .helpers import frames_named, run


def _process_state():
    import gc

    from torch._dynamo import convert_frame, symbolic_convert, utils
    from torch._logging._internal import trace_log

    # loggers with handlers only: a module torch imports during the run (2.14 creates
    # torch._inductor.cudagraph_trees.__cudagraphs then) adds a logger with none, which nothing installed
    torch_handlers = {
        name: [(h, tuple(h.filters)) for h in logger.handlers]
        for name, logger in logging.root.manager.loggerDict.items()
        if isinstance(logger, logging.Logger) and name.startswith("torch") and logger.handlers
    }
    return {
        "trace_handlers": list(trace_log.handlers),
        "bytecode_hooks": len(convert_frame._bytecode_hooks),
        "torch_handlers": torch_handlers,
        "dynamo_config": torch._dynamo.config.get_config_copy(),
        "eval_frame_callback": torch._C._dynamo.eval_frame.get_eval_frame_callback(),
        "graph_break_loggers": [
            (lg.level, lg.propagate, list(lg.handlers))
            for lg in (
                logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks"),
                logging.getLogger("torch._dynamo.convert_frame.__graph_breaks"),
            )
        ],
        "graph_break_dedup": symbolic_convert.graph_break_dup_warning_checker,
        "compile_callbacks": (
            list(torch._dynamo.callback_handler.start_callbacks),
            list(torch._dynamo.callback_handler.end_callbacks),
        ),
        "compilation_metrics_limit": utils._compilation_metrics.maxlen,
        "gc_enabled": gc.isenabled(),
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
    result = run_cell(
        "import torch\ndef stop(x):\n    raise KeyboardInterrupt\nstop(torch.ones(1))\n", ns, RunOptions(backend="eager")
    )
    assert isinstance(result.exception, KeyboardInterrupt)
    assert _process_state() == before


def test_rerunning_a_cell_recaptures_its_frames():
    ns = {"__name__": "__main__"}
    first = run(TOY_EXAMPLE, ns).report
    second = run("out = toy_example(torch.randn(10), torch.randn(10))\n", ns).report
    assert frames_named(first, "toy_example") and frames_named(second, "toy_example")
    (gb,) = frames_named(second, "toy_example")[0]["graph_breaks"]
    assert (
        gb["user_stack"] and gb["user_stack"][-1]["line"] == gb["line"]
    )  # Dynamo logs a repeated break's stack once; we keep it
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


def test_the_structured_trace_is_listened_to_only_while_an_aot_backend_compiles(monkeypatch):
    """[Note: zero-cost capture]: listening on torch.__trace makes torch build every payload of a compile."""
    from compiler.events import StructuredStream

    opened: list[str] = []
    enter = StructuredStream.__enter__

    def spy(self):
        opened.append("stream")
        return enter(self)

    monkeypatch.setattr(StructuredStream, "__enter__", spy)
    cell = (
        "import torch._logging._internal as _internal\n"
        "def f(x):\n    return (x * 2).sin()\n"
        "y = f(torch.ones(3))\n"
        "listeners = list(_internal.trace_log.handlers)\n"
    )
    for backend, windows in (("eager", 0), ("aot_eager", 1)):
        opened.clear()
        ns = {"__name__": "__main__", "torch": torch}
        rep = run(cell, ns, backend=backend, scope="all-frames").report
        assert not any(isinstance(h, StructuredStream) for h in ns["listeners"]), backend  # not while the cell runs
        assert len(opened) == windows, backend  # only inside the backend's compile
        assert any(g["kind"] == "aot_inference" for g in rep["graphs"]) == (backend == "aot_eager")


def test_compiles_past_dynamos_metrics_window_are_all_reported():
    """Dynamo keeps the CompilationMetrics of its last 64 compiles; a cell with more loses none."""
    from torch._dynamo import utils

    ns = {"__name__": "__main__"}
    cell = "import torch\ndef g(x):\n    return x + 1\nfor n in range(1, 71):\n    y = g(torch.ones(n))\n"
    rep = run(cell, ns, dynamic=False, recompile_limit=100).report
    frames = frames_named(rep, "g")
    assert len(frames) == 70 and all(f["compile_time_s"] for f in frames)
    assert all(f["recompile_reasons"] for f in frames[1:])
    assert utils._compilation_metrics.maxlen == utils.DEFAULT_COMPILATION_METRICS_LIMIT


def test_dynamo_skips_every_module_of_the_explorer_found_by_walking_its_packages():
    """Issue 39: the explorer's own code is never traced, whatever folder a module sits in (``compiler/model/``,
    ``compiler/trace/``, ...): the packages are walked, not listed by hand."""
    import pathlib

    from torch._dynamo import trace_rules

    import compiler.runner  # noqa: F401 - importing the runner registers the skip

    repo = pathlib.Path(__file__).resolve().parents[2]
    modules = [p for package in ("compiler", "kernel_ext") for p in (repo / package).rglob("*.py")]
    assert len(modules) > 90 and any("/compiler/model/" in str(p) for p in modules)
    traced = [str(p) for p in modules if not trace_rules.check_file(str(p)).skipped]
    assert not traced, traced
