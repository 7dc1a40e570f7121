"""Compiled autograd (the compiled autograd tutorial): the backward graph captured and compiled too, with
``torch._dynamo.config.compiled_autograd = True`` around a compiled training step."""

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(4, 8)


@torch.compile(backend="aot_eager")
def train(model, x):
    loss = model(x).sum()
    loss.backward()
    return loss


torch._dynamo.config.compiled_autograd = True
try:
    loss = train(model, x)
finally:
    torch._dynamo.config.compiled_autograd = False
print(round(loss.item(), 4), model[0].weight.grad is not None)
