"""Live progress line for ``%%dynamo``: frames compiled so far, current phase, elapsed time.

Contents:
- ``ProgressLine.for_shell(shell)``: a progress callback for ``compiler.run_cell(on_progress=)``,
  or ``None`` when no kernel with comms is attached (plain terminal IPython): then nothing is
  created, imported or printed.
- ``ProgressLine.__call__(progress)``: shows an ipywidgets ``Label`` on the first event (so a
  cell that compiles nothing shows nothing), then updates it, at most every ``MIN_INTERVAL``
  seconds unless the phase changes. A small daemon thread keeps the elapsed time ticking
  between events (a single inductor codegen can take minutes).
- ``ProgressLine.close()``: stops the ticker, replaces the line's output with an empty bundle
  (nothing is drawn, also after a reload) and closes the widget and its sub-widgets, so the
  report that follows stands alone and nothing accumulates in the kernel.

The callback runs on the compiling thread; any failure in it disables the line and never
reaches the user's cell.
"""

from __future__ import annotations

import threading
import time

__all__ = ["ProgressLine"]


class ProgressLine:
    """A one-line ipywidgets status display, driven by ``compiler`` progress events."""

    #: Seconds between two widget updates within one phase (and between two ticks).
    MIN_INTERVAL = 0.5

    def __init__(self) -> None:
        self._widget = None
        self._handle = None
        self._last = 0.0
        self._progress = None
        self._seen_at = 0.0
        self._broken = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    @classmethod
    def for_shell(cls, shell) -> ProgressLine | None:
        """A ProgressLine when ``shell`` runs in a kernel that can talk to widgets, else None."""
        if getattr(shell, "kernel", None) is None:
            return None
        return cls()

    @staticmethod
    def text(progress, elapsed_s: float) -> str:
        """The status text for one progress event."""
        frames = progress.frames
        where = f" [{progress.compile_id}]" if progress.compile_id else ""
        return f"dynamo: {frames} frame{'s' if frames != 1 else ''} compiled so far · {progress.phase}{where} · {elapsed_s:.1f} s"

    def __call__(self, progress) -> None:
        now = time.monotonic()
        with self._lock:
            if self._broken:
                return
            same_phase = self._progress is not None and progress.phase == self._progress.phase
            self._progress, self._seen_at = progress, now
            if self._widget is not None and same_phase and now - self._last < self.MIN_INTERVAL:
                return
            self._last = now
            try:
                if self._widget is None:
                    self._show(progress)
                else:
                    self._widget.value = self.text(progress, progress.elapsed_s)
            except Exception:  # noqa: BLE001 - a broken frontend link must never break the user's cell
                self._broken = True

    def _show(self, progress) -> None:
        import ipywidgets
        from IPython.display import display

        self._widget = ipywidgets.Label(value=self.text(progress, progress.elapsed_s))
        self._handle = display(self._widget, display_id=True)
        self._ticker = threading.Thread(target=self._tick, name="dynamo-progress", daemon=True)
        self._ticker.start()

    def _tick(self) -> None:
        """Advance the elapsed time between events (runs on the ticker thread)."""
        while not self._stop.wait(self.MIN_INTERVAL):
            with self._lock:
                if self._broken or self._widget is None or self._progress is None:
                    return
                now = time.monotonic()
                if now - self._last < self.MIN_INTERVAL:
                    continue
                self._last = now
                try:
                    elapsed = self._progress.elapsed_s + (now - self._seen_at)
                    self._widget.value = self.text(self._progress, elapsed)
                except Exception:  # noqa: BLE001 - the kernel may be shutting down
                    self._broken = True

    def close(self) -> None:
        """Remove the line (its output becomes an empty bundle) and close the widget."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            try:
                if self._handle is not None:
                    self._handle.update({}, raw=True)
                if self._widget is not None:
                    # the Label's Layout and LabelStyle are widgets of their own: close all three
                    for part in (self._widget.layout, self._widget.style, self._widget):
                        part.close()
            except Exception:  # noqa: BLE001, S110 - the kernel may be shutting down; nothing left to clean
                pass
            self._widget = self._handle = self._ticker = None
