"""The first example of the torch.compile tutorial: a decorated function, called twice."""

import torch


@torch.compile(backend="eager")
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


torch.manual_seed(0)
print(opt_foo2(torch.randn(10, 10), torch.randn(10, 10)).sum().item() > -100)
print(opt_foo2(torch.ones(10, 10), torch.ones(10, 10))[0, :3])
