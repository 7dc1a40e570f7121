"""``torch.compiler.set_stance(...)`` called as a function: "fail_on_recompile" for a steady state, caught, then set
back to the default."""

import torch


@torch.compile(backend="eager", dynamic=False)
def step(x):
    return (x * x).sum()


step(torch.ones(4))
torch.compiler.set_stance("fail_on_recompile")
try:
    step(torch.ones(5))
    outcome = "recompiled"
except RuntimeError as e:
    outcome = "refused: " + str(e).splitlines()[0][:40]
torch.compiler.set_stance("default")
print(outcome)
print(float(step(torch.ones(6))))
