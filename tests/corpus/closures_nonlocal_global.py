"""Closures with ``nonlocal`` counters and functions that rebind module globals with ``global``."""

import torch

counter = 0
history = []


def make_accumulator():
    total = torch.zeros(2)
    calls = 0

    def add(x):
        nonlocal total, calls
        total = total + x
        calls += 1
        return total, calls

    return add


def bump(x):
    global counter, last
    counter += 1
    last = x * counter
    history.append(counter)
    return last


acc = make_accumulator()
for i in range(3):
    running, n = acc(torch.full((2,), float(i)))
for _ in range(2):
    bump(torch.ones(2))
print(running.tolist(), n, counter, last.tolist(), history)
