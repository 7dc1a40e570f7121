"""What ``--check-numerics`` found: each compiled graph's outputs against the same graph run eagerly and in float64
([Note: numerics] in ``compiler/collectors/numerics/numerics.py``).

One slotted dataclass per schema definition, fields in the schema's order (``compiler/model/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import NumericsVerdict

_kw = {"slots": True, "kw_only": True}


@dataclass(**_kw)
class NumericsOutput:
    """One output of a compiled graph: how far the compiled value is from eager's, and both from float64's."""

    index: int
    dtype: str
    shape: list[int]
    verdict: NumericsVerdict
    max_abs: float | None = None
    max_rel: float | None = None
    compiled_error: float | None = None
    eager_error: float | None = None
    why: str | None = None


@dataclass(**_kw)
class NumericsLocation:
    """What torch's compiler bisector found for a call worse than eager, in its own names."""

    backend: str
    subsystem: str | None = None
    detail: str | None = None


@dataclass(**_kw)
class NumericsGraph:
    """One call of one compiled graph, checked."""

    compile_id: str
    graph_id: int | None
    call: int
    verdict: NumericsVerdict
    summary: str
    outputs: list[NumericsOutput] = field(default_factory=list)
    why: str | None = None
    seconds: float = 0.0
    located: str | None = None
    location: NumericsLocation | None = None
    first_node: str | None = None


@dataclass(**_kw)
class Numerics:
    """``--check-numerics [N]``: the graphs checked, and what checking cost."""

    calls_per_graph: int
    seconds: float
    runs: int
    graphs: list[NumericsGraph] = field(default_factory=list)
