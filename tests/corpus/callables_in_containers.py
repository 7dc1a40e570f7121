"""The user's functions reached through containers and wrappers: a dict of functions, a ``functools.partial``, a
``SimpleNamespace``, a lambda stored in a list, and ``functools.lru_cache`` over a plain function."""

import functools
import types

import torch


def add(x, y):
    return x + y


def mul(x, y, scale=1.0):
    return x * y * scale


@functools.lru_cache(maxsize=8)
def table(n):
    return tuple(range(n))


ops = {"add": add, "mul": mul}
ns = types.SimpleNamespace(double=lambda x: x * 2)
chain = [lambda x: x - 1, functools.partial(mul, scale=3.0)]
x = torch.ones(2)
a = ops["add"](x, x)
b = ops["mul"](x, a, scale=0.5)
c = ns.double(b)
d = chain[0](c)
e = chain[1](d, x)
t = table(4) + table(4)
print(a.tolist(), b.tolist(), c.tolist(), d.tolist(), e.tolist(), t, table.cache_info().hits)
