# dynamo-explorer: --backend aot_eager
"""The cell's own inductor compiles on CPU: ``mode="reduce-overhead"`` and ``options={...}``; the run's backend is aot_eager."""

import torch


def poly(x):
    return x * x * 3 + x * 2 + 1


fast = torch.compile(poly, mode="reduce-overhead")
tuned = torch.compile(poly, options={"epilogue_fusion": True, "max_autotune": False})
a = fast(torch.arange(4.0))
b = tuned(torch.arange(3.0))
print(a.tolist(), b.tolist())
