"""The schema file is the one source of the report's shape, its version and its MIME type (issue 10).

- Every dataclass of ``compiler/model.py`` has exactly the fields of the schema definition of its name, in
  the schema's order, and a field without a default is one the schema requires.
- Python and the generated TypeScript (``labextension/src/schema.ts``) carry the same version, MIME type
  and supported majors; both read them from the schema's ``x-dynamo-explorer``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from compiler import MIME_TYPE, SCHEMA_VERSION, model
from compiler.schema import SCHEMA

REPO = Path(__file__).resolve().parents[2]
CLASSES = [
    c for c in vars(model).values() if dataclasses.is_dataclass(c) and isinstance(c, type) and c.__module__ == model.__name__
]


def _definition(name: str) -> dict:
    return SCHEMA if name == SCHEMA["title"] else SCHEMA["definitions"][name]


def test_every_schema_object_with_a_model_class_is_covered():
    assert {c.__name__ for c in CLASSES} >= {"CompileReport", "Frame", "Graph", "Node", "SourceFile", "GraphBreak"}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_model_class_has_the_schema_fields_in_order(cls):
    definition = _definition(cls.__name__)
    fields = [f.name for f in dataclasses.fields(cls)]
    properties = [p for p in definition["properties"] if not (cls is model.CompileReport and p == "schema_version")]
    assert fields == properties, f"{cls.__name__}: model {fields} vs schema {properties}"
    required = set(definition.get("required", []))
    for f in dataclasses.fields(cls):
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        if not has_default:
            assert f.name in required, f"{cls.__name__}.{f.name} has no default but the schema does not require it"


def test_python_and_typescript_read_one_version_and_mime_type():
    ts = (REPO / "labextension/src/schema.ts").read_text(encoding="utf-8")
    version = re.search(r"export const SCHEMA_VERSION = \{ major: (\d+), minor: (\d+) \} as const;", ts)
    mime = re.search(r"export const MIME_TYPE = (\"[^\"]+\");", ts)
    majors = re.search(r"export const SUPPORTED_MAJORS: readonly number\[\] = (\[[\d, ]*\]);", ts)
    assert version and mime and majors, "run `npm run build:schema`"
    assert (int(version[1]), int(version[2])) == SCHEMA_VERSION
    assert json.loads(mime[1]) == MIME_TYPE
    assert SCHEMA_VERSION[0] in json.loads(majors[1])
    assert f".v{SCHEMA_VERSION[0]}+json" in MIME_TYPE
    assert SCHEMA["definitions"]["SchemaVersion"]["properties"]["major"]["enum"] == json.loads(majors[1])


def test_collectors_are_ordered_by_what_they_read():
    from compiler.collectors import REGISTRY, ordered

    for registry in (REGISTRY, tuple(reversed(REGISTRY))):
        order = [c.name for c in ordered(registry)]
        for c in registry:
            assert all(order.index(r) < order.index(c.name) for r in c.requires), (c.name, order)


def test_an_unknown_requirement_or_a_cycle_is_refused():
    from compiler.collectors import ordered

    class A:
        name, requires = "a", ("b",)

    class B:
        name, requires = "b", ("a",)

    with pytest.raises(ValueError, match="'a' requires \\['b'\\], which are not registered"):
        ordered((A,))
    with pytest.raises(ValueError, match="require each other in a cycle"):
        ordered((A, B))


@pytest.mark.parametrize("name", ["toy_example", "earlier_cell", "dynamic_sizes"])
def test_the_declared_order_is_enough(monkeypatch, name):
    # the report is the same when the collectors run in the order derived from the reversed registry:
    # every collector declares what it reads
    from compiler import runner
    from compiler.collectors import REGISTRY, ordered
    from tests.goldens.regenerate import run_case

    default = run_case(name)
    monkeypatch.setattr(runner, "DEFAULT_COLLECTORS", ordered(tuple(reversed(REGISTRY))))
    assert run_case(name) == default
