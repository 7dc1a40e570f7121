"""What the cache-story collector asks of torch: AOTAutograd's cache logger at DEBUG while the run lasts, so that
``autograd_cache_key`` computes its key's components (``_get_debug_lines_for_cache_key`` does only at DEBUG; torch 2.11
to 2.15) and ``aotautograd_cache_*`` carries them as ``fx_graph_cache_*`` always does. Quietly: a filter on the logger
drops every record its own level would have dropped before the run, so nothing new is printed or handed to a handler.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

__all__ = ["AOT_CACHE_LOG", "aot_components"]

AOT_CACHE_LOG = "torch._functorch._aot_autograd.autograd_cache"


class _Quiet(logging.Filter):
    """Lets on only the records the logger let through before the run."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.level


@contextlib.contextmanager
def aot_components() -> Iterator[None]:
    """AOTAutograd's cache logger at DEBUG while open (its level and filters put back after)."""
    logger = logging.getLogger(AOT_CACHE_LOG)  # the same object the module gets when torch imports it
    if logger.isEnabledFor(logging.DEBUG):  # the user asked for DEBUG: their records, their components
        yield
        return
    saved = logger.level
    quiet = _Quiet(logger.getEffectiveLevel())
    logger.addFilter(quiet)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        logger.removeFilter(quiet)
        logger.setLevel(saved)
