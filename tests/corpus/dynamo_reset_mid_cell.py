"""``torch._dynamo.reset()`` in the middle of the cell, after the cell's own ``torch.compile`` has compiled."""

import torch


def f(x):
    return (x * 3).exp().sum()


compiled = torch.compile(f, backend="eager")
a = compiled(torch.zeros(3))
b = f(torch.ones(2))
torch._dynamo.reset()
c = compiled(torch.zeros(5))
d = f(torch.ones(3))
print(a.item(), round(b.item(), 3), c.item(), round(d.item(), 3))
