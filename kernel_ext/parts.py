"""What reports hold only in part, kept whole in the kernel, and handed to a view that asks (issue 24); and each
rank's whole report of a multi-rank trace the kernel opened (``open_trace``: ``RankSummary.part``), for the ranks
view to show another rank in place.

A report keeps a frame's first 5,000 guards and the first 1 MB of its guard tree (``report["parts_cut"]``);
``compiler.run_cell`` returns the whole of each (``CellRun.parts``). The kernel keeps them here, and a view
asks for one by its key when the user opens it:
- the widget (kernel_ext/widget.py) through its own comm: ``{"kind": "part?", "key"}``;
- our JupyterLab renderer, which has no widget, through a comm of target ``COMM_TARGET`` that ``%load_ext
  kernel_ext`` registers: it opens one with ``{"key"}`` and gets one message back.
Both answer ``answer(key)``: ``{"key", "part": the JSON of the whole part, stored as ``compiler.encoding`` stores a
big report (gzip + base64 above 256 KB), "error": None}``, or ``part`` None and a one-line ``error`` when the part
is no longer kept.

A report read from a trace leaves a big guard tree in its log (``PartCut.log``, compiler/trace/parts.py): ``open_trace``
keeps a loader for each such part here (a callable: the log is read and the part parsed when a view asks, then kept).

[Note: an output completed once drawn] An output holds its parts within 4 MB at first (``held``: a bigger one makes
JupyterLab's first view slower); those past it are written into the output once the view is drawn, so a saved notebook
holds every part (every guard) and loads it without a kernel. ``shown(stored, held, display_id, bundle)`` keeps what
the output was shown with while it lacks a part; the drawn renderer asks (``{"complete": a part's key}`` on a comm of
``COMM_TARGET``), and ``complete(key)`` updates the display in place (``update_display_data``: JupyterLab hands the
new data to the renderer drawn, which keeps its view) with the bundle and every part, once, then lets the bundle go.
A notebook run with no one to draw it (nbclient) keeps the parts within 4 MB.

Contents: ``keep(parts)``, ``held(stored)``, ``shown(...)``, ``complete(key)``, ``answer(key)``,
``register_comm_target(shell)``, ``COMM_TARGET``, ``KEEP_RUNS``.
Only the parts of the last ``KEEP_RUNS`` runs are kept, encoded (their JSON text: nothing of the user's).
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

__all__ = ["COMM_TARGET", "KEEP_RUNS", "answer", "complete", "held", "keep", "register_comm_target", "shown"]

COMM_TARGET = "dynamo_explorer.parts"
#: runs whose parts stay in the kernel (a 385-layer model's frame: ~54,000 guards and a 21 MB tree)
KEEP_RUNS = 8

_runs: deque[dict[str, Any]] = deque(maxlen=KEEP_RUNS)  # oldest first; a new run pushes the oldest out
_lock = threading.Lock()


def keep(parts: dict[str, Any]) -> dict[str, Any]:
    """Keep one run's parts (``CellRun.parts``) in the form they are sent in, dropping the oldest run's beyond
    ``KEEP_RUNS``; that form, by key. Stored encoded: a 385-layer model's parts are 43 MB as rows and text, 2 MB gzipped (BENCHMARKS §12)."""
    if not parts:
        return {}
    stored = {}
    for key, whole in parts.items():
        try:
            stored[key] = whole if callable(whole) else _stored(whole)
        except Exception:  # noqa: BLE001 - a part that cannot be kept is answered as gone; the cell's result stands
            continue
    with _lock:
        _runs.append(stored)
    return stored


#: stored bytes of parts an output holds beside its report, at most ([Note: parts in an output])
OUTPUT_PARTS_BYTES = 4 << 20
#: a budget that holds every part (``%%dynamo --all-parts``; an output completed once drawn)
EVERY_PART = 1 << 62


def held(stored: dict[str, Any], budget: int | None = None) -> dict[str, Any] | None:
    """[Note: parts in an output] What an output holds of one run's parts as ``keep`` stored them (``display.bundle``,
    under ``PARTS_MIME_TYPE``: a saved notebook loads them without a kernel), in the shape of an ``--html`` page's
    ([Note: parts in a page]): ``{"keys": {key: blob index}, "blobs": [...]}``; None when there is none (a part a
    trace left in its log is read when asked, not held). At most ``budget`` (``OUTPUT_PARTS_BYTES``) stored bytes,
    the smallest parts first: JupyterLab takes every byte of an output into the notebook's model before it draws it
    (a 100,000-node graph's 24 MB of parts made its first view 0.8 s slower: BENCHMARKS.md §2); a part left out is
    loaded from the kernel while it keeps it, and an ``--html`` page holds every one."""
    limit = OUTPUT_PARTS_BYTES if budget is None else budget
    sizes = {key: _size(value) for key, value in stored.items() if not callable(value)}
    kept: dict[str, Any] = {}
    used = 0
    for key in sorted(sizes, key=sizes.__getitem__):
        if used + sizes[key] <= limit:
            kept[key], used = stored[key], used + sizes[key]
    return {"keys": {key: i for i, key in enumerate(kept)}, "blobs": list(kept.values())} if kept else None


