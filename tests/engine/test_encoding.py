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


def test_a_big_value_is_gzipped_in_two_halves_any_gzip_reader_takes(monkeypatch):
    """Above ``TWO_ABOVE`` bytes the two halves are deflated at once (``gzip_two``): one gzip stream, read back whole
    by the stdlib and by zlib's gzip mode, its header and trailer gzip's own, and a big report's JSON (orjson's)
    decodes to the report exactly. The browser reads it too (tests/browser/test_standalone.py)."""
    import gzip
    import struct
    import zlib

    from compiler import encoding

    report = _report("toy_example")
    raw = encoding._compact(report)
    assert json.loads(raw) == report and raw == json.dumps(report, separators=(",", ":"), ensure_ascii=False).encode()
    monkeypatch.setattr(encoding, "TWO_ABOVE", 1000)
    for level in (1, 6):
        two = encoding.gzip_two(raw, level)
        assert two != gzip.compress(raw, level, mtime=0)  # not the one-core stream
        assert gzip.decompress(two) == raw == zlib.decompress(two, wbits=31)
        assert two[:4] == b"\x1f\x8b\x08\x00" and struct.unpack("<II", two[-8:]) == (zlib.crc32(raw), len(raw))
    monkeypatch.setattr(encoding, "ENCODE_ABOVE", 1000)
    assert decode_report(encode_report(report)) == report
    odd = {"big": 1 << 70, "text": "é\u2028"}  # what orjson refuses goes through the stdlib
    assert json.loads(encoding._compact(odd)) == odd


def test_a_value_written_in_pieces_is_stored_as_encode_value_stores_it_whole():
    """``TextWriter`` (a string) and ``encode_list`` (a list, a batch at a time) store a value without holding its
    JSON whole: decoded, the value itself; ``encode_value`` hands the stored form on as it is."""
    from compiler.encoding import Encoded, TextWriter, decode_value, encode_list, encode_value

    pieces = ['TREE_GUARD_MANAGER:\n+- "x"\\', "é\u2028\t", "\x01", ""]
    writer = TextWriter()
    for piece in pieces:
        writer.write(piece)
    text = writer.close()
    assert isinstance(text, Encoded) and text.value() == "".join(pieces) and len(text) == len("".join(pieces))
    assert encode_value(text) is text.stored and decode_value(text.stored) == "".join(pieces)
    rows = [{"offset": i, "opname": "LOAD_FAST", "argrepr": f"p{i}"} for i in range(23)]
    for batch in (1, 5, 23, 100):
        stored = encode_list(rows, lambda b: b, batch=batch)
        assert stored.value() == rows and len(stored) == 23
    assert encode_list([], lambda b: b).value() == []
