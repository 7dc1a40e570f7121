"""``torch._dynamo.disable`` as a decorator, as a call, and ``torch.compiler.disable`` on helpers of the cell's function."""

import torch

log = []


@torch._dynamo.disable
def side_effect(x):
    log.append(float(x.sum()))
    return x


@torch.compiler.disable(recursive=False)
def shallow(x):
    return x.abs()


def helper(x):
    return x + 10


plain_helper = torch._dynamo.disable(helper)


def f(x):
    x = side_effect(x * 2)
    return plain_helper(shallow(x - 1))


y = f(torch.arange(3.0))
z = side_effect(torch.ones(2))
print(y.tolist(), z.tolist(), log)
