"""A width sweep: a model per width, called (directly, through a function, a bound method and a callable object),
then deleted: plain Python frees each at once, and so must the explorer (nothing of the user's kept alive)."""

import gc
import weakref

import torch


class Net(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, width)
        self.fc2 = torch.nn.Linear(width, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class Scorer:
    def __init__(self, model):
        self.model = model

    def score(self, x):
        return self.model(x).sum()


class Probe:
    def __init__(self, model):
        self.model = model

    def __call__(self, x):
        return self.model(x).abs().mean()


def mean_of(model, x):
    return model(x).mean()


refs = []
counts = []
x = torch.ones(2, 16)
for width in (8, 16, 32):
    torch.manual_seed(width)
    model = Net(width)
    y = model(x)
    s = Scorer(model).score(x)
    p = Probe(model)(x)
    m = mean_of(model, x)
    refs.append(weakref.ref(model))
    del model
    gc.collect()
    counts.append(sum(r() is not None for r in refs))
    print(width, round(float(y.sum() + s + p + m), 4), counts[-1], "alive")
