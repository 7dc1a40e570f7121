"""``with torch.compiler.set_stance("force_eager"):`` and ``"eager_on_recompile"`` as context managers around calls
of a compiled function (the set_stance docs)."""

import torch


@torch.compile(backend="eager")
def f(x):
    return x.relu() + 1


torch.manual_seed(0)
a = f(torch.randn(4))
with torch.compiler.set_stance("force_eager"):
    b = f(torch.randn(8))  # eager: nothing compiles
with torch.compiler.set_stance("eager_on_recompile"):
    c = f(torch.randn(16))  # a recompile would happen: it runs eagerly instead
d = f(torch.randn(4))
print(a.shape[0], b.shape[0], c.shape[0], d.shape[0])
