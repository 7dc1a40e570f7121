"""Collector for Dynamo's own counters: what ``torch._dynamo.utils.counters`` gained during the run.

``counters`` is the tally Dynamo keeps whatever is listening (``frames`` total/ok, ``stats``
unique_graphs, ``graph_break`` per reason, ``resumes``, ...): the numbers ``torch.compile`` gives on
the same code, so a report can be checked against a plain run (tests/zoo). Read before and after;
nothing is installed into torch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..model import CompileReport
from .base import CaptureContext, Collector


def _snapshot() -> dict[str, dict[str, int]]:
    from torch._dynamo.utils import counters

    return {cat: dict(c) for cat, c in list(counters.items())}


class CountersCollector(Collector):
    name = "counters"

    def __init__(self) -> None:
        self.gained: dict[str, dict[str, int]] = {}

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        before = _snapshot()
        try:
            yield
        finally:
            after = _snapshot()
            delta: dict[str, dict[str, int]] = {}
            for cat, values in after.items():
                old = before.get(cat, {})
                gained = {str(k): int(v - old.get(k, 0)) for k, v in values.items() if v != old.get(k, 0)}
                if gained:
                    delta[cat] = gained
            self.gained = delta

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        report.dynamo_counters = self.gained
