"""Regional compilation (the "Reducing torch.compile cold start compilation time with regional compilation"
recipe): the repeated block of a model is compiled, each layer on its own, the model itself runs eagerly."""

import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(16, 16)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.linear(x)) + x


class Model(nn.Module):
    def __init__(self, apply_regional_compilation):
        super().__init__()
        self.linear = nn.Linear(16, 16)
        self.layers = nn.ModuleList([Layer() for _ in range(6)])
        if apply_regional_compilation:
            for layer in self.layers:
                layer.compile(backend="aot_eager")

    def forward(self, x):
        x = self.linear(x)
        for layer in self.layers:
            x = layer(x)
        return x


torch.manual_seed(0)
model = Model(apply_regional_compilation=True)
with torch.no_grad():
    out = model(torch.randn(4, 16))
print(tuple(out.shape), round(float(out.abs().mean()), 3))
