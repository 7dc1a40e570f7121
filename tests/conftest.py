"""Shared pytest configuration for every test suite under tests/.

Contents:
- ``_fresh_dynamo`` (autouse): ``torch._dynamo.reset()`` before each test that runs in a
  process where Dynamo is loaded, so in-process engine tests do not see each other's caches.
  Tests may reset; the product never does.
- ``pytest_collection_modifyitems``: under pytest-xdist's ``--dist loadgroup`` (``.ci/run``), a test file's
  tests run on one worker, as ``loadfile`` would, so that a module's fixtures (a JupyterLab server, the
  corpus's processes) start once; the files in ``SPREAD`` are the exception: each of their tests is a whole
  program in its own process (the zoo), so they spread over the workers one by one, and the two slowest
  files no longer decide the wall time.
"""

from __future__ import annotations

import sys

import pytest

#: test files whose tests are independent, each a program in its own process
SPREAD = ("tests/zoo/test_zoo_cli.py", "tests/kernel/test_kernel_zoo.py")


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:
        dynamo.reset()
    yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if path not in SPREAD:
            item.add_marker(pytest.mark.xdist_group(path))
