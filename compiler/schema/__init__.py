"""The compile-report contract: the hand-edited JSON Schema and its validators.

Holds:
- ``SCHEMA``: the parsed ``compile_report.v1.schema.json`` (the single source of truth);
- ``SCHEMA_VERSION``: ``(major, minor)`` read from the schema file, never typed twice;
- ``MIME_TYPE``: ``application/vnd.dynamo-explorer.report.v1+json`` (the major is in the name);
- ``validate_report`` (strict, every error explained: tests) and ``report_errors`` (run time: the
  schema compiled to Python by fastjsonschema, ~30x faster than jsonschema on a 2,600-node report).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

SCHEMA_FILE = "compile_report.v1.schema.json"
SCHEMA: dict[str, Any] = json.loads(
    resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
)
SCHEMA_MAJOR: int = SCHEMA["definitions"]["SchemaVersion"]["properties"]["major"]["enum"][0]
# Bump when a field is added (a compatible change); the major changes the MIME type.
SCHEMA_MINOR = 1  # 1: Diagnostic kind 'truncated'
SCHEMA_VERSION = (SCHEMA_MAJOR, SCHEMA_MINOR)
MIME_TYPE = f"application/vnd.dynamo-explorer.report.v{SCHEMA_MAJOR}+json"

__all__ = ["MIME_TYPE", "SCHEMA", "SCHEMA_VERSION", "report_errors", "validate_report"]


@lru_cache(maxsize=1)
def _validator():  # jsonschema is imported lazily: importing `compiler` stays cheap
    import jsonschema

    jsonschema.Draft7Validator.check_schema(SCHEMA)
    return jsonschema.Draft7Validator(SCHEMA)


@lru_cache(maxsize=1)
def _fast_validator():
    import fastjsonschema

    return fastjsonschema.compile(SCHEMA)


def report_errors(report: dict[str, Any]) -> list[str]:
    """The first schema violation as a one-line string, or ``[]`` when the report is valid."""
    import fastjsonschema

    try:
        _fast_validator()(report)
    except fastjsonschema.JsonSchemaValueException as err:
        return [f"{err.name}: {err.message[:300]}"]
    return []


def validate_report(report: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if ``report`` does not follow the schema."""
    _validator().validate(report)
