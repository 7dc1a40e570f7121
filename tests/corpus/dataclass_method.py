"""A dataclass defined in the cell whose bound method ``cfg.apply(x)`` is called at top level."""

from dataclasses import dataclass, field

import torch


@dataclass
class Cfg:
    scale: float = 2.0
    bias: float = 0.5
    tags: list = field(default_factory=list)

    def apply(self, x):
        return x * self.scale + self.bias


@dataclass(frozen=True)
class Point:
    x: float
    y: float

    def as_tensor(self):
        return torch.tensor([self.x, self.y])


cfg = Cfg(scale=3.0, tags=["a"])
out = cfg.apply(torch.arange(4.0))
p = Point(1.0, 2.0)
pt = p.as_tensor() * 2
print(cfg, out.tolist(), p, pt.tolist())
