"""Collector for compile time per phase: each frame's phases as a tree on a time axis.

Dynamo times every phase of a compile with ``dynamo_timed`` (``bytecode_tracing``, ``build_guards``,
``backend_compile`` and, inside it, AOTAutograd's and inductor's phases down to each ``compile_file``),
and each start and end goes through its one ``ChromiumEventLogger``, with a timestamp and the compile id,
whether or not anything listens: the calls tlparse's Perfetto view is built from. ``capture_torch.chromium_events``
wraps that logger's three methods for the run; each call appends one tuple here. The nesting is the order
of starts and ends on one thread, so ``phase_trees`` rebuilds each compile's tree in ``finalize``.

[Note: compile phases] What is kept and where it goes:
- Events of the run's threads ([Note: threads] in dispatch.py), and of any thread under a compile id this run started: a
  lazy backward compile (trigger ``LAZY_BACKWARD``, at the first ``backward()``) runs under the forward's
  compile id, on the autograd engine's thread for a GPU tensor (on the cell's thread on CPU). Inductor's
  worker threads (parallel ``compile_file``) carry no compile id: their time shows as ``async_compile.wait``.
- A phase's ``start_ms`` counts from the first event of its compile id, so a backward compile sits after
  the forward's compile, at the time it ran; ``parent`` is the index of the phase it ran inside.
- Instant events (a cache lookup's outcome: ``fx_graph_cache_miss``, ``autograd_cache_hit``, ...; an
  ``automatic_dynamic`` decision) have no duration. A lookup's is logged at the end of the lookup's phase
  with the lookup's start time: the parent is what was open when it was logged, its time kept inside it.
  Cache saves (``FxGraphCache._save_graph``, the AOTAutograd cache's put) are not timed by 2.13: their
  time is part of the phase around them.
- Names are Dynamo's: ``name`` the ``dynamo_timed`` key, ``event`` the chromium event name where it
  differs; ``label`` and ``kind`` (``LABELS``, ``kind_of``) are this module's words for people.
The cost: one Python call and one tuple per event (about 10 per eager compile, about 200 per inductor
training step); BENCHMARKS.md §1.

A frame that made no bytecode (its compile failed) gets its attempt count here, from its
``compile_attempt_N`` phases. ``timings.compile_s`` is the sum of the frames' ``compile_time_s``
(``entire_frame_compile_time_s`` from ``CompilationMetrics``, frames collector).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..model import CompileReport, Phase, PhaseKind
from .base import CaptureContext, Collector

__all__ = ["LABELS", "TimingsCollector", "kind_of", "label_of", "phase_trees"]

#: One event from the logger: (ph 'B'/'E'/'i', event name, time_ns, compile id, dynamo_timed key, thread).
Event = tuple[str, str, int, str | None, str | None, int]

#: Readable labels of Dynamo's phase names (a chromium event name or a dynamo_timed key).
LABELS: dict[str, str] = {
    "dynamo": "Dynamo: whole compile",
    "_compile.compile_inner": "frame compile",
    "entire_frame_compile": "frame compile",
    "bytecode_tracing": "tracing the bytecode",
    "insert_deferred_runtime_asserts": "runtime asserts",
    "build_guards": "building guards",
    "gc": "garbage collection",
    "OutputGraph.call_user_compiler": "backend compile",
    "backend_compile": "backend compile",
    "entire_backward_compile": "backward compile (at the first backward)",
    "backward._backward_impl": "backward compile (at the first backward)",
    "create_aot_dispatcher_function": "AOTAutograd",
    "aot_collect_metadata": "AOT: collect metadata",
    "aot_trace_joint_graph": "AOT: trace the joint graph",
    "min_cut_rematerialization_partition": "AOT: partition forward/backward",
    "_recursive_joint_graph_passes": "joint-graph passes",
    "_recursive_pre_grad_passes": "pre-grad passes",
    "_recursive_post_grad_passes": "post-grad passes",
    "compile_fx.<locals>.fw_compiler_base": "inductor: forward",
    "compile_fx.<locals>.bw_compiler": "inductor: backward",
    "compile_fx_inner": "inductor compile",
    "inductor_compile": "inductor compile",
    "compile_fx_aot": "inductor compile (AOT)",
    "fx_codegen_and_compile": "inductor: codegen and compile",
    "additional_fake_tensor_prop": "fake tensor propagation",
    "GraphLowering.run": "lowering to inductor IR",
    "GraphLowering.compile_to_fn": "compiling to a callable",
    "GraphLowering.compile_to_module": "code generation and loading",
    "code_gen": "code generation and loading",
    "GraphLowering.codegen": "code generation",
    "Scheduler.__init__": "scheduling and fusion",
    "Scheduler.fused_nodes": "fusion",
    "Scheduler.codegen": "kernel code generation",
    "PythonWrapperCodegen.generate": "wrapper code generation",
    "CppWrapperCpu.generate": "C++ wrapper code generation",
    "CppWrapperGpu.generate": "C++ wrapper code generation",
    "compile_file": "C++ compile",
    "async_compile.wait": "waiting for parallel compiles",
    "async_compile.precompile": "Triton precompile",
    "PyCodeCache.load_by_key_path": "loading the generated module",
    "inductor_codecache_torch_key": "cache key: hashing torch",
    "CacheBase.get_system.triton_key": "cache key: Triton version",
    "AOTAutogradCache.inductor_load": "AOTAutograd cache: loading",
    "TritonBundler.read_and_emit": "Triton bundle: loading",
    "TritonBundler.collect": "Triton bundle: saving",
    "fx_graph_cache_hit": "FX graph cache hit",
    "fx_graph_cache_miss": "FX graph cache miss",
    "fx_graph_cache_bypass": "FX graph cache bypass",
    "fx_graph_cache_disabled": "FX graph cache disabled",
    "fx_graph_bundled_cache_hit": "FX graph cache hit (bundled)",
    "autograd_cache_hit": "AOTAutograd cache hit",
    "autograd_cache_miss": "AOTAutograd cache miss",
    "autograd_cache_bypass": "AOTAutograd cache bypass",
    "backward no-op": "backward: nothing to compile",
    "automatic_dynamic": "automatic dynamic: an input marked dynamic",
}

_PREFIX_LABELS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"compile_attempt_0$"), "first attempt"),
    (re.compile(r"compile_attempt_(\d+)$"), "attempt {0} (after a restart)"),
    (re.compile(r"bytecode_hooks_(\d+)$"), "bytecode hook {0}"),
    (re.compile(r"pass\.(?:[a-z_]+\.)?(.+)$"), "pass {0}"),
    (re.compile(r"pgo\.(.+)$"), "PGO state: {0}"),
    (re.compile(r"CachingAutotuner\.(.+)$"), "autotuning: {0}"),
    (re.compile(r"(.+)_template_autotuning$"), "autotuning template {0}"),
)

# kind by exact name, then by prefix; anything else is 'other'
_KINDS: dict[str, PhaseKind] = {
    "build_guards": "guards",
    "OutputGraph.call_user_compiler": "backend",
    "backend_compile": "backend",
    "entire_backward_compile": "backend",
    "backward._backward_impl": "backend",
    "min_cut_rematerialization_partition": "aot",
    "_recursive_joint_graph_passes": "aot",
    "additional_fake_tensor_prop": "inductor",
    "code_gen": "inductor",
    "inductor_compile": "inductor",
    "fx_codegen_and_compile": "inductor",
    "compile_file": "compile",
    "PyCodeCache.load_by_key_path": "compile",
    "inductor_codecache_torch_key": "cache",
    "backward no-op": "aot",
    "automatic_dynamic": "dynamo",
}
_KIND_PREFIXES: tuple[tuple[str, PhaseKind], ...] = (
    ("dynamo", "dynamo"),
    ("_compile.", "dynamo"),
    ("entire_frame_compile", "dynamo"),
    ("compile_attempt_", "dynamo"),
    ("bytecode_", "dynamo"),
    ("insert_deferred_runtime_asserts", "dynamo"),
    ("gc", "dynamo"),
    ("pgo", "dynamo"),
    ("create_aot_dispatcher_function", "aot"),
    ("aot_", "aot"),
    ("pass.joint_graph_passes", "aot"),
    ("fx_graph_cache_", "cache"),
    ("fx_graph_bundled_cache_", "cache"),
    ("autograd_cache_", "cache"),
    ("AOTAutogradCache", "cache"),
    ("CacheBase", "cache"),
    ("TritonBundler", "cache"),
    ("async_compile", "compile"),
    ("CachingAutotuner", "compile"),
    ("StaticAutotunerFuture", "compile"),
    ("benchmark_", "compile"),
    ("compile_fx", "inductor"),
    ("_recursive_", "inductor"),
    ("pass.", "inductor"),
    ("GraphLowering", "inductor"),
    ("Scheduler", "inductor"),
    ("PythonWrapperCodegen", "inductor"),
    ("CppWrapper", "inductor"),
    ("generate_kernel_code", "inductor"),
)


def label_of(name: str, event: str | None = None) -> str:
    """A readable label for a phase (its dynamo_timed key ``name``, its chromium ``event`` name); the name
    itself when this module has no words for it."""
    for candidate in (name, event):
        if candidate and candidate in LABELS:
            return LABELS[candidate]
    for pattern, text in _PREFIX_LABELS:
        m = pattern.match(name)
        if m:
            return text.format(*m.groups())
    return name


def kind_of(name: str, event: str | None = None) -> PhaseKind:
    """The schema's ``PhaseKind`` of a phase: which part of torch.compile it belongs to."""
    for candidate in (event, name):
        if candidate and candidate in _KINDS:
            return _KINDS[candidate]
    for candidate in (event, name):
        for prefix, kind in _KIND_PREFIXES:
            if candidate and candidate.startswith(prefix):
                return kind
    return "other"


