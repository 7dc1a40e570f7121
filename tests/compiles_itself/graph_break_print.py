"""A compiled function with a ``print`` in the middle, the most common graph break: two graphs and a resume
function."""

import torch


@torch.compile(backend="eager")
def f(x):
    y = x.sin()
    print("halfway, mean", round(float(y.mean()), 3))
    return y.cos() + 1


print(f(torch.zeros(3)).tolist())
