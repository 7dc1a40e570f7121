"""What ``--check-numerics`` asks of torch: a copy of Dynamo's graph that no backend pass can change, its float64
twin, the graph's random ops, copies of a call's inputs, and the random state kept as it was ([Note: numerics]).

Checked on torch 2.13 and 2.15: ``torch.fx.Graph.graph_copy`` and ``GraphModule(root, graph)`` (the copy shares the
root's attributes, never copies a parameter), ``torch.random.fork_rng``, and torch's compiler bisector
(``torch._inductor.compiler_bisector``: ``CompilerBisector.do_bisect(fn)`` in process, ``BACKENDS``, its subsystems
and ``get_config_change``; ``bisect``).
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch
import torch.fx

__all__ = [
    "Bisected",
    "as_float64",
    "bisect",
    "bisector_backends",
    "copy_inputs",
    "effect_ops",
    "feeding",
    "graph_copy",
    "inductor_config",
    "kept_random_state",
    "node_values",
    "prefix",
    "random_ops",
    "through_backend",
]

#: ops whose values come from the random generator (by the last part of their name): never replayed by the check
_RANDOM = {
    "dropout",
    "dropout_",
    "native_dropout",
    "feature_dropout",
    "alpha_dropout",
    "feature_alpha_dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "bernoulli",
    "bernoulli_",
    "rand",
    "rand_like",
    "randn",
    "randn_like",
    "randint",
    "randint_like",
    "randperm",
    "normal",
    "normal_",
    "uniform_",
    "multinomial",
    "rrelu",
    "poisson",
    "exponential_",
    "geometric_",
    "cauchy_",
    "log_normal_",
    "random_",
}


def graph_copy(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """``gm`` as Dynamo made it, safe from the backend's passes (which may rewrite ``gm.graph`` in place): a new graph,
    the same attributes (by reference)."""
    return torch.fx.GraphModule(gm, _new_graph(gm), class_name=type(gm).__name__)


def _new_graph(gm: torch.fx.GraphModule) -> torch.fx.Graph:
    """A copy of ``gm.graph`` (nodes' meta shallow-copied: Dynamo's fake values are never copied)."""
    graph = torch.fx.Graph()
    out = graph.graph_copy(gm.graph, {})
    graph.output(out)
    graph._codegen = copy.deepcopy(gm.graph._codegen)
    return graph


def random_ops(gm: torch.fx.GraphModule) -> list[str]:
    """The nodes of ``gm`` that draw random numbers (``dropout`` in training, ``rand``, ...), each as ``op node``
    (``dropout embeddings_3``): their values cannot be replayed by an eager run."""
    found = []
    for node in gm.graph.nodes:
        if node.op == "call_module":
            module = gm.get_submodule(str(node.target))
            if isinstance(module, torch.nn.modules.dropout._DropoutNd) and module.training:
                found.append(f"{type(module).__name__} {node.name}")
            continue
        if node.op not in ("call_function", "call_method"):
            continue
        name = getattr(node.target, "__name__", str(node.target)).split(".")[-1]
        if name not in _RANDOM:
            continue
        training = node.kwargs.get("training", node.kwargs.get("train", True))
        if name.endswith("dropout") and len(node.args) > 2 and isinstance(node.args[2], bool):
            training = node.args[2]
        if training is not False:
            found.append(f"{name} {node.name}")
    return found


#: ops an extra run must not repeat: collectives (the other ranks would not join them) and compiled autograd's calls
#: of the user's hooks and accumulations (by the last part of their name)
_EFFECTS = {
    "all_reduce",
    "all_reduce_",
    "all_gather_into_tensor",
    "all_gather_into_tensor_out",
    "reduce_scatter_tensor",
    "all_to_all_single",
    "broadcast",
    "broadcast_",
    "wait_tensor",
    "call_hook",
    "call_backward",
    "call_accumulate_grad",
    "accumulate_grad_",
}


def effect_ops(gm: torch.fx.GraphModule) -> list[str]:
    """The nodes of ``gm`` whose effects an extra run would repeat: collectives (another run on one rank hangs the
    others), compiled autograd's hook calls and gradient accumulations, by name."""
    found = []
    for node in gm.graph.nodes:
        if node.op not in ("call_function", "call_method"):
            continue
        name = getattr(node.target, "__name__", str(node.target)).split(".")[-1]
        if name in _EFFECTS or "c10d" in str(getattr(node.target, "__module__", "")) + str(node.target):
            found.append(node.name)
    return found


def copy_inputs(args: tuple[Any, ...]) -> list[Any]:
    """Each tensor input cloned and detached (the call may change its inputs in place: the copies keep what it was
    called with); other inputs as they are."""
    return [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in args]


def as_float64(gm: torch.fx.GraphModule, args: list[Any]) -> tuple[torch.fx.GraphModule, list[Any]]:
    """``gm``'s float64 twin and its inputs: every floating-point input and attribute tensor in float64 (complex in
    complex128), each attribute a copy (the user's module is never changed)."""
    twin = torch.fx.GraphModule(_float64_root(gm), _new_graph(gm), class_name=type(gm).__name__)
    return twin, [_widen(a) if isinstance(a, torch.Tensor) else a for a in args]


