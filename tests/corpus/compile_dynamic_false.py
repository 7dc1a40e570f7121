"""``torch.compile(dynamic=False)`` and ``dynamic=True`` by the cell, called with several shapes; compile counts read."""

import torch
from torch._dynamo.testing import CompileCounter

static_counter = CompileCounter()
dynamic_counter = CompileCounter()


def f(x):
    return x.sum(0) * x.shape[0]


static = torch.compile(f, backend=static_counter, dynamic=False)
dynamic = torch.compile(f, backend=dynamic_counter, dynamic=True)
outs = [static(torch.ones(n, 2)) for n in (2, 3, 4)] + [dynamic(torch.ones(n, 2)) for n in (2, 3, 4)]
print(static_counter.frame_count, dynamic_counter.frame_count, [o.tolist() for o in outs])
