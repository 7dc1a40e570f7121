"""A huge amount of output: 40,000 lines printed from a loop over tensor values (about 1 MB)."""

import torch

values = torch.arange(40000, dtype=torch.float64).sin()
rows = values.tolist()
for i, v in enumerate(rows):
    print(f"{i:05d} {v:+.6f}")
print("sum", round(values.sum().item(), 6))
