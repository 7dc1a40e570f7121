"""Shared pytest configuration for every test suite under tests/.

Contents:
- ``_fresh_dynamo`` (autouse): ``torch._dynamo.reset()`` before each test that runs in a
  process where Dynamo is loaded, so in-process engine tests do not see each other's caches.
  Tests may reset; the product never does.
- ``pytest_xdist_make_scheduler``: under pytest-xdist (``-n 2``, ``.ci/run``), a test file's tests run on one
  worker, so that a module's fixtures (the corpus's processes, a kernel) start once; the files in ``SPREAD`` are
  the exception: each of their tests is a whole program in its own process (the zoo), so they spread over the
  workers one by one. (``--dist loadgroup`` with ``xdist_group`` marks did this until pytest 9.2, whose node ids
  pytest-xdist 3.8 can no longer suffix: every test then went its own way, and the corpus's 4-minute fixture
  ran on both workers.)
- ``pytest_collection_modifyitems``: the files in ``FIRST`` start first, the longest first, so that the two
  workers end together rather than one waiting on a late long file.
"""

from __future__ import annotations

import sys

import pytest

#: test files whose tests are independent, each a program in its own process
SPREAD = ("tests/zoo/test_zoo_cli.py", "tests/kernel/test_kernel_zoo.py")
#: the longest files (worker-seconds on 2 cores, BENCHMARKS.md §11), started in this order before the others
FIRST = (
    "tests/engine/test_corpus.py",
    "tests/zoo/test_zoo_cli.py",
    "tests/kernel/test_kernel_zoo.py",
    "tests/kernel/test_notebook_series.py",
)


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:
        dynamo.reset()
    yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(_file(item.nodeid), len(FIRST)))  # stable: file order kept otherwise


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        """A file's tests to one worker (a SPREAD file's, one by one), files handed out in collection order."""

        def _split_scope(self, nodeid: str) -> str:
            return nodeid if _file(nodeid) in SPREAD else _file(nodeid)

    config.option.loadscopereorder = False  # collection order (FIRST), not the files with the most tests first
    return ByFile(config, log)
