"""``ExceptionGroup`` raised from a tensor function and split with ``except*``; exception chaining with ``from``."""

import torch


def check_all(xs):
    errors = [ValueError(f"bad {i}") for i, x in enumerate(xs) if x.sum() < 0]
    errors += [TypeError("float64") for x in xs if x.dtype == torch.float64]
    if errors:
        raise ExceptionGroup("checks", errors)
    return torch.stack(xs).sum()


caught = []
try:
    check_all([torch.ones(2), -torch.ones(2), torch.ones(2, dtype=torch.float64)])
except* ValueError as group:
    caught.append(("value", len(group.exceptions)))
except* TypeError as group:
    caught.append(("type", len(group.exceptions)))


def wrapped(x):
    try:
        return x.view(7)
    except RuntimeError as exc:
        raise LookupError("reshape failed") from exc


try:
    wrapped(torch.ones(2, 3))
except LookupError as exc:
    chained = type(exc.__cause__).__name__
total = check_all([torch.ones(2), torch.ones(2)])
print(caught, chained, total.item())
