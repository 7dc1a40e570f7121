"""What changed between two runs (issue 41; ``compiler/diff``, ``dynamo-explorer diff``): two real runs of a program
tell the same story; a line inserted above is no difference; a planted change of each kind (a graph break, a
recompile, a graph op, a guard, a dynamic-shape symbol) is found, named, and said first in one line; two structured
traces of plain torch runs compare as two reports do; the command line exits as diff(1) does; the diff follows its
schema, on the terminal, as JSON and as a page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.diff import diff_reports
from compiler.schema import validate_diff
from dynamo_explorer.cli import main

from .helpers import run

REPO = Path(__file__).resolve().parents[2]

BASE = """import torch

def f(x, n):
    y = x.sin() * 2
    print("between")
    return y + n

cf = torch.compile(f, backend="eager")
x = torch.randn(8)
cf(x, 1)
"""


def _diff(a_source: str, b_source: str) -> dict:
    a, b = run(a_source).report, run(b_source).report
    diff = diff_reports(a, b, ("a", "b"))
    validate_diff(diff)
    return diff


def _kinds(diff: dict) -> list[str]:
    return [d["kind"] for p in diff["frames"] for d in p["differences"]]


def test_one_program_twice_is_the_same_story():
    diff = _diff(BASE, BASE)
    assert diff["same_story"] and diff["differences"] == 0 and diff["first_difference"] is None
    assert diff["confounded"] == []
    # every compile paired with its twin, though Dynamo numbered the second run's frames after the first's
    assert [(p["function"], p["a"] is not None, p["b"] is not None) for p in diff["frames"]] == [
        ("f", True, True),
        ("torch_dynamo_resume_in_f", True, True),
    ]


def test_lines_inserted_above_are_no_difference():
    """Every line moves, the graph break's line and the resume function's name (``..._at_5`` → ``..._at_8``) too."""
    moved = BASE.replace("def f(x, n):", "# a comment\n\n\ndef f(x, n):")
    diff = _diff(BASE, moved)
    assert diff["same_story"], diff["first_difference"]


@pytest.mark.parametrize(
    ("change", "kind", "said"),
    [
        ('    print("between")\n', "graph_break", None),  # the break removed: see test_a_new_graph_break for the words
        ("cf(x, 1)\n", "frame", "a new recompile"),
        ("x.sin() * 2", "graph", "its graph's ops changed: +call_method cos"),
        ("return y + n", "guards", "1 guard added ("),
        ('cf = torch.compile(f, backend="eager")', "symbols", "dynamic now: L['x'].size()[0]"),
    ],
    ids=["graph_break", "recompile", "graph_op", "guard", "symbol"],
)
def test_a_planted_change_is_found_and_named(change, kind, said):
    planted = {
        '    print("between")\n': "",
        "cf(x, 1)\n": "cf(x, 1)\ncf(x, 2.5)\n",
        "x.sin() * 2": "x.sin().cos() * 2",
        "return y + n": "return y + n if FLAG else y - n",
        'cf = torch.compile(f, backend="eager")': 'cf = torch.compile(f, backend="eager", dynamic=True)',
    }[change]
    source = BASE.replace(change, planted)
    if "FLAG" in planted:
        source = source.replace("import torch\n", "import torch\nFLAG = True\n")
    diff = _diff(BASE, source)
    assert not diff["same_story"]
    assert kind in _kinds(diff), _kinds(diff)
    if said is not None:
        found = [d["summary"] for p in diff["frames"] for d in p["differences"] if d["kind"] == kind]
        assert any(said in s for s in found), found


def test_a_new_graph_break_is_said_first_with_its_line_and_the_graphs_it_makes():
    without = BASE.replace('    print("between")\n', "")
    diff = _diff(without, BASE)
    assert re.fullmatch(
        r"\[\d+/0\] f: a new graph break at \S+:5 \(print\(\"between\"\)\): Failed to trace builtin operator; "
        r"2 graphs where there was 1",
        diff["first_difference"],
    ), diff["first_difference"]
    new = [p for p in diff["frames"] if p["a"] is None]
    assert [(p["function"], p["differences"][0]["summary"]) for p in new] == [
        ("torch_dynamo_resume_in_f", "a new resume function (code after a graph break)")
    ]


def test_a_graph_whose_ops_are_the_same_is_told_by_its_lines():
    """A constant changed: the ops' multiset is the same, the canonical lines are not (node names never matter)."""
    diff = _diff(BASE, BASE.replace("x.sin() * 2", "x.sin() * 3"))
    graph = [d for p in diff["frames"] for d in p["differences"] if d["kind"] == "graph"]
    assert len(graph) == 1 and graph[0]["summary"].startswith(
        "its graph changed, the same ops: %2 = call_function _operator.mul(%1, 3)"
    )
    assert "-%2 = call_function _operator.mul(%1, 2)" in graph[0]["detail"]


