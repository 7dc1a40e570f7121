"""``@torch._dynamo.error_on_graph_break(True)`` stacked on a compiled function: a break becomes an error the
program catches, and ``error_on_graph_break(False)`` around a region lets one through."""

import torch


@torch._dynamo.error_on_graph_break(True)
@torch.compile(backend="aot_eager")
def strict(x):
    y = x.sin()
    torch._dynamo.graph_break()
    return y.cos()


@torch.compile(backend="eager")
def lenient(x):
    with torch._dynamo.error_on_graph_break(False):
        y = x + 1
        torch._dynamo.graph_break()
    return y * 2


try:
    strict(torch.ones(3))
    print("strict ran")
except Exception as e:  # noqa: BLE001 - as user code catches it
    print("strict raised", type(e).__name__)
print(lenient(torch.ones(3)).tolist())
