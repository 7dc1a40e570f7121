"""``@torch.compiler.set_stance("force_eager")`` on a function that calls a compiled one (the set_stance docs'
example): inside it the compiled function runs eagerly."""

import torch


@torch.compile(backend="eager")
def foo(x):
    return x * 2 + 1


@torch.compiler.set_stance("force_eager")
def bar(x):
    # force disable the compiler
    return foo(x) + 1


inp = torch.ones(3)
print(bar(inp).tolist())  # plain: foo runs eagerly
print(foo(inp).tolist())  # compiled
