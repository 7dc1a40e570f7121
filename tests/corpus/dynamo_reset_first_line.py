import torch

torch._dynamo.reset()


def f(x):
    return x.cos() + x.sin()


y = f(torch.linspace(0, 1, 4))
print([round(v, 4) for v in y.tolist()])
