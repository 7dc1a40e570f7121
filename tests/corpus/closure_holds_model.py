"""A function made per model (a closure over it), called, then dropped with the model: the closure's cells hold the
model, and plain Python frees both once the cell drops them."""

import gc
import weakref

import torch


def make_step(model, lr):
    def step(x):
        loss = model(x).pow(2).mean()
        return loss * lr

    return step


refs = []
for seed in (0, 1):
    torch.manual_seed(seed)
    model = torch.nn.Linear(3, 1)
    step = make_step(model, 0.5)
    loss = step(torch.ones(2, 3))
    refs.append(weakref.ref(model))
    del model, step
    gc.collect()
    print(seed, round(float(loss.detach()), 4), sum(r() is not None for r in refs))
