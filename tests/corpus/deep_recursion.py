"""Deep recursion: a recursive tensor function 300 calls deep, and a pure-Python one 900 calls deep."""

import torch


def rec(x, n):
    if n == 0:
        return x
    return rec(x + 1, n - 1)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


y = rec(torch.zeros(2), 300)
d = depth(900)
print(y.tolist(), d)
