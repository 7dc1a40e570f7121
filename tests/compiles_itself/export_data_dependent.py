"""``torch.export.export`` of a module that branches on its input's values, left to fail as a first try at exporting
does: non-strict mode runs ``forward`` as Python and fails on the guard ``if x.sum() > 0`` needs
(``GuardOnDataDependentSymNode``); the program exits with that error, after what it printed."""

import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


gate = Gate()
print("eager:", gate(torch.ones(4)).tolist())
ep = torch.export.export(gate, (torch.ones(4),))
print("not reached")
