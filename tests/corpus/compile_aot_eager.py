"""The cell's own ``torch.compile(fn, backend="aot_eager")`` with a backward pass through it."""

import torch

torch.manual_seed(7)


def mlp(x, w1, w2):
    return (torch.nn.functional.gelu(x @ w1) @ w2).sum()


w1 = torch.randn(4, 8, requires_grad=True)
w2 = torch.randn(8, 2, requires_grad=True)
x = torch.randn(3, 4)
compiled = torch.compile(mlp, backend="aot_eager")
loss = compiled(x, w1, w2)
loss.backward()
print(round(loss.item(), 4), round(w1.grad.sum().item(), 4), round(w2.grad.abs().sum().item(), 4))
