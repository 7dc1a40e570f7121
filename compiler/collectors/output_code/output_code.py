"""Collector for inductor's generated code: the wrapper module, each kernel in it, and which FX nodes each
kernel call computes.

``inductor_output_code`` carries the whole wrapper (``# AOT ID: ['0_forward']`` names the graph
kind). Kernels are embedded in it: ``async_compile.cpp_pybinding([...], r'''<C++>''')`` on the CPU,
``async_compile.triton('name', '''<Triton>''')`` on the GPU. On an FX-graph cache hit the code is
the cached one; its ``# File:`` comments, if any, are moved to this run's code ([Note: warm cache]
in aot_graphs.py). Which nodes each kernel computes: [Note: kernel origins].
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from typing import cast

from ...events import TraceEvent
from ...model import CompileReport, Kernel, KernelCall, KernelLanguage, OutputCode, OutputKind
from ..aot_graphs import ran_from, relocate
from ..base import CaptureContext, Collector
from ..stream import StreamCollector
from .output_code_torch import backward_provenance, kernel_provenance

# [Note: kernel origins] Which FX nodes a kernel computes, from what inductor itself writes:
# - Provenance tracking (``output_code_torch.kernel_provenance``: ``trace.provenance_tracking_level`` 2 while the run
#   lasts). Every kernel call in the wrapper is preceded by ``# [Provenance debug handles] <kernel>:<n>``
#   and the compile emits ``inductor_provenance_tracking_node_mappings``: ``cppCodeToPost`` ("<kernel>:<n>"
#   -> post-grad node names, for C++, Triton and extern kernels alike) and ``postToPre`` (post-grad name ->
#   the Dynamo graph's node names: the graph ``compile_fx`` got is the pre-grad graph). Both are stored in
#   the FX-graph cache entry and replayed on a hit (the level is part of the cache key in 2.13; in 2.11 it
#   is not, so an entry the user's own compile made without tracking replays no mapping). A backward that
#   AOTAutograd compiles lazily gets its kernel -> post-grad mapping through ``output_code_torch.backward_provenance``;
#   it has no pre-grad graph, so its kernels name no Dynamo node. Cost, measured on a TransformerEncoderLayer
#   + 8-layer MLP training step with caches off: 6 ms in torch's provenance functions per compile (0.6 ms at
#   level 0), lost in the noise of the compile itself; no work in tracing or lowering. In 2.13 the level is
#   part of the FX-graph cache key, so code the user compiled without tracking is lowered once more in its
#   first explorer run (kernel builds are cached by their source: the training_step golden's cell ran in
#   6.1 s then, 5.7 s warm, after a plain torch.compile of it).
# - The comments ``get_kernel_metadata`` writes whatever the level (2.11 and 2.13): ``# Topologically
#   Sorted Source Nodes: [input_1], Original ATen: [aten.t, aten.addmm]`` above an extern kernel's call and
#   a Triton kernel's call and definition (with ``# Source node to ATen node mapping:`` / ``#   input_1 =>
#   addmm, permute`` there). The source nodes are each post-grad node's first ``from_node`` (a Dynamo graph
#   node) or, in a backward, the node itself. C++ kernels get no such comment. They fill in what provenance
#   did not give (a 2.11 cache entry made without tracking, a backward compiled on another thread).
# The handles are taken out of the stored source (they are not in the code inductor writes for the user),
# each call keeps its line.

_AOT_ID = re.compile(r"# AOT ID: \['\d+_(?P<kind>forward|backward|inference)'\]")
_KERNEL = re.compile(
    r"^(?P<name>\w+) = async_compile\.(?P<api>cpp_pybinding|cpp|triton|pallas|mps)\((?P<pre>.*?)r?(?P<q>'''|\"\"\")(?P<src>.*?)(?P=q)",
    re.S | re.M,
)
_LANG: dict[str, KernelLanguage] = {"cpp_pybinding": "cpp", "cpp": "cpp", "triton": "triton"}
_HANDLE = re.compile(r"^[ \t]*# \[Provenance debug handles\] (?P<key>(?P<kernel>\S+):\d+)[ \t]*\n", re.M)
_SOURCE_NODES = re.compile(r"^\s*# (?:Topologically Sorted|Unsorted) Source Nodes: \[(?P<nodes>[^\]]*)\]")
_NODE_MAPPING = re.compile(r"^#   (?P<source>\w+) => (?P<nodes>[\w, ]+)$", re.M)
_CALLEE = re.compile(r"^\s*(?:[\w, ]+=\s*)?(?P<fn>[A-Za-z_][\w.]*)\(")
_MAPPINGS = "artifact:inductor_provenance_tracking_node_mappings"
#: the events output code is read from: the code, and inductor's provenance mappings after it
PAYLOADS = ("inductor_output_code", _MAPPINGS)
_LOOKAHEAD = 12  # lines between a handle or an origin comment and its call
_EXTERN = ("extern_kernels.", "torch.ops.", "aten.")


def split_kernels(source: str) -> list[Kernel]:
    """The kernels defined in a wrapper module, in order, with the origins a Triton definition's comments name."""
    out = []
    for m in _KERNEL.finditer(source):
        kernel = Kernel(name=m.group("name"), language=_LANG.get(m.group("api"), "python"), source=m.group("src").strip("\n"))
        above = source[source.rfind("\n\n", 0, m.start()) + 1 : m.start()]  # the comment block right above
        for mapping in _NODE_MAPPING.finditer(above):
            _extend(kernel.nodes, [mapping["source"]])
            _extend(kernel.aot_nodes, _names(mapping["nodes"]))
        out.append(kernel)
    return out


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _extend(into: list[str], names: list[str]) -> None:
    for name in names:
        if name not in into:
            into.append(name)


