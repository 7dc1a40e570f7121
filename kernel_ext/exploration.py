"""``Exploration``: what ``explore(fn)(*args)``, ``explore.capture()`` and ``open_trace()`` return.

``.report`` (the compile report), ``.value`` (what the explored call returned; None for a capture or a trace) and
``_repr_mimebundle_``: the bundle ``%%dynamo`` shows (``kernel_ext.display.bundle``, with the explorer as a widget
wherever a frontend asks for it). It imports nothing of the explorer at module level: the API, the capture and the
trace reader all make one.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Exploration"]


class Exploration:
    """One ``explore(fn)(*args)`` call: its compile report and what ``fn`` returned."""

    def __init__(self, report: dict[str, Any], value: Any) -> None:
        self.report = report
        self.value = value

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from .display import bundle

        return bundle(self.report, widget=True)

    def __repr__(self) -> str:
        from compiler.summary import one_line

        return f"<Exploration {one_line(self.report)}>"
