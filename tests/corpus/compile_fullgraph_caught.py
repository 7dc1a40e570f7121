"""The cell's own ``torch.compile(fn, backend="eager", fullgraph=True)`` on a function with a graph break; the error is caught."""

import torch


def breaks(x):
    y = x * 2
    print("inside breaks")
    return y + 1


strict = torch.compile(breaks, backend="eager", fullgraph=True)
try:
    out = strict(torch.ones(2))
    outcome = "no error"
except Exception as exc:  # noqa: BLE001 - whatever fullgraph raises is what the cell reports
    outcome = type(exc).__name__
    out = None
relaxed = torch.compile(breaks, backend="eager", fullgraph=False)(torch.ones(2))
print(outcome, out, relaxed.tolist())
