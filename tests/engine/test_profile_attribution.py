"""--profile's attribution on hand-built profiler events (no GPU, no torch.compile): each device kernel goes to
the call that launched it (the profiler's link from a kernel to the CPU op innermost at its launch), never to
whatever ran on the host while it ran; a graph's first call (its lazy compile and autotuning) is apart from
the calls after it; a backward on another thread is read; the run split counts each moment once.

The events are built as kineto gives them (compiler/collectors/profile/profile_torch.py, stop_profiler): CPU ops and marks with their own
correlation ids, CUDA runtime calls with CUPTI's correlation ids (a number space of their own, which collides
with the ops') linked to the op they ran in, and device kernels linked to the same op. Times are in µs
(x 1000 ns), so 1 unit = 0.001 ms.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest

from compiler.collectors.profile import profile_report
from compiler.collectors.profile.profile_analysis import CELL, COMPILE, COMPILED_BACKWARD, GRAPH
from compiler.collectors.profile.profile_torch import ProfilerEvent
from compiler.model import CompileReport

US = 1000
CELL_THREAD, DEVICE_THREAD, OTHER_THREAD = 1, 2, 3


class Trace:
    """A kineto event list, built call by call."""

    def __init__(self) -> None:
        self.events: list[ProfilerEvent] = []
        self._corr = itertools.count(1)
        self._cupti = itertools.count(1)  # CUPTI's correlation ids start low too: they collide with the ops'

    def span(self, name: str, start: float, end: float, thread: int = CELL_THREAD, kind: str = "cpu_op") -> int:
        corr = next(self._corr)
        self.events.append(ProfilerEvent(name, int(start * US), int(end * US), thread, "cpu", corr, 0, kind))
        return corr

    def launch(
        self, op: int, at: float, name: str, start: float, end: float, thread: int = CELL_THREAD, cupti: int | None = None
    ) -> None:
        """A cudaLaunchKernel inside op ``op`` at ``at`` (on ``thread``), and the kernel it launched, run on the
        device from ``start`` to ``end``."""
        corr = cupti if cupti is not None else next(self._cupti)
        self.events.append(
            ProfilerEvent("cudaLaunchKernel", int(at * US), int((at + 0.5) * US), thread, "cpu", corr, op, "cuda_runtime")
        )
        self.events.append(ProfilerEvent(name, int(start * US), int(end * US), 0, "cuda", corr, op, "kernel"))

    def op(
        self, name: str, start: float, end: float, kernel: str, k_start: float, k_end: float, thread: int = CELL_THREAD
    ) -> int:
        """An op that launches one kernel."""
        corr = self.span(name, start, end, thread=thread)
        self.launch(corr, start + 0.1, kernel, k_start, k_end, thread=thread)
        return corr


def gpt2_like() -> Trace:
    """The cell's thread: a compile, graph 0/0 called twice (its first call autotunes: L2 flushes and a benchmark
    run), an eager randn between, graph 1/0; a backward on autograd's device thread, twice (the first compiles
    lazily and launches a kernel there); runtime calls that collide and straddle."""
    t = Trace()
    t.span(CELL, 0, 1000)
    t.span(COMPILE, 10, 100)
    t.op("aten::fill_", 50, 52, "compile_fill", 55, 65)  # launched while compiling
    # graph 0/0, first call: inductor autotunes its kernel (3 L2 flushes + a benchmark run), then runs it
    t.span(GRAPH + "0/0#0", 110, 300)
    t.span("## Call CompiledFxGraph abc ##", 112, 298, kind="user_annotation")
    t.span("CachingAutotuner.benchmark_all_configs", 120, 250, kind="user_annotation")
    t.span("CachingAutotuner.benchmark_all_configs (dynamo_timed)", 120, 250)
    for i in range(3):
        t.span("aten::zero_", 121 + 40 * i, 125 + 40 * i)
        t.op(
            "aten::fill_",
            122 + 40 * i,
            124 + 40 * i,
            "void at::native::vectorized_elementwise_kernel<FillFunctor<int>>",
            130 + 40 * i,
            140 + 40 * i,
        )
    t.op("triton_poi_fused_0", 240, 241, "triton_poi_fused_0", 242, 247)  # the benchmark run
    t.op("triton_poi_fused_0", 260, 262, "triton_poi_fused_0", 265, 275)  # the real run
    # the cell's own eager torch.randn(..., device="cuda"): its kernel runs while 0/0's second call runs on the host
    # an unlinked runtime call (linked to no op: kineto puts it on the thread that stopped the profiler) straddles it
    t.events.append(ProfilerEvent("cudaDeviceSynchronize", 305 * US, 315 * US, CELL_THREAD, "cpu", 999, 0, "cuda_runtime"))
    t.span("aten::randn", 310, 320)
    normal = t.span("aten::normal_", 311, 319)
    t.launch(normal, 312, "normal_kernel", 400, 410, cupti=500)
    # graph 0/0, second call; its last kernel runs after the call ended, while graph 1/0 runs on the host
    t.span(GRAPH + "0/0#0", 350, 450)
    t.op("triton_poi_fused_0", 360, 362, "triton_poi_fused_0", 412, 420)
    t.op("triton_poi_fused_1", 440, 442, "triton_poi_fused_1", 455, 470)
    t.span(GRAPH + "1/0#0", 452, 500)
    # a runtime call in 1/0 whose CUPTI correlation id is the eager normal_'s op correlation
    mm = t.span("aten::mm", 460, 470)
    t.launch(mm, 461, "gemm", 480, 490, cupti=normal)
    # a GPU-side annotation range: not device work of its own
    t.events.append(
        ProfilerEvent("## Call CompiledFxGraph abc ##", 130 * US, 280 * US, 0, "cuda", 7777, 0, "gpu_user_annotation")
    )
    # the backward, on autograd's device thread while the cell's thread waits: a lazy compile in the first call
    t.span(COMPILED_BACKWARD, 520, 700, thread=DEVICE_THREAD)
    t.span("CompiledFunctionBackward", 521, 699, thread=DEVICE_THREAD)
    t.span("entire_backward_compile", 522, 600, thread=DEVICE_THREAD)
    t.op("aten::fill_", 530, 531, "bw_compile_fill", 540, 550, thread=DEVICE_THREAD)
    t.op("triton_bw_0", 610, 612, "triton_bw_0", 615, 630, thread=DEVICE_THREAD)
    t.span(COMPILED_BACKWARD, 720, 760, thread=DEVICE_THREAD)
    t.op("triton_bw_0", 725, 727, "triton_bw_0", 730, 735, thread=DEVICE_THREAD)
    t.span("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", 770, 780, thread=DEVICE_THREAD)
    return t


def analyse(events: list[ProfilerEvent], cuda: bool = True) -> dict:
    report = CompileReport(
        torch_version="2.13",
        python_version="3.11",
        device="cuda",
        backend="inductor",
        options={},
        scope="cell",
        scope_reason="",
        cell={},
    )
    profile = profile_report.analyse(events, report, cuda)
    return dataclasses.asdict(profile)


def ms(units: float) -> Any:
    return pytest.approx(units / 1000, abs=1e-6)


def test_kernels_are_charged_to_the_call_that_launched_them() -> None:
    prof = analyse(gpt2_like().events)
    assert prof["device"] == "cuda"
    g = {r["compile_id"]: r for r in prof["graphs"]}
    # 0/0's first call: its autotuning (3 FillFunctor flushes, 1 benchmark run) is compile work, not the graph's run
    first = g["0/0"]["first_call"]
    assert first["calls"] == 1 and first["host_ms"] == ms(190) and first["compile_ms"] == ms(130)
    assert (first["kernels"], first["device_ms"]) == (1, ms(10))
    assert (first["compile_kernels"], first["compile_device_ms"]) == (4, ms(35))
    # its steady state: the second call, whose second kernel ran after the call ended on the host
    steady = g["0/0"]["steady"]
    assert steady["calls"] == 1 and steady["host_ms"] == ms(100) and steady["compile_ms"] == 0
    assert (steady["kernels"], steady["device_ms"]) == (2, ms(8 + 15))
    assert g["0/0"]["calls"] == 2 and g["0/0"]["total_ms"] == ms(290) and g["0/0"]["device_ms"] == ms(10 + 8 + 15)
    kernels = {k["name"]: (k["calls"], k["device_ms"]) for k in g["0/0"]["kernels"]}
    assert kernels == {"triton_poi_fused_0": (2, ms(10 + 8)), "triton_poi_fused_1": (1, ms(15))}
    assert not any("FillFunctor" in k for k in kernels)
    # 1/0 ran the gemm it launched, not the eager randn kernel that ran on the device during its call
    assert g["1/0"]["device_ms"] == ms(10) and [k["name"] for k in g["1/0"]["kernels"]] == ["gemm"]
    assert g["1/0"]["steady"] is None
    # the eager randn kernel is eager, though its runtime call's CUPTI id is an op's correlation in 1/0
    assert prof["eager_device_ms"] == ms(10)
    assert [(k["name"], k["calls"]) for k in prof["eager_kernels"]] == [("normal_kernel", 1)]
    # compile work: the kernel launched while compiling, 0/0's autotuning, the lazy backward compile's kernel
    assert prof["compile_device_ms"] == ms(10 + 35 + 10)


def test_a_backward_on_another_thread_is_read_and_counted_once_in_the_split() -> None:
    prof = analyse(gpt2_like().events)
    bwd = prof["backward"]
    assert (bwd["compiled_calls"], bwd["other_thread_calls"]) == (2, 2)
    assert bwd["compiled_ms"] == ms(180 + 40) and bwd["compile_ms"] == ms(78)
    assert bwd["device_ms"] == ms(15 + 5)  # the lazy compile's kernel is compile work
    assert bwd["eager_nodes"] == 1  # AccumulateGrad, on the device thread
    # the split: the cell's thread (compile 90 + autotuning 130; graph calls 60 + 100 + 48), then, where it
    # waited, the device thread (lazy compile 78; the backward calls less it: 2 + 100 + 40)
    assert prof["wall_ms"] == ms(1000)
    assert prof["compile_ms"] == ms(90 + 130 + 78)
    assert prof["compiled_ms"] == ms(60 + 100 + 48 + 2 + 100 + 40)
    assert prof["eager_ms"] == ms(1000 - 298 - 350)
    # the cell's own eager time is what is left of its thread, the wait for the device thread taken out
    outside = next(g for g in prof["eager"] if g["cause"] == "outside")
    assert outside["ms"] == ms(1000 - 90 - 190 - 100 - 48 - 78 - 142)
    assert outside["ops"] == 1  # aten::randn: a runtime call straddling it hides nothing


def test_the_same_attribution_where_torch_does_not_give_the_activity_type() -> None:
    """torch 2.11 gives no ``activity_type``, only ``is_user_annotation`` (``profile_torch.stop_profiler`` keeps the
    annotations' kinds): runtime calls are told apart by their link and their name, and a GPU-side annotation range
    is no kernel (seen on an H200 before this: ``Optimizer.step#AdamW.step`` listed among the eager kernels)."""
    annotations = ("user_annotation", "gpu_user_annotation")
    events = [e if e.kind in annotations else dataclasses.replace(e, kind="") for e in gpt2_like().events]
    assert any(e.kind == "gpu_user_annotation" for e in events)
    assert analyse(events) == analyse(gpt2_like().events)


def test_first_call_is_the_earliest_on_any_thread() -> None:
    t = Trace()
    t.span(CELL, 0, 100)
    t.span(GRAPH + "0/0#0", 10, 40, thread=OTHER_THREAD)
    t.span("CachingAutotuner.benchmark_all_configs (dynamo_timed)", 12, 30, thread=OTHER_THREAD)
    t.span(GRAPH + "0/0#0", 50, 55)
    t.span(GRAPH + "0/0#0", 60, 64)
    prof = analyse(t.events, cuda=False)
    (g,) = prof["graphs"]
    assert g["first_call"]["host_ms"] == ms(30) and g["first_call"]["compile_ms"] == ms(18)
    assert g["steady"]["calls"] == 2 and g["steady"]["host_ms"] == ms(9)
    # the other thread's call ran while the cell's thread was free: its compile and run count, once
    assert prof["compile_ms"] == ms(18) and prof["compiled_ms"] == ms(12 + 9)


def test_no_device_work_no_device_figures_even_with_cuda_activity() -> None:
    """A CPU program on a machine with a GPU: CUDA activity was recorded but no kernel ran, so the profile is the
    CPU's (no device figures), as on a machine without one (issue 28, item 4)."""
    t = Trace()
    t.span(CELL, 0, 100)
    t.span(GRAPH + "0/0#0", 10, 20)
    t.events.append(ProfilerEvent("cudaGetDeviceCount", 5 * US, 25 * US, CELL_THREAD, "cpu", 1, 0, "cuda_runtime"))
    t.span("aten::add", 30, 31)
    with_gpu, without = analyse(t.events, cuda=True), analyse(t.events[:2] + t.events[3:], cuda=False)
    assert with_gpu == without
    assert with_gpu["device"] == "cpu" and with_gpu["graphs"][0]["device_ms"] is None
    assert with_gpu["eager_device_ms"] is None and with_gpu["backward"]["device_ms"] is None
    assert with_gpu["coverage"]["total_ops"] == 1


def test_without_activity_types_the_user_annotations_keep_their_kind() -> None:
    """torch 2.11's raw kineto events have ``is_user_annotation`` and no ``activity_type``: ``stop_profiler`` reads
    a GPU-side record_function range as one (not a kernel), and the rest with no kind."""
    from compiler.collectors.profile import profile_torch

    class Device:
        def __init__(self, name: str) -> None:
            self.name = name

        def __str__(self) -> str:
            return f"DeviceType.{self.name}"

    class Event:  # the methods of 2.11's _KinetoEvent that stop_profiler reads
        def __init__(self, name: str, device: str, annotation: bool) -> None:
            self._name, self._device, self._annotation = name, device, annotation

        def name(self) -> str:
            return self._name

        def start_ns(self) -> int:
            return 0

        def duration_ns(self) -> int:
            return 1

        def start_thread_id(self) -> int:
            return 1

        def device_type(self) -> Device:
            return Device(self._device)

        def correlation_id(self) -> int:
            return 0

        def linked_correlation_id(self) -> int:
            return 0

        def is_user_annotation(self) -> bool:
            return self._annotation

    class Prof:
        def __init__(self) -> None:
            events = [
                Event("Optimizer.step#AdamW.step", "CPU", True),
                Event("Optimizer.step#AdamW.step", "CUDA", True),
                Event("triton_poi_fused_0", "CUDA", False),
                Event("aten::mm", "CPU", False),
            ]
            self.profiler = type("P", (), {"kineto_results": type("R", (), {"events": lambda self: events})()})()

        def stop(self) -> None:
            return None

    kinds = [(e.name, e.device_type, e.kind) for e in profile_torch.stop_profiler(Prof())]
    assert kinds == [
        ("Optimizer.step#AdamW.step", "cpu", "user_annotation"),
        ("Optimizer.step#AdamW.step", "cuda", "gpu_user_annotation"),
        ("triton_poi_fused_0", "cuda", ""),
        ("aten::mm", "cpu", ""),
    ]
