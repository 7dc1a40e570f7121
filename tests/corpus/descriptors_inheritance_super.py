"""Descriptors with inheritance: a subclass overrides a property and a classmethod and reaches the base's through
``super()``."""

import torch


class Base:
    def __init__(self, w):
        self.w = w

    @property
    def weight(self):
        return torch.full((2,), self.w)

    @classmethod
    def make(cls, w):
        return cls(w)

    def forward(self, x):
        return x * self.weight


class Child(Base):
    @property
    def weight(self):
        return super().weight + 1

    @classmethod
    def make(cls, w):
        made = super().make(w * 2)
        made.tag = "child"
        return made


c = Child.make(1.5)
out = c.forward(torch.ones(2))
print(c.tag, c.weight.tolist(), out.tolist(), Base.make(1.0).forward(torch.ones(2)).tolist())
