"""User-facing errors of the engine.

``UsageError`` is raised *before* anything runs, for input the engine cannot accept (a bad option, a
construct that cannot be compiled as a cell). Its message is one line that names the construct and the
fix; ``kernel_ext`` turns it into IPython's ``UsageError`` and the CLI into exit code 2.
"""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(ValueError):
    """Bad input to the explorer: one line, naming what is wrong and how to fix it."""

    def __init__(self, message: str, *, line: int | None = None, filename: str | None = None):
        super().__init__(message)
        self.line = line
        self.filename = filename
