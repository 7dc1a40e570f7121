"""Methods a metaclass and a class decorator add to a class of the cell's, and a ``__call__`` the metaclass defines:
each is a function of the user's, called from the top level."""

import torch


class WithNorm(type):
    def __new__(mcs, name, bases, ns):
        def norm(self, x):
            return x / (x.abs().sum() + self.eps)

        ns.setdefault("norm", norm)
        return super().__new__(mcs, name, bases, ns)

    def __call__(cls, *args, **kwargs):
        obj = super().__call__(*args, **kwargs)
        obj.made_by = cls.__name__
        return obj


def with_scale(factor):
    def decorate(klass):
        def scale(self, x):
            return x * factor

        klass.scale = scale
        return klass

    return decorate


@with_scale(4.0)
class Layer(metaclass=WithNorm):
    eps = 1e-3

    def __init__(self, shift):
        self.shift = shift

    def apply(self, x):
        return self.scale(self.norm(x)) + self.shift


layer = Layer(1.0)
n = layer.norm(torch.tensor([1.0, -3.0]))
s = layer.scale(torch.ones(2))
a = layer.apply(torch.tensor([2.0, 2.0]))
print(layer.made_by, n.tolist(), s.tolist(), a.tolist())
