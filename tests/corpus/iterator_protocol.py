"""A class implementing ``__iter__``/``__next__``/``__len__``/``__getitem__`` over tensors, used by for, zip and enumerate."""

import torch


class Windows:
    def __init__(self, x, size):
        self.x = x
        self.size = size
        self.i = 0

    def __iter__(self):
        self.i = 0
        return self

    def __next__(self):
        if self.i + self.size > len(self.x):
            raise StopIteration
        w = self.x[self.i : self.i + self.size]
        self.i += 1
        return w

    def __len__(self):
        return len(self.x) - self.size + 1

    def __getitem__(self, i):
        return self.x[i : i + self.size]


def energy(w):
    return (w * w).sum()


wins = Windows(torch.arange(6.0), 3)
energies = [energy(w) for w in wins]
pairs = list(zip(range(len(wins)), wins, strict=False))
print([e.item() for e in energies], len(pairs), energy(wins[2]).item())
