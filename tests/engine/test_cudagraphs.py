"""CUDA graphs under reduce-overhead (issue 28, item 3): per compiled graph, recorded, skipped with inductor's own
reason, or re-recorded with its reason; the recordings; with --profile the replays and eager runs.

On the CPU every graph is skipped, and that path runs for real here: a training step, its backward and an inference
call under ``--mode reduce-overhead``, cold and then from inductor's cache, and a cell that calls
``torch.compile(f, mode="reduce-overhead")`` itself. What only a GPU does (a graph handed to CUDA graph trees, its
warm-up, recording, re-recording, replay, a run-time skip) is exercised on constructed events and on stand-ins for
the tree manager that log what inductor logs ([Note: cudagraphs] in compiler/collectors/cudagraphs/cudagraphs.py).
"""

from __future__ import annotations

import contextlib
import logging
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest
import torch

from compiler import RunOptions
from compiler.collectors.cudagraphs.cudagraphs import CudaGraphsCollector
from compiler.collectors.cudagraphs.cudagraphs_report import Decision, Event, explain, summarise
from compiler.summary import cudagraphs_line, cudagraphs_reason, one_line

from .helpers import run

TRAINING = textwrap.dedent(
    """
    import torch

    def step(x, w):
        return ((x @ w).relu() * 2).sum()

    x = torch.randn(4, 4, requires_grad=True)
    w = torch.randn(4, 4)
    for _ in range(3):
        step(x, w).backward()
    with torch.no_grad():
        step(x, w)
    """
)

OWN_COMPILE = textwrap.dedent(
    """
    import torch

    def f(x):
        return (x * 2).relu().sum()

    def g(x):
        return x.cos() + 1

    cf = torch.compile(f, mode="reduce-overhead")
    x = torch.randn(8)
    for _ in range(2):
        out = cf(x)
    y = g(x)
    """
)


@pytest.fixture(scope="module")
def cpu_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The training program cold (with --profile) and again from inductor's cache, and the cell's own
    torch.compile, each with an inductor cache of this module's own."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path_factory.mktemp("inductor")))
        torch._dynamo.reset()
        cold = run(TRAINING, backend="inductor", mode="reduce-overhead", profile=True).report
        torch._dynamo.reset()
        warm = run(TRAINING, backend="inductor", mode="reduce-overhead").report
        torch._dynamo.reset()
        own = run(OWN_COMPILE, backend="inductor").report
    return {"cold": cold, "warm": warm, "own": own}


@pytest.mark.parametrize("which", ["cold", "warm"])
def test_every_skip_names_inductors_reason(cpu_runs: dict[str, dict[str, Any]], which: str) -> None:
    report = cpu_runs[which]
    rows = report["cudagraphs"]
    assert sorted(r["kind"] for r in rows) == ["backward", "forward", "inference"]
    for r in rows:
        assert r["status"] == "skipped" and r["skipped_at"] == "compile"
        # inductor's own words, as it put them on the compiled graph (graph partitioning leaves a CPU graph no device)
        assert r["reason"] == "skipping cudagraphs due to multiple devices: " or "cpu device" in r["reason"], r
        assert r["explanation"] and "CUDA" in r["explanation"]
        assert r["recordings"] == 0 and r["partitions"] is None and r["rerecord_reasons"] == []
        # the reason in a few words, written once by the engine for every view (compiler.summary.cudagraphs_reason)
        assert r["reason_text"] == cudagraphs_reason(r["reason"]) and r["reason_text"]
    by_kind = {r["kind"]: r for r in rows}
    forward, backward = by_kind["forward"], by_kind["backward"]
    assert backward["from_forward"] and not forward["from_forward"]
    assert backward["reason"] == forward["reason"] and backward["compile_id"] == forward["compile_id"]
    assert "forward and its backward" in backward["explanation"]
    # inductor counted one skip per graph it decided for itself: the backward inherits its forward's
    assert report["dynamo_counters"]["inductor"]["cudagraph_skips"] == sum(not r["from_forward"] for r in rows)
    graphs = {g["id"]: g for g in report["graphs"]}
    for r in rows:
        graph = graphs[r["graph_id"]]
        assert (graph["compile_id"], graph["kind"]) == (r["compile_id"], f"aot_{r['kind']}")
    assert "CUDA graphs: 3 skipped (no CUDA device)" in one_line(report) or "cpu device" in one_line(report)


