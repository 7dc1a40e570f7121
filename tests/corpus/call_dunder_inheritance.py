"""``__call__`` defined in a base class and overridden with ``super().__call__`` in a subclass, an ``nn.Module``
subclass whose ``forward`` calls a base's through ``super()``, and a ``__call__`` reached through ``type(obj)``."""

import torch


class Op:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x * self.k


class ShiftedOp(Op):
    def __call__(self, x):
        return super().__call__(x) + 1


class Base(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        return self.lin(x)


class Child(Base):
    def forward(self, x):
        return torch.sigmoid(super().forward(x))


torch.manual_seed(0)
op = ShiftedOp(3)
a = op(torch.ones(2))
b = type(op).__call__(op, torch.ones(2))
c = Op.__call__(op, torch.ones(2))
child = Child()
d = child(torch.ones(1, 2))
print(a.tolist(), b.tolist(), c.tolist(), [round(v, 4) for v in d.flatten().tolist()])
