"""``fullgraph=True`` on a function with a data-dependent branch: Dynamo raises, the program falls back to the eager
function, as code that tries the strict mode first does."""

import torch


def gate(x):
    if x.sum() > 0:
        return x * 2
    return -x


strict = torch.compile(gate, fullgraph=True, backend="eager")
x = torch.ones(3)
try:
    out = strict(x)
except torch._dynamo.exc.Unsupported as e:
    print("not one graph:", type(e).__name__)
    out = gate(x)
print(out.tolist())
