"""What a run writes, for every front end: the command line's ``run``, ``open`` and ``run --nproc``
(``dynamo_explorer/``) and the ``%%dynamo`` magic (``magic.py``) name their files here and nowhere else.

``Outputs(json=..., html=...)``:
- ``problem()``: what would stop the files being written, checked before anything runs (not after minutes of
  compiling): two outputs naming one file, a path that cannot be written (``compiler.options.unwritable``), the
  standalone page's renderer not built (``export.renderer_problem``). One line naming the fix, or None.
- ``write_diff(diff, say)``: a diff of two reports (``compiler.diff``) as JSON and as its page (``export.diff_page``:
  the explorer's diff view, the static summary inside), said as the report's;
- ``write(report, say, ranks)``: the report as compact JSON (``compiler.encoding.write_report``) and the explorer as
  one self-contained page (``export.write_html_pages``: a page a rank when the ranks' own reports are given); each
  file written is said in one line (``wrote PATH (12 KB)``), a page that could not be made too (its reason).

No IPython import: the command line runs without it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compiler.options import unwritable

__all__ = ["Outputs", "size_text"]


def size_text(path: str | os.PathLike[str]) -> str:
    """``12 KB``, ``1.2 MB``: the size of a file written."""
    size = os.path.getsize(path)
    return f"{size / 1e6:.1f} MB" if size >= 1_000_000 else f"{size / 1e3:.0f} KB"


@dataclass(frozen=True)
class Outputs:
    """The files a run writes: ``json`` the report, ``html`` the explorer as a page; None: not written."""

    json: str | None = None
    html: str | None = None

    def __bool__(self) -> bool:
        return self.json is not None or self.html is not None

    def named(self) -> list[tuple[str, str]]:
        """``[(flag, path)]`` of the outputs given, JSON first."""
        return [(flag, path) for flag, path in (("--json", self.json), ("--html", self.html)) if path is not None]

    def problem(self) -> str | None:
        """Why these outputs could not be written, in one line naming the fix; None when they can (a report's page and a
        diff's are the explorer's: they need the standalone renderer built)."""
        if self.json is not None and self.html is not None and os.path.abspath(self.json) == os.path.abspath(self.html):
            return "--json and --html name the same file; give each its own path"
        for flag, path in self.named():
            why = unwritable(path, flag)
            if why is not None:
                return f"cannot write the report to {path}: {why}"
        if self.html is not None:
            from .export import renderer_problem

            why = renderer_problem()
            if why is not None:
                return f"--html: {why}"
        return None

    def write(
        self,
        report: dict[str, Any],
        say: Callable[[str], object] = print,
        ranks: dict[int, dict[str, Any]] | None = None,
        complain: Callable[[str], object] | None = None,
        parts: dict[str, Any] | None = None,
    ) -> bool:
        """Write the files; ``say`` gets one line a file written, ``complain`` (stderr) one line for a page that could not
        be made. ``ranks``: each rank's own report, for a page a rank; ``parts``: the whole of what the report holds
        only in part (``CellRun.parts``; a trace's trees compressed as it was read, ``compiler.trace.parts.PageBlob``),
        which the page holds. False when a file was not written."""
        complain = complain or (lambda line: print(line, file=sys.stderr))
        if self.json is not None:
            from compiler.encoding import write_report

            write_report(report, self.json)
            say(f"wrote {self.json} ({size_text(self.json)})")
        if self.html is None:
            return True
        from .export import ExportError, write_html_pages

        try:
            pages = write_html_pages(report, self.html, ranks, parts)
        except (ExportError, OSError) as exc:
            complain(f"the HTML report was not written to {self.html}: {exc}")
            return False
        for page in pages:
            say(f"wrote {os.fspath(page)} ({size_text(page)}): open it in any browser, it needs no network")
        return True

    def write_diff(
        self, diff: dict[str, Any], say: Callable[[str], object] = print, complain: Callable[[str], object] | None = None
    ) -> bool:
        """Write a diff (``compiler.diff.diff_reports``'s) as JSON and/or its page; False when a file was not written."""
        from .export import ExportError

        complain = complain or (lambda line: print(line, file=sys.stderr))
        try:
            if self.json is not None:
                from compiler.encoding import write_report

                write_report(diff, self.json)  # compact JSON, as a report's
                say(f"wrote {self.json} ({size_text(self.json)})")
            if self.html is not None:
                from .export import diff_page

                text = diff_page(diff)
                with open(self.html, "w", encoding="utf-8", newline="\n") as fh:
                    fh.write(text)
                say(f"wrote {self.html} ({size_text(self.html)}): open it in any browser, it needs no network")
        except (ExportError, OSError) as exc:
            complain(f"the diff was not written: {exc}")
            return False
        return True
