"""What differs by torch release or Python version, for the tests.

``TORCH``: the running torch as ``(major, minor)``. ``known(name, differences)``: a parametrize value, marked as a
strict xfail where ``differences`` names a measured difference of this torch or Python for it (strict: the day
it passes, its entry must go).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch

TORCH: tuple[int, ...] = tuple(int(p) for p in re.findall(r"\d+", torch.__version__)[:2])


def known(name: str, differences: dict[str, tuple[bool, str]]) -> Any:
    if name in differences:
        when, why = differences[name]
        return pytest.param(name, marks=pytest.mark.xfail(when, reason=why, strict=True))
    return name