def test_the_profile_counts_each_call_as_an_eager_run(cpu_runs: dict[str, dict[str, Any]]) -> None:
    rows = {r["kind"]: r for r in cpu_runs["cold"]["cudagraphs"]}
    assert (rows["forward"]["calls"], rows["backward"]["calls"], rows["inference"]["calls"]) == (3, 3, 1)
    for r in rows.values():
        assert r["replays"] == 0 and r["eager_runs"] == r["calls"]
    assert cudagraphs_line(cpu_runs["cold"]).endswith("· 0 replays / 7 eager runs")
    assert all(r["calls"] is None and r["replays"] is None for r in cpu_runs["warm"]["cudagraphs"])


def test_the_cells_own_torch_compile_mode_is_explained(cpu_runs: dict[str, dict[str, Any]]) -> None:
    report = cpu_runs["own"]
    assert report["options"]["mode"] is None
    rows = report["cudagraphs"]
    assert [(r["kind"], r["status"]) for r in rows] == [("inference", "skipped")]  # f's graph; g asked for none
    f_frame = next(fr for fr in report["frames"] if fr["code"]["name"] == "f")
    assert rows[0]["compile_id"] == f_frame["compile_id"] and rows[0]["reason"]


def test_no_cuda_graphs_asked_for_no_rows() -> None:
    report = run("import torch\ny = torch.randn(4).relu() * 2\n").report
    assert report["cudagraphs"] == [] and "CUDA graphs" not in one_line(report)


# --- what only a GPU does, on constructed events ------------------------------------------------------


def _decision(kind: str = "forward", wrapped: bool = True, reason: str | None = None, **kw: Any) -> Decision:
    return Decision(
        compile_id=kw.pop("compile_id", "0/0"),
        kind=kind,
        wrapped=wrapped,
        reason=reason,
        box_was_off=kw.pop("box_was_off", False),
        partitions=kw.pop("partitions", 1 if wrapped else 0),
    )


def test_recorded_then_replayed() -> None:
    events = [Event(0, "warmup"), Event(0, "call:eager"), Event(0, "record"), Event(0, "call:record")]
    events += [Event(0, "call:replay")] * 5
    (row,) = summarise([_decision()], events, counted=True)
    assert (row.status, row.recordings, row.warmups, row.partitions) == ("recorded", 1, 1, 1)
    assert (row.calls, row.replays, row.eager_runs) == (7, 5, 1)
    assert row.reason is None and row.skipped_at is None and "later calls replay it" in (row.explanation or "")
    (plain,) = summarise([_decision()], events, counted=False)
    assert (plain.calls, plain.replays, plain.eager_runs) == (None, None, None)


def test_rerecorded_with_its_reasons() -> None:
    why = "static input data pointer changed.\ninput name: primals_1. data pointer changed from 1 to 2."
    events = [Event(0, "record"), Event(0, "rerecord", why), Event(0, "rerecord", why), Event(0, "record")]
    (row,) = summarise([_decision()], events, counted=False)
    assert (row.status, row.recordings, row.rerecord_reasons) == ("rerecorded", 2, [why])
    assert "recorded again" in (row.explanation or "")


def test_skipped_at_run_time_with_the_trees_warning() -> None:
    mutation = "skipping cudagraphs due to mutated inputs (1 instances). Found from : \n File x.py, line 3"
    limit = "skipping cudagraph due to function 0 exceeding max re-recording limit (=50) on cudagraph node 3 due to x."
    rows = summarise(
        [_decision(), _decision(compile_id="1/0")],
        [Event(0, "skip", mutation), Event(1, "record"), Event(1, "record"), Event(1, "skip", limit)],
        counted=False,
    )
    assert [(r.status, r.skipped_at, r.reason) for r in rows] == [("skipped", "run", mutation), ("skipped", "run", limit)]
    assert rows[1].recordings == 2
    assert "writes into an input" in (rows[0].explanation or "") and "too often" in (rows[1].explanation or "")
    assert cudagraphs_reason(mutation) == "mutated inputs (1 instances)"
    assert [r.reason_text for r in rows] == [
        "mutated inputs (1 instances)",
        "function 0 exceeding max re-recording limit (=50) on cudagraph node 3 due to x",
    ]


