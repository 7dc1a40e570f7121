"""A ``@staticmethod``, a ``@classmethod``, a ``@property`` and a ``functools.cached_property`` of a class the cell
defines, reached from the top level: each is a function of the user's."""

import functools

import torch


class Scaler:
    factor = 3.0

    def __init__(self, bias):
        self.bias = bias
        self.reads = 0

    @staticmethod
    def double(x):
        return x * 2

    @classmethod
    def scale(cls, x):
        return x * cls.factor

    @property
    def shifted(self):
        self.reads += 1
        return torch.ones(2) + self.bias

    @functools.cached_property
    def table(self):
        return torch.arange(4.0) * self.bias


s = Scaler(0.5)
a = Scaler.double(torch.ones(2))
b = Scaler.scale(torch.ones(2))
c = s.shifted
d = s.shifted
t1 = s.table
t2 = s.table
print(a.tolist(), b.tolist(), c.tolist(), d.tolist(), s.reads, t1.tolist(), t1 is t2)
