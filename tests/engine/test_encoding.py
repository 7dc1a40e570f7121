"""The stored form of a big report (compiler/encoding.py): small reports stay plain JSON, big ones are gzip +
base64 in an ``EncodedReport`` the schema describes, and decoding gives the report back exactly."""

from __future__ import annotations

import json
import pathlib

import jsonschema
import pytest

from compiler.encoding import ENCODE_ABOVE, decode_report, encode_report
from compiler.schema import SCHEMA
from kernel_ext.display import bundle

GOLDENS = pathlib.Path(__file__).resolve().parents[1] / "goldens"


def _report(name: str) -> dict:
    return json.loads((GOLDENS / f"{name}.report.json").read_text())


def _encoded_validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator({"$ref": "#/definitions/EncodedReport", "definitions": SCHEMA["definitions"]})


def test_a_small_report_stays_plain():
    report = _report("toy_example")
    assert len(json.dumps(report)) < ENCODE_ABOVE
    assert encode_report(report) is report
    assert decode_report(report) is report


@pytest.mark.parametrize("name", ["training_step", "xss_strings"])
def test_a_big_report_is_stored_encoded_and_decodes_exactly(name):
    report = _report(name)
    stored = encode_report(report, above=0)
    _encoded_validator().validate(stored)
    assert stored["schema_version"] == report["schema_version"]
    assert stored["bytes"] == len(json.dumps(report, separators=(",", ":"), ensure_ascii=False).encode())
    assert decode_report(stored) == report
    assert encode_report(report, above=0) == stored  # deterministic: a re-run notebook does not change for nothing
    assert len(json.dumps(stored)) < len(json.dumps(report)) / 3


def test_an_unknown_encoding_names_the_fix():
    stored = {**encode_report(_report("toy_example"), above=0), "encoding": "zstd+base64"}
    with pytest.raises(ValueError, match=r"unknown report encoding 'zstd\+base64'.*upgrade dynamo-explorer"):
        decode_report(stored)


def test_the_notebook_bundle_stores_a_big_report_encoded(monkeypatch):
    from compiler import MIME_TYPE, encoding

    report = _report("training_step")
    assert bundle(report)[MIME_TYPE] == report
    monkeypatch.setattr(encoding, "ENCODE_ABOVE", 1000)
    shown = bundle(report)
    assert shown[MIME_TYPE]["encoding"] == "gzip+base64" and decode_report(shown[MIME_TYPE]) == report
    assert "<details" in shown["text/html"]  # the static view is made from the report, not the stored form
