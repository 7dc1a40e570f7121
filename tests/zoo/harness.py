"""The zoo's scripts and their plain-``torch.compile`` references, computed once per test session.

``SCRIPTS``: every ``tests/zoo/*.py`` program (a header ``# torch.compile: ...`` names what a user
would wrap). ``reference(script, backend)`` runs tests/zoo/reference.py in a fresh process (as the
CLI runs) and caches its JSON for the CLI and the kernel tests alike: in memory, and under pytest-xdist on disk
for the run's other workers too (``PYTEST_XDIST_TESTRUNUID`` names the run; a lock makes the second worker
wait for the first one's result instead of computing it again).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from .reference import declared

ZOO = Path(__file__).resolve().parent
REPO = ZOO.parents[1]
SCRIPTS = sorted(
    p.stem
    for p in ZOO.glob("*.py")
    if p.stem not in {"__init__", "conftest", "reference", "compare", "harness"} and not p.stem.startswith("test_")
)


def script_path(name: str) -> Path:
    return ZOO / f"{name}.py"


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), out.get("PYTHONPATH", "")) if p)
    out.setdefault("TRANSFORMERS_VERBOSITY", "error")
    out["HF_HUB_OFFLINE"] = "1"  # nothing may be fetched at run time
    return out


def expected_callee(name: str) -> str:
    """What the cell calls that torch.compile wraps: the header's name, or ``# callee: NAME``."""
    source = script_path(name).read_text()
    m = re.search(r"^# callee: (\w+)$", source, re.M)
    return m.group(1) if m else declared(source)[0]


@functools.cache
def reference(name: str, backend: str = "eager", inductor_cache: str | None = None) -> dict:
    """``inductor_cache``: the TORCHINDUCTOR_CACHE_DIR to run with (a warm one, to compare with runs that
    hit it: a cold inductor compile runs more frames under Dynamo than a cache hit does)."""
    with _shared(name, backend, inductor_cache) as stored:
        if stored is not None and stored.exists():
            return json.loads(stored.read_text())
        result = _run_reference(name, backend, inductor_cache)
        if stored is not None:
            stored.write_text(json.dumps(result))
        return result


@contextlib.contextmanager
def _shared(name: str, backend: str, inductor_cache: str | None):
    """The file this xdist run keeps the reference in, locked while the caller reads or writes it (None: no run
    of several workers)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        yield None
        return
    key = hashlib.sha256(f"{name}|{backend}|{inductor_cache}".encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"dynamo-explorer-zoo-{run}"
    folder.mkdir(exist_ok=True)
    with (folder / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield folder / f"{key}.json"
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run_reference(name: str, backend: str, inductor_cache: str | None) -> dict:
    environ = env() if inductor_cache is None else {**env(), "TORCHINDUCTOR_CACHE_DIR": inductor_cache}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ref.json"
        proc = subprocess.run(
            [sys.executable, "-m", "tests.zoo.reference", str(script_path(name)), backend, str(out)],
            cwd=REPO,
            env=environ,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert proc.returncode == 0, f"plain torch.compile run of {name} failed:\n{proc.stderr[-3000:]}"
        return json.loads(out.read_text())
