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
from typing import Any

from .schema import SCHEMA

__all__ = ["ENCODE_ABOVE", "ENCODING", "decode_report", "encode_json", "encode_report", "encode_value", "gzip_two", "is_encoded"]

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


def encode_value(value: Any, above: int | None = None) -> Any:
    """Any JSON value as stored or sent: itself when its JSON has at most ``above`` (``ENCODE_ABOVE``) bytes, else
    ``{"encoding", "bytes", "data"}`` (a part of a report the kernel hands a view, kernel_ext/parts.py)."""
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
    extra = b"\x04" if level == 1 else b"\x02" if level == 9 else b"\x00"  # gzip's header, as gzip.compress writes it
    return b"\x1f\x8b\x08\x00\x00\x00\x00\x00" + extra + b"\xff" + body + struct.pack("<II", crc, len(raw) & 0xFFFFFFFF)


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
    if data["encoding"] != ENCODING:
        raise ValueError(
            f"unknown report encoding {data['encoding']!r}; this version reads {ENCODING!r}: upgrade dynamo-explorer"
        )
    report: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(data["data"])))
    return report


def write_report(report: dict, path: str) -> None:
    """Write the report as compact UTF-8 JSON with orjson (0.012 s for a 5 MB report, where
    ``json.dump`` took 0.9 s); ``python -m json.tool OUT.json`` pretty-prints it."""
    import orjson

    with open(path, "wb") as fh:
        fh.write(orjson.dumps(report))
