"""Where a line is, for people, and the cell's source with its graph breaks marked: the static view's source pane.

Contents:
- ``Cell``: a report's places in words: the cell's line with its text, an earlier cell's (``In [2], line 9``) or a
  file's (``transformers/generation/utils.py:2412``), labelled from the report's ``sources``.
- ``cell_source(report, cell) -> str``: the cell's source, numbered as the report numbers it, each graph-break line
  marked (the break's reason in the mark's ``title`` and in a numbered note under the listing); the line that
  raised too. A long script shows only the lines around its marks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .static_markup import escape as _e
from .static_markup import plain_line

__all__ = ["MAX_SOURCE_LINES", "Cell", "cell_source"]

#: A cell source longer than this shows only the lines around its marks.
MAX_SOURCE_LINES = 300


class Cell:
    """Where a line is, for people: the cell's line with its text, or an earlier cell's (``In [2], line 9``)
    or a file's (``transformers/generation/utils.py:2412``), labelled from the report's ``sources``."""

    def __init__(self, report: dict) -> None:
        cell = report.get("cell") or {}
        self.filename = cell.get("filename")
        self.lines = (cell.get("source") or "").splitlines()
        self.sources = {s.get("filename"): s for s in report.get("sources") or []}
        self.report = report  # what a frame's part reads of the whole report (symbols, other frames, diagnostics)

    def where(self, filename: Any, line: Any) -> str:
        if line is None:
            return ""
        if filename in (None, self.filename):
            text = f"line {_e(line)}"
            if isinstance(line, int) and 0 < line <= len(self.lines):
                text += f": <code>{_e(self.lines[line - 1].strip())}</code>"
            return text
        text = _e(self.place(filename, line))
        code = self.line_text(filename, line)
        return text + (f": <code>{_e(code.strip())}</code>" if code and code.strip() else "")

    def place(self, filename: Any, line: Any) -> str:
        source = self.sources.get(filename)
        if source is None:
            return f"{filename}:{line}"
        if source.get("kind") in ("cell", "notebook-cell"):
            return f"{source.get('label')}, line {line}"
        return f"{source.get('label')}:{line}"

    def label_paths(self, text: Any) -> Any:
        """Code text with notebook cells' file names replaced by their labels (``In [2], line 9``)."""
        if not isinstance(text, str):
            return text
        for name, source in self.sources.items():
            label = str(source.get("label"))
            if source.get("kind") in ("cell", "notebook-cell") and name and name != label and name in text:
                text = re.sub(re.escape(name) + r"(?::(\d+))?", _labelled(label), text)
        return text

    def line_text(self, filename: Any, line: Any) -> str | None:
        found = self._excerpt_at(filename, line)
        return found[2][line - found[1]] if found else None

    def _excerpt_at(self, filename: Any, line: Any) -> tuple[dict, int, list[str]] | None:
        """``(source, first line, lines)`` of the excerpt of ``filename`` that holds ``line``."""
        source = self.sources.get(filename) or {}
        for ex in source.get("excerpts") or []:
            lines = str(ex.get("text", "")).split("\n")
            first = ex.get("first_line", 1)
            if isinstance(line, int) and first <= line < first + len(lines):
                return source, first, lines
        return None


def _labelled(label: str) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement: ``FILE:9`` -> ``In [2], line 9``, ``FILE`` -> ``In [2]``."""
    return lambda m: f"{label}, line {m[1]}" if m[1] else label


def cell_source(report: dict, cell: Cell) -> str:
    """The cell's source, numbered as the report numbers it, each graph-break line marked (the break's
    reason in its ``title`` and in a numbered note under the listing); the line that raised too."""
    marks: dict[int, list[tuple[int, str]]] = {}
    notes: list[str] = []
    seen: dict[tuple, int] = {}
    for frame in report.get("frames") or []:
        for b in frame.get("graph_breaks") or []:
            line, inside = b.get("line"), False
            if b.get("filename") not in (None, cell.filename):  # the break is in a callee: mark the cell's call
                calls = [s for s in b.get("user_stack") or [] if s.get("filename") == cell.filename]
                line, inside = (calls[-1].get("line") if calls else None), True
            key = (line, b.get("filename"), b.get("line"), b.get("gb_type"), b.get("reason"))
            if key in seen:
                notes[seen[key] - 1] += f", [{_e(frame.get('compile_id'))}]"
                continue
            why = str(b.get("gb_type") or "graph break")
            if b.get("reason") and b.get("reason") != b.get("gb_type"):
                why += f": {str(b['reason']).splitlines()[0]}"
            where = f" (in {cell.place(b.get('filename'), b.get('line'))})" if inside else ""
            explained = plain_line(b.get("explanation"), 160).rstrip(".")
            at = f"line {line}: " if isinstance(line, int) else ""
            notes.append(
                f"{_e(at)}<b>{_e(why)}</b>{_e(where)}"
                + (f" ({_e(b['gb_id'])})" if b.get("gb_id") else "")
                + (f". {_e(explained)}." if explained else "")
                + f" [{_e(frame.get('compile_id'))}]"
            )
            seen[key] = len(notes)
            if isinstance(line, int):
                title = f"graph break {len(notes)}: {why}{where}" + (f". {explained}." if explained else "")
                marks.setdefault(line, []).append((len(notes), title))
    err = report.get("error") or {}
    if isinstance(err.get("line"), int):
        marks.setdefault(err["line"], []).append((0, f"{err.get('type')}: {err.get('message')}"))
    lines = cell.lines
    first = next((i for i, text in enumerate(lines) if text.strip()), len(lines))
    numbers = list(range(first + 1, len(lines) + 1))
    if len(numbers) > MAX_SOURCE_LINES:  # a long script: the lines around each mark (none: no listing)
        near = {n for m in marks for n in range(m - 3, m + 4)}
        numbers = [n for n in numbers if n in near]
    if not numbers:
        return ""
    width = len(str(max(numbers)))
    out, previous = [], first  # the line before the first one listed: a window further down starts with "…"
    for n in numbers:
        if n != previous + 1:
            out.append('<span class="dx-meta">…</span>')
        previous = n
        text = f"{n:>{width}}  {lines[n - 1]}".rstrip()
        here = marks.get(n)
        if not here:
            out.append(_e(text))
            continue
        tags = " ".join(
            f'<span class="dx-mark" title="{_e(title)}">◀ {"graph break " + str(i) if i else _e(title.split(":")[0])}</span>'
            for i, title in here
        )
        out.append(f'<span class="dx-hit">{_e(text)}</span>  {tags}')
    body = f'<pre class="dx-src">{chr(10).join(out)}</pre>'
    if notes:
        body += "<ol>" + "".join(f"<li>{n}</li>" for n in notes) + "</ol>"
    return body
