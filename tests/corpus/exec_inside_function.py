"""``exec`` inside a function of the user's (into a namespace of its own) and ``eval`` of an expression."""

import torch


def make_op(expr):
    ns = {"torch": torch}
    exec(f"def op(x):\n    return {expr}\n", ns)  # noqa: S102 - a function made at run time
    return ns["op"]


def apply(x):
    op = make_op("x.abs() + 1")
    return op(x) * eval("2 + 1")


print(apply(torch.tensor([-2.0, 3.0])).tolist())