def _plain_trace(tmp_path: Path, name: str, source: str) -> Path:
    """A plain torch run of ``source`` (nothing of ours in the process) under ``TORCH_TRACE``."""
    script = tmp_path / f"{name}.py"
    script.write_text(source)
    trace = tmp_path / f"trace_{name}"
    env = dict(os.environ, TORCH_TRACE=str(trace))
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return trace


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "diff", *args], cwd=REPO, capture_output=True, text=True, timeout=300
    )


def test_two_traces_of_plain_torch_runs(tmp_path, capsys):
    """Three plain runs under TORCH_TRACE (processes of their own); the command line in this process."""
    one, two = _plain_trace(tmp_path, "v1", BASE), _plain_trace(tmp_path, "v1_again", BASE)
    changed = _plain_trace(tmp_path, "v2", BASE.replace("x.sin() * 2", "x.sin().cos() * 2"))
    capsys.readouterr()
    assert main(["diff", str(one), str(two)]) == 0
    assert "the same compile story" in capsys.readouterr().out
    out = tmp_path / "d.json"
    page = tmp_path / "d.html"
    assert main(["diff", str(one), str(changed), "--json", str(out), "--html", str(page)]) == 1
    said = capsys.readouterr().out
    first = said.splitlines()[0]
    # a trace's graphs are read from their printed code: a call's target is its expression, node names as %
    assert first == "first difference: [0/0] f: its graph's ops changed: +call_function %.cos", said
    diff = json.loads(out.read_text())
    validate_diff(diff)
    assert diff["first_difference"] in page.read_text().replace("&quot;", '"').replace("&#x27;", "'")


