"""Collector for ``--check-numerics [N]``: each compiled graph's outputs against the same graph run eagerly and in
float64, per output the largest difference and a verdict.

[Note: numerics] Dynamo hands each graph to the backend (``on_graph``): a copy of it is kept (``graph_copy``: a
backend's passes may rewrite the graph in place; the copy is what Dynamo made). The backend's compiled function is
wrapped (``on_compiled``); at each of its first N calls the wrapper copies the call's inputs (the call may change
them in place), makes the call exactly as it would have been made and hands its outputs back untouched, then runs
the copy eagerly on the copied inputs and its float64 twin on float64 copies, with gradients off and the random
generators' state put back afterwards, and judges each tensor output (``compare.judge``: torch's own rule). A graph
that draws random numbers (dropout in training, ``rand``) is not compared and says which ops, nor one whose ops have
effects a second run would repeat (collectives, which the other ranks would never join; compiled autograd's hook
calls); an output that is a view of an input is not compared (its values are the input's). The user's program sees
the same values, the same inputs, the same random numbers: only the time of the checks is added, and the report says
how much. The copies of a graph are dropped once its calls are checked and when the run ends; the wrapper left in
Dynamo's cache then only passes calls through.

A call worse than eager is located after the user's code ran (``finalize``; its copies kept until then, for such a
call only), by torch's own compiler bisector run in process on the same graph and inputs (``locate``): the first
backend of ``aot_eager``, ``aot_eager_decomp_partition``, ``inductor`` whose outputs are already worse, then within
it the subsystem whose being turned off makes them no worse (inductor's pre-grad, joint-graph or post-grad passes,
one by name; a decomposition; a lowering; a setting such as ``emulate_precision_casts``), and the first node of the
graph whose compiled value is worse (``first_worse_node``). The bisector's compiles neither read nor write the
caches, and its counters and printing stay out of the report and the cell's output.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.utils._pytree as pytree

from ...model import CompileReport, Numerics, NumericsGraph, NumericsLocation, NumericsOutput, NumericsVerdict
from ..base import CaptureContext, Collector
from .compare import Judged, judge
from .numerics_torch import (
    Bisected,
    as_float64,
    bisect,
    bisector_backends,
    copy_inputs,
    effect_ops,
    feeding,
    graph_copy,
    inductor_config,
    kept_random_state,
    node_values,
    prefix,
    random_ops,
    through_backend,
)

__all__ = ["LADDER", "Located", "NumericsCollector", "locate", "summary_line"]

#: the backends before a run's own that a graph worse than eager runs through, in order, and what each adds to the
#: one before it (with the compiler bisector, the backends of its order; without it, these)
LADDER = (
    ("aot_eager", "AOTAutograd's tracing (functionalization, the joint graph)"),
    ("aot_eager_decomp_partition", "the decompositions or the partitioner"),
)
_LADDER_NAMES = {name for name, _ in LADDER}

_ORDER = {"matches": 0, "differs_no_worse": 1, "worse_than_eager": 3, "not_comparable": 2}


@dataclass(slots=True)
class _Graph:
    """One compiled graph being checked: its copy until its calls are checked."""

    compile_id: str
    gm: Any
    random: list[str]
    effects: list[str]
    left: int
    calls: int = 0
    backend: str | None = None
    #: inductor's settings when the backend compiled it (the compiles that locate it use them)
    settings: dict[str, Any] | None = None


@dataclass(slots=True)
class _Suspect:
    """A checked call worse than eager, kept until the run ends to be located (``locate``): the graph's copy, the
    call's inputs as they were, eager's and float64's outputs, and which outputs were worse."""

    index: int  # its place in ``_State.checked``
    gm: Any
    inputs: list[Any]
    eager: list[Any]
    ref64: list[Any] | None
    worse: list[int]


@dataclass(frozen=True, slots=True)
class Located:
    """Where a call worse than eager became worse: in words, as the bisector found it, and its first worse node."""

    words: str | None
    bisected: Bisected | None
    node: str | None


@dataclass(slots=True)
class _State:
    """What the wrappers share with the collector (nothing else of it: a wrapper outlives the run in Dynamo's
    cache)."""

    live: bool = True
    seconds: float = 0.0
    runs: int = 0
    checked: list[tuple[_Graph, int, list[NumericsOutput], str | None, float]] = field(default_factory=list)
    suspects: list[_Suspect] = field(default_factory=list)


