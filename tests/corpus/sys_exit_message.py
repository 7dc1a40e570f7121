"""``sys.exit("message")``: the message goes to stderr and the exit status is 1."""

import sys

import torch

w = torch.eye(2) * 4
print(w.trace().item())
if w.trace() > 1:
    sys.exit("trace too large, stopping")
print("not reached")
