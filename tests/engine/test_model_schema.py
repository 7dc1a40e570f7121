"""The Python model (``compiler/model/``) against the JSON Schema, field by field and type by type (issue 40 item 3).

Which definition a dataclass is checked against: the dataclass ``X`` serializes to the schema's ``definitions/X``
(``json_ready`` writes every field that does not start with ``_`` under its own name), and ``CompileReport`` to the
schema's root (its ``title``). ``test_every_class_and_definition_is_paired`` holds that convention both ways: each
dataclass has its definition, each object definition without a dataclass is in ``NOT_MODELLED`` with the reason, and
each enum definition (``FrameStatus``, ``GraphKind``, ``PhaseKind``) is a ``Literal`` alias of its name.

For each dataclass and its definition (types from ``typing.get_type_hints``):
- every schema property has a field and every field a property, but for ``EXCEPTIONS`` (each with its reason);
- a property the schema does not require has a default (old reports lack it; a reader builds the object without it).
  A required property may have a default too (``frames: list[Frame] = field(default_factory=list)``): ``json_ready``
  writes every field, so it is always there; the default is the builders' convenience. Every default (or what its
  factory makes) is itself valid for the property;
- the schema allows null exactly where the field is ``X | None``;
- the types match: string ``str``, integer ``int``, number ``float``, boolean ``bool``, array ``list[...]`` of the
  items' type, an object of ``additionalProperties`` ``dict[str, ...]``, a ``$ref`` to an object the dataclass of
  that name (or ``dict[str, V]`` for one in ``NOT_MODELLED``, each of its properties of type ``V``; ``Any`` only as
  such a ``V``), an ``enum`` or ``const`` a ``Literal`` of exactly its values (a ``$ref`` to an enum definition: the
  alias of that name).

``test_the_check_finds_...`` run the same check on a schema and a model changed on one side: it must complain.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints

import jsonschema
import pytest

from compiler import model
from compiler.model import kinds
from compiler.schema import SCHEMA

CLASSES = sorted(
    (
        c
        for c in vars(model).values()
        if dataclasses.is_dataclass(c) and isinstance(c, type) and c.__module__.startswith(model.__name__)
    ),
    key=lambda c: c.__name__,
)

#: (class, schema property) without a field, and why
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("CompileReport", "schema_version"): "CompileReport.to_json() writes it from compiler.schema.SCHEMA_VERSION",
    ("Graph", "dot"): "deprecated: not written since minor 4 (the renderer builds the DOT itself)",
    ("DynamoReset", "next_frame_id"): "deprecated: written by minors 8 to 13 only",
    ("ExportCall", "graph_code"): "deprecated: written by minor 21 only (since, the code of its graph: graph_id)",
}

#: object definitions without a dataclass, and why (a field may hold one as ``dict[str, V]``)
NOT_MODELLED: dict[str, str] = {
    "SchemaVersion": "CompileReport.to_json() writes it from compiler.schema.SCHEMA_VERSION",
    "RunOptions": "CompileReport.options: compiler.options.RunOptions.to_json(), a dict",
    "CellSource": "CompileReport.cell: a dict {filename, source}",
    "RunTimings": "CompileReport.timings: a dict of seconds",
    "Callee": "CompileReport.callees: dicts the calls scope builds (compiler/calls.py)",
    "CompileSettings": "a Callee's compile: inside those dicts",
    "RanksView": "CompileReport.ranks: built on the reports' JSON (compiler/ranks.py)",
    "RankSummary": "inside RanksView",
    "RankCompile": "inside RanksView",
    "Collective": "inside RanksView",
    "Divergence": "inside RanksView",
    "EncodedReport": "not in a report: the envelope of an encoded one (compiler/encoding.py)",
}

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}
_NONE = type(None)


def _definitions(schema: dict[str, Any]) -> dict[str, Any]:
    return schema["definitions"]


def _definition_of(cls: type, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The definition ``cls`` serializes to: the root for ``CompileReport`` (the schema's title), else its name's."""
    return schema if cls.__name__ == schema["title"] else _definitions(schema).get(cls.__name__)