def test_the_terminal_summary_and_exit_status(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(run(BASE).report))
    b.write_text(json.dumps(run(BASE.replace('    print("between")\n', "")).report))
    assert main(["diff", str(a), str(a)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 of 2 compiles alike; the same compile story"
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "graph_break: no graph break at " in out and "frame: its resume function is gone" in out
    assert out.splitlines()[-1] == "0 of 2 compiles alike; the compile stories differ: 4 differences in 2 compiles"


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (
            lambda d: d / "nothing.json",
            "nothing.json: no such file or directory; give a report (run --json) or a TORCH_TRACE directory",
        ),
        (lambda d: _write(d / "x.json", "[1, 2]"), "x.json is JSON but no dynamo-explorer report"),
        (lambda d: _write(d / "x.json", '{"frames": []}'), "x.json is JSON but no dynamo-explorer report"),
        (lambda d: _write(d / "s.py", "print(1)\n"), "s.py is no report and holds no structured-trace record"),
        (lambda d: _write(d / "v9.json", '{"schema_version": {"major": 9, "minor": 0}, "frames": []}'), "a report of schema v9"),
        (lambda d: (d / "empty").mkdir() or d / "empty", "no *.log file in this directory"),
    ],
    ids=["missing", "json-list", "json-no-version", "not-a-trace", "newer-major", "empty-dir"],
)
def test_trouble_is_one_line_and_exit_2(tmp_path, capsys, make, said):
    good = _write(tmp_path / "good.json", json.dumps(_EMPTY))
    bad = make(tmp_path)
    assert main(["diff", str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and said in err, err


def test_an_output_that_cannot_be_written_is_said_before_reading(tmp_path, capsys):
    good = _write(tmp_path / "good.json", json.dumps(_EMPTY))
    assert main(["diff", str(good), str(good), "--json", str(tmp_path / "no" / "such" / "d.json")]) == 2
    assert "cannot write the report to" in capsys.readouterr().err


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


_EMPTY: dict = {}


@pytest.fixture(autouse=True, scope="module")
def _empty_report():
    _EMPTY.update(run("x = 1\n").report)
    yield


def test_in_a_notebook_explore_diff_and_the_magic(tmp_path, capsys):
    """``explore.diff(a, b)`` on two ``%%dynamo --out`` reports, and ``%dynamo_diff A B`` on a name and a file."""
    from IPython.core.error import UsageError
    from IPython.core.interactiveshell import InteractiveShell

    from compiler.schema import DIFF_MIME_TYPE
    from kernel_ext import explore
    from kernel_ext.display import CompileReport
    from kernel_ext.magic import DynamoMagics

    a = CompileReport(run(BASE).report)
    b = CompileReport(run(BASE.replace("x.sin() * 2", "x.sin().cos() * 2")).report)
    d = explore.diff(a, b)
    assert not d.same_story and d.first_difference.endswith("f: its graph's ops changed: +call_method cos")
    bundle = d._repr_mimebundle_()
    assert bundle[DIFF_MIME_TYPE] is d.diff and "first difference" in bundle["text/plain"]
    assert "its graph&#x27;s ops changed" in bundle["text/html"]
    assert explore.diff(a, a).same_story
    with pytest.raises(ValueError, match="is a int; give a %%dynamo --out report"):
        explore.diff(a, 3)
    shell = InteractiveShell.instance()
    shell.register_magics(DynamoMagics)
    path = _write(tmp_path / "b.json", json.dumps(b))
    shell.user_ns["rep_a"] = a
    capsys.readouterr()
    shell.run_line_magic("dynamo_diff", f"rep_a {path}")
    assert "first difference: [" in capsys.readouterr().out
    with pytest.raises(UsageError, match="%dynamo_diff: needs two sides, got 1"):
        shell.run_line_magic("dynamo_diff", "rep_a")
    with pytest.raises(UsageError, match="%dynamo_diff: nope: no such file or directory"):
        shell.run_line_magic("dynamo_diff", "rep_a nope")


PINNED = REPO / ".venv" / "bin" / "python"  # leg 1's interpreter (.ci/run): the pinned torch


@pytest.mark.skipif(
    Path(sys.prefix).resolve() == (REPO / ".venv").resolve(),
    reason="leg 2's test (.ci/run): it diffs a report of leg 1's torch (.venv) with one of this interpreter's torch",
)
def test_two_torch_versions_are_named_and_only_real_differences_told(tmp_path):
    """The same script's report on CI's two torch versions: the diff runs, names both versions in its ``confounded``
    line, pairs every compile (the same frames, graphs, breaks and recompiles on both), and what it tells is real: no
    address, id or path, and a guard torch changed is told by what changed in it (2.15 guards
    ``cuda_matmul_precision`` in its global state, 2.13 does not)."""
    if not PINNED.exists():  # leg 2 runs after leg 1 installed .venv: in CI its absence is a failure
        missing = f"{PINNED} is missing: run .ci/run (leg 1 installs it)"
        pytest.fail(missing) if os.environ.get("CI") else pytest.skip(missing)
    script = _write(tmp_path / "s.py", BASE.replace("cf(x, 1)\n", "cf(x, 1)\ncf(x, 2)\n"))
    versions = []
    for name, python in (("pinned", str(PINNED)), ("this", sys.executable)):
        out = tmp_path / f"{name}.json"
        proc = subprocess.run(
            [python, "-m", "dynamo_explorer", "run", str(script), "--backend", "eager", "--json", str(out)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        versions.append(json.loads(out.read_text())["torch_version"])
    assert versions[0] != versions[1], versions
    proc = _cli(str(tmp_path / "pinned.json"), str(tmp_path / "this.json"), "--json", str(tmp_path / "d.json"))
    assert proc.returncode in (0, 1), proc.stderr
    diff = json.loads((tmp_path / "d.json").read_text())
    validate_diff(diff)
    assert {"setting": "torch_version", "a": versions[0], "b": versions[1]} in diff["confounded"]
    assert [(p["function"], p["a"] is not None, p["b"] is not None) for p in diff["frames"]] == [
        ("f", True, True),
        ("torch_dynamo_resume_in_f", True, True),
        ("torch_dynamo_resume_in_f", True, True),
    ]
    told = [d for p in diff["frames"] for d in p["differences"]]
    assert {d["kind"] for d in told} <= {"guards"}, [d["summary"] for d in told]
    rows = [r for d in told for r in (d["summary"], *d["added"], *d["removed"], *d["changed"])]
    assert [r for r in rows if re.search(r"0x[0-9a-f]{6,}|\d{10,}|/tmp/", r)] == []
    assert all(len(r) < 300 for d in told for r in d["changed"])


def test_a_cache_miss_names_the_parts_of_its_key_that_differ_from_the_other_runs():
    """Inductor's FX graph cache on both sides, one inductor setting changed: the same story (exit 0), and the cost row
    says which part of the key differs from A's entry (``CacheDecision.hashes``, by hash)."""
    cell = "import torch\ndef f(x):\n    return (x * 2).relu()\ncf = torch.compile(f)\ncf(torch.randn(8))\n"
    a = run(cell, backend="inductor").report
    b = run(
        cell.replace("import torch\n", "import torch\ntorch._inductor.config.fallback_random = True\n"), backend="inductor"
    ).report
    assert [c["hashes"] is not None for f in b["frames"] for c in f["caches"] if c["cache"] == "fx_graph"] == [True]
    diff = diff_reports(a, b)
    validate_diff(diff)
    assert diff["same_story"], diff["first_difference"]
    costs = [d["summary"] for p in diff["frames"] for d in p["costs"] if d["kind"] == "cache"]
    assert len(costs) == 1 and "fx_graph's key: inductor_config differs from A's" in costs[0], costs
    assert diff_reports(a, a)["frames"][0]["costs"] == []
