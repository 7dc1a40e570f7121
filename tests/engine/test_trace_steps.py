"""--trace-steps on real Dynamo (eager backend): an inlined helper's steps at depth 1, a graph break marked
on both attempts, the cap, a frame chosen by name and by compile id, bad usage, and nothing patched when off."""

from __future__ import annotations

import re
import textwrap
from typing import Any

import pytest
from torch._dynamo.symbolic_convert import InstructionTranslatorBase

from compiler import RunOptions, UsageError
from compiler.collectors.trace_steps import trace_steps_torch
from compiler.collectors.trace_steps.trace_steps import TraceStepsCollector

from .helpers import run

PROGRAM = textwrap.dedent(
    """
    import torch

    def helper(x):
        return x.sin() * 2

    def f(x, n):
        y = helper(x) + n
        print("between graphs")
        return y.cos()

    out = f(torch.randn(3, 4), 3)
    """
)

#: f and its resume function after the print; no break in g.
TWO_FUNCTIONS = textwrap.dedent(
    """
    import torch

    def f(x):
        return x + 1

    def g(x):
        return x.relu() - 1

    out = g(f(torch.randn(4)))
    """
)


def _steps(report: dict[str, Any]) -> list[dict[str, Any]]:
    return report["trace_steps"]["steps"]


def _code(trace: dict[str, Any], step: dict[str, Any]) -> str:
    return trace["codes"][step["code"]]["name"]


def test_inlined_helper_break_and_restart() -> None:
    report = run(PROGRAM, trace_steps="").report
    trace = report["trace_steps"]
    assert trace["compile_id"] == "0/0" and trace["code_name"] == "f" and not trace["truncated"]
    steps = _steps(report)
    assert [s["index"] for s in steps] == list(range(len(steps))) and trace["total_steps"] == len(steps)
    # the break at print: attempt 0 gives up there (restart), attempt 1 compiles the graph so far there
    assert [(a["attempt"], a["outcome"]) for a in trace["attempts"]] == [(0, "restart"), (1, "compiled")]
    broke = [s for s in steps if s["graph_break"]]
    assert [(s["attempt"], s["opname"], s["graph_break"]["action"]) for s in broke] == [
        (0, "CALL", "restart"),
        (1, "CALL", "compiled"),
    ]
    source_line = PROGRAM.splitlines().index('    print("between graphs")') + 1
    frame = report["frames"][0]
    for s in broke:
        assert s["line"] == source_line and s["depth"] == 0
        assert s["graph_break"]["break_index"] == 0
        assert s["graph_break"]["gb_type"] == frame["graph_breaks"][0]["gb_type"]
    # the helper's steps: depth 1, its own code, after the CALL that inlines it, before the step after it
    inlined = [s for s in steps if s["attempt"] == 0 and s["depth"] == 1]
    assert inlined and {_code(trace, s) for s in inlined} == {"helper"}
    first = inlined[0]["index"]
    assert steps[first - 1]["opname"] in ("PRECALL", "CALL") and _code(trace, steps[first - 1]) == "f"
    ops = [s["opname"] for s in inlined]
    assert ops[-1] == "RETURN_VALUE" and "BINARY_OP" in ops
    # FX nodes: sin and mul added by the helper's steps, not again by the CALL that ran them; the add by f's +
    added = [(s["depth"], n["name"]) for s in steps if s["attempt"] == 0 for n in s["fx_nodes"]]
    assert (1, "sin") in added and (1, "mul") in added and (0, "add") in added
    assert [name for _, name in added].count("sin") == 1
    # the stack is what the instruction starts from; a constant's repr is Dynamo's
    binop = next(s for s in inlined if s["opname"] == "BINARY_OP")
    assert binop["stack"][-1] == "ConstantVariable(int: 2)" and binop["stack"][0].startswith("TensorVariable(sin")
    # locals: all on a translator's first step, then only what changed
    assert set(steps[0]["locals"]) == {"x", "n"}
    store = next(s for s in steps if s["attempt"] == 0 and s["opname"] == "STORE_FAST" and s["argrepr"] == "'y'")
    after = steps[store["index"] + 1]
    assert set(after["locals"]) >= {"y"} and "TensorVariable(y" in after["locals"]["y"]
    # the code table holds the source and the bytecode the steps point into
    f_code = trace["codes"][0]
    assert f_code["name"] == "f" and "print(" in f_code["source"]
    offsets = {i["offset"] for i in f_code["instructions"]}
    assert all(s["offset"] in offsets for s in steps if s["code"] == 0)