def inductor_config() -> dict[str, Any]:
    """Inductor's settings now (``config.get_config_copy``): what a graph compiled now is compiled with, for the
    compiles that locate it later (a ``config.patch`` around the user's call is gone by then)."""
    import torch._inductor.config as config

    return config.get_config_copy()


def through_backend(name: str, gm: torch.fx.GraphModule, inputs: list[Any], settings: dict[str, Any] | None = None) -> list[Any]:
    """``gm`` compiled by the backend ``name`` (``aot_eager``, ...: ``lookup_backend``, called as Dynamo calls it, on
    real inputs) with inductor's ``settings`` (``inductor_config()`` when the graph was compiled) and run on copies of
    ``inputs``: its outputs, flat. Dynamo's counters are put back after (the report's counters stay the run's own).
    Inductor's and AOTAutograd's caches are neither read nor written (``_no_caches``): an entry of the run's own
    compile must not stand in for a compile with a pass turned off, and the check's graphs stay out of the user's
    cache."""
    import torch._inductor.config as config
    import torch.utils._pytree as pytree
    from torch._dynamo.backends.registry import lookup_backend
    from torch._dynamo.utils import counters

    saved = {k: v.copy() for k, v in counters.items()}
    try:
        with torch.no_grad(), kept_random_state(), config.patch(settings or {}), _no_caches():
            compiled = lookup_backend(name)(graph_copy(gm), copy_inputs(tuple(inputs)))
            return list(pytree.tree_leaves(compiled(*copy_inputs(tuple(inputs)))))
    finally:
        counters.clear()
        counters.update(saved)


@contextlib.contextmanager
def _no_caches() -> Iterator[None]:
    """Inductor's FX graph cache and AOTAutograd's cache off (local and remote) for the check's own compiles."""
    import torch._functorch.config as functorch_config
    import torch._inductor.config as config

    off = {k: False for k in ("fx_graph_cache", "fx_graph_remote_cache") if hasattr(config, k)}
    aot = {k: False for k in ("enable_autograd_cache", "enable_remote_autograd_cache") if hasattr(functorch_config, k)}
    with config.patch(off), functorch_config.patch(aot):
        yield


@dataclass(frozen=True, slots=True)
class Bisected:
    """What torch's compiler bisector found: the first backend of its order whose outputs are worse, and within it
    the subsystem that, turned off, makes them no worse (``post_grad_passes``; a setting such as
    ``inductor_emulate_precision_casts``), with the bisector's words for the one application found (a pass's name,
    ``aten.sigmoid.default`` for a decomposition, a node of inductor's post-grad graph for a lowering) or the
    setting that helps (``emulate_precision_casts=True``, and ``setting`` is true); the subsystem and detail are None
    when none was found."""

    backend: str
    subsystem: str | None
    detail: str | None
    setting: bool = False


def bisector_backends() -> list[str] | None:
    """The backends torch's compiler bisector tries, in its order (``eager``, ``aot_eager``,
    ``aot_eager_decomp_partition``, ..., ``inductor``); None when it cannot run here: not in this torch, or a bisection
    of the user's own in progress (``TORCH_BISECT_BACKEND``, or ``python -m torch._inductor.compiler_bisector``),
    whose state the check must not touch."""
    try:
        from torch._inductor.compiler_bisector import BACKENDS, BinarySubsystem, CompilerBisector, ConfigChange  # noqa: F401
    except ImportError:
        return None
    needs = ("do_bisect", "get_backend", "get_config_change", "get_subsystem_object")
    if CompilerBisector.bisection_enabled or not all(hasattr(CompilerBisector, n) for n in needs):
        return None
    return list(BACKENDS)


def bisect(worse: Callable[[str, dict[str, Any]], bool]) -> Bisected | None:
    """torch's compiler bisector (``CompilerBisector.do_bisect``), in process, on ``worse(backend, settings)``: is the
    graph compiled by ``backend`` (with inductor's ``settings`` that the bisector's step asks for, such as
    ``{"emulate_precision_casts": True}``) still worse than eager? The bisector tries each backend of its order, then
    within the first worse one turns its subsystems off one at a time (passes, decompositions, lowerings: the
    bisector's own hooks in torch) and, for one applied many times, bisects its applications. What it prints is
    kept from the user's output. None when no backend is worse. A ``worse`` that raises stops the search; its
    exception is raised after the bisector has cleaned up (its state lives in a temporary folder it removes)."""
    from torch._inductor.compiler_bisector import BinarySubsystem, CompilerBisector, ConfigChange

    failed: list[Exception] = []

    def good() -> bool:
        if failed:
            return False  # the bisector then ends at once, without another call
        backend = CompilerBisector.get_backend() or ""
        change = (CompilerBisector.get_config_change("inductor") or {}) if backend == "inductor" else {}
        try:
            return not worse(backend, change)
        except Exception as exc:  # noqa: BLE001 - raised below, once the bisector has cleaned up
            failed.append(exc)
            return False

    with contextlib.redirect_stdout(io.StringIO()):
        result = CompilerBisector.do_bisect(good)
    if failed:
        raise failed[0]
    if result is None:
        return None
    if result.subsystem is None:
        return Bisected(result.backend, None, None)
    subsystem = CompilerBisector.get_subsystem_object(result.backend, result.subsystem)
    if isinstance(subsystem, ConfigChange):
        return Bisected(result.backend, result.subsystem, f"{subsystem.config_field}={subsystem.config_value}", True)
    if isinstance(subsystem, BinarySubsystem):
        return Bisected(result.backend, result.subsystem, None)
    return Bisected(result.backend, result.subsystem, _op_name(result.debug_info))