def test_a_backward_skipped_by_its_forward_and_a_backward_of_its_own() -> None:
    fw = _decision(wrapped=False, reason="skipping cudagraphs due to cpu device (arg0_1)")
    bw = _decision("backward", wrapped=False, box_was_off=True)
    other_fw = _decision(compile_id="1/0")
    other_bw = _decision(
        "backward", wrapped=False, reason="disabling cudagraphs due to incompatible op aten.nonzero", compile_id="1/0"
    )
    rows = summarise([fw, other_fw, bw, other_bw], [], counted=False)
    assert (rows[2].from_forward, rows[2].reason) == (True, fw.reason)
    assert (rows[3].from_forward, rows[3].reason) == (False, other_bw.reason)
    assert "cannot capture" in (rows[3].explanation or "")
    assert cudagraphs_line({"cudagraphs": [_json(r) for r in rows]}) == (
        "CUDA graphs: 3 skipped (cpu device (arg0_1); incompatible op aten.nonzero), 1 not recorded"
    )


def test_a_skip_inductor_only_logged() -> None:
    said = {"0/0": ["disabling cudagraphs due to override_cudagraphs annotation"]}
    (row,) = summarise([_decision(wrapped=False)], [], counted=False, compile_messages=said)
    assert row.reason == said["0/0"][0] and "annotation" in (row.explanation or "")
    (bare,) = summarise([_decision(wrapped=False)], [], counted=False)
    assert bare.reason is None and "without saying why" in (bare.explanation or "")
    silent = _decision(wrapped=False)
    silent.note = "inductor found no graph partition with CUDA code to record (graph_partition)"
    (row,) = summarise([silent], [], counted=False)
    assert (row.status, row.reason, row.explanation) == ("skipped", None, silent.note)


def test_not_recorded_says_why() -> None:
    (warm,) = summarise([_decision()], [Event(0, "warmup")], counted=False)
    assert warm.status == "not_recorded" and "warm-up" in (warm.explanation or "")
    (never,) = summarise([_decision()], [], counted=False)
    assert "not called" in (never.explanation or "")
    assert (warm.reason, warm.reason_text, never.reason_text) == (None, None, None)  # no reason, no words for one


def test_reasons_in_a_few_words() -> None:
    assert cudagraphs_reason("skipping cudagraphs due to multiple devices: ") == "no CUDA device"
    assert cudagraphs_reason("skipping cudagraphs due to skipping cudagraphs due to cpu device (x). Found from : \n a") == (
        "cpu device (x)"
    )
    assert cudagraphs_reason(
        "skipping cudagraphs due to multiple devices: device(type='cuda', index=0), device(type='cuda', index=1)"
    )
    assert cudagraphs_reason(None) == ""
    row = summarise([_decision(wrapped=False, reason="skipping cudagraphs due to ['non-Tensor inputs']")], [], counted=False)[0]
    assert explain(row) == row.explanation and "not a tensor" in (row.explanation or "")


def _json(row: Any) -> dict[str, Any]:
    from compiler.model import _to_json

    return _to_json(row)


# --- the listeners, with stand-ins for CUDA graph trees ------------------------------------------------


class FunctionID:  # the trees' FunctionID: a hashable id
    def __init__(self, id: int) -> None:
        self.id = id


class Wrapped:
    def __init__(self, model: Any) -> None:
        self.model = model


