"""``exec(compile(...))`` into an explicit namespace and into the cell's own, then both functions called."""

import torch

ns = {"torch": torch}
exec(compile("def double(x):\n    return torch.relu(x) * 2\n", "<generated>", "exec"), ns)  # noqa: S102 - into a namespace of its own
exec(compile("def halve(x):\n    return x / 2\n", "<generated>", "exec"))  # noqa: S102 - into the cell's namespace
a = ns["double"](torch.tensor([-1.0, 2.0]))
b = halve(a)  # noqa: F821 - made by the exec above
print(a.tolist(), b.tolist())
