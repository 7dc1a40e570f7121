"""The compile ids of a report: Dynamo's own, and after a reset the reset they came after.

[Note: compile ids after a reset] A report names each frame by the compile id Dynamo gives it (``0/0``, ``1/2``,
``!0/3/0`` for compiled autograd), the id ``TORCH_LOGS`` and tlparse print: the run never changes Dynamo's
numbering. ``torch._dynamo.reset()`` (``torch.compiler.reset()``, and ``torch._dynamo.explain``, which resets first)
restarts that numbering at ``0/0``, so a run that compiled before a reset and compiles after it meets the same id
twice. The frames compiled after the run's n-th such reset carry ``@n`` after Dynamo's id (``0/0@1``: Dynamo's
``[0/0]``, after the first reset), so that each id of a report names one frame; ``report.resets[]`` says where
each reset was made (``DynamoReset.epoch`` is its n). A reset before anything of the run compiled (the common first
line of a cell) starts nothing new: the ids stay as Dynamo gives them.

While a run is captured, ``current_trace_id`` and every reader of a live compile id go through ``report_id``
with the run's epoch (``set_epoch``, by the dispatcher); ``split`` takes an id of a report apart again.
"""

from __future__ import annotations

import re

__all__ = ["dynamo_id", "epoch_of", "report_id", "set_epoch", "split", "with_epoch_of"]

_epoch = 0  # the reset epoch of the run being captured (collectors/dispatch.py sets it; 0 outside a run)
_SUFFIX = re.compile(r"@(\d+)$")


def set_epoch(epoch: int) -> None:
    """The run's epoch from now on: the number of its resets that came after one of its compiles."""
    global _epoch
    _epoch = epoch


def report_id(compile_id: str | None, epoch: int | None = None) -> str | None:
    """Dynamo's ``compile_id`` as the report names it, in ``epoch`` (default: the run's current one)."""
    if compile_id is None:
        return None
    n = _epoch if epoch is None else epoch
    return f"{compile_id}@{n}" if n else compile_id


def split(compile_id: str) -> tuple[str, int]:
    """``('0/0', 1)`` for ``0/0@1``; ``('0/0', 0)`` for ``0/0``."""
    m = _SUFFIX.search(compile_id)
    return (compile_id[: m.start()], int(m.group(1))) if m else (compile_id, 0)


def dynamo_id(compile_id: str) -> str:
    """The id as Dynamo printed it (``0/0`` for ``0/0@1``)."""
    return split(compile_id)[0]


def epoch_of(compile_id: str) -> int:
    return split(compile_id)[1]


def with_epoch_of(compile_id: str, other: str) -> str:
    """``other`` (an id Dynamo printed, e.g. in a recompile reason) in the epoch of ``compile_id``."""
    return report_id(dynamo_id(other), epoch_of(compile_id)) or other
