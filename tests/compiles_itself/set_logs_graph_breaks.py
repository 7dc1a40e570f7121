"""``torch._logging.set_logs(graph_breaks=True)``: Dynamo prints each break to stderr, as TORCH_LOGS=graph_breaks
does; set back to the default afterwards."""

import torch

torch._logging.set_logs(graph_breaks=True)


@torch.compile(backend="eager")
def f(x):
    y = x.sum()
    if y.item() > 0:  # a data-dependent branch: a break
        return x * 2
    return x - 2


print(f(torch.ones(3)).tolist(), f(-torch.ones(3)).tolist())
torch._logging.set_logs()
