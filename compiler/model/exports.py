"""What the run's ``torch.export`` calls did ([Note: export calls] in ``compiler/collectors/exports/exports.py``): each
call with its mode, what it exported and from where, and either the exported program (its graph signature, the
range of each dynamic dimension, its graph) or the failure (its kind, the user's line, export's suggested fixes);
``draft_export``'s report of what it had to assume.

One slotted dataclass per schema definition, fields in the schema's order (``compiler/model/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import ExportCheckKind, ExportDirection, ExportFailureKind, ExportMode, ExportOutcome

_kw = {"slots": True, "kw_only": True}


@dataclass(**_kw)
class ExportInput:
    """One input of an export call, as it was given: its name (the parameter of ``forward``), shape and dtype."""

    name: str
    shape: list[int] | None = None
    dtype: str | None = None


@dataclass(**_kw)
class ExportFailure:
    """Why an export failed, read off its exception."""

    exception: str
    kind: ExportFailureKind
    what: str
    message: str
    filename: str | None = None
    line: int | None = None
    function: str | None = None
    code: str | None = None
    suggested: list[str] = field(default_factory=list)
    remedies: list[str] = field(default_factory=list)


@dataclass(**_kw)
class ExportSpec:
    """One input or output of the exported program's graph signature, with torch's kind."""

    direction: ExportDirection
    kind: str
    name: str
    target: str | None = None


@dataclass(**_kw)
class ExportRange:
    """The range of one symbol of the exported program (``range_constraints``)."""

    symbol: str
    dim: str | None = None
    place: str | None = None
    min: int | None = None
    max: int | None = None


@dataclass(**_kw)
class DraftFailure:
    """One entry of ``draft_export``'s report."""

    kind: str
    expr: str | None = None
    assumed: str | None = None
    op: str | None = None
    filename: str | None = None
    line: int | None = None
    code: str | None = None
    occurrences: int | None = None


@dataclass(**_kw)
class ExportCheck:
    """One check the exported program makes of its inputs when called: a static size, a range, an equality, a guard."""

    kind: ExportCheckKind
    expr: str
    input: str | None = None


@dataclass(**_kw)
class ExportCall:
    """One export call of the run."""

    index: int
    api: str
    mode: ExportMode
    module: str
    module_line: int | None
    filename: str | None
    line: int | None
    inputs: list[ExportInput]
    dynamic_shapes: str | None
    outcome: ExportOutcome
    seconds: float
    summary: str
    failure: ExportFailure | None = None
    signature: list[ExportSpec] = field(default_factory=list)
    ranges: list[ExportRange] = field(default_factory=list)
    graph_nodes: int | None = None
    # ``graph_code`` (schema: deprecated, minor 21 only) has no field: the code is its graph's (``graph_id``)
    draft: list[DraftFailure] = field(default_factory=list)
    graph_id: int | None = None
    checks: list[ExportCheck] = field(default_factory=list)
    compile_ids: list[str] = field(default_factory=list)
