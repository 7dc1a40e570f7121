"""Live progress line for ``%%dynamo``, which the report then takes the place of.

Contents:
- ``ProgressLine.for_shell(shell)``: a progress callback for ``compiler.run_cell(on_progress=)``,
  or ``None`` when no kernel is attached (plain terminal IPython): then nothing is created or
  printed, and the magic shows the report as a new output.
- ``ProgressLine.__call__(progress)``: shows the line (one ``display`` with a display id: a
  ``text/plain`` and a ``text/html`` line, and in a kernel the explorer widget, pending, whose
  ``summary`` is the line: ``ProgressLine.widget``) on the first event, so a cell that compiles nothing
  shows nothing, then updates it in place, at most every ``MIN_INTERVAL`` seconds unless the phase
  changes: the widget's ``summary`` (a trait update: the views drawn stay, nothing is drawn again), or,
  without a widget, the text by ``update_display_data``. A small daemon thread keeps the elapsed time
  ticking between events (a single inductor codegen can take minutes).
- ``ProgressLine.stop()``: stops the ticker (the run is over).
- ``ProgressLine.finish(bundle)``: the line's output becomes ``bundle`` (the report) and True is
  returned; False when there is no line to replace (nothing compiled, or the cell cleared its own
  output), and the caller displays the report as a new output. ``display_id`` is then the report's output's. ``finish(None)`` (no report: the
  run itself failed) turns the line into one line saying so.

[Note: the report takes the progress line's place] A Jupyter output cannot be removed on its own
(``clear_output`` clears the whole cell, the user's prints too), and an output updated to an empty
bundle stays in the saved notebook as an empty ``display_data`` that nbconvert warns about. So the
line is never left behind: at the end of the run its output is updated to the report bundle. The
report therefore sits where Dynamo started compiling, in the order things happened: what the cell
printed or displayed before its first compile is above it, what came after (a training loop's
losses) below it, then ``Out[n]`` or the traceback. Nothing moves when the run ends: the line
becomes the report in place, live and after a save and reload (the display id is transient; the
saved output is a plain ``display_data`` with the report). A cell that compiles nothing has no
line, and its report is appended after the cell's own outputs. When the cell calls
``clear_output`` after the line appeared (a live plot in a loop), the line is gone: a display-publisher
hook sees the clear, and the report is appended as a new output instead of updating a vanished one.

The callback runs on the compiling thread; any failure in it disables the line and never reaches
the user's cell.
"""

from __future__ import annotations

import html
import threading
import time

from .widget import WIDGET_VIEW, progress_widget, view_of

__all__ = ["ProgressLine"]


