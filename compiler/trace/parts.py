"""The parts a report read from a trace left in its log, read when a view asks ([Note: a trace's big guard trees]).

A part of ``parts_cut`` with a ``log`` (``LogSpan``) is a frame's guard tree (``guard_tree``: its text) or its rows
(``guards``: parsed from the tree as a small tree's are, ``rows_from_tree``), kept 0 in the report. ``load(cut,
filename)`` reads one from the log (the JSON the report would have held); ``resolve(report)`` puts every one into the
report in place (a diff: what compares the whole); ``loaders(report)`` gives one loader a part, by its key, for a
kernel that answers a view (kernel_ext/open_trace.py); ``page_parts(report)`` the trees a ``--html`` page holds,
compressed, its view deriving the rows (labextension/src/model/guardTree.ts), which ``PageTrees`` compresses while the
log is read (``open --html``). Imports no torch.
"""

from __future__ import annotations

import base64
import collections
import concurrent.futures
import functools
import gzip
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..collectors.guards.guards import parse_tree, rows_from_tree
from .panes import tabbed_tree, tree_text
from .reader import payload_of, read_lines, read_span

__all__ = ["PageBlob", "PageTrees", "PartGone", "load", "loaders", "page_parts", "resolve"]


class PartGone(OSError):
    """The log a part is in cannot be read any more (moved, deleted, cut): the message names the fix."""


def _in_log(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in report.get("parts_cut") or [] if c.get("log")]


def _where(cut: dict[str, Any]) -> tuple[str, int, int]:
    """Where a part left in a log is: the log's path, the offset and length of its lines (``PageTrees.hold``'s key;
    what ``reader.read_span`` reads)."""
    span = cut["log"]
    return (span["path"], span["offset"], span["length"])


def _filenames(report: dict[str, Any]) -> dict[str, str]:
    """Each frame's file, by compile id (a guard's user line is a line of it)."""
    return {str(f.get("compile_id")): str((f.get("code") or {}).get("filename") or "") for f in report.get("frames") or []}


def _tree(cut: dict[str, Any]) -> str:
    """The guard tree whose payload ``cut["log"]`` names, as a report holds it; ``PartGone`` when it cannot be read."""
    path, offset, length = _where(cut)
    try:
        return tree_text(read_span(path, (offset, length)))
    except OSError as exc:
        raise PartGone(
            f"{cut['part']} of [{cut['compile_id']}]: cannot read the trace's log {path} ({exc}); "
            "open the trace again where its log is"
        ) from None


def load(cut: dict[str, Any], filename: str) -> Any:
    """The whole part ``cut`` (one of a report's ``parts_cut``, its ``log`` set) as the report would hold it: the
    guard tree's text, or its rows as JSON (``filename``: the frame's file, for the guards' user lines)."""
    tree = _tree(cut)
    if cut["part"] == "guard_tree":
        return tree
    from ..model import json_ready

    return json_ready(rows_from_tree(parse_tree(tree, filename)))


def resolve(report: dict[str, Any]) -> int:
    """Put every part the report left in its log into the report (each frame's guard rows and tree, whole), drop
    them from ``parts_cut``; how many were put in. Raises ``PartGone`` when a log cannot be read."""
    cuts = _in_log(report)
    frames = {f.get("compile_id"): f for f in report.get("frames") or []}
    files = _filenames(report)
    for cut in cuts:
        frame = frames.get(cut["compile_id"])
        if frame is not None:
            frame["guards" if cut["part"] == "guards" else "guard_tree"] = load(cut, files[cut["compile_id"]])
    if cuts:
        report["parts_cut"] = [c for c in report["parts_cut"] if not c.get("log")]
    return len(cuts)


