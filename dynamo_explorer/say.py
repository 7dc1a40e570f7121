"""The command line's own lines: ``dynamo-explorer: ...`` on stdout, ``dynamo-explorer: error: ...`` on stderr."""

from __future__ import annotations

import sys

__all__ = ["error", "say"]


def error(message: str) -> int:
    """Say what went wrong in one line on stderr; 2, the exit status of a refusal made before anything runs."""
    print(f"dynamo-explorer: error: {message}", file=sys.stderr)
    return 2


def say(line: str) -> None:
    """One line of the command line's own on stdout, in one write (the ranks of ``--nproc`` share a terminal)."""
    sys.stdout.write(f"dynamo-explorer: {line}\n")
