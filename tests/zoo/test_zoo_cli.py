"""The zoo through ``dynamo-explorer run``: each report tells the story plain ``torch.compile`` tells.

For every real third-party program in tests/zoo (transformers models from small configs, torch.nn
modules): the CLI's report validates, has no ``collector_failed``, picks scope ``calls`` and compiles
exactly what the script's header says a user would wrap, and its frames, graphs, breaks (with the
script's lines) and Dynamo counters equal those of the same script under ``torch.compile`` in a
separate process (tests/zoo/reference.py), recorded for this environment where one is ([Note: recorded
references] in harness.py; one program's recording is checked against a live run here). Its static summary
(``kernel_ext.static_html``) renders, every frame in its table. Run a second time (on leg 2 of .ci/run, which runs
every program: ``TWICE``), ``dynamo-explorer diff``'s engine finds nothing between the two runs (issue 41: no noise).
Every run checks its numbers too (``--check-numerics``, issue 42): the check changes nothing of the story (the
reference still equals it, Dynamo's counters included) and raises no false alarm on a real model.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.diff import diff_reports
from compiler.schema import validate_report
from kernel_ext.static_html import render

from .harness import REPO, SCRIPTS, _recorded, _run_reference, env, expected_callee, reference_differences, script_path

#: run each program a second time and diff the two runs: on leg 2 of .ci/run (any interpreter but leg 1's .venv),
#: which runs every program, the generate() ones too; leg 1 runs each once (CI's time: BENCHMARKS.md §11)
TWICE = Path(sys.prefix).resolve() != (REPO / ".venv").resolve()


def _cli_report(name: str, out: Path) -> dict:
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "dynamo_explorer", "run", str(script_path(name))),
            *("--backend", "eager", "--check-numerics", "--json", str(out)),
        ],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.mark.parametrize("name", SCRIPTS)
def test_cli_report_equals_torch_compile(name, tmp_path):
    report = _cli_report(name, tmp_path / "report.json")
    validate_report(report)
    assert [d for d in report["diagnostics"] if d["kind"] in ("collector_failed", "schema_mismatch")] == []
    assert report["scope"] == "calls"
    assert [c["name"] for c in report["callees"] if c["compiled"]] == [expected_callee(name)], report["scope_reason"]
    assert report["frames"], "the zoo programs all compile something"
    assert reference_differences(report, name) == [], "the numbers' check adds nothing to the story"
    checked = report["numerics"]["graphs"]
    assert checked and [g["summary"] for g in checked if g["verdict"] == "worse_than_eager"] == [], "no false alarm"
    page = render(report)  # the static summary of a real model's report: each frame in its table, as Dynamo names it
    named = [f"<b>[{f['compile_id']}{'_' + str(f['attempt']) if f.get('attempt') else ''}]</b>" for f in report["frames"]]
    assert [n for n in named if n not in page] == []
    if not TWICE:
        return
    # run again: the two runs tell the same story, and the diff says nothing at all (issue 41: no noise)
    diff = diff_reports(report, _cli_report(name, tmp_path / "again.json"))
    said = [d["summary"] for p in diff["frames"] for d in p["differences"] + p["costs"]]
    assert (diff["same_story"], diff["confounded"], said) == (True, [], [])


def test_a_recorded_reference_is_what_torch_compile_does_here_now():
    """The cheapest program's recorded reference against a live plain ``torch.compile`` run of it (a key that
    missed a dependency would show here)."""
    recorded = _recorded("layer_loop", "eager")
    if recorded is None:
        pytest.skip("no reference recorded for this environment: every reference is computed live")
    live = _run_reference("layer_loop", "eager", None)
    assert {k: v for k, v in live.items() if k != "wall_s"} == {k: v for k, v in recorded.items() if k != "wall_s"}
