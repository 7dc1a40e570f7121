"""The export tutorial's steps: a module with a parameter and a buffer exported with a dynamic batch dimension (a
named ``Dim`` with a range), the program run on another batch size, then ``draft_export`` of a module that branches
on a tensor's value (it assumes the branch taken and says so in its report)."""

import torch
from torch.export import Dim


class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(8))
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x):
        self.calls.add_(1)
        return (x * self.w).relu().sum(-1)


class Pick(torch.nn.Module):
    def forward(self, x, n):
        if n.item() > 2:
            return x * 2
        return x + 1


batch = Dim("batch", min=2, max=64)
ep = torch.export.export(Scale(), (torch.randn(4, 8),), dynamic_shapes={"x": {0: batch}})
print(ep.graph_signature.user_inputs, [str(v) for v in ep.range_constraints.values()])
print(ep.module()(torch.ones(16, 8)).shape)
draft = torch.export.draft_export(Pick(), (torch.randn(8), torch.tensor(3)))
print([f.failure_type.name for f in draft._report.failures])
