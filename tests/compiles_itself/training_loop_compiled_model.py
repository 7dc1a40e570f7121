"""A small training loop with a compiled model (the torch.compile tutorial's training section): forward and
backward through AOTAutograd, an SGD step, three iterations."""

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
compiled = torch.compile(model, backend="aot_eager")
x, y = torch.randn(16, 10), torch.randint(0, 2, (16,))
losses = []
for _ in range(3):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    losses.append(round(loss.item(), 4))
print(losses[0] > losses[-1], len(losses))