class NumericsCollector(Collector):
    name = "numerics"
    requires = ("frames", "fx_graphs")  # the frames' names and the Dynamo graphs' ids

    def __init__(self) -> None:
        self._state = _State()
        self._pending: dict[str, list[_Graph]] = {}
        self._graphs: list[_Graph] = []

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        self._state = _State()
        try:
            yield
        finally:  # the copies go (a suspect's stay for finalize); a wrapper left in Dynamo's cache passes calls through
            self._state.live = False
            located = {id(self._state.checked[s.index][0]) for s in self._state.suspects}
            for g in self._graphs:
                g.gm = None
                if id(g) not in located:
                    g.settings = None  # inductor's settings hold the user's objects (a custom pass)
            self._graphs.clear()
            self._pending.clear()

    def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
        if not ctx.options.check_numerics:
            return
        graph = _Graph(compile_id, graph_copy(gm), random_ops(gm), effect_ops(gm), ctx.options.check_numerics)
        self._pending.setdefault(compile_id, []).append(graph)
        self._graphs.append(graph)

    @contextlib.contextmanager
    def backend_window(self, ctx: CaptureContext) -> Iterator[None]:
        if self._graphs and self._graphs[-1].backend is None:  # on_graph just kept the graph this backend compiles
            self._graphs[-1].backend = ctx.compiling_backend
            self._graphs[-1].settings = inductor_config()
        yield

    def on_compiled(self, ctx: CaptureContext, compile_id: str, compiled_fn: Callable[..., Any]) -> Callable[..., Any]:
        pending = self._pending.get(compile_id)
        if not pending:
            return compiled_fn
        return _checked(compiled_fn, pending.pop(0), self._state)

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        if not ctx.options.check_numerics:
            return
        state = self._state
        located: dict[int, Located] = {}
        try:
            for suspect in state.suspects:  # after the user's code ran: the ladder's compiles never interleave with it
                started = time.perf_counter()
                try:
                    graph = state.checked[suspect.index][0]
                    located[suspect.index] = locate(suspect, graph.backend, graph.settings, state)
                except Exception as exc:  # noqa: BLE001 - a compile of the ladder that fails: said, the rest kept
                    said = str(exc).splitlines()[0][:200] if str(exc) else ""
                    located[suspect.index] = Located(f"not located: {type(exc).__name__}: {said}", None, None)
                state.seconds += time.perf_counter() - started
        finally:
            state.suspects.clear()
            for graph, *_ in state.checked:
                graph.settings = None
        numerics = Numerics(calls_per_graph=ctx.options.check_numerics, seconds=round(state.seconds, 4), runs=state.runs)
        ids = {g.compile_id: g.id for g in reversed(report.graphs) if g.kind == "dynamo"}
        nowhere = Located(None, None, None)
        for at, (graph, call, outputs, why, seconds) in enumerate(state.checked):
            compared = [o.verdict for o in outputs if o.verdict != "not_comparable"]  # a view of an input: said apart
            verdict: NumericsVerdict = max(compared, key=_ORDER.__getitem__, default="not_comparable")
            verdict = "not_comparable" if why else verdict
            frame = report.frame(graph.compile_id)
            checked = NumericsGraph(
                compile_id=graph.compile_id,
                graph_id=ids.get(graph.compile_id),
                call=call,
                verdict=verdict,
                summary="",
                outputs=outputs,
                why=why,
                seconds=round(seconds, 4),
                located=located.get(at, nowhere).words,
                location=_location(located.get(at, nowhere).bisected),
                first_node=located.get(at, nowhere).node,
            )
            words = _node_words(report, checked.compile_id, checked.graph_id, checked.first_node)
            checked.summary = summary_line(checked, frame.code.name if frame else "?", words)
            numerics.graphs.append(checked)
        report.numerics = numerics


def summary_line(g: NumericsGraph, name: str, node: str | None = None) -> str:
    """One line a checked call: ``[1/0] f: out[0] worse than eager (5.8e-03 vs 1.2e-07 from float64)``."""
    head = f"[{g.compile_id}] {name}" + (f" (call {g.call})" if g.call > 1 else "")
    if g.why:
        return f"{head}: not compared: {g.why}"
    apart = [o for o in g.outputs if o.verdict == "not_comparable"] if g.verdict != "not_comparable" else []
    where = (f"; {g.located}" if g.located else "") + (f"; first worse node {node or g.first_node}" if g.first_node else "")
    return f"{head}: {_verdict_words(g)}{where}" + "".join(f"; out[{o.index}] not compared ({o.why})" for o in apart)


