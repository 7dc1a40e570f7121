"""Issue 38, "when the code compiles itself, watch and add nothing": programs that call ``torch.compile`` themselves.

Every program in tests/compiles_itself/ is written as users write them (tutorials, docs, training scripts: decorators,
compiled callables handed to helpers, compiles in loops, regional compilation, ``model.compile()``, eager warm-ups,
``set_stance`` in its three forms, ``explain``, compiled autograd, ``error_on_graph_break``, ``set_logs``, resets
between sections, ``fresh_inductor_cache``, a compiled optimizer step, ``torch.compiler.disable``, nested compiled
functions, ...). Each runs twice in a fresh process (``corpus_harness``): as ``python PROGRAM.py`` and as
``dynamo-explorer run PROGRAM.py`` with default options (the backend each program names is its own), and both runs
record Dynamo's own account of what it compiled (its structured trace: ``corpus_run.DynamoStory``). The explorer's
run must
- behave as plain Python does (exit status, stdout, globals; no traceback through the explorer's code; a valid
  report whose static summary renders: ``corpus_harness.differences``);
- choose scope ``watch`` by itself, and leave Dynamo's story as plain's: the same compiles (compile id, function,
  first line, in order), graphs, graph breaks and recompiles in Dynamo's own record of both runs;
- tell that story in its report: every compile id as Dynamo gave it (``@n`` after the n-th reset, compile_ids.py),
  with its function and first line, as many Dynamo graphs, graph breaks and recompiles as Dynamo recorded.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from compiler.compile_ids import dynamo_id

from .corpus_harness import REPO, Run, cells_of, differences, selected
from .corpus_harness import outcomes as run_all

PROGRAMS = REPO / "tests" / "compiles_itself"
CELLS = cells_of(PROGRAMS)


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> dict[str, dict[str, Run]]:
    return run_all(
        PROGRAMS, selected(request, __name__), story=True, as_is=True, first=("fresh_inductor", "compile_options_inductor")
    )


def test_the_programs_are_many_and_varied():
    assert len(CELLS) >= 25, CELLS


def dynamo_story(events: list[dict[str, Any]]) -> dict[str, Any]:
    """What Dynamo's own record says: each frame compile (id, function, first line) in order, and the counts. A
    compile refused before it began (``recompile_limit`` hit) records no function: that of the other compiles of
    its frame id (Dynamo numbers one code's compiles ``N/0``, ``N/1``, ...)."""
    metrics = [e for e in events if e["event"] == "compilation_metrics"]
    code = {e["compile_id"].rsplit("/", 1)[0]: (e["co_name"], e["co_firstlineno"]) for e in metrics if e["co_name"]}
    return {
        "compiles": [
            (
                e["compile_id"],
                *((e["co_name"], e["co_firstlineno"]) if e["co_name"] else code.get(e["compile_id"].rsplit("/", 1)[0], ("?", 0))),
            )
            for e in metrics
        ],
        "graphs": sum(1 for e in events if e["event"] == "dynamo_output_graph"),
        "breaks": sum(1 for e in events if e["event"] == "dynamo_graph_break_reason"),
        "recompiles": sum(1 for e in metrics if e["recompile_reason"]),
    }


def report_story(report: dict[str, Any]) -> dict[str, Any]:
    """The same story as the report tells it."""
    frames = report["frames"]
    return {
        "compiles": [(dynamo_id(f["compile_id"]), f["code"]["name"], f["code"]["firstlineno"]) for f in frames],
        "graphs": sum(1 for g in report["graphs"] if g["kind"] == "dynamo"),
        "breaks": sum(len(f["graph_breaks"]) for f in frames if f["fail_type"] is None),
        "recompiles": sum(1 for f in frames if f["recompile_reasons"]),
    }


def story_differences(plain: Run, ours: Run) -> list[str]:
    """How Dynamo's story under the explorer, and the report's, differ from plain's."""
    if plain.story is None or ours.story is None or ours.report is None:
        return []  # said by ``differences``
    found = []
    want = dynamo_story(plain.story)
    under = dynamo_story(ours.story)
    for key in want:
        if under[key] != want[key]:
            found.append(f"Dynamo's own {key} under the explorer: {under[key]} where plain has {want[key]}")
    told = report_story(ours.report)
    if Counter(told["compiles"]) != Counter(want["compiles"]):
        found.append(f"the report's compiles {told['compiles']} are not Dynamo's {want['compiles']}")
    for key in ("graphs", "breaks", "recompiles"):
        if told[key] != want[key]:
            found.append(f"the report counts {told[key]} {key} where Dynamo recorded {want[key]}")
    if ours.report["scope"] != "watch":
        found.append(f"scope {ours.report['scope']!r}, not 'watch': {ours.report['scope_reason']}")
    return found


@pytest.mark.parametrize("cell", CELLS)
def test_the_explorer_tells_the_story_plain_torch_compile_tells(cell: str, outcomes: dict[str, dict[str, Run]]):
    runs = outcomes[cell]
    found = differences(runs["plain"], runs["cli"]) + story_differences(runs["plain"], runs["cli"])
    assert not found, f"{cell}.py under dynamo-explorer differs from python {cell}.py:\n" + "\n".join(found)
