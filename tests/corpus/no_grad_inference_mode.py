"""``torch.no_grad`` and ``torch.inference_mode`` as context managers and as decorators; ``enable_grad`` inside."""

import torch

torch.manual_seed(9)
w = torch.randn(3, requires_grad=True)


def f(x):
    return (x * w).sum()


@torch.no_grad()
def g(x):
    return f(x) * 2


@torch.inference_mode()
def h(x):
    return f(x) + 1


with torch.no_grad():
    a = f(torch.ones(3))
    with torch.enable_grad():
        a2 = f(torch.ones(3))
with torch.inference_mode():
    b = f(torch.ones(3))
c = g(torch.ones(3))
d = h(torch.ones(3))
e = f(torch.ones(3))
flags = [t.requires_grad for t in (a, a2, b, c, d, e)], [t.is_inference() for t in (a, b, d, e)]
print(flags, round(e.item(), 4))
