"""``torch.compile(model.forward)``, and a method of the user's class decorated with ``@torch.compile``."""

import torch
from torch import nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.full((4,), 2.0))

    def forward(self, x):
        return x * self.w


class Pipeline:
    def __init__(self, k):
        self.k = k

    @torch.compile(backend="eager")
    def apply(self, x):
        return (x + self.k).square()


m = Scaler()
fwd = torch.compile(m.forward, backend="eager")
with torch.no_grad():
    print(fwd(torch.ones(4)).tolist())
p = Pipeline(1.0)
print(p.apply(torch.ones(2)).tolist(), Pipeline(2.0).apply(torch.ones(2)).tolist())
