"""A cell whose top level defines a function with ``exec`` and then calls it (names made at run time)."""

import torch

src = "def triple(x):\n    return 3 * x\n"
exec(src)  # noqa: S102 - the cell makes a function at run time
y = triple(torch.ones(2))  # noqa: F821 - made by the exec above
print(y.tolist())
