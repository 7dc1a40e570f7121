"""The stored form of a compile report: plain JSON when small, gzip + base64 in an envelope when big.

A report is very repetitive (module paths in guards, node names, bytecode): a 2,000-node report is
4.7 MB of JSON and 0.27 MB compressed (BENCHMARKS.md §4). The notebook output and the standalone HTML
page (``--html``) store a report above ``ENCODE_ABOVE`` bytes as an
``EncodedReport`` (``compiler/schema``: ``schema_version`` in the clear, so a reader can refuse an
unknown major before decoding; ``encoding``; ``data``, the base64 of the gzip of the report's JSON;
``bytes``, the size of that JSON). Smaller reports stay plain JSON, readable and diffable (nbdime).
Readers take both: ``decode_report`` here, ``loadReport`` in ``labextension/src/model/encoding.ts``. ``write_report``
writes a report as a compact JSON file (the CLI's ``--json``).
"""

from __future__ import annotations

import base64
import concurrent.futures
import gzip
import json
import struct
import zlib
from collections.abc import Callable
from typing import Any

from .schema import SCHEMA

__all__ = [
    "ENCODE_ABOVE",
    "ENCODING",
    "Encoded",
    "JsonWriter",
    "TextWriter",
    "decode_report",
    "decode_value",
    "encode_json",
    "encode_list",
    "encode_report",
    "encode_value",
    "gzip_two",
    "is_encoded",
]

#: The one encoding there is (``EncodedReport.encoding`` in the schema).
(ENCODING,) = SCHEMA["definitions"]["EncodedReport"]["properties"]["encoding"]["enum"]
#: Reports whose compact JSON is larger than this many bytes are stored encoded.
ENCODE_ABOVE = 256 * 1024


def _compact(value: Any) -> bytes:
    """``value``'s compact UTF-8 JSON: orjson's (a 61 MB report in 0.06 s where the stdlib took 0.47 s), the
    stdlib's for what orjson refuses (an integer past 64 bits, a key that is not a string)."""
    import orjson

    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


class Encoded:
    """A JSON value already in ``encode_value``'s stored form, never held whole as a value (``TextWriter``: a guard tree
    of 210 MB). ``len()``: the value's length (a string's characters); ``value()``: the value, decoded."""

    __slots__ = ("length", "stored")

    def __init__(self, stored: dict[str, Any], length: int) -> None:
        self.stored = stored
        self.length = length

    def __len__(self) -> int:
        return self.length

    def value(self) -> Any:
        return decode_value(self.stored)


class JsonWriter:
    """A JSON value's text written in pieces (its bytes, ``raw``), stored as ``encode_value`` stores a big value (the
    gzip, then base64, of its JSON) without the text ever being held whole; ``close(length)`` gives its ``Encoded``
    form. ``TextWriter`` writes a string, ``encode_list`` a list."""

    def __init__(self, level: int = 6) -> None:
        self._packer = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        self._level = level
        self._crc = 0
        self._bytes = 0
        self._out: list[bytes] = []

    def raw(self, raw: bytes) -> None:
        self._crc = zlib.crc32(raw, self._crc)
        self._bytes += len(raw)
        self._out.append(self._packer.compress(raw))

    def close(self, length: int) -> Encoded:
        body = b"".join(self._out) + self._packer.flush()
        self._out = []
        packed = _gzip(self._level, body, self._crc, self._bytes)
        stored = {"encoding": ENCODING, "bytes": self._bytes, "data": base64.b64encode(packed).decode("ascii")}
        return Encoded(stored, length)


class TextWriter:
    """A string written in pieces (``write``), never held whole; ``close()`` gives its ``Encoded`` form."""

    def __init__(self, level: int = 6) -> None:
        self._json = JsonWriter(level)
        self._json.raw(b'"')
        self._chars = 0

    def write(self, piece: str) -> None:
        self._chars += len(piece)
        self._json.raw(json.dumps(piece, ensure_ascii=False)[1:-1].encode())  # pieces escaped apart join as the whole

    def close(self) -> Encoded:
        self._json.raw(b'"')
        return self._json.close(self._chars)


def encode_list(items: list[Any], convert: Callable[[list[Any]], Any], batch: int = 10_000) -> Encoded:
    """A long list stored as ``encode_value`` stores it, ``convert`` (``json_ready``) making a batch of its items
    JSON-ready at a time: neither its JSON nor its JSON-ready copy is ever held whole (a 100,000-node graph's frame
    has 539,000 guards and 422,000 instructions; their dicts took more memory than the objects)."""
    import orjson

    writer = JsonWriter()
    writer.raw(b"[")
    for start in range(0, len(items), batch):
        raw = orjson.dumps(convert(items[start : start + batch]))[1:-1]
        writer.raw(b"," + raw if start else raw)
    writer.raw(b"]")
    return writer.close(len(items))


