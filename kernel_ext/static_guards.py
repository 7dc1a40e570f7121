"""The static view's guards pane: the guards by kind, each recompile with every guard of the old entry that failed
(expected and actual), the inputs automatic dynamic marked, and the dynamic-shape symbols.

Contents: ``guards_section(report, cell) -> str``; ``dynamic_text(d)``, one input automatic dynamic holds dynamic (the
header's banner of state carried from an earlier run says it too).
"""

from __future__ import annotations

from collections import Counter

from compiler.summary import failure_what

from .static_markup import MAX_LINES, table
from .static_markup import escape as _e
from .static_source import Cell

__all__ = ["dynamic_text", "guards_section"]


def guards_section(report: dict, cell: Cell) -> str:
    """The guards by kind, each recompile with every guard of the old entry that failed, the dynamic-shape symbols."""
    frames = report.get("frames") or []
    kinds = Counter(str(g.get("type")) for f in frames for g in f.get("guards") or [])
    out = ""
    if kinds:
        said = ", ".join(f"{n} {t}" if n > 1 else t for t, n in kinds.most_common())
        out += f'<div class="dx-meta">{sum(kinds.values())} guards in {sum(1 for f in frames if f.get("guards"))} frames: {_e(said)}</div>'
    for f in frames:
        for r in f.get("recompile_reasons") or []:
            prev = f" (a guard of [{_e(r['failed_compile_id'])}] failed)" if r.get("failed_compile_id") else ""
            out += (
                f'<div class="dx-banner dx-warn">[{_e(f.get("compile_id"))}] recompiled{prev}: '
                f'<span class="dx-mono">{_e(r.get("reason"))}</span>{_failures(f, r, cell)}</div>'
            )
        marked = [d for d in f.get("automatic_dynamic") or [] if d.get("marked_in") == f.get("compile_id")]
        if marked:
            said = "; ".join(dynamic_text(d) + (f", was {_e(d['was'])}" if d.get("was") else "") for d in marked)
            out += f'<div class="dx-banner">[{_e(f.get("compile_id"))}] automatic dynamic: this compile marked {said}</div>'
    symbols = report.get("symbols") or []
    if symbols:
        listed = ", ".join(
            f"[{_e(s.get('compile_id'))}] {_e(s.get('symbol'))} = {_e(s.get('source'))}" for s in symbols[:MAX_LINES]
        )
        more = f", … {len(symbols) - MAX_LINES} more" if len(symbols) > MAX_LINES else ""
        out += f'<div class="dx-meta">dynamic-shape symbols: <span class="dx-mono">{listed}{more}</span></div>'
    return out


def _failures(frame: dict, reason: dict, cell: Cell) -> str:
    """Every guard of the old entry that failed (``recompile_reasons[].failures``, minor 6) as a table: guard,
    value and what failed, expected, actual, line; the one Dynamo's reason names is marked. Nothing for an
    older report; the note when the list is empty or incomplete."""
    failures = reason.get("failures")
    if failures is None:
        return ""
    rows = []
    for f in failures:
        what = _failure_what(f)
        mark = ' <span class="dx-meta">(Dynamo\'s reason)</span>' if f.get("in_reason") else ""
        named = f.get("source") and str(f.get("source")) not in what  # the check names its value: once is enough
        source = f'<span class="dx-mono dx-nowrap">{_e(f.get("source"))}</span> ' if named else ""
        rows.append(
            [
                _e(f.get("guard_type")) + mark,
                f'{source}<span class="dx-meta">{_e(what)}</span>',
                f'<span class="dx-mono">{_e(f.get("expected"))}</span>',
                f'<span class="dx-mono">{_e(f.get("actual") if f.get("actual") is not None else "?")}</span>',
                cell.where((frame.get("code") or {}).get("filename"), f.get("line")),
            ]
        )
    out = ""
    if rows:
        old = f"[{_e(reason['failed_compile_id'])}]" if reason.get("failed_compile_id") else "the old entry"
        n = len(rows)
        out += f'<div class="dx-meta">{n} guard{"s" if n != 1 else ""} of {old} failed for this call:</div>'
        out += table(["guard", "value", "expected", "actual", "line"], rows, "failing guards")
    if reason.get("failures_note"):
        out += f'<div class="dx-meta">{_e(reason["failures_note"])}</div>'
    return out


def _failure_what(f: dict) -> str:
    """What failed, in a few words, as the engine wrote it (``what``, minor 15: ``dtype mismatch``, ``grad_mode
    changed``, ``is another object``, else the check); for an older report, the engine's words computed here."""
    if f.get("what"):
        return str(f["what"])
    return failure_what(str(f.get("guard_type")), f.get("property"), str(f.get("check") or ""))


def dynamic_text(d: dict) -> str:
    """One input automatic dynamic holds dynamic, escaped: ``L['x'] dim 0 (size (?, 3))``, ``L['n'] (any value)``."""
    if d.get("kind") == "scalar":
        return f'<span class="dx-mono">{_e(d.get("source"))}</span> (any value)'
    dims = d.get("dims") or []
    where = "dim " + ", ".join(str(int(x)) for x in dims) if dims else "every dim"
    return f'<span class="dx-mono">{_e(d.get("source"))}</span> {where} ({_e(d.get("now"))})'
