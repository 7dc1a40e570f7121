"""Compile-time breakdown per frame (issue 12 item 6): ``frames[].phases`` as a tree on a time axis.

- The tree is real: on an eager compile, Dynamo's own phases nest as Dynamo ran them (``dynamo`` >
  ``_compile.compile_inner`` > ``compile_attempt_0`` > ``bytecode_tracing``), every phase lies inside its
  parent's span, parents come before their children, and the frame compile's span is the frame's
  ``compile_time_s`` (both are Dynamo's ``entire_frame_compile`` timing).
- A restart (the graph break at ``loss.backward()``) shows as two attempts, the second after the first.
- aot_eager training step: AOTAutograd's phases sit inside ``backend_compile``, and the lazy backward
  compile (trigger LAZY_BACKWARD, at the first ``backward()``) is a second top-level phase of the same
  frame, after the forward's compile.
- inductor: the FX-graph / AOTAutograd cache lookup's outcome is an instant phase inside ``backend_compile``
  (whichever way the on-disk cache is), inductor's phases nest inside AOTAutograd's, and every phase name of
  the run has a label and a kind.
- ``phase_trees`` on hand-written event sequences: the logger's overlap rule (an end closes the phases
  opened inside it), ends without starts, phases left open, instants, and two threads under one compile id.
- The run leaves Dynamo's logger as it found it.
"""

from __future__ import annotations

import re

from torch._dynamo.utils import get_chromium_event_logger

from compiler.collectors.timings import phase_trees
from tests.goldens.cases import CASES

from .helpers import frames_named, run

TOL_MS = 0.01  # start_ms and ms are rounded to the microsecond


def _check_tree(phases: list[dict]) -> None:
    """Every phase inside its parent's span, parents first, siblings in start order."""
    last_child_start: dict[int | None, float] = {}
    for i, p in enumerate(phases):
        parent = p["parent"]
        assert parent is None or 0 <= parent < i, (i, p)
        if parent is not None:
            up = phases[parent]
            assert not up["instant"]
            assert p["start_ms"] >= up["start_ms"] - TOL_MS, (p, up)
            assert p["start_ms"] + p["ms"] <= up["start_ms"] + up["ms"] + TOL_MS, (p, up)
        assert p["start_ms"] >= last_child_start.get(parent, 0.0) - TOL_MS
        last_child_start[parent] = p["start_ms"]
        assert p["label"] and p["kind"], p
        assert (p["ms"] == 0) if p["instant"] else (p["ms"] >= 0)


def _children(phases: list[dict], index: int | None) -> list[dict]:
    return [p for p in phases if p["parent"] == index]


def _path(phases: list[dict], p: dict) -> list[str]:
    out = []
    while p["parent"] is not None:
        p = phases[p["parent"]]
        out.append(p["event"] or p["name"])
    return out[::-1]


def test_an_eager_compile_is_a_tree_of_dynamos_phases():
    rep = run("import torch\n\ndef f(x):\n    return torch.sin(x) * 2\n\ny = f(torch.randn(8))\n").report
    (frame,) = frames_named(rep, "f")
    phases = frame["phases"]
    _check_tree(phases)
    (root,) = _children(phases, None)
    assert (root["name"], root["parent"], root["start_ms"]) == ("dynamo", None, 0.0)
    inner = next(p for p in phases if p["event"] == "entire_frame_compile")
    assert inner["name"] == "_compile.compile_inner" and inner["kind"] == "dynamo" and inner["label"] == "frame compile"
    tracing = next(p for p in phases if p["name"] == "bytecode_tracing")
    assert _path(phases, tracing) == ["dynamo", "entire_frame_compile", "compile_attempt_0"]
    assert tracing["label"] == "tracing the bytecode" and tracing["ms"] > 0
    guards = next(p for p in phases if p["name"] == "build_guards")
    assert guards["kind"] == "guards" and guards["start_ms"] >= tracing["start_ms"] + tracing["ms"] - TOL_MS
    backend = next(p for p in phases if p["name"] == "OutputGraph.call_user_compiler")
    assert (backend["event"], backend["kind"]) == ("backend_compile", "backend")
    # the frame compile's span is Dynamo's entire_frame_compile_time_s, the frame's compile_time_s
    assert abs(inner["ms"] - frame["compile_time_s"] * 1000) < 0.5 + 0.02 * inner["ms"], (inner["ms"], frame["compile_time_s"])


def test_a_restart_shows_two_attempts_one_after_the_other():
    rep = run(CASES["training_step"]["source"]).report  # loss.backward() breaks the graph: Dynamo restarts
    (frame,) = frames_named(rep, "train_step")
    phases = frame["phases"]
    _check_tree(phases)
    attempts = [p for p in phases if p["name"].startswith("compile_attempt_")]
    assert [p["name"] for p in attempts] == ["compile_attempt_0", "compile_attempt_1"]
    assert [p["label"] for p in attempts] == ["first attempt", "attempt 1 (after a restart)"]
    assert attempts[1]["start_ms"] >= attempts[0]["start_ms"] + attempts[0]["ms"] - TOL_MS
    assert attempts[0]["parent"] == attempts[1]["parent"]
    for p in attempts:
        assert any(c["name"] == "bytecode_tracing" for c in _children(phases, phases.index(p)))


