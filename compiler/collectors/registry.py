"""The collector registry: one collector per artifact kind, and the order they run in.

Each collector names the collectors whose results it reads (``requires``); ``ordered`` derives the
order from those declarations (the registry's order where they leave a choice) and refuses an unknown
name or a cycle. ``DEFAULT_COLLECTORS`` is that order. Adding an artifact kind = one module + one entry
here (docs/architecture.md, "How to add an artifact kind"). Imported by a live run (``compiler.runner``), not by
``compiler.collectors`` itself: reading a trace imports the builders it needs and no torch.
"""

from __future__ import annotations

from .aot_graphs import AotGraphsCollector
from .automatic_dynamic import AutomaticDynamicCollector
from .base import Collector
from .caches.caches import CachesCollector
from .counters import CountersCollector
from .cudagraphs.cudagraphs import CudaGraphsCollector
from .ddp_splits import DdpSplitsCollector
from .decisions.decisions import DecisionsCollector
from .dispatch_view.dispatch_view import DispatchViewCollector
from .dynamic_shapes.dynamic_shapes import DynamicShapesCollector
from .exports.exports import ExportsCollector
from .fixes import FixesCollector
from .frames import FramesCollector
from .fx_graphs import FxGraphsCollector
from .graph_breaks.graph_breaks import GraphBreaksCollector
from .guards.guards import GuardsCollector
from .links import LinksCollector
from .logs import LogsCollector
from .numerics.numerics import NumericsCollector
from .output_code.output_code import OutputCodeCollector
from .profile.profile import ProfileCollector
from .recompiles import RecompilesCollector
from .sources import SourcesCollector
from .stream import StreamCollector
from .timings import TimingsCollector
from .trace_steps.trace_steps import TraceStepsCollector

REGISTRY: tuple[type[Collector], ...] = (
    StreamCollector,
    LogsCollector,
    FramesCollector,
    FxGraphsCollector,
    DdpSplitsCollector,
    AotGraphsCollector,
    OutputCodeCollector,
    GuardsCollector,
    GraphBreaksCollector,
    DecisionsCollector,
    RecompilesCollector,
    DynamicShapesCollector,
    AutomaticDynamicCollector,
    TimingsCollector,
    CountersCollector,
    CudaGraphsCollector,
    CachesCollector,
    SourcesCollector,
    LinksCollector,
    ProfileCollector,
    DispatchViewCollector,
    FixesCollector,
    TraceStepsCollector,
    NumericsCollector,
    ExportsCollector,
)


def ordered(collectors: tuple[type[Collector], ...]) -> tuple[type[Collector], ...]:
    """``collectors`` with each one after those it ``requires``, otherwise in the given order."""
    by_name = {c.name: c for c in collectors}
    for c in collectors:
        unknown = [r for r in c.requires if r not in by_name]
        if unknown:
            raise ValueError(f"collector {c.name!r} requires {unknown}, which are not registered")
    done: list[type[Collector]] = []
    pending = list(collectors)
    while pending:
        ready = next((c for c in pending if all(by_name[r] in done for r in c.requires)), None)
        if ready is None:
            raise ValueError(f"collectors {[c.name for c in pending]} require each other in a cycle")
        done.append(ready)
        pending.remove(ready)
    return tuple(done)


DEFAULT_COLLECTORS: tuple[type[Collector], ...] = ordered(REGISTRY)

__all__ = ["DEFAULT_COLLECTORS", "REGISTRY", "ordered"]
