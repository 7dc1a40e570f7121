"""The schema file is the one source of the report's shape, its version and its MIME type (issue 10).

- Every dataclass of ``compiler/model/`` has exactly the fields of the schema definition of its name, in
  the schema's order, and a field without a default is one the schema requires.
- Python and the generated TypeScript (``labextension/src/schema.ts``) carry the same version, MIME type
  and supported majors; both read them from the schema's ``x-dynamo-explorer``.
- The same holds for the list of panes (``x-dynamo-explorer.panes``: names in display order and titles), and
  every report field a pane says it shows (``shows``) is a real property path of the schema.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from compiler import MIME_TYPE, SCHEMA_VERSION, model
from compiler.schema import PANE_SHOWS, PANE_TITLES, PANES, SCHEMA

REPO = Path(__file__).resolve().parents[2]
CLASSES = [
    c
    for c in vars(model).values()
    if dataclasses.is_dataclass(c) and isinstance(c, type) and c.__module__.startswith(model.__name__)
]


def _definition(name: str) -> dict:
    return SCHEMA if name == SCHEMA["title"] else SCHEMA["definitions"][name]


def test_every_schema_object_with_a_model_class_is_covered():
    assert {c.__name__ for c in CLASSES} >= {"CompileReport", "Frame", "Graph", "Node", "SourceFile", "GraphBreak"}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_model_class_has_the_schema_fields_in_order(cls):
    definition = _definition(cls.__name__)
    fields = [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]  # `_x`: kept, never serialized
    properties = [
        p
        for p, spec in definition["properties"].items()
        if not (cls is model.CompileReport and p == "schema_version") and not spec.get("deprecated")
    ]
    assert fields == properties, f"{cls.__name__}: model {fields} vs schema {properties}"
    required = set(definition.get("required", []))
    for f in dataclasses.fields(cls):
        if f.name.startswith("_"):
            assert f.default_factory is not dataclasses.MISSING, f"{cls.__name__}.{f.name}: a private field needs a default"
            continue
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


def test_python_and_typescript_read_one_pane_list():
    ts = (REPO / "labextension/src/schema.ts").read_text(encoding="utf-8")
    names = re.search(r"export const PANES = (\[[^\]]*\]) as const;", ts)
    titles = re.search(r"export const PANE_TITLES: Readonly<Record<PaneName, string>> = (\{.*?\});", ts, re.S)
    assert names and titles, "run `npm run build:schema`"
    assert "export type PaneName = (typeof PANES)[number];" in ts
    assert tuple(json.loads(names[1])) == PANES
    assert json.loads(titles[1]) == PANE_TITLES
    assert list(json.loads(titles[1])) == list(PANES)
    assert tuple(p["name"] for p in SCHEMA["x-dynamo-explorer"]["panes"]) == PANES
    assert len(set(PANES)) == len(PANES)
    assert all(re.fullmatch(r"[a-z][a-z0-9-]*", name) for name in PANES)  # usable as data-pane and in file names


def _alternatives(node: dict) -> list[dict]:
    """A schema node with its $ref followed, split into its anyOf / oneOf alternatives."""
    if "$ref" in node:
        return _alternatives(SCHEMA["definitions"][node["$ref"].removeprefix("#/definitions/")])
    if "anyOf" in node or "oneOf" in node:
        return [alt for sub in node.get("anyOf", node.get("oneOf")) for alt in _alternatives(sub)]
    if "items" in node:  # a list of records: its fields are the items' fields
        return _alternatives(node["items"])
    return [node]


def _schema_path(path: str) -> dict | None:
    """The schema node of a dotted report field ('frames.original_bytecode'), or None when there is none."""
    nodes = [SCHEMA]
    for part in path.split("."):
        nodes = [alt["properties"][part] for node in nodes for alt in _alternatives(node) if part in alt.get("properties", {})]
        if not nodes:
            return None
    return nodes[0]


def test_every_field_a_pane_shows_is_in_the_schema():
    assert _schema_path("frames.no_such_field") is None and _schema_path("guards") is None  # the check can fail
    assert _schema_path("error.line") is not None and _schema_path("frames.code.firstlineno") is not None
    assert set(PANE_SHOWS) == set(PANES)
    for pane, shows in PANE_SHOWS.items():
        assert shows, f"{pane} shows nothing"
        for path in shows:
            assert _schema_path(path) is not None, f"pane {pane!r} shows {path!r}, which is no property path of the schema"


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


def test_the_reports_index_follows_appends_and_a_new_list_and_stays_out_of_the_json():
    """``CompileReport.frame`` and ``graphs_of`` look up through an index kept on the report (a trace of 10,000s of
    compiles): frames and graphs appended after a lookup are found, a list put in place of another is indexed anew."""

    def frame(cid: str) -> model.Frame:
        code = model.CodeInfo(name="f", filename="x.py", firstlineno=1, is_resume=False, in_cell=True)
        return model.Frame(compile_id=cid, attempt=0, status="ok", code=code)

    report = model.CompileReport(
        torch_version="", python_version="", device="cpu", backend="eager", options={}, scope="cell",
        scope_reason="", cell={"filename": "x.py", "source": ""},
    )  # fmt: skip
    report.frames.append(frame("0/0"))
    assert report.frame("0/0") is report.frames[0] and report.frame("1/0") is None
    report.frames.append(frame("1/0"))
    assert report.frame("1/0") is report.frames[1]
    g = report.add_graph(compile_id="1/0", kind="dynamo", nodes=[], code="")
    assert report.graphs_of("1/0") == [g] and report.graphs_of("0/0") == [] and report.frames[1].graph_ids == [g.id]
    h = report.add_graph(compile_id="1/0", kind="aot_forward", nodes=[], code="")
    assert report.graphs_of("1/0") == [g, h]
    report.frames = [frame("2/0")]
    assert report.frame("0/0") is None and report.frame("2/0") is report.frames[0]
    assert "_indexes" not in json.dumps(report.to_json())
