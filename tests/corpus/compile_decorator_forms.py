"""``@torch.compile(...)`` as a decorator with options, ``torch.compile(disable=True)``, and a compiled ``nn.Module``."""

import torch
from torch import nn

torch.manual_seed(8)


@torch.compile(backend="eager", dynamic=True, fullgraph=True)
def fused(x, y):
    return x * y + y


off = torch.compile(lambda x: x - 1, disable=True)
model = torch.compile(nn.Sequential(nn.Linear(3, 3), nn.Tanh()), backend="eager")
with torch.no_grad():
    m = model(torch.randn(2, 3))
print(fused(torch.ones(3), torch.full((3,), 2.0)).tolist(), off(torch.ones(1)).tolist(), round(m.sum().item(), 4))
print(type(model).__name__, hasattr(fused, "_torchdynamo_orig_callable"))