class FakeTreeManager:
    """Makes the log calls CUDA graph trees make, from methods that take ``function_id`` as theirs do."""

    def __init__(self, models: list[Any]) -> None:
        self.ids_to_funcs = {FunctionID(i): Wrapped(m) for i, m in enumerate(models)}
        self.log = logging.getLogger("torch._inductor.cudagraph_trees.__cudagraphs")

    def fid(self, i: int) -> FunctionID:
        return next(f for f in self.ids_to_funcs if f.id == i)

    def run_eager(self, new_inputs: Any, function_id: FunctionID) -> None:
        self.log.debug("[%s] Running warmup function=%s, mode=%s", "0/0", "call", "FORWARD")

    def record_function(self, new_inputs: Any, function_id: FunctionID) -> None:
        self.log.debug("[%s] Recording function=%s, cuda_graph_id=%d, inputs: %s", "0/0", "call", 0, "[]")  # 2.11's

    def _run(self, new_inputs: Any, function_id: FunctionID, reason: str) -> None:
        self.log.debug("[%s] Re-recording function=%s, mode=%s, reason=%s", "0/0", "call", "FORWARD", reason)  # 2.13's

    def execute_node(self, node: Any, new_inputs: Any) -> None:
        pass

    def _update_non_cudagraph_managed_mutation(self, function_id: FunctionID, inputs: Any) -> None:
        from torch._inductor.cudagraph_utils import log_cudagraph_skip_and_bump_counter

        log_cudagraph_skip_and_bump_counter("skipping cudagraphs due to mutated inputs (2 instances)")


@contextlib.contextmanager
def _installed(profile: bool = False) -> Iterator[CudaGraphsCollector]:
    collector = CudaGraphsCollector()
    ctx: Any = type("Ctx", (), {"options": RunOptions(profile=profile), "hook_failures": []})()
    with collector.install(ctx):
        yield collector
    assert ctx.hook_failures == []


def test_the_trees_log_lines_are_attributed_to_their_graph_and_not_printed() -> None:
    models = [lambda inputs: None, lambda inputs: None]
    seen: list[logging.LogRecord] = []
    sink = logging.Handler(logging.DEBUG)
    sink.emit = seen.append  # type: ignore[method-assign]
    parent = logging.getLogger("torch._inductor")
    parent.addHandler(sink)
    try:
        with _installed() as collector:
            collector._handed = {id(models[0]): (0, lambda: models[0])}  # what post_compile handed over for decision 0
            tree = FakeTreeManager([*models, lambda inputs: None])
            tree.run_eager([], tree.fid(0))
            tree.record_function([], tree.fid(0))
            tree._run([], tree.fid(0), "static input data pointer changed")
            tree._update_non_cudagraph_managed_mutation(tree.fid(0), [])
            tree.record_function([], tree.fid(1))  # a function this run did not compile: ignored
    finally:
        parent.removeHandler(sink)
    assert [(e.decision, e.what, e.detail) for e in collector.events] == [
        (0, "warmup", None),
        (0, "record", None),
        (0, "rerecord", "static input data pointer changed"),
        (0, "skip", "skipping cudagraphs due to mutated inputs (2 instances)"),
    ]
    # the DEBUG lines were for the collector alone; the warning went on as before
    assert [r.levelno for r in seen if "cudagraph" in r.name] == [logging.WARNING]
    assert not logging.getLogger("torch._inductor.cudagraph_trees.__cudagraphs").filters
    assert not logging.getLogger("torch._inductor.cudagraph_trees.__cudagraphs").isEnabledFor(logging.DEBUG)


