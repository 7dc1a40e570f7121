"""The zoo's scripts and their plain-``torch.compile`` references, computed once per test session.

``SCRIPTS``: every ``tests/zoo/*.py`` program (a header ``# torch.compile: ...`` names what a user
would wrap). ``reference(script, backend)`` runs tests/zoo/reference.py in a fresh process (as the
CLI runs) and caches its JSON for the CLI and the kernel tests alike: in memory, and under pytest-xdist on disk
for the run's other workers too (``PYTEST_XDIST_TESTRUNUID`` names the run; a lock makes the second worker
wait for the first one's result instead of computing it again).

[Note: recorded references] A reference is what plain ``torch.compile`` did with a script in one environment:
``python -m tests.zoo.harness record [NAME ...]`` runs it and writes it to ``tests/zoo/references/`` under a key of
everything it depends on (the script's text, reference.py's text, the torch and transformers versions, Python's
major.minor, the backend), with the interpreter's prefix written as ``<prefix>`` and the repository's path as
``<repo>``. ``reference()`` reads a recorded one whose key matches and computes it otherwise (another torch, an
edited script: the same verdicts, slower); ``reference_differences`` computes it live when the recorded one
differs, so a recording can only decide a pass; ``ZOO_LIVE_REFERENCES=1`` always computes. CI's two environments have theirs recorded (BENCHMARKS.md §11: a
reference is half of a zoo program's time).
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
from typing import Any

from .compare import differences
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


RECORDED = ZOO / "references"
_REPO_MARK = "<repo>"
_PREFIX_MARK = "<prefix>"


def recorded_path(name: str, backend: str) -> Path:
    """Where the reference of ``name`` for this environment is recorded ([Note: recorded references])."""
    from importlib.metadata import version

    parts = [
        script_path(name).read_text(),
        (ZOO / "reference.py").read_text(),
        version("torch"),
        version("transformers"),
        f"{sys.version_info[0]}.{sys.version_info[1]}",
        backend,
    ]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return RECORDED / f"{name}.{backend}.{key}.json"


def _placeholders() -> list[tuple[str, str]]:
    """(path, mark): the interpreter's prefix (its site-packages: torch's and transformers' files) first, then the
    repository, as recorded files write them (JSON-escaped)."""
    return [(json.dumps(path)[1:-1], mark) for path, mark in ((sys.prefix, _PREFIX_MARK), (str(REPO), _REPO_MARK))]


def _recorded(name: str, backend: str) -> dict | None:
    if os.environ.get("ZOO_LIVE_REFERENCES"):
        return None
    path = recorded_path(name, backend)
    if not path.exists():
        return None
    text = path.read_text()
    for real, mark in _placeholders():
        text = text.replace(json.dumps(mark)[1:-1], real)
    return json.loads(text)


def record(names: list[str], backend: str = "eager") -> None:
    """Run each script's reference in this environment and write it to ``RECORDED``."""
    RECORDED.mkdir(exist_ok=True)
    for name in names:
        result = _run_reference(name, backend, None)
        text = json.dumps(result, indent=1, sort_keys=True)
        for real, mark in _placeholders():
            text = text.replace(real, json.dumps(mark)[1:-1])
        path = recorded_path(name, backend)
        path.write_text(text + "\n")
        print(f"{path.relative_to(REPO)}: {len(result['metrics'])} compiles", flush=True)


def reference_differences(report: dict, name: str, **compare: Any) -> list[str]:
    """``differences(report, reference(name))``; where a recorded reference differs, the live one decides (a
    recording that does not fit this machine, such as a path it could not place, never fails a test)."""
    found = differences(report, reference(name), **compare)
    if found and _recorded(name, "eager") is not None:
        found = differences(report, reference(name, live=True), **compare)
    return found


@functools.cache
def reference(name: str, backend: str = "eager", inductor_cache: str | None = None, live: bool = False) -> dict:
    """``inductor_cache``: the TORCHINDUCTOR_CACHE_DIR to run with (a warm one, to compare with runs that
    hit it: a cold inductor compile runs more frames under Dynamo than a cache hit does). ``live``: computed here,
    never read from a recording."""
    if not live and inductor_cache is None and (recorded := _recorded(name, backend)) is not None:
        return recorded
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


if __name__ == "__main__":
    if sys.argv[1:2] != ["record"]:
        sys.exit("usage: python -m tests.zoo.harness record [NAME ...]")
    record(sys.argv[2:] or SCRIPTS)
