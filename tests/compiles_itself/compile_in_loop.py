"""``torch.compile(fn)`` called again on every iteration, as code that builds its compiled callable in a loop does:
plain Dynamo compiles once (the backend guard matches an equal backend)."""

import torch


def g(x):
    return x.sin() + 1


torch.manual_seed(0)
x = torch.randn(4)
total = 0.0
for _ in range(10):
    total += float(torch.compile(g, backend="eager")(x).sum())
print(round(total, 4))