def _is_enum_definition(spec: dict[str, Any]) -> bool:
    return "properties" not in spec and ("enum" in spec or "const" in spec)


def _hints(cls: type) -> dict[str, Any]:
    # teaching.py imports CodeInfo and Instruction under TYPE_CHECKING only: resolve names in the package
    return get_type_hints(cls, localns=vars(model))


def _validator(spec: dict[str, Any], schema: dict[str, Any]) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator({"definitions": _definitions(schema), "allOf": [spec]})


def _show(tp: Any) -> str:
    return tp.__name__ if isinstance(tp, type) and get_origin(tp) is None else repr(tp).replace("typing.", "")


def _short(spec: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in spec.items() if k not in ("description", "title")})[:160]


def _split_optional(tp: Any) -> tuple[Any, bool]:
    """(``tp`` without ``None``, whether it had it)."""
    if get_origin(tp) in (typing.Union, types.UnionType) and _NONE in get_args(tp):
        rest = tuple(a for a in get_args(tp) if a is not _NONE)
        return (rest[0] if len(rest) == 1 else typing.Union[rest]), True  # noqa: UP007 - built from a tuple
    return tp, False


def _without_null(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with null taken out of its type, enum, anyOf and oneOf (a one-branch anyOf / oneOf: that branch)."""
    spec = {k: v for k, v in spec.items() if k not in ("description", "title", "deprecated")}
    for key in ("anyOf", "oneOf"):
        if key in spec:
            rest = [s for s in spec.pop(key) if s != {"type": "null"}]
            if len(rest) == 1:
                spec.update(rest[0])
            else:
                spec[key] = rest
    if isinstance(spec.get("type"), list):
        kept = [t for t in spec["type"] if t != "null"]
        spec["type"] = kept[0] if len(kept) == 1 else kept
    if "const" in spec:
        spec["enum"] = [spec.pop("const")]
    if "enum" in spec:
        spec["enum"] = [v for v in spec["enum"] if v is not None]
    return spec


def _enum_difference(values: list[Any], enum: list[Any]) -> str | None:
    """How a Literal's ``values`` differ from the schema's ``enum`` (order aside), or None when they are the same."""
    if sorted(values, key=repr) == sorted(enum, key=repr):
        return None
    return f"only in the schema {[v for v in enum if v not in values]}, only in Python {[v for v in values if v not in enum]}"


def _type_problems(tp: Any, spec: dict[str, Any], where: str, schema: dict[str, Any]) -> list[str]:
    """What does not match between the Python type ``tp`` and the property schema ``spec``, null included."""
    inner, optional = _split_optional(tp)
    nullable = _validator(spec, schema).is_valid(None)
    problems = []
    if nullable != optional:
        says = "allows null" if nullable else "does not allow null"
        problems.append(f"{where}: the schema {says} ({_short(spec)}) but the Python type is {_show(tp)}")
    return problems + _match(inner, _without_null(spec), where, schema)


def _match(tp: Any, spec: dict[str, Any], where: str, schema: dict[str, Any]) -> list[str]:
    """What does not match between ``tp`` and ``spec``, both without null."""
    defs = _definitions(schema)
    here = f"{where}: Python {_show(tp)} vs schema {_short(spec)}"
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        target = defs[name]
        if _is_enum_definition(target):
            return _match(tp, _without_null(target), f"{where} ({name})", schema)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return [] if tp.__name__ == name else [f"{here}: the dataclass {tp.__name__} is not {name}"]
        if get_origin(tp) is dict and name in NOT_MODELLED:
            return _match(tp, {"type": "object", "properties": target.get("properties", {})}, where, schema)
        return [f"{here}: a $ref to {name} needs the dataclass {name}" + (" (or a dict)" if name in NOT_MODELLED else "")]
    if get_origin(tp) is Literal or "enum" in spec:
        if get_origin(tp) is not Literal:
            return [f"{here}: the schema lists the values {spec['enum']}: the field must be a Literal of them"]
        if "enum" not in spec:
            return [f"{here}: a Literal, but the schema has no enum"]
        differs = _enum_difference(list(get_args(tp)), spec["enum"])
        return [f"{where}: the enum differs: {differs}"] if differs else []
    kind = spec.get("type")
    if isinstance(kind, list):  # several types, e.g. a shape's dims: integer or string
        wanted = {_SCALARS.get(k) for k in kind}
        got = set(get_args(tp)) if get_origin(tp) in (typing.Union, types.UnionType) else {tp}
        return [] if wanted == got else [f"{here}: expected the union of {sorted(kind)}"]
    if kind in _SCALARS:
        return [] if tp is _SCALARS[kind] else [f"{here}: expected {_SCALARS[kind].__name__}"]
    if kind == "array":
        if get_origin(tp) is not list:
            return [f"{here}: expected a list"]
        return _type_problems(get_args(tp)[0], spec.get("items", {}), f"{where}[]", schema)
    if kind == "object":
        if get_origin(tp) is not dict or get_args(tp)[0] is not str:
            return [f"{here}: expected dict[str, ...]"]
        value = get_args(tp)[1]
        if value is Any:  # a dict the model leaves untyped: RunOptions.to_json(), dynamo_counters, a rank view
            return []
        problems = []
        for name, sub in spec.get("properties", {}).items():
            problems += _type_problems(value, sub, f"{where}.{name}", schema)
        extra = spec.get("additionalProperties")
        if isinstance(extra, dict):
            problems += _type_problems(value, extra, f"{where}[*]", schema)
        return problems
    return [f"{here}: the check knows no such schema type"]


def _problems(cls: type, schema: dict[str, Any] = SCHEMA) -> list[str]:
    """Every difference between ``cls`` and the definition it serializes to, one line each."""
    definition = _definition_of(cls, schema)
    if definition is None:
        return [f"{cls.__name__}: the schema has no definition of this name (the dataclass X serializes to definitions/X)"]
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.name.startswith("_")}  # `_x`: never serialized
    properties: dict[str, Any] = definition["properties"]
    required = set(definition.get("required", []))
    problems = []
    for name, spec in properties.items():
        if (cls.__name__, name) in EXCEPTIONS:
            if name in fields:
                problems.append(f"{cls.__name__}.{name}: listed in EXCEPTIONS but the field exists: drop the exception")
            continue
        if name not in fields:
            need = "a field" if name in required else "a field with a default (the schema does not require it)"
            problems.append(
                f"{cls.__name__}.{name}: the schema has this property ({_short(spec)}) but compiler/model has no field: "
                f"add {need}"
            )
    for name, f in fields.items():
        where = f"{cls.__name__}.{name}"
        spec = properties.get(name)
        if spec is None:
            problems.append(f"{where}: a field the schema does not have: add the property to the schema or drop the field")
            continue
        problems += _type_problems(hints[name], spec, where, schema)
        ref = _without_null(spec).get("$ref", "")
        if ref and _is_enum_definition(_definitions(schema)[ref.rsplit("/", 1)[-1]]):
            alias = ref.rsplit("/", 1)[-1]
            if alias not in str(f.type):
                problems.append(f"{where}: the schema's {alias}: type the field with the alias {alias} ({f.type})")
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        if name not in required and not has_default:
            problems.append(f"{where}: the schema does not require it: the field needs a default")
        if has_default:
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            if not _validator(spec, schema).is_valid(model.json_ready(default)):
                problems.append(f"{where}: the default {default!r} is not valid for {_short(spec)}")
    return problems


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_the_dataclass_matches_its_schema_definition(cls):
    problems = _problems(cls)
    assert not problems, f"compiler/model/ and {cls.__name__}'s schema definition differ:\n  " + "\n  ".join(problems)


def test_every_class_and_definition_is_paired():
    defs = _definitions(SCHEMA)
    names = {c.__name__ for c in CLASSES}
    assert SCHEMA["title"] in names
    unpaired = sorted(n for n in names if n != SCHEMA["title"] and n not in defs)
    assert not unpaired, f"dataclasses without a schema definition of their name: {unpaired}"
    objects = {n for n, d in defs.items() if not _is_enum_definition(d)}
    unmodelled = sorted(objects - names - set(NOT_MODELLED))
    assert not unmodelled, f"schema definitions without a dataclass (add one, or list it in NOT_MODELLED with why): {unmodelled}"
    stale = sorted(n for n in NOT_MODELLED if n in names or n not in objects)
    assert not stale, f"NOT_MODELLED names a definition that has a dataclass or is gone: {stale}"
    for cls_name, prop in EXCEPTIONS:
        assert prop in _definition_of(getattr(model, cls_name), SCHEMA)["properties"], f"stale exception {cls_name}.{prop}"
    for name, d in defs.items():
        if _is_enum_definition(d):
            alias = getattr(model, name, None)
            assert get_origin(alias) is Literal, f"the schema's enum {name} needs the alias compiler.model.{name} = Literal[...]"
            differs = _enum_difference(list(get_args(alias)), _without_null(d)["enum"])
            assert differs is None, f"compiler.model.{name} and the schema's {name} differ: {differs}"


def test_every_literal_alias_types_a_field():
    """An alias of ``kinds.py`` no field uses is a leftover (and each alias is plain JSON to ``json_ready``)."""
    annotations = {str(f.type) for c in CLASSES for f in dataclasses.fields(c)}
    unused = [a for a in kinds.__all__ if not any(a in t.replace("|", " ").split() for t in annotations)]
    assert not unused, f"aliases no field uses: {unused}"
    for alias in kinds.__all__:
        assert get_origin(getattr(kinds, alias)) is Literal


# --- the check itself: a change on one side only must fail -----------------------------------------------------


def _schema_with(change: Any) -> dict[str, Any]:
    schema = copy.deepcopy(SCHEMA)
    change(schema["definitions"])
    return schema


def test_the_check_finds_a_schema_property_without_a_field():
    schema = _schema_with(lambda d: d["CudaGraph"]["properties"].update(note={"type": ["string", "null"]}))
    assert any("CudaGraph.note: the schema has this property" in p for p in _problems(model.CudaGraph, schema))


def test_the_check_finds_an_enum_changed_in_the_schema_only():
    schema = _schema_with(lambda d: d["CudaGraph"]["properties"]["status"]["enum"].append("evicted"))
    assert any("only in the schema ['evicted']" in p for p in _problems(model.CudaGraph, schema))
    schema = _schema_with(lambda d: d["FrameStatus"]["enum"].remove("empty"))
    assert any("only in Python ['empty']" in p for p in _problems(model.Frame, schema))


def test_the_check_finds_an_enum_or_a_type_changed_in_python_only():
    changed = dataclasses.make_dataclass(
        "PartCut",
        [("key", str), ("part", Literal["guards"]), ("compile_id", str), ("kept", float), ("total", int | None)],
        kw_only=True,
    )
    problems = "\n".join(_problems(changed))
    assert "only in the schema ['guard_tree', 'original_bytecode', 'modified_bytecode', 'graph_code']" in problems
    assert "PartCut.kept: Python float" in problems
    assert "PartCut.total: the schema does not allow null" in problems


def test_the_check_finds_nullability_and_a_missing_default():
    schema = _schema_with(lambda d: d["Kernel"]["required"].remove("source"))
    assert any("Kernel.source: the schema does not require it" in p for p in _problems(model.Kernel, schema))
    schema = _schema_with(lambda d: d["Kernel"]["properties"]["source"].update(type=["string", "null"]))
    assert any("Kernel.source: the schema allows null" in p for p in _problems(model.Kernel, schema))
