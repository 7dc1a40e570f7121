"""Collector for sources: a label for every file the report names, and the code of its compiled frames.

[Note: sources] The report links code by ``(filename, line)``. In a notebook most of that code lives
in earlier cells, which IPython compiles under names such as ``/tmp/ipykernel_81/1308458619.py`` and
keeps in ``linecache``. For each file named by a frame's code, a graph break or a frame of its stack,
or an FX/AOT node, ``report.sources`` gives
- ``label``: what to show instead of the path: the caller's label (``run_cell(label_file=...)``: the
  kernel passes IPython's ``In [2]``), else the path relative to the ``sys.path`` entry holding it
  (``transformers/generation/utils.py``) or to the working directory;
- ``kind``: ``cell`` (the code that ran, whose text is ``report.cell``), ``notebook-cell``, ``file``
  (the user's own) or ``library`` (an installed package or the standard library, shown read-only);
- ``excerpts``: a notebook cell's whole text; for a file, the function of each frame Dynamo compiled
  from it (the block at ``co_firstlineno``; for a resume function, the function it resumes), merged
  where they overlap. The text comes from ``linecache``, as tracebacks read it.
"""

from __future__ import annotations

import functools
import inspect
import linecache
import os
import re
import sys
from collections.abc import Callable

from .. import _compat
from ..model import CompileReport, SourceExcerpt, SourceFile, SourceKind
from ..user_code import is_user_file
from .base import CaptureContext, Collector

# A function longer than this is cut (a 3,000-line generated forward is read in its bytecode).
MAX_EXCERPT_LINES = 1500


class SourcesCollector(Collector):
    name = "sources"
    requires = ("frames", "graph_breaks", "fx_graphs", "aot_graphs")

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        cell = ctx.program.filename
        label_file: Callable[[str], str | None] = ctx.label_file or (lambda _name: None)
        spans: dict[str, list[tuple[int, int]]] = {}
        for frame in report.frames:
            code = frame.code
            if code.filename != cell:
                span = _function_span(code.filename, code.firstlineno, code.name if code.is_resume else None)
                if span is not None:
                    spans.setdefault(code.filename, []).append(span)
        for name in _named_files(report):
            if name == cell:
                report.sources.append(SourceFile(filename=name, label=label_file(name) or _path_label(name), kind="cell"))
                continue
            label = label_file(name)
            if label is not None:  # an earlier notebook cell: all of it
                lines = linecache.getlines(name)
                excerpts = [SourceExcerpt(first_line=1, text="".join(lines).rstrip("\n"))] if lines else []
                report.sources.append(SourceFile(filename=name, label=label, kind="notebook-cell", excerpts=excerpts))
                continue
            kind: SourceKind = "file" if is_user_file(name) else "library"
            report.sources.append(
                SourceFile(filename=name, label=_path_label(name), kind=kind, excerpts=_excerpts(name, spans.get(name, [])))
            )


def _named_files(report: CompileReport) -> list[str]:
    """Every filename the report names, in first-mention order."""
    seen: dict[str, None] = {report.cell["filename"]: None}
    for frame in report.frames:
        seen.setdefault(frame.code.filename, None)
        for gb in frame.graph_breaks:
            if gb.filename:
                seen.setdefault(gb.filename, None)
            for sf in gb.user_stack:
                seen.setdefault(sf.filename, None)
    for graph in report.graphs:
        for node in graph.nodes:
            if node.filename:
                seen.setdefault(node.filename, None)
    return [name for name in seen if name and not name.startswith("<frozen")]


def _resumed_function(name: str) -> str | None:
    """``g`` for ``torch_dynamo_resume_in_g_at_6``."""
    m = re.fullmatch(re.escape(_compat.TORCH_DYNAMO_RESUME_IN_PREFIX) + r"_(?P<fn>.+)_at_\d+", name)
    return m["fn"] if m else None


def _function_span(filename: str, first: int, resume_name: str | None) -> tuple[int, int] | None:
    """``(first line, last line)`` of the function whose code starts at ``first``."""
    lines = linecache.getlines(filename)
    if not lines or not 1 <= first <= len(lines):
        return None
    if resume_name is not None:  # a resume function starts at the break: find the function it resumes
        fn = _resumed_function(resume_name)
        pattern = re.compile(rf"\s*(async\s+)?def\s+{re.escape(fn)}\b") if fn else None
        start = next((i for i in range(first, 0, -1) if pattern and pattern.match(lines[i - 1])), None)
        if start is None:
            return None
        while start > 1 and lines[start - 2].lstrip().startswith("@"):
            start -= 1
        first = start
    try:
        block = inspect.getblock(lines[first - 1 :])
    except Exception:  # noqa: BLE001 - tokenize errors on odd code: one screen
        block = lines[first - 1 : first + 29]
    return first, first + min(len(block), MAX_EXCERPT_LINES) - 1


def _excerpts(filename: str, spans: list[tuple[int, int]]) -> list[SourceExcerpt]:
    lines = linecache.getlines(filename)
    merged: list[list[int]] = []
    for start, end in sorted(set(spans)):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [SourceExcerpt(first_line=s, text="".join(lines[s - 1 : e]).rstrip("\n")) for s, e in merged]


@functools.lru_cache(maxsize=4)
def _path_roots(path: tuple[str, ...]) -> list[str]:
    """The sys.path entries, longest first (the innermost one holding a file names it)."""
    return sorted((os.path.abspath(p) for p in path if p and os.path.isdir(p)), key=len, reverse=True)


def _path_label(filename: str) -> str:
    """A short name: relative to the sys.path entry holding it (``torch/nn/modules/linear.py``), else to
    the working directory, else the path itself."""
    if filename.startswith("<"):
        return filename
    path = os.path.abspath(filename)
    cwd = os.getcwd()
    if not is_user_file(path):
        for root in _path_roots(tuple(sys.path)):
            if path.startswith(root + os.sep):
                return os.path.relpath(path, root)
    if path.startswith(cwd + os.sep):
        return os.path.relpath(path, cwd)
    return filename
