"""Backward through the cell's function with a tensor ``register_hook`` that rescales the gradient."""

import torch

torch.manual_seed(6)
grads_seen = []


def loss_fn(w, x):
    return ((x @ w).sigmoid() ** 2).sum()


w = torch.randn(3, 2, requires_grad=True)
x = torch.randn(5, 3)
handle = w.register_hook(lambda g: grads_seen.append(g.norm().item()) or g * 0.5)
loss = loss_fn(w, x)
loss.backward()
handle.remove()
print(round(loss.item(), 4), len(grads_seen), [round(v, 4) for v in w.grad.flatten().tolist()])
