"""A ``functools.lru_cache``-decorated function returning tensors, called with repeated keys; ``cache_info`` read."""

import functools

import torch


@functools.lru_cache(maxsize=4)
def basis(n):
    return torch.eye(n) * n


@functools.cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


m = basis(3) + basis(3) + basis(2).sum()
info = basis.cache_info()
f20 = fib(20)
print(m.tolist(), info.hits, info.misses, f20)
