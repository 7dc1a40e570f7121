"""A function name defined, called, redefined with another body and called again; ``del`` of names at top level."""

import torch


def f(x):
    return x + 1


first = f(torch.ones(2))


def f(x):
    return x * 10


second = f(torch.ones(2))
f = lambda x: x - 5  # noqa: E731
third = f(torch.ones(2))
temp = third * 2
del temp
print(first.tolist(), second.tolist(), third.tolist(), "temp" in globals())
