"""``torch._dynamo.config.patch`` as a decorator of the cell's function, and ``torch._dynamo.config`` read inside it."""

import torch


@torch._dynamo.config.patch(cache_size_limit=4, capture_scalar_outputs=True)
def run(x):
    seen = (torch._dynamo.config.cache_size_limit, torch._dynamo.config.capture_scalar_outputs)
    return x.tanh() * 2, seen


def plain_read():
    return torch._dynamo.config.capture_scalar_outputs


out, seen = run(torch.linspace(-2, 2, 5))
outside = plain_read()
print([round(v, 4) for v in out.tolist()], seen, outside)
