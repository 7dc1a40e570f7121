"""A tutorial in sections, each starting from a clean slate with ``torch._dynamo.reset()`` (as the torch.compile
tutorials do between examples): Dynamo numbers its frames from 0/0 again after each."""

import torch


def section_one(x):
    return torch.tanh(x) * 2


def section_two(x):
    return x.exp().log1p()


opt_one = torch.compile(section_one, backend="eager")
print(opt_one(torch.ones(3)).sum().item() > 0)

torch._dynamo.reset()
opt_two = torch.compile(section_two, backend="eager")
print(opt_two(torch.ones(3)).sum().item() > 0)
print(opt_two(torch.ones(4, 2)).shape)

torch.compiler.reset()
opt_one = torch.compile(section_one, backend="eager")
print(opt_one(torch.zeros(2)).tolist())
