"""``from math import *`` at the top of a script (legal in a module), then tensor work using the imported names."""

from math import *  # noqa: F403

import torch

angle = pi / 4  # noqa: F405
t = torch.tensor([sin(angle), cos(angle)])  # noqa: F405
print([round(v, 4) for v in t.tolist()], floor(2.7))  # noqa: F405
