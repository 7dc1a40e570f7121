"""``torch._dynamo.explain(fn)(x)``: Dynamo's own summary of graphs and breaks (the explain docs)."""

import torch


def bar(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


torch.manual_seed(0)
explanation = torch._dynamo.explain(bar)(torch.randn(10), torch.randn(10))
print(explanation.graph_count, explanation.graph_break_count, len(explanation.break_reasons))
