"""Output that does not end with a newline (``end=""`` and ``sys.stdout.write``)."""

import sys

import torch

x = torch.ones(3).sum()
print("total", x.item(), end="")
sys.stdout.write(" | done")