def test_post_compile_decides_and_the_profile_classifies_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A graph inductor hands to CUDA graph trees (what only a GPU does), through the real wrappers: post_compile
    keeps the box on, the first call warms up, the second records, the next ones replay."""
    from torch._guards import CompileContext, CompileId, compile_context
    from torch._inductor import config
    from torch._inductor.output_code import CompiledFxGraph
    from torch._inductor.utils import BoxedBool

    model = lambda inputs: "out"  # noqa: E731 - the graph's callable
    tree = FakeTreeManager([model])
    calls = iter(["warmup", "record", "replay", "replay"])

    def post_compile(graph: Any, example_inputs: Any, constants: Any, graph_kwargs: Any) -> None:
        graph.current_callable = "cudagraphified"  # the box stays on: wrapped

    def call(graph: Any, inputs: Any) -> str:
        step = next(calls)
        if step == "warmup":
            tree.run_eager(inputs, tree.fid(0))
        elif step == "record":
            tree.record_function(inputs, tree.fid(0))
        else:
            collector._replay_wrapper(FakeTreeManager.__dict__["execute_node"])(tree, None, inputs)
        return "out"

    monkeypatch.setattr(CompiledFxGraph, "post_compile", post_compile)
    monkeypatch.setattr(CompiledFxGraph, "__call__", call)
    graph: Any = object.__new__(CompiledFxGraph)
    graph.current_callable = model
    graph.compiled_fn_runner = None
    graph.partition_maps = None
    graph.fx_kwargs = {"is_backward": False, "is_inference": True}
    with _installed(profile=True) as collector, config.patch({"triton.cudagraphs": True}):
        with compile_context(CompileContext(CompileId(frame_id=0, frame_compile_id=0))):
            CompiledFxGraph.post_compile(
                graph, [], None, {"cudagraphs": BoxedBool(True), "is_backward": False, "is_inference": True}
            )
        for _ in range(4):
            assert graph([]) == "out"
        assert CompiledFxGraph.__dict__["post_compile"] is not post_compile  # wrapped while the run lasts
    assert CompiledFxGraph.__dict__["post_compile"] is post_compile and CompiledFxGraph.__dict__["__call__"] is call
    (row,) = summarise(collector.decisions, collector.events, counted=True)
    assert (row.compile_id, row.kind, row.status, row.partitions) == ("0/0", "inference", "recorded", 1)
    assert (row.recordings, row.warmups, row.calls, row.replays, row.eager_runs) == (1, 1, 4, 2, 1)


# --- the GPU check's own checker (benchmarks/gpu_cudagraphs.py), on constructed reports -----------------


def _gpu_report(rows: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    frames = sorted({r["compile_id"] for r in rows})
    graphs = [{"id": i, "compile_id": r["compile_id"], "kind": f"aot_{r['kind']}"} for i, r in enumerate(rows)]
    for i, r in enumerate(rows):
        r["graph_id"] = i
    report = {
        "device": "cuda",
        "diagnostics": [],
        "logs": [],
        "frames": [{"compile_id": c, "graph_breaks": [], "recompile_reasons": [], "guards": []} for c in frames],
        "graphs": graphs,
        "cudagraphs": rows,
        "dynamo_counters": {},
        "timings": {},
    }
    report.update(extra)
    return report


def test_the_gpu_checker_accepts_what_a_gpu_should_write_and_names_what_differs() -> None:
    from benchmarks.gpu_cudagraphs import PROGRAMS, check

    for name, source in PROGRAMS.items():
        compile(textwrap.dedent(source), name, "exec")
    good = _json(summarise([_decision("inference")], [], counted=True)[0])
    good.update(status="recorded", recordings=1, warmups=1, calls=10, replays=8, eager_runs=1)
    assert check("inference", _gpu_report([good])) == []
    assert check("inference", _gpu_report([{**good, "replays": 2, "eager_runs": 7}])) == [
        "calls, replays, eager runs: got (10, 2, 7)"
    ]
    mutation = "skipping cudagraphs due to mutated inputs (1 instances). Found from : \n File x.py"
    skipped = {**good, "status": "skipped", "skipped_at": "run", "reason": mutation, "recordings": 0, "warmups": 0}
    skipped.update(calls=4, replays=0, eager_runs=4)
    logs = [{"level": "WARNING", "logger": "torch._inductor.cudagraph_utils.__cudagraphs", "message": mutation}]
    counters = {"inductor": {"cudagraph_skips": 1}}
    assert check("mutation", _gpu_report([skipped], logs=logs, dynamo_counters=counters)) == []
    debug = [{"level": "DEBUG", "logger": "torch._inductor.cudagraph_trees.__cudagraphs", "message": "x"}]
    assert check("mutation", _gpu_report([skipped], logs=logs + debug, dynamo_counters=counters)) == [
        "1 DEBUG records of inductor's cudagraphs log reached the report"
    ]
