"""``torch._dynamo.config.patch(...)`` used as a context manager around calls of a function with ``.item()``."""

import torch


def scaled(x):
    n = x.sum().item()
    return x * n


with torch._dynamo.config.patch(capture_scalar_outputs=True):
    inside = torch._dynamo.config.capture_scalar_outputs
    a = scaled(torch.ones(3))
    b = torch.compile(scaled, backend="eager")(torch.ones(2))
after = torch._dynamo.config.capture_scalar_outputs
c = scaled(torch.full((2,), 2.0))
print(inside, after, a.tolist(), b.tolist(), c.tolist())
