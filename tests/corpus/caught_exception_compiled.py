"""Exceptions raised inside the cell's tensor functions and caught by the cell; ``finally`` and ``else`` run."""

import torch


def checked(x):
    if x.sum() > 5:
        raise ValueError(f"too big: {x.sum().item():.1f}")
    return x / 2


def shape_error(x):
    return x @ torch.ones(5, 5)


log = []
for n in (2, 8):
    try:
        out = checked(torch.ones(n))
    except ValueError as exc:
        log.append(str(exc))
    else:
        log.append(f"ok {out.tolist()}")
    finally:
        log.append("finally")
try:
    shape_error(torch.ones(2, 3))
except RuntimeError:
    log.append("runtime error")
compiled_checked = torch.compile(checked, backend="eager")
try:
    compiled_checked(torch.ones(9))
except ValueError as exc:
    saved = exc
print(log, repr(saved))
