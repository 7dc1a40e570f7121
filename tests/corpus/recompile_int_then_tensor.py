"""A function called with an int and then with a tensor in the same argument (a recompile whose old guard compares ``k == 3``)."""

import torch


def scale(x, k):
    return x * k


a = scale(torch.ones(3), 3)
b = scale(torch.ones(3), torch.arange(3.0))
c = scale(torch.ones(2), 2.5)
print(a.tolist(), b.tolist(), c.tolist())
