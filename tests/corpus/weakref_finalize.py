"""``weakref.finalize`` on objects the cell calls: each finalizer runs when the cell drops the object, as in plain
Python (the explorer must not keep a callee, a module or a bound method's ``self`` alive)."""

import gc
import weakref

import torch

log = []


class Block(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = torch.nn.Linear(n, n)

    def forward(self, x):
        return torch.tanh(self.lin(x))


class Counter:
    def __init__(self):
        self.calls = 0

    def bump(self, x):
        self.calls += 1
        return x + self.calls


for n in (2, 3):
    torch.manual_seed(n)
    block = Block(n)
    weakref.finalize(block, log.append, f"block {n} freed")
    out = block(torch.ones(1, n))
    counter = Counter()
    weakref.finalize(counter, log.append, f"counter {n} freed")
    bumped = counter.bump(torch.zeros(n))
    del block, counter
    gc.collect()
    print(n, out.shape, bumped.tolist(), log)
