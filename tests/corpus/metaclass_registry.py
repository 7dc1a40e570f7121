"""A metaclass that registers every subclass; registered classes' forward methods are called through the registry."""

import torch

REGISTRY = {}


class Registered(type):
    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        if bases:
            REGISTRY[name.lower()] = cls
        return cls

    def __call__(cls, *args, **kwargs):
        obj = super().__call__(*args, **kwargs)
        obj.created_by = "meta"
        return obj


class Op(metaclass=Registered):
    def forward(self, x):
        raise NotImplementedError


class Double(Op):
    def forward(self, x):
        return x * 2


class Square(Op):
    def forward(self, x):
        return x * x


x = torch.arange(1.0, 4.0)
outputs = {name: REGISTRY[name]().forward(x) for name in sorted(REGISTRY)}
sq = Square()
direct = sq.forward(x + 1)
print(sorted(REGISTRY), {k: v.tolist() for k, v in outputs.items()}, direct.tolist(), sq.created_by)
