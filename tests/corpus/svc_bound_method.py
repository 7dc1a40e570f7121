"""Bound methods of plain classes defined in the cell: ``Svc().run(x)``, a classmethod, a staticmethod, ``__call__``."""

import torch


class Svc:
    factor = 3

    def __init__(self, offset=1.0):
        self.offset = offset

    def run(self, x):
        return self.helper(x) + self.offset

    def helper(self, x):
        return x * self.factor

    @classmethod
    def make(cls, offset):
        return cls(offset)

    @staticmethod
    def clip(x):
        return x.clamp(-1, 1)

    def __call__(self, x):
        return self.run(x).neg()


a = Svc().run(torch.ones(2))
b = Svc.make(2.0).run(torch.ones(2))
c = Svc.clip(torch.tensor([-3.0, 0.5, 3.0]))
d = Svc(0.0)(torch.ones(2))
print(a.tolist(), b.tolist(), c.tolist(), d.tolist())
