"""``atexit.register`` (runs after the cell ends) and ``warnings`` issued by the cell's function, recorded by the cell."""

import atexit
import warnings

import torch


def at_exit():
    print("atexit ran")


atexit.register(at_exit)


def careful(x):
    if x.min() < 0:
        warnings.warn("negative input clipped", UserWarning, stacklevel=2)
    return x.clamp(min=0)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = careful(torch.tensor([-1.0, 2.0]))
mine = [str(w.message) for w in caught if issubclass(w.category, UserWarning) and "clipped" in str(w.message)]
print(y.tolist(), mine)
