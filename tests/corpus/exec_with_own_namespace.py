"""``exec`` with a namespace of its own, a function built from its result, and ``eval`` of an expression that calls
the cell's function: what ``exec`` writes to its own dict stays there, as in plain Python."""

import torch


def base(x):
    return x + 10


ns = {"torch": torch}
exec("def inner(x):\n    return torch.sin(x) * 0\n", ns)  # noqa: S102 - a namespace of its own
inner_result = ns["inner"](torch.ones(2))
value = eval("base(torch.ones(2)) * 2")
defined_here = "inner" in globals()
print(inner_result.tolist(), value.tolist(), defined_here, sorted(k for k in ns if not k.startswith("__")))