@dataclass
class _Node:
    name: str
    event: str | None
    start: int
    end: int | None = None
    instant: bool = False
    children: list[_Node] = field(default_factory=list)


def phase_trees(events: Iterable[Event]) -> dict[str, list[Phase]]:
    """Compile id -> its phases in tree order (a phase before those inside it, siblings by start).

    A start and the end of the same name on one thread make one phase; an end whose start is not open is
    ignored, one that closes an inner phase first closes that too (what the logger itself does); a phase
    still open at the end closes at its compile's last event. [Note: compile phases]
    """
    roots: dict[str, list[_Node]] = {}
    stacks: dict[tuple[str, int], list[_Node]] = {}
    last: dict[str, int] = {}
    for ph, event_name, ns, cid, key, thread in events:
        if cid is None:
            continue
        last[cid] = max(last.get(cid, ns), ns)
        stack = stacks.setdefault((cid, thread), [])
        if ph == "E":
            if any(n.event == event_name for n in stack):
                while stack:
                    node = stack.pop()
                    node.end = ns
                    if node.event == event_name:
                        break
            continue
        # a dynamo_timed phase is named by its key; the chromium event name is kept where it differs
        node = _Node(name=key or event_name, event=event_name, start=ns, instant=ph == "i")
        siblings = stack[-1].children if stack else roots.setdefault(cid, [])
        siblings.append(node)
        if ph == "B":
            stack.append(node)
    out: dict[str, list[Phase]] = {}
    for cid, nodes in roots.items():
        origin = min(n.start for n in nodes)
        phases: list[Phase] = []
        _flatten(nodes, None, None, origin, last[cid], phases)
        out[cid] = phases
    return out


