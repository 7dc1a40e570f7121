"""Names written through ``globals()`` and read through ``vars()`` at the top level, in a loop."""

import torch

for i in range(3):
    globals()[f"step_{i}"] = torch.full((2,), float(i))
scope = vars()
total = sum(scope[f"step_{i}"] for i in range(3))
print(total.tolist(), sorted(n for n in globals() if n.startswith("step_")))
