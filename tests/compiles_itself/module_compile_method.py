"""``model.compile()`` (nn.Module.compile, in place) on a model of the user's, then a forward and a backward; and on
an ``nn.Sequential``, whose forward is torch's own code: Dynamo compiles no frame of it (plain torch.compile neither)."""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(nn.functional.gelu(self.fc1(x)))


torch.manual_seed(0)
model = MLP()
model.compile(backend="aot_eager")
x = torch.randn(16, 8)
loss = model(x).pow(2).mean()
loss.backward()
seq = nn.Sequential(nn.Linear(8, 4), nn.Tanh())
seq.compile(backend="eager")
print(round(loss.item(), 4), model.fc1.weight.grad.shape, seq(x).shape)