@dataclass
class _Shown:
    """An output shown with fewer parts than its run kept ([Note: an output completed once drawn])."""

    display_id: str
    bundle: dict[str, Any]  # what it was shown with, its parts left out
    stored: dict[str, Any]  # the run's parts as ``keep`` stored them


#: outputs that lack a part, by each key they lack (the last KEEP_RUNS of them)
_shown: dict[str, _Shown] = {}
_shown_order: deque[_Shown] = deque()


def shown(stored: dict[str, Any], held: dict[str, Any] | None, display_id: str | None, bundle: dict[str, Any]) -> bool:
    """Remember an output shown (``display_id``) with ``bundle`` and the parts ``held`` of ``stored`` when it lacks
    one that could be held, for ``complete``; True when it does."""
    have = set((held or {}).get("keys") or ())
    lacking = [key for key, value in stored.items() if key not in have and not callable(value)]
    if not lacking or not display_id:
        return False
    from compiler.schema import PARTS_MIME_TYPE

    entry = _Shown(display_id, {k: v for k, v in bundle.items() if k != PARTS_MIME_TYPE}, stored)
    with _lock:
        _shown_order.append(entry)
        for key in lacking:
            _shown[key] = entry
        while len(_shown_order) > KEEP_RUNS:
            _forget(_shown_order[0])
    return True


def _forget(entry: _Shown) -> None:
    """Drop ``entry`` (under the lock)."""
    with contextlib.suppress(ValueError):
        _shown_order.remove(entry)
    for key in [k for k, e in _shown.items() if e is entry]:
        del _shown[key]


def complete(key: Any) -> dict[str, Any]:
    """Put every part into the output that lacks the part ``key`` ([Note: an output completed once drawn]): its display
    updated in place (IPython's ``update_display``), once. The answer: ``{"key", "held": how many parts the output
    holds now, "error"}``."""
    with _lock:
        entry = _shown.get(key) if isinstance(key, str) else None
        if entry is not None:
            _forget(entry)
    if entry is None:
        return {"key": key, "held": None, "error": "the kernel keeps no output that lacks this part"}
    from compiler.schema import PARTS_MIME_TYPE

    every = held(entry.stored, budget=EVERY_PART)
    data = {**entry.bundle, PARTS_MIME_TYPE: every} if every else entry.bundle
    try:
        from IPython.display import update_display

        update_display(data, display_id=entry.display_id, raw=True)
    except Exception as exc:  # noqa: BLE001 - the output keeps the parts it has; the kernel goes on
        return {"key": key, "held": None, "error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
    return {"key": key, "held": len(every["keys"]) if every else 0, "error": None}


def _size(value: Any) -> int:
    """About how many bytes a stored part takes in an output."""
    if isinstance(value, dict) and isinstance(value.get("data"), str):
        return len(value["data"])
    import orjson

    try:
        return len(orjson.dumps(value))
    except TypeError:
        return EVERY_PART + 1  # not JSON as it is: never held


def _stored(whole: Any) -> Any:
    """A part as it goes to a view: its JSON, gzip + base64 above 256 KB (``compiler.encoding.encode_value``)."""
    from compiler.encoding import encode_value
    from compiler.model import json_ready

    return encode_value(json_ready(whole))


def answer(key: Any) -> dict[str, Any]:
    """The message that answers a view's request for the part ``key``."""
    stored, run = None, None
    if isinstance(key, str):
        with _lock:
            run = next((run for run in reversed(_runs) if key in run), None)
            stored = run[key] if run is not None else None
    if callable(stored):  # a part a trace left in its log: read it now, keep what was read
        try:
            stored = _stored(stored())
        except Exception as exc:  # noqa: BLE001 - the view says why in one line; the kernel goes on
            return {"key": key, "part": None, "error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
        with _lock:
            if run is not None:
                run[key] = stored
    if stored is None:
        return {
            "key": key,
            "part": None,
            "error": "this part is no longer kept in the kernel (it keeps the last "
            f"{KEEP_RUNS} runs' and loses them on a restart): run the cell again to load it",
        }
    return {"key": key, "part": stored, "error": None}


def register_comm_target(shell: Any) -> None:
    """Answer our JupyterLab renderer's requests (a comm of target ``COMM_TARGET`` per request); no kernel (a
    terminal IPython): nothing to register."""
    kernel = getattr(shell, "kernel", None)
    manager = getattr(kernel, "comm_manager", None)
    if manager is None:
        return

    def opened(comm: Any, message: dict[str, Any]) -> None:
        data = message.get("content", {}).get("data") or {}
        try:
            comm.send(complete(data["complete"]) if "complete" in data else answer(data.get("key")))
        finally:
            comm.close()

    manager.register_target(COMM_TARGET, opened)
