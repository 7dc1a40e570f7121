"""Shared pytest configuration for every test suite under tests/.

Contents:
- ``_fresh_dynamo`` (autouse): ``torch._dynamo.reset()`` before each test that runs in a
  process where Dynamo is loaded, so in-process engine tests do not see each other's caches.
  Tests may reset; the product never does.
- ``pytest_xdist_make_scheduler``: under pytest-xdist (``-n 2``, ``.ci/run``), a test file's tests run on one
  worker, so that a module's fixtures (the corpus's processes, a kernel) start once; the files in ``SPREAD`` are
  the exception: each of their tests is a whole program in its own process (the zoo), so they spread over the
  workers one by one; the browser suite (``tests/browser/``) is one unit, so that its JupyterLab and Notebook 7
  servers and its chromium start once, not once per worker, and its tests (each a browser, a server and a kernel)
  never run two at once. (``--dist loadgroup`` with ``xdist_group`` marks did this until pytest 9.2, whose node ids
  pytest-xdist 3.8 can no longer suffix: every test then went its own way, and the corpus's 4-minute fixture
  ran on both workers.)
- ``pytest_collection_modifyitems``: the units in ``FIRST`` start first, the longest first, so that the two
  workers end together rather than one waiting on a late long file.
"""

from __future__ import annotations

import sys

import pytest

#: test files whose tests are independent, each a program in its own process
SPREAD = ("tests/zoo/test_zoo_cli.py", "tests/kernel/test_kernel_zoo.py")
#: the directory whose files are one unit of work (one worker, one server of each kind)
ONE_UNIT = "tests/browser"
#: the longest units (worker-seconds on 2 cores, BENCHMARKS.md §11), started in this order before the others
FIRST = (
    ONE_UNIT,
    "tests/engine/test_corpus.py",
    "tests/engine/test_self_compiling.py",
    "tests/zoo/test_zoo_cli.py",
    "tests/kernel/test_kernel_zoo.py",
    "tests/kernel/test_notebook_series.py",
)


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _group(nodeid: str) -> str:
    """The browser suite, or the test's file."""
    path = _file(nodeid)
    return ONE_UNIT if path.startswith(ONE_UNIT + "/") else path


def _unit(nodeid: str) -> str:
    """The unit of work a test belongs to: itself (a SPREAD file's test), else its group."""
    return nodeid if _file(nodeid) in SPREAD else _group(nodeid)


@pytest.fixture
def built():
    """The standalone renderer (``--html``'s bundle) is built: a test that needs it is skipped where it is not, and
    fails in CI (``CI=true``), where a missing build is a broken install."""
    import os

    from kernel_ext.export import renderer_problem

    problem = renderer_problem()
    if problem:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:
        dynamo.reset()
    yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(_group(item.nodeid), len(FIRST)))  # stable: file order kept otherwise


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        """A unit's tests to one worker (``_unit``), units handed out in collection order."""

        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    config.option.loadscopereorder = False  # collection order (FIRST), not the files with the most tests first
    return ByFile(config, log)
