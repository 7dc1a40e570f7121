"""Unbounded recursion in the cell's function, caught as ``RecursionError`` by the cell."""

import torch


def forever(x):
    return forever(x + 1)


try:
    forever(torch.zeros(1))
    outcome = "returned"
except RecursionError:
    outcome = "recursion error"
print(outcome, torch.ones(2).sum().item())
