"""``functools.partial``, ``reduce``, ``singledispatch`` and ``cached_property`` with tensor functions."""

import functools

import torch


def affine(x, scale, shift=0.0):
    return x * scale + shift


half = functools.partial(affine, scale=0.5)
shifted = functools.partial(affine, shift=2.0, scale=1.0)
product = functools.reduce(lambda acc, t: acc * t, [torch.full((2,), float(i)) for i in range(1, 5)])


@functools.singledispatch
def describe(value):
    return f"object {value!r}"


@describe.register
def _(value: torch.Tensor):
    return f"tensor sum {value.sum().item():.3f}"


class Stats:
    def __init__(self, x):
        self.x = x

    @functools.cached_property
    def mean(self):
        return self.x.mean()


stats = Stats(torch.arange(5.0))
print(half(torch.ones(2)).tolist(), shifted(torch.ones(2)).tolist(), product.tolist())
print(describe(3), describe(half(torch.ones(3))), stats.mean.item(), "mean" in vars(stats))