def test_recording_changes_nothing_dynamo_compiles() -> None:
    plain = run(PROGRAM).report
    traced = run(PROGRAM, trace_steps="").report
    assert plain["trace_steps"] is None

    def shape(r: dict[str, Any]) -> Any:
        graphs = [[(n["op"], n["target"]) for n in g["nodes"]] for g in r["graphs"]]
        # Dynamo numbers its helper globals through the process (``__builtins_dict___7``): not the guard's meaning
        guards = [sorted((g["type"], re.sub(r"___\d+", "___N", g["source"])) for g in f["guards"]) for f in r["frames"]]
        return [f["code"]["name"] for f in r["frames"]], graphs, guards, [len(f["graph_breaks"]) for f in r["frames"]]

    assert shape(plain) == shape(traced)


def test_cap_cuts_and_says_so() -> None:
    report = run(PROGRAM, trace_steps="", trace_steps_max=10).report
    trace = report["trace_steps"]
    assert trace["truncated"] and len(trace["steps"]) == 10 and trace["total_steps"] > 10
    assert "--trace-steps-max" in trace["note"]
    assert trace["attempts"][-1]["outcome"] == "cut"


def _next_frame_id() -> int:
    """The frame id Dynamo gives the next code it compiles (its ids count up through the process)."""
    from torch._dynamo import convert_frame

    return convert_frame.FRAME_COUNTER


def test_frame_by_name_and_by_compile_id() -> None:
    by_name = run(TWO_FUNCTIONS, trace_steps="g").report
    assert by_name["trace_steps"]["code_name"] == "g"
    g_id = by_name["trace_steps"]["compile_id"]
    assert g_id == next(f["compile_id"] for f in by_name["frames"] if f["code"]["name"] == "g")
    g_next = f"{_next_frame_id() + 1}/0"  # f is compiled first, then g
    by_id = run(TWO_FUNCTIONS, trace_steps=g_next).report
    assert by_id["trace_steps"]["code_name"] == "g" and by_id["trace_steps"]["compile_id"] == g_next
    first = run(TWO_FUNCTIONS, trace_steps="").report
    assert first["trace_steps"]["code_name"] == "f"
    # a resume function is a frame of its own: by its compile id, or by its name
    resumed = run(PROGRAM, trace_steps=f"{_next_frame_id() + 1}/0").report["trace_steps"]
    assert resumed["code_name"] == "torch_dynamo_resume_in_f_at_9" and resumed["steps"]
    again = run(PROGRAM, trace_steps="torch_dynamo_resume_in_f_at_9").report["trace_steps"]
    assert again["code_name"] == "torch_dynamo_resume_in_f_at_9" and len(again["steps"]) == len(resumed["steps"])


def test_no_matching_frame_says_what_compiled() -> None:
    trace = run(TWO_FUNCTIONS, trace_steps="nowhere").report["trace_steps"]
    assert trace["compile_id"] is None and trace["steps"] == []
    assert "no compiled frame matched 'nowhere'" in trace["note"] and "f" in trace["note"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"trace_steps": "0-0"}, "--trace-steps takes a compile id such as 0/0"),
        ({"trace_steps": "a b"}, "--trace-steps takes"),
        ({"trace_steps": "", "trace_steps_max": 0}, "--trace-steps-max must be a positive"),
        ({"trace_steps_max": 50}, "add --trace-steps"),
    ],
)
def test_bad_usage_is_one_line(options: dict[str, Any], words: str) -> None:
    with pytest.raises(UsageError, match=words) as info:
        RunOptions(**options).validate()
    assert "\n" not in str(info.value)


def test_option_parses_with_and_without_frame() -> None:
    import argparse

    from compiler.options import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser.add_argument, "x")
    assert parser.parse_args([]).trace_steps is None
    assert parser.parse_args(["--trace-steps"]).trace_steps == ""
    assert parser.parse_args(["--trace-steps", "0/1", "--trace-steps-max", "5"]).trace_steps == "0/1"
    assert parser.parse_args(["--trace-steps", "forward"]).trace_steps == "forward"


def test_off_patches_nothing() -> None:
    original = InstructionTranslatorBase.__dict__["step"]
    seen: list[bool] = []

    class Probe(TraceStepsCollector):
        """Looks at Dynamo's step while the run is under way."""

        def on_compile_start(self, ctx: Any, compile_id: str, trigger: str) -> None:
            seen.append(trace_steps_torch.steps_patched())

    from compiler.collectors import REGISTRY

    kinds = tuple(Probe if c is TraceStepsCollector else c for c in REGISTRY)
    off = run(TWO_FUNCTIONS, collectors=kinds).report
    assert seen and not any(seen) and off["trace_steps"] is None
    seen.clear()
    run(TWO_FUNCTIONS, collectors=kinds, trace_steps="")
    assert seen and all(seen)
    assert InstructionTranslatorBase.__dict__["step"] is original and not trace_steps_torch.steps_patched()
