"""A generator used as a coroutine: primed with ``next``, fed tensors with ``send``, stopped with ``close``."""

import torch


def running_mean():
    total = torch.zeros(3)
    count = 0
    mean = None
    while True:
        x = yield mean
        total = total + x
        count += 1
        mean = total / count


def make_input(i):
    return torch.arange(3, dtype=torch.float32) * i + 1


acc = running_mean()
next(acc)
means = [acc.send(make_input(i)) for i in range(5)]
acc.close()
last = means[-1]
print("last mean", last.tolist())
