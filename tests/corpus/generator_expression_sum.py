"""Generator expressions and comprehensions at top level feeding tensor functions."""

import torch


def square(x):
    return x * x


base = torch.linspace(-1, 1, 5)
total = sum(square(base + i) for i in range(4))
rows = [square(base)[j].item() for j in range(5)]
table = {i: square(base * i).max().item() for i in range(3)}
gen = (square(base) for _ in range(2))
first = next(gen)
print(total.tolist(), rows, table, first.sum().item())
