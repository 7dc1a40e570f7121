"""``torch._logging.set_logs(recompiles=True)`` (the logging docs) before a function with several graph breaks and a
recompile: what the logs print goes to stderr; the program's own output is unchanged."""

import torch

torch._logging.set_logs(recompiles=True)


def helper(x):
    print("inside helper")  # a graph break
    return x * 2


@torch.compile(backend="eager")
def f(x, n):
    x = x + 1
    x = helper(x)
    x = x.relu()
    torch._dynamo.graph_break()
    return x - n


print(f(torch.ones(2), 1).tolist())
print(f(torch.ones(2, dtype=torch.float64), 2).tolist())
torch._logging.set_logs()
