"""An eager helper that runs a function both ways and compares: only the compiled one is Dynamo's."""

import torch


def timed_both(fn, *args):
    eager = fn(*args)
    compiled = torch.compile(fn, backend="eager")(*args)
    return eager, compiled


def check(name, a, b):
    ok = torch.allclose(a, b, atol=1e-6)
    print(f"{name}: {'ok' if ok else 'MISMATCH'}")
    return ok


def gelu_mlp(x, w1, w2):
    return torch.nn.functional.gelu(x @ w1) @ w2


def softmax_rows(x):
    return torch.softmax(x - x.max(dim=-1, keepdim=True).values, dim=-1)


torch.manual_seed(0)
x, w1, w2 = torch.randn(4, 8), torch.randn(8, 16), torch.randn(16, 2)
results = [check("mlp", *timed_both(gelu_mlp, x, w1, w2)), check("softmax", *timed_both(softmax_rows, x))]
print(all(results))
