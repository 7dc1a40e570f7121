"""A warm AOTAutograd / FX-graph cache: the report names the code that ran, not the run that filled it.

Two CLI runs in their own processes share one ``TORCHINDUCTOR_CACHE_DIR``. The second compiles the
same function from another file, a few lines lower, and hits AOTAutogradCache (aot_eager does not
use that cache; inductor does). Its AOT graph comes from the cache with the first file's stack
traces, which the report moves to this run's file ([Note: warm cache] in collectors/aot_graphs.py).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from compiler import validate_report

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Matrix products only: inductor calls extern mm kernels, so no C++ is built (~15 s for both runs).
FUNCTION = """def step(x, w):
    h = x @ w
    h = h @ w.t()
    return h @ w
"""
CALL = "step(torch.randn(4, 8), torch.randn(8, 8))\n"


def _run(script: pathlib.Path, cache: pathlib.Path) -> dict:
    out = script.with_suffix(".json")
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", str(script), "--backend", "inductor", "--json", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    validate_report(report)
    return report


def _write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("warm_cache")
    first = _write(tmp / "a" / "model.py", "import torch\n\n" + FUNCTION + "\n" + CALL)
    lower = "import torch\n# the same function, three lines lower\n\n\n\n"
    second = _write(tmp / "b" / "model.py", lower + FUNCTION + "\n" + CALL)
    return first, _run(first, tmp / "cache"), second, _run(second, tmp / "cache")


def _aot_graphs(report: dict) -> list[dict]:
    graphs = [g for g in report["graphs"] if g["kind"].startswith("aot_")]
    assert graphs
    return graphs


def test_second_run_hits_the_cache(runs):
    first, cold, _second, warm = runs
    assert cold["dynamo_counters"]["aot_autograd"].get("autograd_cache_saved") == 1
    assert warm["dynamo_counters"]["aot_autograd"].get("autograd_cache_hit") == 1
    assert "autograd_cache_miss" not in warm["dynamo_counters"]["aot_autograd"]
    # the cold run's AOT graph names its own file (the stale name the warm run has to replace)
    assert {n["filename"] for g in _aot_graphs(cold) for n in g["nodes"]} == {str(first), None}


def test_warm_report_names_its_own_file_and_lines(runs):
    first, _cold, second, warm = runs
    assert str(first) not in json.dumps(warm)  # graphs, output code, sources: nowhere
    (dynamo,) = [g for g in warm["graphs"] if g["kind"] == "dynamo"]
    lines = {n["line"] for n in dynamo["nodes"] if n["filename"] == str(second)}
    assert lines == {7, 8, 9}  # step's body in the second file
    for graph in _aot_graphs(warm):
        rows = {(n["filename"], n["line"]) for n in graph["nodes"] if n["filename"]}
        assert rows == {(str(second), line) for line in lines}, graph["kind"]
        comments = set(re.findall(r"# File: (.+?):(\d+) in (\w+), code:", graph["code"]))
        assert comments == {(str(second), str(line), "step") for line in lines}, graph["code"]


def test_relocate_matches_by_code_and_leaves_what_it_cannot_place():
    from compiler.collectors.aot_graphs import relocate

    here = {("/new.py", 10): ("x = x + 1", "g"), ("/new.py", 11): ("x = x + 1", "g"), ("/new.py", 12): ("return x", "g")}
    text = (
        "# File: /old.py:3 in f, code: x = x + 1\n"
        "# File: /old.py:4 in f, code: x = x + 1\n"
        "# File: /old.py:5 in f, code: return x\n"
        "# File: /elsewhere.py:7 in h, code: y = 1\n"
    )  # no code of this run says that: kept
    assert relocate(text, here) == (
        "# File: /new.py:10 in g, code: x = x + 1\n"
        "# File: /new.py:11 in g, code: x = x + 1\n"
        "# File: /new.py:12 in g, code: return x\n"
        "# File: /elsewhere.py:7 in h, code: y = 1\n"
    )
    fresh = "# File: /new.py:12 in g, code: return x\n"
    assert relocate(fresh, here) is fresh
