"""``NamedTuple`` results, an ``Enum`` argument and a ``match`` statement on shapes, with walrus assignments."""

import enum
from typing import NamedTuple

import torch


class Mode(enum.Enum):
    SUM = "sum"
    MEAN = "mean"


class Result(NamedTuple):
    value: torch.Tensor
    mode: Mode


def reduce(x, mode):
    match mode:
        case Mode.SUM:
            return Result(x.sum(), mode)
        case Mode.MEAN:
            return Result(x.mean(), mode)


def kind(x):
    match tuple(x.shape):
        case (n,):
            return f"vector {n}"
        case (n, m) if n == m:
            return f"square {n}"
        case _:
            return "other"


results = [reduce(torch.arange(4.0), m) for m in Mode]
if (big := max(r.value.item() for r in results)) > 1:
    label = "big"
kinds = [kind(t) for t in (torch.ones(3), torch.ones(2, 2), torch.ones(1, 2, 3))]
print([(r.value.item(), r.mode.name) for r in results], big, label, kinds)
