"""The older spelling: ``torch._dynamo.optimize("eager")`` as a decorator and as a wrapper, and
``torch._dynamo.run`` for a cache-only call."""

import torch
import torch._dynamo as dynamo


@dynamo.optimize("eager")
def f(x):
    return x.abs() + 1


def g(x):
    return x.neg()


g2 = dynamo.optimize("eager", nopython=True)(g)
print(f(-torch.ones(2)).tolist(), g2(torch.ones(2)).tolist())
print(dynamo.run(f)(-torch.ones(2)).tolist())
