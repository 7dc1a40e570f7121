"""Generator functions chained into a pipeline, consumed by a for loop and by ``list``."""

import torch

torch.manual_seed(4)


def source(n):
    for i in range(n):
        yield torch.full((3,), float(i))


def transform(items):
    for x in items:
        yield x.exp().log1p()


def batches(items, size):
    batch = []
    for x in items:
        batch.append(x)
        if len(batch) == size:
            yield torch.stack(batch)
            batch = []
    if batch:
        yield torch.stack(batch)


sums = []
for b in batches(transform(source(7)), 3):
    sums.append(round(b.sum().item(), 4))
again = list(transform(source(2)))
print(sums, len(again))