def _flatten(nodes: list[_Node], up: _Node | None, parent: int | None, origin: int, last: int, out: list[Phase]) -> None:
    """Append ``nodes`` (the children of ``up``, at index ``parent``) and their subtrees in tree order. A phase
    left open ends at its compile's last event; an instant's time is kept inside its parent's span."""
    for node in nodes:
        if node.end is None:
            node.end = node.start if node.instant else last
        if node.instant and up is not None and up.end is not None:
            node.start = node.end = min(max(node.start, up.start), up.end)
    for node in sorted(nodes, key=lambda n: n.start):
        end = node.start if node.end is None else node.end
        event = node.event if node.event != node.name else None
        index = len(out)
        out.append(
            Phase(
                name=node.name,
                ms=round((end - node.start) / 1e6, 3),
                start_ms=round((node.start - origin) / 1e6, 3),
                parent=parent,
                event=event,
                label=label_of(node.name, event),
                kind=kind_of(node.name, event),
                instant=node.instant,
            )
        )
        _flatten(node.children, node, index, origin, last, out)


class TimingsCollector(Collector):
    name = "timings"
    requires = ("frames",)

    def __init__(self) -> None:
        self.events: list[Event] = []

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        events, watches = self.events, ctx.watches
        get_ident = threading.get_ident

        def record(ph: str, name: str, ns: int, cid: str | None, key: str | None) -> None:
            if watches(cid):  # [Note: compile phases]; [Note: threads] in dispatch.py
                events.append((ph, name, ns, cid, key, get_ident()))

        from .capture_torch import chromium_events  # a live run's: importing this module imports no torch

        with chromium_events(record):
            yield

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        trees = phase_trees(self.events)
        for frame in report.frames:
            frame.phases = trees.get(frame.compile_id, [])
            if not frame.modified_bytecode:
                attempts = [int(p.name.rsplit("_", 1)[1]) for p in frame.phases if re.fullmatch(r"compile_attempt_\d+", p.name)]
                frame.attempt = max(attempts, default=frame.attempt)
        report.timings["compile_s"] = sum(f.compile_time_s or 0.0 for f in report.frames)