def _called(line: str) -> str | None:
    """The kernel a wrapper line calls: ``cpp_fused_relu_0(buf1)``, ``extern_kernels.addmm(...)``,
    ``triton_poi_fused_0.run(...)``, ``buf2 = torch.ops.aten.foo(...)``; None for other lines."""
    m = _CALLEE.match(line)
    if not m or line.lstrip().startswith("#"):
        return None
    fn = m["fn"]
    return fn[: -len(".run")] if fn.endswith(".run") else fn


def _call_line(lines: list[str], start: int, kernel: str | None, known: frozenset[str] = frozenset()) -> int | None:
    """Index of the line calling ``kernel`` in the few lines from ``start``; when None, calling one of the
    ``known`` kernels, an extern kernel or an op (not a helper such as ``get_raw_stream``)."""
    for i in range(start, min(start + _LOOKAHEAD, len(lines))):
        called = _called(lines[i])
        if called is None:
            continue
        if called == kernel or (kernel is None and (called in known or called.startswith(_EXTERN))):
            return i
    return None


def take_handles(source: str) -> tuple[str, list[tuple[str, str, int]]]:
    """``source`` without its provenance handles, and ``(key, kernel, line)`` of each (1-based line of the
    call it precedes in the returned text)."""
    kept: list[str] = []
    pending: list[tuple[str, str]] = []
    handles: list[tuple[str, str, int]] = []
    pos = 0
    for m in _HANDLE.finditer(source):
        kept.append(source[pos : m.start()])
        pending.append((m["key"], m["kernel"]))
        pos = m.end()
    kept.append(source[pos:])
    if not pending:
        return source, []
    text = ""
    starts: list[int] = []  # line index (0-based) where each handle stood in the kept text
    for part in kept[:-1]:
        text += part
        starts.append(text.count("\n"))
    text += kept[-1]
    lines = text.split("\n")
    for (key, kernel), start in zip(pending, starts, strict=True):
        at = _call_line(lines, start, kernel)
        handles.append((key, kernel, (at if at is not None else start) + 1))
    return text, handles


def comment_origins(source: str, kernels: list[Kernel]) -> list[tuple[str, int, list[str]]]:
    """``(kernel, line, source nodes)`` of each ``# ... Source Nodes: [...]`` comment of the wrapper's calls."""
    lines = source.split("\n")
    known = frozenset(k.name for k in kernels)
    out = []
    for i, line in enumerate(lines):
        m = _SOURCE_NODES.match(line)
        if not m or not line.startswith("    "):  # a definition's comment block starts at column 0
            continue
        at = _call_line(lines, i + 1, None, known)
        if at is not None:
            out.append((_called(lines[at]) or "", at + 1, _names(m["nodes"])))
    return out


def _mapping(payload: str | None) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """``(cppCodeToPost, postToPre)`` of an ``inductor_provenance_tracking_node_mappings`` payload."""
    try:
        data = json.loads(payload or "{}")
    except ValueError:
        return {}, {}
    if not isinstance(data, dict):
        return {}, {}
    kernels, pre = data.get("cppCodeToPost"), data.get("postToPre")
    return (kernels if isinstance(kernels, dict) else {}), (pre if isinstance(pre, dict) else {})


def _ordered(names: list[str], order: dict[str, int]) -> list[str]:
    """``names`` in graph order (names the graph lacks last, as given)."""
    return sorted(dict.fromkeys(names), key=lambda n: order.get(n, len(order)))


