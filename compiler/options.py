"""Run options (``RunOptions``): backend, mode, dynamic, fullgraph, scope, recompile limit, decompile.

``RunOptions.validate()`` checks them against what torch really offers (registered backends,
inductor modes) and raises a one-line ``UsageError`` naming the fix.
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass
from typing import Any, Literal

from .errors import UsageError

Scope = Literal["auto", "calls", "cell", "all-frames"]
SCOPES = ("auto", "calls", "cell", "all-frames")
Decompile = Literal["user", "all", "none"]
# [Note: decompile scope] depyf costs ~0.15 s per large frame (transformers' ``generate`` and ``_sample``:
# 0.3 s of GPT-2's 0.6 s report build), and library frames are rarely read as source: by default only
# frames of the user's code (the cell, their files) are decompiled; the bytecode listing is always there.
DECOMPILE = ("user", "all", "none")
INDUCTOR_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")

__all__ = ["DECOMPILE", "RunOptions", "SCOPES"]


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run and capture one cell. Mirrors ``torch.compile``'s own arguments."""

    backend: str = "inductor"
    mode: str | None = None
    dynamic: bool | None = None
    fullgraph: bool = False
    scope: Scope = "auto"
    recompile_limit: int | None = None
    decompile: Decompile = "user"

    def validate(self) -> RunOptions:
        """Return ``self`` when usable, else raise ``UsageError`` with a one-line fix."""
        from torch._dynamo.backends.registry import list_backends

        if self.backend not in list_backends(exclude_tags=()):
            common = sorted(set(list_backends()) | {"inductor", "eager", "aot_eager"})
            close = difflib.get_close_matches(self.backend, common, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise UsageError(f"unknown backend '{self.backend}': {hint}use one of {', '.join(common)} (or register your own)")
        if self.mode is not None:
            if self.backend != "inductor":
                raise UsageError(f"--mode applies to the inductor backend only; drop it or use --backend inductor (got '{self.backend}')")
            if self.mode not in INDUCTOR_MODES:
                raise UsageError(f"unknown mode '{self.mode}': use one of {', '.join(INDUCTOR_MODES)}")
        if self.scope == "frames":
            raise UsageError("scope 'frames' was renamed: use --scope calls (torch.compile on what the cell calls) "
                             "or --scope all-frames (every Python frame the cell runs, library code included)")
        if self.scope not in SCOPES:
            raise UsageError(f"unknown scope '{self.scope}': use one of {', '.join(SCOPES)}")
        if self.recompile_limit is not None and (not isinstance(self.recompile_limit, int) or self.recompile_limit < 1):
            raise UsageError(f"recompile limit must be a positive integer, got {self.recompile_limit!r}")
        if self.decompile not in DECOMPILE:
            raise UsageError(f"unknown decompile choice '{self.decompile}': use one of {', '.join(DECOMPILE)}")
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