def _op_name(debug_info: str | None) -> str | None:
    """The bisector's words for an op overload (``<OpOverload(op='aten.sigmoid', overload='default')>``) as torch
    names it elsewhere (``aten.sigmoid.default``); other words as they are."""
    if not debug_info:
        return None
    m = re.fullmatch(r"<OpOverload\(op='([^']+)', overload='([^']+)'\)>", debug_info.strip())
    return f"{m[1]}.{m[2]}" if m else debug_info.strip()


def node_values(gm: torch.fx.GraphModule, inputs: list[Any]) -> dict[str, Any]:
    """Every node's value of ``gm`` run eagerly on copies of ``inputs`` (``torch.fx.Interpreter``), by node name."""
    values: dict[str, Any] = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n: torch.fx.Node) -> Any:
            value = super().run_node(n)
            values[n.name] = value.detach().clone() if isinstance(value, torch.Tensor) else value
            return value

    with torch.no_grad(), kept_random_state():
        Recorder(gm).run(*copy_inputs(tuple(inputs)))
    return values


def feeding(gm: torch.fx.GraphModule, output: int) -> list[str]:
    """The computing nodes (``call_*``) the graph's ``output``-th output is made from, itself included, in the
    graph's order."""
    import torch.utils._pytree as pytree

    out = next(n for n in gm.graph.nodes if n.op == "output")
    leaves = pytree.tree_leaves(out.args[0])
    if output >= len(leaves) or not isinstance(leaves[output], torch.fx.Node):
        return []
    seen: set[torch.fx.Node] = set()
    stack = [leaves[output]]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(node.all_input_nodes)
    return [n.name for n in gm.graph.nodes if n in seen and n.op.startswith("call_")]


def prefix(gm: torch.fx.GraphModule, name: str) -> torch.fx.GraphModule:
    """``gm`` up to its node ``name``, which it returns (every placeholder kept: it takes the same inputs)."""
    graph = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for node in gm.graph.nodes:
        if node.op == "output":
            break
        env[node] = graph.node_copy(node, lambda n: env[n])
        if node.name == name:
            graph.output((env[node],))
            break
    return torch.fx.GraphModule(gm, graph, class_name=type(gm).__name__)


@contextlib.contextmanager
def kept_random_state() -> Iterator[None]:
    """The random generators' state as it was before, after the check's own runs (the CPU's and every CUDA device
    already in use)."""
    devices = list(range(torch.cuda.device_count())) if torch.cuda.is_available() and torch.cuda.is_initialized() else []
    with torch.random.fork_rng(devices=devices):
        yield


def _widen(t: torch.Tensor) -> torch.Tensor:
    if t.is_complex():
        return t.detach().to(torch.complex128)
    if t.is_floating_point():
        return t.detach().to(torch.float64)
    return t.detach().clone()


def _float64_root(gm: torch.fx.GraphModule) -> torch.nn.Module:
    """A module with float64 copies of what ``gm``'s nodes reach by ``get_attr`` and ``call_module``."""
    root = torch.nn.Module()
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            _set(root, str(node.target), _copy_attr(_get(gm, str(node.target))))
        elif node.op == "call_module":
            module = copy.deepcopy(gm.get_submodule(str(node.target)))
            _set(root, str(node.target), module.to(torch.float64))
    return root


def _copy_attr(value: Any) -> Any:
    if isinstance(value, torch.nn.Module):
        return copy.deepcopy(value).to(torch.float64)
    if isinstance(value, torch.Tensor):
        return _widen(value)
    return value


def _get(owner: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        owner = getattr(owner, part)
    return owner


def _set(root: torch.nn.Module, dotted: str, value: Any) -> None:
    *path, last = dotted.split(".")
    owner: Any = root
    for part in path:
        if not hasattr(owner, part):
            owner.add_module(part, torch.nn.Module())
        owner = getattr(owner, part)
    if isinstance(value, torch.nn.Module):
        owner.add_module(last, value)
    elif isinstance(value, torch.Tensor):
        owner.register_buffer(last, value)
    else:
        setattr(owner, last, value)
