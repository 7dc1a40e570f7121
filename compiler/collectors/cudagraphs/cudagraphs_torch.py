"""What the CUDA graphs collector reads of inductor's internals ([Note: cudagraphs] in ``cudagraphs.py``): the two
methods of ``CompiledFxGraph`` it wraps for the run, the replay method of CUDA graph trees, inductor's config, the
facts a compiled graph holds of its CUDA graph decision, and the tree manager's frame a log record was made in.
Torch 2.11 to 2.15 alike: nothing here differs by version.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..._compat import patched
from ...model.kinds import OutputKind

__all__ = [
    "TREES_LOG",
    "UTILS_LOG",
    "GraphFacts",
    "cudagraphs_asked",
    "graph_facts",
    "handed_callables",
    "original_graph_method",
    "patched_graph_method",
    "patched_replays",
    "tree_function",
]

#: inductor's ``cudagraphs`` artifact loggers: the trees' (recordings, warm-ups) and the utils' (run-time skips)
TREES_LOG = "torch._inductor.cudagraph_trees.__cudagraphs"
UTILS_LOG = "torch._inductor.cudagraph_utils.__cudagraphs"
_PREFIX = "skipping cudagraphs due to "
_MAX_FRAMES = 30  # frames between a log call and the tree manager's method that made it


def original_graph_method(name: str) -> Any:
    """``CompiledFxGraph.<name>`` as inductor defines it (``post_compile``, ``__call__``)."""
    from torch._inductor.output_code import CompiledFxGraph

    return CompiledFxGraph.__dict__[name]


def patched_graph_method(name: str, replacement: Callable[..., Any]) -> contextlib.AbstractContextManager[None]:
    """``CompiledFxGraph.<name>`` replaced while open."""
    from torch._inductor.output_code import CompiledFxGraph

    return patched(CompiledFxGraph, name, replacement)


def patched_replays(wrapper: Callable[[Any], Callable[..., Any]]) -> contextlib.AbstractContextManager[None] | None:
    """``CUDAGraphTreeManager.execute_node`` (the replay of a recorded graph) replaced by ``wrapper(original)`` while
    open; None while CUDA graph trees are not imported yet (``compile_fx.cudagraphify`` imports them)."""
    trees = sys.modules.get("torch._inductor.cudagraph_trees")
    if trees is None:
        return None
    manager = trees.CUDAGraphTreeManager
    return patched(manager, "execute_node", wrapper(manager.__dict__["execute_node"]))


def cudagraphs_asked(graph_kwargs: Any) -> bool:
    """Were CUDA graphs asked for this graph: the config (what reduce-overhead sets) or the graph's own box."""
    from torch._inductor import config

    return bool(config.triton.cudagraphs or graph_kwargs.get("cudagraphs"))


def handed_callables(graph: Any) -> list[Any]:
    """The callables ``post_compile`` may hand to the trees: the graph's, and each partition's."""
    runner = getattr(graph, "compiled_fn_runner", None)
    return [graph.current_callable, *list(getattr(runner, "partitions", None) or [])]


@dataclass(frozen=True, slots=True)
class GraphFacts:
    """What a ``CompiledFxGraph`` says of its CUDA graph decision once ``post_compile`` ran."""

    kind: OutputKind  # forward, backward or inference
    wrapped: bool
    reason: str | None
    partitions: int
    note: str | None


def graph_facts(graph: Any, graph_kwargs: Any, box_was_on: bool) -> GraphFacts:
    """The decision ``post_compile`` made for ``graph``: wrapped for the trees or not, inductor's reason, the number
    of partitions recorded, and a note where inductor turned the box off without a word."""
    fx_kwargs = getattr(graph, "fx_kwargs", None) or {}
    backward = bool(graph_kwargs.get("is_backward", fx_kwargs.get("is_backward")))
    inference = bool(graph_kwargs.get("is_inference", fx_kwargs.get("is_inference")))
    wrapped = bool(graph_kwargs.get("cudagraphs"))
    reason = None
    if not wrapped:
        reason = graph.disabled_cudagraphs_reason
        info = getattr(graph, "cudagraph_info", None)
        fails = list(getattr(info, "cudagraph_fail_reasons", None) or [])
        if not reason and fails:
            reason = f"{_PREFIX}{fails}"  # as cudagraph_post_compile words it
    partitions = getattr(graph, "partition_maps", None)
    note = None
    if not wrapped and not reason and box_was_on and not partitions:
        from torch._inductor import config

        if config.graph_partition:  # cudagraph_partition_post_compile turns the box off without a word
            note = "inductor found no graph partition with CUDA code to record (graph_partition)"
    return GraphFacts(
        kind="backward" if backward else "inference" if inference else "forward",
        wrapped=wrapped,
        reason=reason or None,
        partitions=(len(partitions) if partitions else 1) if wrapped else 0,
        note=note,
    )


def tree_function(frame: types.FrameType | None) -> Any:
    """The callable CUDA graph trees were running when a record was made: ``ids_to_funcs[function_id].model`` of
    the closest tree manager frame (a method of ``CUDAGraphTreeManager`` that takes ``function_id``), or None."""
    for _ in range(_MAX_FRAMES):
        if frame is None:
            return None
        local = frame.f_locals
        fid = local.get("function_id")
        tree = local.get("self")
        funcs = getattr(tree, "ids_to_funcs", None)
        if fid is not None and isinstance(funcs, dict) and fid in funcs:
            return getattr(funcs[fid], "model", None)
        frame = frame.f_back
    return None