def test_the_lazy_backward_compile_belongs_to_the_forwards_frame():
    rep = run(CASES["training_step"]["source"], backend="aot_eager").report
    (step,) = frames_named(rep, "train_step")
    phases = step["phases"]
    _check_tree(phases)
    roots = _children(phases, None)
    assert [(r["name"], r["event"]) for r in roots] == [("dynamo", None), ("backward._backward_impl", "entire_backward_compile")]
    forward, backward = roots
    assert backward["start_ms"] >= forward["start_ms"] + forward["ms"] - TOL_MS
    assert backward["label"] == "backward compile (at the first backward)" and backward["kind"] == "backend"
    aot = next(p for p in phases if p["name"] == "create_aot_dispatcher_function")
    assert _path(phases, aot)[-1] == "backend_compile" and aot["kind"] == "aot" and aot["label"] == "AOTAutograd"
    inside = {p["name"] for p in phases if phases.index(aot) in _ancestors(phases, p)}
    assert {"aot_collect_metadata", "aot_trace_joint_graph"} <= inside


def _ancestors(phases: list[dict], p: dict) -> set[int]:
    out = set()
    while p["parent"] is not None:
        out.add(p["parent"])
        p = phases[p["parent"]]
    return out


def test_inductor_phases_and_the_cache_lookup_nest_inside_the_backend():
    src = "import torch\n\ndef g(x):\n    return torch.relu(x) + x.cos()\n\ny = g(torch.randn(16))\n"
    rep = run(src, backend="inductor").report
    (frame,) = frames_named(rep, "g")
    phases = frame["phases"]
    _check_tree(phases)
    backend = phases.index(next(p for p in phases if p["event"] == "backend_compile"))
    inside = [p for p in phases if backend in _ancestors(phases, p)]
    lookups = [p for p in inside if p["instant"]]
    assert lookups and all(re.fullmatch(r"(fx_graph|autograd)_cache_(hit|miss|bypass|disabled)", p["name"]) for p in lookups)
    assert all(p["kind"] == "cache" and p["label"].endswith(("hit", "miss", "bypass", "disabled")) for p in lookups)
    names = {p["name"] for p in inside}
    if any(p["name"] == "autograd_cache_hit" for p in lookups):  # a warm on-disk cache: loaded, not compiled
        assert "AOTAutogradCache.inductor_load" in names
    else:
        assert {"create_aot_dispatcher_function", "compile_fx_inner"} <= names
        fx = next(p for p in inside if p["name"] == "compile_fx_inner")
        assert (fx["event"], fx["kind"]) == ("inductor_compile", "inductor")
        assert "create_aot_dispatcher_function" in _path(phases, fx)
    assert not [p["name"] for p in phases if p["kind"] == "other"], "every 2.13 phase of this run has a kind"


def test_the_run_leaves_dynamos_logger_as_it_was():
    logger = get_chromium_event_logger()
    before = dict(vars(logger))
    run("import torch\n\ndef h(x):\n    return x + 1\n\ny = h(torch.ones(2))\n")
    assert vars(logger).keys() == before.keys()
    assert not {"log_event_start", "log_event_end", "log_instant_event"} & vars(logger).keys()


def _tree(events):
    return {cid: [(p.name, p.start_ms, p.ms, p.parent, p.instant) for p in ps] for cid, ps in phase_trees(events).items()}


MS = 1_000_000  # ns


def test_phase_trees_follow_the_loggers_rules():
    events = [
        ("B", "dynamo", 10 * MS, "0/0", None, 1),
        ("E", "never_started", 11 * MS, "0/0", None, 1),  # an end without a start: ignored
        ("B", "backend_compile", 12 * MS, "0/0", "OutputGraph.call_user_compiler", 1),
        ("B", "inner", 13 * MS, "0/0", None, 1),
        ("E", "backend_compile", 15 * MS, "0/0", None, 1),  # closes `inner` too, as the logger does
        ("i", "fx_graph_cache_miss", 12 * MS, "0/0", None, 1),  # logged late with the lookup's time, under dynamo
        ("B", "runtime", 16 * MS, None, None, 1),  # outside any compile: dropped
        ("E", "dynamo", 20 * MS, "0/0", None, 1),
        ("B", "entire_backward_compile", 30 * MS, "0/0", "backward._backward_impl", 2),  # autograd's thread
        ("B", "bw_open", 31 * MS, "0/0", None, 2),  # never ended: closes at the compile's last event
        ("B", "dynamo", 32 * MS, "1/0", None, 1),
        ("E", "entire_backward_compile", 33 * MS, "0/0", None, 2),
        ("E", "dynamo", 34 * MS, "1/0", None, 1),
    ]
    assert _tree(events) == {
        "0/0": [
            ("dynamo", 0.0, 10.0, None, False),
            ("OutputGraph.call_user_compiler", 2.0, 3.0, 0, False),
            ("inner", 3.0, 2.0, 1, False),
            ("fx_graph_cache_miss", 2.0, 0.0, 0, True),
            ("backward._backward_impl", 20.0, 3.0, None, False),
            ("bw_open", 21.0, 2.0, 4, False),
        ],
        "1/0": [("dynamo", 0.0, 2.0, None, False)],
    }
    (backend,) = [p for p in phase_trees(events)["0/0"] if p.name == "OutputGraph.call_user_compiler"]
    assert (backend.event, backend.label, backend.kind) == ("backend_compile", "backend compile", "backend")


def test_an_instant_is_kept_inside_its_parents_span():
    events = [
        ("B", "dynamo", 5 * MS, "2/0", None, 1),
        ("B", "backend_compile", 6 * MS, "2/0", None, 1),
        ("i", "autograd_cache_hit", 4 * MS, "2/0", None, 1),  # a time before its parent's start
        ("E", "backend_compile", 8 * MS, "2/0", None, 1),
        ("E", "dynamo", 9 * MS, "2/0", None, 1),
    ]
    assert _tree(events) == {
        "2/0": [
            ("dynamo", 0.0, 4.0, None, False),
            ("backend_compile", 1.0, 2.0, 0, False),
            ("autograd_cache_hit", 1.0, 0.0, 1, True),
        ]
    }