def _verdict_words(g: NumericsGraph) -> str:
    worst = [o for o in g.outputs if o.verdict == g.verdict]
    outs = ", ".join(f"out[{o.index}]" for o in worst[:3]) + (f" and {len(worst) - 3} more" if len(worst) > 3 else "")
    if g.verdict == "matches":
        matching = [o for o in g.outputs if o.verdict == "matches"]
        largest = max((o.max_abs or 0.0 for o in matching), default=0.0)
        n = len(matching)
        return f"{n} output{'s' if n != 1 else ''} match{'' if n != 1 else 'es'} eager (largest difference {largest:.1e})"
    o = worst[0]
    if g.verdict == "worse_than_eager" and o.compiled_error is not None:
        return f"{outs} worse than eager ({o.compiled_error:.1e} vs {o.eager_error:.1e} from float64)"
    if g.verdict == "differs_no_worse":
        return (
            f"{outs} differ{'s' if len(worst) == 1 else ''} from eager by up to {o.max_abs:.1e}, no further from "
            f"float64 ({o.compiled_error:.1e} vs eager's {o.eager_error:.1e})"
        )
    return f"{outs} {g.verdict.replace('_', ' ')}" + (f": {o.why}" if o.why else "")


def _checked(compiled_fn: Callable[..., Any], graph: _Graph, state: _State) -> Callable[..., Any]:
    """``compiled_fn``, whose first ``graph.left`` calls are checked after they are made."""

    def call(*args: Any, **kwargs: Any) -> Any:
        if graph.left <= 0 or not state.live or graph.gm is None:
            return compiled_fn(*args, **kwargs)
        graph.left -= 1
        graph.calls += 1
        started = time.perf_counter()
        try:
            inputs: list[Any] | Exception = copy_inputs(args)
        except Exception as exc:  # noqa: BLE001 - an input the check cannot copy: said, the call still made
            inputs = exc
        copying = time.perf_counter() - started
        out = compiled_fn(*args, **kwargs)
        started = time.perf_counter()
        try:
            outputs, why = _check(graph, inputs, args, out, state)
        except Exception as exc:  # noqa: BLE001 - the check never fails the user's call
            outputs, why = [], f"the check raised {type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        finally:
            if graph.left <= 0:
                graph.gm = None
        seconds = copying + time.perf_counter() - started
        state.seconds += seconds
        state.checked.append((graph, graph.calls, outputs, why, seconds))
        return out

    call.__name__ = getattr(compiled_fn, "__name__", "compiled_fn")
    call.__wrapped__ = compiled_fn  # type: ignore[attr-defined]
    return call


def _check(
    graph: _Graph, inputs: list[Any] | Exception, args: tuple[Any, ...], out: Any, state: _State
) -> tuple[list[NumericsOutput], str | None]:
    if isinstance(inputs, Exception):
        return [], f"its inputs could not be copied ({type(inputs).__name__}: {inputs})"
    if graph.effects:
        return [], f"ops with effects an extra run would repeat ({_names(graph.effects)}: collectives, hooks)"
    if graph.random:
        pairs = [r.split(" ", 1) for r in graph.random]
        ops = ", ".join(sorted({op for op, _ in pairs}))
        nodes = [node for op, node in pairs if node != op]  # a node named after its op says nothing more
        at = f" at {_names(nodes)}" if nodes else ""
        return [], f"random ops ({ops}{at}) draw numbers an eager run cannot replay"
    compiled = pytree.tree_leaves(out)
    storages = {a.untyped_storage().data_ptr(): i for i, a in enumerate(args) if isinstance(a, torch.Tensor)}
    with torch.no_grad(), kept_random_state():
        ref64: list[Any] | None = None
        why64 = None
        try:
            twin, wide = as_float64(graph.gm, inputs)
            ref64 = pytree.tree_leaves(twin(*wide))
            state.runs += 1
            del twin, wide
        except Exception as exc:  # noqa: BLE001 - an op without float64: compared with eager alone, said
            why64 = f"no float64 run ({type(exc).__name__})"
        kept = copy_inputs(tuple(inputs)) if graph.backend not in (None, "eager") else None  # the ladder's, if worse
        eager = pytree.tree_leaves(graph.gm(*inputs))
        state.runs += 1
    outputs = []
    for i, value in enumerate(compiled):
        if not isinstance(value, torch.Tensor):
            continue
        shape = [int(s) for s in value.shape]
        dtype = str(value.dtype).removeprefix("torch.")
        alias = storages.get(value.untyped_storage().data_ptr()) if value.numel() else None
        if alias is not None:
            outputs.append(
                _output(
                    i,
                    dtype,
                    shape,
                    Judged("not_comparable", None, None, None, None, f"a view of input {alias}: its values are the input's"),
                )
            )
            continue
        other = eager[i] if i < len(eager) and isinstance(eager[i], torch.Tensor) else None
        if other is None:
            outputs.append(
                _output(i, dtype, shape, Judged("not_comparable", None, None, None, None, "eager gave no tensor here"))
            )
            continue
        reference = ref64[i] if ref64 is not None and i < len(ref64) and isinstance(ref64[i], torch.Tensor) else None
        judged = judge(value, other, reference)
        if judged.verdict == "not_comparable" and why64:
            judged.why = f"differs from eager, and there is {why64}"
        outputs.append(_output(i, dtype, shape, judged))
    if not outputs:
        return [], "it returns no tensor (what it computes goes into its inputs in place, which the check does not compare)"
    worse = [o.index for o in outputs if o.verdict == "worse_than_eager"]
    if worse and kept is not None:
        state.suspects.append(_Suspect(len(state.checked), graph.gm, kept, list(eager), ref64, worse))
    return outputs, None


