"""The collector registry: one collector per artifact kind, run in this order.

``StreamCollector`` comes first (every other collector reads its events); ``LinksCollector`` comes
last (it links what the others built). Adding an artifact kind = one module + one entry here.
"""

from __future__ import annotations

from .aot_graphs import AotGraphsCollector
from .base import CaptureContext, CodeRecord, Collector, GraphRecord
from .counters import CountersCollector
from .dynamic_shapes import DynamicShapesCollector
from .frames import FramesCollector
from .fx_graphs import FxGraphsCollector
from .graph_breaks import GraphBreaksCollector
from .guards import GuardsCollector
from .links import LinksCollector
from .logs import LogsCollector
from .output_code import OutputCodeCollector
from .recompiles import RecompilesCollector
from .sources import SourcesCollector
from .stream import StreamCollector
from .timings import TimingsCollector

DEFAULT_COLLECTORS: tuple[type[Collector], ...] = (
    StreamCollector,
    LogsCollector,
    FramesCollector,
    FxGraphsCollector,
    AotGraphsCollector,
    OutputCodeCollector,
    GuardsCollector,
    GraphBreaksCollector,
    RecompilesCollector,
    DynamicShapesCollector,
    TimingsCollector,
    CountersCollector,
    SourcesCollector,
    LinksCollector,
)

__all__ = ["DEFAULT_COLLECTORS", "CaptureContext", "CodeRecord", "Collector", "GraphRecord"]
