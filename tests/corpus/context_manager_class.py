"""A class-based context manager (``__enter__``/``__exit__``) that records and suppresses an error around tensor code."""

import torch


class Recorder:
    def __init__(self, name):
        self.name = name
        self.log = []

    def __enter__(self):
        self.log.append(f"enter {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        self.log.append(f"exit {self.name} {exc_type.__name__ if exc_type else None}")
        return exc_type is KeyError


def compute(x):
    return (x + 1).cumsum(0)


with Recorder("a") as rec:
    y = compute(torch.ones(4))
with Recorder("b") as rec2:
    z = compute(y)
    raise KeyError("suppressed")
print(rec.log, rec2.log, z.tolist())