def _gzip(level: int, body: bytes, crc: int, size: int) -> bytes:
    """A gzip stream of the raw deflate ``body`` of ``size`` bytes whose CRC-32 is ``crc``: the header as
    ``gzip.compress(..., mtime=0)`` writes it, the body, the trailer."""
    extra = b"\x04" if level == 1 else b"\x02" if level == 9 else b"\x00"
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00" + extra + b"\xff"
    return header + body + struct.pack("<II", crc, size & 0xFFFFFFFF)


def encode_value(value: Any, above: int | None = None) -> Any:
    """Any JSON value as stored or sent: itself when its JSON has at most ``above`` (``ENCODE_ABOVE``) bytes, else
    ``{"encoding", "bytes", "data"}`` (a part of a report the kernel hands a view, kernel_ext/parts.py); an
    ``Encoded`` value is that already."""
    if isinstance(value, Encoded):
        return value.stored
    raw = _compact(value)
    if len(raw) <= (ENCODE_ABOVE if above is None else above):
        return value
    return encode_json(raw)


def encode_json(raw: bytes, level: int = 6) -> dict[str, Any]:
    """JSON text already written (``raw``, UTF-8) as ``encode_value`` stores a big value; ``level``: gzip's (1: twice
    as fast, a half bigger: a page's guard trees, hundreds of MB)."""
    return {"encoding": ENCODING, "bytes": len(raw), "data": base64.b64encode(gzip_two(raw, level)).decode("ascii")}


#: above this many bytes ``gzip_two`` deflates two halves at once
TWO_ABOVE = 4 << 20


def gzip_two(raw: bytes, level: int = 6) -> bytes:
    """``raw`` gzipped, on two cores above ``TWO_ABOVE`` bytes (as pigz does): each half deflated on its own (zlib lets
    go of the GIL), the first ended on a byte boundary, not last (a sync flush), the second the last block; one
    stream any gzip reader takes (the browser's ``DecompressionStream``), a few hundred bytes bigger than
    ``gzip.compress``'s (the second half does not look back into the first). A 61 MB report at level 6: 0.25 s."""
    if len(raw) <= TWO_ABOVE:
        return gzip.compress(raw, compresslevel=level, mtime=0)
    half = memoryview(raw)[len(raw) // 2 :]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        tail = pool.submit(_deflate, half, level, True)
        head = _deflate(memoryview(raw)[: len(raw) // 2], level, False)
        crc = zlib.crc32(raw)
        body = head + tail.result()
    return _gzip(level, body, crc, len(raw))


def _deflate(piece: memoryview, level: int, last: bool) -> bytes:
    packer = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(piece) + packer.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def encode_report(report: dict[str, Any], above: int | None = None) -> dict[str, Any]:
    """``report`` as stored: itself when its JSON has at most ``above`` (``ENCODE_ABOVE``) bytes, else an ``EncodedReport``."""
    stored = encode_value(report, above)
    if stored is report:
        return report
    return {"schema_version": report["schema_version"], **stored}


def is_encoded(data: dict[str, Any]) -> bool:
    return "encoding" in data and "data" in data


def decode_report(data: dict[str, Any]) -> dict[str, Any]:
    """The report in ``data`` (a plain report or an ``EncodedReport``)."""
    if not is_encoded(data):
        return data
    report: dict[str, Any] = decode_value(data)
    return report


def decode_value(data: Any) -> Any:
    """The value ``encode_value`` stored as ``data``."""
    if not isinstance(data, dict) or not is_encoded(data):
        return data
    if data["encoding"] != ENCODING:
        raise ValueError(
            f"unknown report encoding {data['encoding']!r}; this version reads {ENCODING!r}: upgrade dynamo-explorer"
        )
    return json.loads(gzip.decompress(base64.b64decode(data["data"])))


def write_report(report: dict, path: str) -> None:
    """Write the report as compact UTF-8 JSON with orjson (0.012 s for a 5 MB report, where
    ``json.dump`` took 0.9 s); ``python -m json.tool OUT.json`` pretty-prints it."""
    import orjson

    with open(path, "wb") as fh:
        fh.write(orjson.dumps(report))
