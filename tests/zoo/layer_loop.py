# torch.compile: layers = [torch.compile(layer, backend=BACKEND) for layer in layers]
# callee: layer
"""A loop over layers at the cell's top level: each call of a layer is compiled, as torch.compile(layer) would."""

import torch
from torch import nn


class Residual(nn.Module):
    def __init__(self, dim, scale):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, dim)
        self.scale = scale

    def forward(self, x):
        return x + self.scale * torch.tanh(self.proj(self.norm(x)))


torch.manual_seed(0)
layers = [Residual(16, s) for s in (0.5, 1.0, 0.5, 2.0)]
x = torch.randn(3, 16)
for layer in layers:
    x = layer(x)
x = torch.randn(5, 16)
for layer in layers:
    x = layer(x)
print(x.shape)
