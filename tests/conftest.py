"""Shared pytest configuration for every test suite under tests/.

Contents:
- ``_fresh_dynamo`` (autouse): ``torch._dynamo.reset()`` before each test that runs in a
  process where Dynamo is loaded, so in-process engine tests do not see each other's caches.
  Tests may reset; the product never does.
"""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:
        dynamo.reset()
    yield
