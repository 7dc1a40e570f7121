"""Functions that mutate their inputs in place: a tensor (``add_``, indexing), a list and a dict passed as arguments."""

import torch


def mutate(x, bag, table):
    x.add_(1)
    x[0] = -1
    bag.append(x.sum().item())
    table["last"] = x.clone()
    return x.mul(2)


x = torch.zeros(3)
bag = []
table = {}
y = mutate(x, bag, table)
y2 = mutate(x, bag, table)
print(x.tolist(), bag, table["last"].tolist(), y.tolist(), y2.tolist())
