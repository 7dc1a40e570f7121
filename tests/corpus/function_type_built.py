"""A function built at run time with ``types.FunctionType`` from another's code, with its own globals and defaults,
then called from the top level."""

import types

import torch


def template(x, k=2):
    return torch.sin(x) * k + offset  # noqa: F821 - the built function's own globals give it


built = types.FunctionType(template.__code__, {"torch": torch, "offset": 10.0}, "built", (5,))
print(built(torch.zeros(2)).tolist(), built.__name__)