def origins(
    source: str,
    kernels: list[Kernel],
    mapping: tuple[dict[str, list[str]], dict[str, list[str]]],
    dynamo: dict[str, int],
    aot: dict[str, int],
) -> tuple[str, list[KernelCall]]:
    """The source without provenance handles and each kernel call with the nodes it computes; fills each
    kernel's ``nodes`` / ``aot_nodes`` from its calls ([Note: kernel origins]). ``dynamo`` and ``aot``: node
    name -> position in the Dynamo graph and in the AOT graph of the same compile and kind."""
    to_post, to_pre = mapping
    text, handles = take_handles(source)
    calls: dict[int, KernelCall] = {}
    for key, kernel, line in handles:
        post = [n for n in to_post.get(key, []) if isinstance(n, str)]
        pre = [p for n in post for p in to_pre.get(n, []) if isinstance(p, str)]
        calls[line] = KernelCall(kernel=kernel, line=line, nodes=_ordered(pre, dynamo), aot_nodes=_ordered(post, aot))
    for kernel, line, names in comment_origins(text, kernels):
        call = calls.setdefault(line, KernelCall(kernel=kernel, line=line, nodes=[], aot_nodes=[]))
        if not call.nodes and not call.aot_nodes:
            call.nodes = _ordered([n for n in names if n in dynamo], dynamo)
            call.aot_nodes = _ordered([n for n in names if n not in dynamo], aot)
    by_name = {k.name: k for k in kernels}
    for call in calls.values():
        defined = by_name.get(call.kernel)
        if defined is not None:
            _extend(defined.nodes, call.nodes)
            _extend(defined.aot_nodes, call.aot_nodes)
    for defined in kernels:
        defined.nodes = _ordered([n for n in defined.nodes if n in dynamo], dynamo)
        defined.aot_nodes = _ordered([n for n in defined.aot_nodes if n not in dynamo or n in aot], aot)
    return text, sorted(calls.values(), key=lambda c: c.line)


class OutputCodeCollector(Collector):
    name = "output_code"
    requires = ("stream", "fx_graphs", "aot_graphs")

    def __init__(self) -> None:
        # per thread, what a compile there has entered until it ends: inductor's config overrides are the
        # thread's own in 2.13 (a ContextVar), so a compile on another thread (a lazy backward on autograd's
        # device thread, a function a thread runs) gets provenance tracking there, for its own duration
        self._compiling: dict[int, contextlib.ExitStack] = {}

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        try:
            with kernel_provenance() if ctx.needs_trace else contextlib.nullcontext():
                yield
        finally:
            for stack in self._compiling.values():  # a compile an exception cut short
                stack.close()
            self._compiling.clear()

    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        lazy = trigger == "LAZY_BACKWARD"
        here = threading.get_ident()
        if not (lazy or (here != ctx.thread and ctx.needs_trace)) or here in self._compiling:
            return
        stack = self._compiling[here] = contextlib.ExitStack()
        stack.enter_context(kernel_provenance())  # a no-op where the level is already on (the cell's thread)
        if lazy:
            stack.enter_context(backward_provenance())

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        stack = self._compiling.pop(threading.get_ident(), None)
        if stack is not None:
            stack.close()

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        add_output_code(report, ctx.get(StreamCollector).stream.named(*PAYLOADS))


def add_output_code(report: CompileReport, events: list[TraceEvent]) -> None:
    """Inductor's output code of ``events`` (those named in ``PAYLOADS``: a live run's stream, or a trace file's)
    into ``report``, each kernel with the graph nodes it came from."""
    events = [ev for ev in events if ev.name in PAYLOADS]
    for i, ev in enumerate(events):
        if ev.name != "inductor_output_code" or ev.compile_id is None or not ev.payload:
            continue
        source = relocate(ev.payload, ran_from(report, ev.compile_id)) if "# File: " in ev.payload else ev.payload
        m = _AOT_ID.search(source)
        kind = cast("OutputKind", m.group("kind")) if m else "inference"  # the pattern matches only these three
        report.output_code.append(_output_code(report, ev.compile_id, kind, source, _mapping_after(events, i)))


def _output_code(report: CompileReport, compile_id: str, kind: OutputKind, source: str, payload: str | None) -> OutputCode:
    dynamo: dict[str, int] = {}
    aot: dict[str, int] = {}
    for graph in report.graphs_of(compile_id):
        if graph.kind in ("dynamo", f"aot_{kind}"):
            (dynamo if graph.kind == "dynamo" else aot).update((n.name, i) for i, n in enumerate(graph.nodes))
    kernels = split_kernels(source)
    text, calls = origins(source, kernels, _mapping(payload), dynamo, aot)
    return OutputCode(compile_id=compile_id, kind=kind, source=text, kernels=kernels, calls=calls)


def _mapping_after(events: list[TraceEvent], i: int) -> str | None:
    """The provenance mapping inductor emitted right after output code ``events[i]`` (same compile), if any."""
    for ev in events[i + 1 :]:
        if ev.name == "inductor_output_code":
            return None
        if ev.compile_id == events[i].compile_id:
            return ev.payload
    return None
