"""Not a cell: a module that ``sibling_import.py`` imports from the cell's own directory."""

import torch


def smooth(x):
    return torch.nn.functional.avg_pool1d(x[None, None], 3, 1, 1)[0, 0]


class Scaler:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x * self.k
