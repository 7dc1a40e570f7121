"""Dynamic shapes as the torch.compile docs show them: a second size recompiles with a symbolic size, a dtype change
recompiles again, ``mark_dynamic`` marks a dimension before the first call of another function."""

import torch


@torch.compile(backend="eager")
def scale(x):
    return x * x.shape[0]


for n in (2, 3, 4):
    scale(torch.ones(n))
scale(torch.ones(5, dtype=torch.float64))


@torch.compile(backend="eager")
def rowsum(x):
    return x.sum(dim=1)


t = torch.ones(3, 6)
torch._dynamo.mark_dynamic(t, 0)
print(rowsum(t).tolist(), rowsum(torch.ones(7, 6)).shape[0])
