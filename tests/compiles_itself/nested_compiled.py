"""A compiled function calling another compiled function (a library's compiled kernel used inside a compiled
model): Dynamo inlines the inner one."""

import torch


@torch.compile(backend="eager")
def rms_norm(x, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


@torch.compile(backend="eager")
def block(x, w):
    return rms_norm(x @ w).relu()


torch.manual_seed(0)
x, w = torch.randn(4, 8), torch.randn(8, 8)
print(round(float(block(x, w).sum()), 4), round(float(rms_norm(x).pow(2).mean()), 4))
