"""``torch._dynamo.config.recompile_limit`` lowered, then one function called with more dtypes than the limit: the
last calls run eagerly, as Dynamo warns."""

import torch

torch._dynamo.config.recompile_limit = 2


@torch.compile(backend="eager", dynamic=False)
def f(x):
    return x + 1


for dtype in (torch.float32, torch.float64, torch.int32, torch.int64):
    f(torch.ones(2, dtype=dtype))
print(f(torch.ones(2, dtype=torch.int16)).dtype)