def locate(suspect: _Suspect, backend: str | None, settings: dict[str, Any] | None, state: _State) -> Located:
    """Where a call worse than eager became worse, by torch's compiler bisector (``bisect``) on the same graph and
    inputs: the first backend of its order (``aot_eager``, ``aot_eager_decomp_partition``, ``inductor``) up to the
    run's own whose outputs are worse, and within it the subsystem, turned off, that makes them no worse (a post-grad
    pass, a decomposition, a lowering, a setting); a backend of the user's: the ladder up to
    ``aot_eager_decomp_partition``, else the backend itself. Then the first node of the graph whose value, compiled
    by that backend, is worse (``first_worse_node``). Where the bisector cannot run (``bisector_backends``), the
    backends alone (``LADDER``)."""
    if backend in (None, "eager"):
        return Located(None, None, None)
    settings = settings or {}
    order = bisector_backends()
    known = order if order is not None else ["eager", *(name for name, _ in LADDER)]
    # the backends tried: up to the run's own (a backend of the user's: the ladder's), never again eager (the
    # reference) or aot_eager_decomp_partition_crossref (its values are aot_eager_decomp_partition's; it checks metadata)
    upto = known[: known.index(backend) + 1] if backend in known else [n for n in known if n in _LADDER_NAMES]
    tried = [n for n in upto if n not in ("eager", "aot_eager_decomp_partition_crossref")]

    def worse(name: str, change: dict[str, Any]) -> bool:
        if name not in tried:
            return False
        outs = through_backend(name, suspect.gm, suspect.inputs, {**settings, **change})
        state.runs += 1
        return _any_worse(suspect, outs)

    found: Bisected | None
    if order is not None:
        found = bisect(worse)
    else:
        found = next((Bisected(n, None, None) for n in tried if n != backend and worse(n, {})), None)
        found = found or (Bisected(backend, None, None) if backend in known else None)
    at = found.backend if found else backend
    passed = [n for n in tried if n != at and tried.index(n) < tried.index(at)] if at in tried else tried
    node = first_worse_node(suspect, at, settings, state)
    if found is None and backend in known:
        return Located(f"not located: compiled again, by {_names(tried)}, it is no worse than eager", None, node)
    return Located(_located_words(found, backend, passed), found, node)


#: the bisector's subsystems in words: what each is (``{}``: the application found) and how the backend is no worse
_SUBSYSTEMS = {
    "pre_grad_passes": ("inductor's pre-grad passes: {}", "without it"),
    "joint_graph_passes": ("inductor's joint-graph passes: {}", "without it"),
    "post_grad_passes": ("inductor's post-grad passes: {}", "without it"),
    "pre_grad_graph": ("inductor's pre-grad graph: {}", "without it"),
    "lowerings": ("inductor's lowering of {}, a node of its post-grad graph", "with it run by its ATen fallback"),
    "cudagraphs": ("CUDA graphs", "without them"),
    "decomposition": ("the decomposition of {}", "without it"),
    "aot_eager_decomp_partition_cse": ("the partitioner's common-subexpression elimination", "with {}"),
}