def loaders(report: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """One loader a part the report left in its log, by the part's key (``PartCut.key``)."""
    files = _filenames(report)
    return {cut["key"]: functools.partial(load, cut, files.get(cut["compile_id"], "")) for cut in _in_log(report)}


@dataclass(frozen=True, slots=True)
class PageBlob:
    """A tree as a page holds it, compressed before the page is made (``PageTrees``): one of ``page_parts``'s blobs."""

    blob: Any


class PageTrees:
    """The big guard trees of the logs being read, compressed for a page as they stream by (``open --html``;
    ``build.report_from_log`` hands each one over): one thread compresses while the reading goes on (zlib lets go of
    the GIL), at most ``_AHEAD`` trees wait (their bytes held). ``parts(reports)``: each of their parts' blob, by key,
    for ``page_parts``. Close it (a ``with``) to let its thread go."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="page-trees")
        self._blobs: dict[tuple[str, int, int], concurrent.futures.Future[Any]] = {}
        self._waiting: collections.deque[concurrent.futures.Future[Any]] = collections.deque()

    def hold(self, where: tuple[str, int, int], tree: bytes | str) -> None:
        """Compress ``tree`` (``panes.lazy_tree``'s), whose lines are at ``where`` (the log's absolute path, offset,
        length), for a page."""
        while self._waiting and (len(self._waiting) >= _AHEAD or self._waiting[0].done()):
            self._waiting.popleft().result()
        self._blobs[where] = future = self._pool.submit(_blob, tree)
        self._waiting.append(future)

    def parts(self, reports: Iterable[dict[str, Any]]) -> dict[str, PageBlob]:
        """The blob of each part the ``reports`` left in their logs that was compressed here, by the part's key."""
        out: dict[str, PageBlob] = {}
        done: dict[tuple[str, int, int], PageBlob] = {}
        for report in reports:
            for cut in _in_log(report):
                where = _where(cut)
                if where not in done and where in self._blobs:
                    done[where] = PageBlob(self._blobs[where].result())
                if where in done:
                    out[cut["key"]] = done[where]
        return out

    def __enter__(self) -> PageTrees:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.shutdown(cancel_futures=True)


_AHEAD = 16  # trees handed over and not compressed yet, at most (about 0.5 MB each on a 12-layer encoder)


def page_parts(report: dict[str, Any], ready: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """What a page holds of the parts ``report`` left in its log (kernel_ext/export.py): ``{"keys": {key: blob index},
    "blobs": [...]}``, one blob a tree for its text and its rows (the view derives the rows, as ``load`` does): the
    usual tree as ``{"tabbed": the base64 of the gzip of its lines as the log holds them}`` (``panes.tabbed_tree``:
    the view drops each line's tab), any other as its text, gzip + base64 above 256 KB; a tree whose log cannot be
    read is not held (its Load all says so). ``ready``: parts by key, a ``PageBlob`` for a tree compressed as the log
    was read (``PageTrees``); the others are read again and compressed two at a time (zlib lets go of the GIL), at
    gzip's level 1 (twice as fast as 6, half as big again). None: the report left nothing in a log."""
    keys: dict[str, int] = {}
    blobs: list[Any] = []
    at: dict[tuple[str, int, int], int] = {}
    batch: list[bytes | str | PageBlob] = []  # trees read, not yet compressed: a few at a time, not a log's hundreds of MB
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for cut in _in_log(report):
            where = _where(cut)
            held = (ready or {}).get(cut["key"])
            if where not in at and isinstance(held, PageBlob):
                at[where] = len(blobs) + len(batch)
                batch.append(held)
            elif where not in at:
                try:
                    lines = read_lines(where[0], where[1:])
                except OSError:
                    continue
                at[where] = len(blobs) + len(batch)
                tabbed = tabbed_tree(lines)
                batch.append(tabbed if tabbed is not None else tree_text(payload_of(lines)))
                if len(batch) == _BATCH:
                    blobs += pool.map(_blob, batch)
                    batch = []
            keys[cut["key"]] = at[where]
        blobs += pool.map(_blob, batch)
    return {"keys": keys, "blobs": blobs} if keys else None


_BATCH = 8  # trees compressed at once, two by two


def _blob(tree: bytes | str | PageBlob) -> Any:
    """One tree as a page holds it (``page_parts``)."""
    import orjson

    if isinstance(tree, PageBlob):
        return tree.blob

    from ..encoding import ENCODE_ABOVE, encode_json

    if isinstance(tree, bytes):
        return {"tabbed": base64.b64encode(gzip.compress(tree, compresslevel=1, mtime=0)).decode("ascii")}
    raw = orjson.dumps(tree)  # the same JSON as the stdlib's, 8 times as fast
    return encode_json(raw, level=1) if len(raw) > ENCODE_ABOVE else tree
