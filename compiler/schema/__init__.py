"""The compile-report contract: the hand-edited JSON Schema and its validators.

Holds:
- ``SCHEMA``: the parsed ``compile_report.v1.schema.json`` (the single source of truth);
- ``SCHEMA_VERSION``: ``(major, minor)`` and ``MIME_TYPE`` (``application/vnd.dynamo-explorer.report.v1+json``:
  the major is in the name), read from the schema file's ``x-dynamo-explorer``; the generated TypeScript
  reads the same (``labextension/scripts/schema.mjs``), and a test checks that they agree;
- ``PANES``: the ``data-pane`` names of the report view's panes in display order, ``PANE_TITLES`` (name ->
  title) and ``PANE_SHOWS`` (name -> the report fields it shows), from ``x-dynamo-explorer.panes``: the
  renderer's pane registry, the static HTML view (``kernel_ext/static_html.py``) and the tests read this list;
- ``validate_report`` (strict, every error explained: the tests, with the reference ``jsonschema``) and
  ``report_errors`` (run time: ``jsonschema-rs``, a compiled validator, 0.011 s on a 5 MB report where
  fastjsonschema took 0.098 s and jsonschema ~3 s). Two implementations of draft-07 check each other;
- ``DIFF_SCHEMA`` and ``validate_diff``: ``compile_diff.v1.schema.json``, what ``dynamo-explorer diff`` writes
  (``compiler/diff``: two reports compared), and ``DIFF_MIME_TYPE``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

SCHEMA_FILE = "compile_report.v1.schema.json"
SCHEMA: dict[str, Any] = json.loads(resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
_META: dict[str, Any] = SCHEMA["x-dynamo-explorer"]  # version, MIME type and panes, written once, in the schema file
SCHEMA_VERSION: tuple[int, int] = (_META["version"]["major"], _META["version"]["minor"])
MIME_TYPE: str = _META["mime_type"]
#: beside MIME_TYPE in one output: what its report holds only in part (kernel_ext/display.py)
PARTS_MIME_TYPE: str = _META["parts_mime_type"]
DIFF_SCHEMA: dict[str, Any] = json.loads(
    resources.files(__name__).joinpath("compile_diff.v1.schema.json").read_text(encoding="utf-8")
)
_DIFF_META: dict[str, Any] = DIFF_SCHEMA["x-dynamo-explorer"]
DIFF_MIME_TYPE: str = _DIFF_META["mime_type"]
DIFF_VERSION: tuple[int, int] = (_DIFF_META["version"]["major"], _DIFF_META["version"]["minor"])
PANES: tuple[str, ...] = tuple(p["name"] for p in _META["panes"])
PANE_TITLES: dict[str, str] = {p["name"]: p["title"] for p in _META["panes"]}
PANE_SHOWS: dict[str, tuple[str, ...]] = {p["name"]: tuple(p["shows"]) for p in _META["panes"]}

__all__ = [
    "DIFF_MIME_TYPE",
    "DIFF_SCHEMA",
    "DIFF_VERSION",
    "MIME_TYPE",
    "PANES",
    "PANE_SHOWS",
    "PANE_TITLES",
    "PARTS_MIME_TYPE",
    "SCHEMA",
    "SCHEMA_VERSION",
    "report_errors",
    "validate_diff",
    "validate_report",
]


@lru_cache(maxsize=1)
def _validator() -> Any:  # jsonschema is imported lazily: importing `compiler` stays cheap
    import jsonschema

    jsonschema.Draft7Validator.check_schema(SCHEMA)
    return jsonschema.Draft7Validator(SCHEMA)


@lru_cache(maxsize=1)
def _fast_validator() -> Any:
    import jsonschema_rs

    return jsonschema_rs.Draft7Validator(SCHEMA)


def report_errors(report: dict[str, Any]) -> list[str]:
    """The first schema violation as a one-line string, or ``[]`` when the report is valid."""
    try:
        error = next(iter(_fast_validator().iter_errors(report)), None)
    except ValueError as exc:  # a value JSON has no type for (jsonschema-rs refuses it)
        return [f"not JSON: {exc}"[:300]]
    if error is None:
        return []
    path = "/".join(str(p) for p in error.instance_path)
    return [f"{path or '(report)'}: {error.message[:300]}"]


def validate_report(report: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if ``report`` does not follow the schema."""
    _validator().validate(report)


def validate_diff(diff: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if ``diff`` (``compiler.diff.diff_reports``'s) does not follow its schema."""
    import jsonschema

    jsonschema.Draft7Validator(DIFF_SCHEMA).validate(diff)