def _located_words(found: Bisected | None, backend: str | None, passed: list[str]) -> str:
    """``from inductor's post-grad passes: post_grad_custom_post_pass (post_grad_passes; inductor is no worse
    without it; aot_eager and aot_eager_decomp_partition no worse)``."""
    ok = [f"{' and '.join(passed)} no worse"] if passed else []
    if found is None:  # a backend of the user's, after the ladder
        return f"from the {backend} backend itself" + (f" ({ok[0]})" if ok else "")
    name, sub, detail = found.backend, found.subsystem, found.detail or "one it could not name"
    if sub is None:
        what = dict(LADDER).get(name)
        if what:
            return f"from {what}: {name} is already worse than eager" + (f" ({ok[0]})" if ok else "")
        if name == "inductor":
            why = "no pass, lowering or setting the compiler bisector turns off makes it no worse"
            return f"from inductor's kernels ({'; '.join([why, *ok])})"
        return f"from the {name} backend itself" + (f" ({ok[0]})" if ok else "")
    setting = (f"{name}'s setting {detail.split('=')[0]}", "with {}")  # a ConfigChange: detail is field=value
    what, off = _SUBSYSTEMS.get(sub, setting if found.setting else (f"{name}'s {sub}: {{}}", "without it"))
    return f"from {what.format(detail)} ({'; '.join([sub, f'{name} is no worse {off.format(detail)}', *ok])})"


def _any_worse(suspect: _Suspect, outs: list[Any]) -> bool:
    """Is any output that was worse in the run worse again in ``outs`` (or missing)?"""
    for i in suspect.worse:
        got = outs[i] if i < len(outs) and isinstance(outs[i], torch.Tensor) else None
        ref = suspect.ref64[i] if suspect.ref64 is not None else None
        if got is None or judge(got, suspect.eager[i], ref).verdict == "worse_than_eager":
            return True
    return False


def first_worse_node(suspect: _Suspect, backend: str, settings: dict[str, Any] | None, state: _State) -> str | None:
    """The first node (in the graph's order, among those the first worse output is made from) whose value compiled
    by ``backend`` is worse than eager's against float64: a binary search, each probe the graph up to one node
    compiled and run (``prefix``). None when the float64 run failed or no node's value is a floating tensor."""
    gm, inputs = suspect.gm, suspect.inputs
    twin, wide = as_float64(gm, inputs)
    eager, ref64 = node_values(gm, inputs), node_values(twin, wide)
    state.runs += 2
    names = [
        n
        for n in feeding(gm, suspect.worse[0])
        if isinstance(eager.get(n), torch.Tensor) and eager[n].is_floating_point() and isinstance(ref64.get(n), torch.Tensor)
    ]
    if not names:
        return None
    lo, hi = 0, len(names) - 1  # the last feeds the output straight: worse (the output is)
    while lo < hi:
        mid = (lo + hi) // 2
        (value, *_) = through_backend(backend, prefix(gm, names[mid]), inputs, settings) or [None]
        state.runs += 1
        worse = (
            not isinstance(value, torch.Tensor)
            or judge(value, eager[names[mid]], ref64[names[mid]]).verdict == "worse_than_eager"
        )
        if worse:
            hi = mid
        else:
            lo = mid + 1
    return names[lo]


def _node_words(report: CompileReport, compile_id: str, graph_id: int | None, name: str | None) -> str | None:
    """A node of the Dynamo graph in words: ``mul (mul(l_x_, 2.0)), line 12, in cpp_fused_mul_relu_0`` (its target
    and arguments as the FX pane shows them, its user line, and the inductor kernels that compute it)."""
    if name is None:
        return None
    graph = next((g for g in report.graphs if g.id == graph_id), None)
    node = next((n for n in graph.nodes if n.name == name), None) if graph else None
    if node is None:
        return name
    args = node.args[:-2] + ")" if node.args.endswith(",)") else node.args
    codes = [c for c in report.output_code if c.compile_id == compile_id and c.kind != "backward"]
    called = [c.kernel for code in codes for c in code.calls if name in c.nodes]  # extern kernels too (extern_kernels.mm)
    kernels = list(dict.fromkeys(called + [k.name for code in codes for k in code.kernels if name in k.nodes]))
    return (
        f"{name} ({node.target}{args})"
        + (f", line {node.line}" if node.line else "")
        + (f", in {_names(kernels)}" if kernels else "")
    )


def _location(found: Bisected | None) -> NumericsLocation | None:
    return NumericsLocation(backend=found.backend, subsystem=found.subsystem, detail=found.detail) if found else None


def _names(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _output(index: int, dtype: str, shape: list[int], j: Judged) -> NumericsOutput:
    return NumericsOutput(
        index=index,
        dtype=dtype,
        shape=shape,
        verdict=j.verdict,  # type: ignore[arg-type]
        max_abs=j.max_abs,
        max_rel=j.max_rel,
        compiled_error=j.compiled_error,
        eager_error=j.eager_error,
        why=j.why,
    )
