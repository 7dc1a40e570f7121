"""``concurrent.futures.ThreadPoolExecutor.map`` and ``submit`` over the cell's own tensor function."""

from concurrent.futures import ThreadPoolExecutor

import torch

torch.manual_seed(3)


def norm(x):
    return (x / (x.abs().max() + 1e-6)).pow(2).mean()


inputs = [torch.randn(5, 5) for _ in range(4)]
with ThreadPoolExecutor(max_workers=2) as pool:
    mapped = list(pool.map(norm, inputs))
    future = pool.submit(norm, inputs[0] * 3)
    submitted = future.result()
print([round(v.item(), 4) for v in mapped], round(submitted.item(), 4))
