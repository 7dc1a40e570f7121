"""The zoo's tests import transformers: skip none of them silently when it is missing."""

import importlib.util

import pytest


def pytest_collection_modifyitems(config, items):
    if importlib.util.find_spec("transformers") is None:
        raise pytest.UsageError("tests/zoo needs transformers: pip install -e '.[test]'")
