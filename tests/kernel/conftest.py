"""Fixtures for the kernel tests: a kernelspec for this interpreter in a private JUPYTER_PATH.

Contents:
- ``kernel_name`` (session): writes ``<tmp>/kernels/dynamo-explorer-test/kernel.json`` running
  ``sys.executable -m ipykernel_launcher`` with the repository on PYTHONPATH and a private
  IPYTHONDIR, and puts ``<tmp>`` first on JUPYTER_PATH, so the kernels run this checkout with
  this venv whether or not the package is installed.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from kernel_nb import REPO

KERNEL = "dynamo-explorer-test"


@pytest.fixture(scope="session")
def kernel_name(tmp_path_factory):
    root = tmp_path_factory.mktemp("jupyter")
    spec_dir = root / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    pythonpath = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Dynamo Explorer tests",
        "language": "python",
        "env": {"PYTHONPATH": pythonpath, "IPYTHONDIR": str(root / "ipython")},
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", os.pathsep.join(p for p in (str(root), os.environ.get("JUPYTER_PATH", "")) if p))
        yield KERNEL
