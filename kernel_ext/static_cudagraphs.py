"""The static view's CUDA graphs part (``report.cudagraphs``, schema minor 8): in each frame, what became of CUDA graphs
for every graph it compiled under reduce-overhead, as plain HTML.

The same content as the frame title's row in the JupyterLab view (``labextension/src/cudagraphs.ts``): per compiled
graph (forward, backward, inference) its state (recorded, re-recorded, skipped, not recorded), inductor's own reason in
full (the first line) with what it means, the backward skipped with its forward, the recordings, the re-record
reasons, and with ``--profile`` the replays versus eager runs. A frame without rows gets nothing; the one-line summary
of the header says it for the whole run (``compiler.summary.cudagraphs_line``).

Contents: ``cudagraphs_frame(frame, cell) -> str`` (a ``StaticSection.frame`` part of the frames pane). Every string
from the report goes through ``_e`` ([Note: escaping] in static_html.py).
"""

from __future__ import annotations

from typing import Any

from .static_chart import escape as _e

__all__ = ["cudagraphs_frame"]

_STATUS = {"recorded": "recorded", "rerecorded": "re-recorded", "skipped": "skipped", "not_recorded": "not recorded"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _item(row: dict[str, Any]) -> str:
    status = str(row.get("status"))
    parts = [f"<b>{_e(row.get('kind'))}</b>: {_e(_STATUS.get(status, status))}"]
    reason = str(row.get("reason") or "").strip().split("\n", 1)[0]
    if status == "skipped":
        where = " at run time" if row.get("skipped_at") == "run" else ""
        forward = " with its forward" if row.get("from_forward") else ""
        if reason:
            parts.append(f'{forward}{where}: inductor says <span class="dx-mono">{_e(reason)}</span>')
        elif forward or where:
            parts.append(forward + where)
    else:
        counts = [_plural(int(row.get("recordings") or 0), "recording")]
        if (row.get("partitions") or 0) > 1:
            counts.append(_plural(int(row["partitions"]), "partition"))
        if status == "not_recorded":
            counts = [_plural(int(row.get("warmups") or 0), "warm-up")]
        parts.append(f" ({_e(', '.join(counts))})")
    if row.get("calls") is not None:
        parts.append(
            f" · {_e(_plural(int(row.get('replays') or 0), 'replay'))} / "
            f"{_e(_plural(int(row.get('eager_runs') or 0), 'eager run'))} of {_e(_plural(int(row['calls']), 'call'))}"
        )
    if row.get("explanation"):
        parts.append(f' <span class="dx-meta">— {_e(row["explanation"])}</span>')
    again = row.get("rerecord_reasons") or []
    if again:
        parts.append(
            "<br>recorded again because: "
            + "; ".join(
                f'<span class="dx-mono">{_e(str(r).strip().splitlines()[0] if str(r).strip() else r)}</span>' for r in again
            )
        )
    return f"<li>{''.join(parts)}</li>"


def cudagraphs_frame(frame: dict, cell: Any) -> str:
    """The frame's CUDA graph rows as a banner (a warning when one was skipped); '' when it has none."""
    report = getattr(cell, "report", None) or {}
    rows = [r for r in report.get("cudagraphs") or [] if r.get("compile_id") == frame.get("compile_id")]
    if not rows:
        return ""
    warn = " dx-warn" if any(r.get("status") == "skipped" for r in rows) else ""
    items = "".join(_item(r) for r in rows)
    return f'<div class="dx-banner{warn} dx-cudagraphs"><b>CUDA graphs</b> (reduce-overhead):<ul>{items}</ul></div>'
