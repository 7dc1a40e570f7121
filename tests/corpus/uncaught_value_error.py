"""Work done and printed, then an uncaught ``ValueError`` raised from inside the cell's function: exit status 1."""

import torch


def validate(x):
    if (x < 0).any():
        raise ValueError("negative entries")
    return x.sqrt()


ok = validate(torch.tensor([4.0, 9.0]))
print("ok", ok.tolist())
bad = validate(torch.tensor([1.0, -1.0]))
print("never printed")
