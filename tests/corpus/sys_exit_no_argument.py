"""``raise SystemExit`` (no argument) in a ``try``/``finally`` whose ``finally`` prints: exit status 0."""

import torch

t = torch.tensor([1.0, 2.0]).exp()
try:
    print("before exit", round(t.sum().item(), 4))
    raise SystemExit
finally:
    print("finally ran")
