"""A small seeded training loop: ``nn.Module``, loss, ``backward``, ``optim.SGD`` steps; final weights compared."""

import torch
from torch import nn

torch.manual_seed(10)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(16, 4)
target = x.sum(1, keepdim=True)


def step(model, x, target):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), target)
    loss.backward()
    opt.step()
    return loss.detach()


losses = [step(model, x, target) for _ in range(5)]
print([round(v.item(), 4) for v in losses])