class ProgressLine:
    """A one-line status display, driven by ``compiler`` progress events; the report replaces it."""

    #: Seconds between two updates within one phase (and between two ticks).
    MIN_INTERVAL = 0.5

    def __init__(self, display_pub=None) -> None:
        #: the explorer widget the line is drawn by where widgets draw (kernel_ext/widget.py), None elsewhere: the
        #: report's bundle reuses it (``display.bundle(progress=)``), so the line becomes the explorer in place
        self.widget = None
        #: the display id of the output the report took the place of (``finish``), None before
        self.display_id: str | None = None
        self._handle = None
        self._last = 0.0
        self._progress = None
        self._seen_at = 0.0
        self._broken = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        # the kernel's display publisher: its hooks see every display and clear_output of the cell's thread
        self._pub = display_pub if hasattr(display_pub, "register_hook") else None
        if self._pub is not None:
            self._pub.register_hook(self._watch)

    @classmethod
    def for_shell(cls, shell) -> ProgressLine | None:
        """A ProgressLine when ``shell`` runs in a kernel (call it on the cell's thread), else None."""
        if getattr(shell, "kernel", None) is None:
            return None
        return cls(getattr(shell, "display_pub", None))

    @staticmethod
    def text(progress, elapsed_s: float) -> str:
        """The status text for one progress event."""
        frames = progress.frames
        where = f" [{progress.compile_id}]" if progress.compile_id else ""
        return f"dynamo: {frames} frame{'s' if frames != 1 else ''} compiled so far · {progress.phase}{where} · {elapsed_s:.1f} s"

    @staticmethod
    def _bundle(text: str) -> dict:
        return {
            "text/plain": text,
            "text/html": f'<div style="font-family:var(--jp-ui-font-family,sans-serif);'
            f'color:var(--jp-ui-font-color2,#555)">{html.escape(text)}</div>',
        }

    def _watch(self, msg: dict) -> dict:
        """Display-publisher hook (the cell's thread): a ``clear_output`` removes the line with the rest."""
        if msg.get("header", {}).get("msg_type") == "clear_output" and self._handle is not None:
            self._handle = None  # the next event shows a new line; finish() appends the report
        return msg

    def __call__(self, progress) -> None:
        now = time.monotonic()
        with self._lock:
            if self._broken:
                return
            same_phase = self._progress is not None and progress.phase == self._progress.phase
            self._progress, self._seen_at = progress, now
            if self._handle is not None and same_phase and now - self._last < self.MIN_INTERVAL:
                return
            self._last = now
            try:
                self._draw(self.text(progress, progress.elapsed_s))
            except Exception:  # noqa: BLE001 - a broken frontend link must never break the user's cell
                self._broken = True

    def _draw(self, text: str) -> None:
        """Show the line, or update it in place (under the lock): the widget's line through its ``summary``, the
        text line by a display update."""
        from IPython.display import display

        if self._handle is None:
            if self.widget is None:
                self.widget = progress_widget(text)
            shown = self._bundle(text)
            if self.widget is not None:
                self.widget.summary = text
                shown[WIDGET_VIEW] = view_of(self.widget)
            self._handle = display(shown, raw=True, display_id=True)
            if self._ticker is None:
                self._ticker = threading.Thread(target=self._tick, name="dynamo-progress", daemon=True)
                self._ticker.start()
        elif self.widget is not None:
            self.widget.summary = text
        else:
            self._handle.update(self._bundle(text), raw=True)

    def _tick(self) -> None:
        """Advance the elapsed time between events (runs on the ticker thread)."""
        while not self._stop.wait(self.MIN_INTERVAL):
            with self._lock:
                if self._broken or self._handle is None or self._progress is None:
                    continue
                now = time.monotonic()
                if now - self._last < self.MIN_INTERVAL:
                    continue
                self._last = now
                try:
                    elapsed = self._progress.elapsed_s + (now - self._seen_at)
                    self._draw(self.text(self._progress, elapsed))
                except Exception:  # noqa: BLE001 - the kernel may be shutting down
                    self._broken = True

    def stop(self) -> None:
        """Stop the ticker and stop listening (the run is over); the line stays until ``finish``."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        if self._pub is not None:
            self._pub.unregister_hook(self._watch)
            self._pub = None

    def finish(self, bundle: dict | None) -> bool:
        """Put ``bundle`` (the report) in the line's place; False when there is no line to replace.

        ``bundle=None``: the run ended without a report; the line then says so instead of showing a
        spent status.
        """
        self.stop()
        with self._lock:
            handle, self._handle = self._handle, None
            if handle is None:
                return False
            progress = self._progress
            if bundle is None:
                frames = progress.frames if progress is not None else 0
                bundle = self._bundle(f"dynamo: the run stopped before its report ({frames} frames compiled)")
                if self.widget is not None:  # no report will come: the line is text again, the widget goes
                    self.widget.close()
                    self.widget = None
            try:
                handle.update(bundle, raw=True)
            except Exception:  # noqa: BLE001 - the kernel may be shutting down; the caller shows the report anew
                return False
            self.display_id = handle.display_id  # the report's output, for parts.shown
            return True
