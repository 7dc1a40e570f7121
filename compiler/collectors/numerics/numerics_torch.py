"""What ``--check-numerics`` asks of torch: a copy of Dynamo's graph that no backend pass can change, its float64
twin, the graph's random ops, copies of a call's inputs, and the random state kept as it was ([Note: numerics]).

Checked on torch 2.13 and 2.15: ``torch.fx.Graph.graph_copy`` and ``GraphModule(root, graph)`` (the copy shares the
root's attributes, never copies a parameter), ``torch.random.fork_rng``.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Any

import torch
import torch.fx

__all__ = [
    "as_float64",
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
    ``inputs``: its outputs, flat. Dynamo's counters are put back after (the report's counters stay the run's own)."""
    import torch._inductor.config as config
    import torch.utils._pytree as pytree
    from torch._dynamo.backends.registry import lookup_backend
    from torch._dynamo.utils import counters

    saved = {k: v.copy() for k, v in counters.items()}
    try:
        with torch.no_grad(), kept_random_state(), config.patch(settings or {}):
            compiled = lookup_backend(name)(graph_copy(gm), copy_inputs(tuple(inputs)))
            return list(pytree.tree_leaves(compiled(*copy_inputs(tuple(inputs)))))
    finally:
        counters.clear()
        counters.update(saved)


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
