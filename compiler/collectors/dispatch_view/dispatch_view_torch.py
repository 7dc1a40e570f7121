"""The cache as the dispatch view reads it for ``collectors/dispatch_view/dispatch_view.py`` ([Note: dispatch view] there): whether a
cache entry can still match a call, and the per-code cache limit the run's fallback is reached at.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

from typing import Any

import torch
import torch._dynamo

__all__ = ["entry_is_valid", "recompile_limit"]


def entry_is_valid(entry: Any) -> bool:
    """Whether a cache entry can still match a call: not invalidated (an object its guards ID-matched was freed,
    or ``runner_torch.invalidate_entries``), which swaps its guard manager for a ``DeletedGuardManagerWrapper`` (2.11, 2.13)."""
    from torch._dynamo.guards import DeletedGuardManagerWrapper

    return not isinstance(entry.guard_manager, DeletedGuardManagerWrapper)


def recompile_limit() -> tuple[str, int]:
    """``(name, value)`` of the per-code cache limit now: ``torch._dynamo.config.recompile_limit`` in 2.11 and
    2.13 (``cache_size_limit`` before 2.6, kept there as an alias)."""
    return "recompile_limit", int(torch._dynamo.config.recompile_limit)
