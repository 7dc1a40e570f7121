"""The dispatch view (issue 13 item 3, ``report.dispatch``) on real torch.compile runs (eager backend, CPU).

Each compiled code's cache entries in the order Dynamo tries them at the end of the run (most recently used first),
the guards that tell
each entry from its neighbours (a dtype, a size made dynamic, a specialised int), the guards every entry shares
folded, the calls each entry served with --profile, and what a call that matches none does: recompile, or run
eagerly once recompile_limit is reached (an error under fullgraph=True).
"""

from __future__ import annotations

from typing import Any

from .helpers import run

DTYPE = "import torch\n\ndef scale(x):\n    return x * 2 + 1\n\na = scale(torch.randn(4))\nb = scale(torch.randn(4, dtype=torch.float64))\n"
INTS = "import torch\n\ndef f(x, n):\n    return x * n\n\nfor n in (2, 3, 4):\n    y = f(torch.ones(3), n)\n"


def _code(report: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [d for d in report["dispatch"] if d["code"]["name"] == name]
    return found


def _frame_ids(report: dict[str, Any], name: str) -> list[str]:
    return [f["compile_id"] for f in report["frames"] if f["code"]["name"] == name]


def test_a_dtype_recompile_gives_two_entries_the_new_one_first_told_apart_by_the_tensor_match_dtype():
    report = run(DTYPE).report
    d = _code(report, "scale")
    first, second = _frame_ids(report, "scale")
    assert [e["compile_id"] for e in d["entries"]] == [second, first]  # the new entry goes to the front
    assert all(e["in_run"] and e["live"] and e["hits"] is None for e in d["entries"])
    newest, oldest = d["entries"]
    assert [(g["kind"], g["source"], g["property"], g["value"]) for g in newest["distinguishing"]] == [
        ("TENSOR_MATCH", "L['x']", "dtype", "torch.float64")
    ]
    assert [(g["property"], g["value"], g["difference"]) for g in oldest["distinguishing"]] == [
        ("dtype", "torch.float32", "differs")
    ]
    g = newest["distinguishing"][0]
    assert g["summary"] == "L['x'] dtype torch.float64"
    assert g["text"].startswith("TENSOR_MATCH: check_tensor(L['x'], Tensor,") and g["check"] in g["text"]
    assert g["line"] == 4
    # everything else (global state, grad mode, the dynamic-marking guards) is shared and folded
    assert d["shared_guards"] == newest["guard_count"] - 1 == oldest["guard_count"] - 1 > 3
    # [Note: one count of guards]: an entry counts what its frame's guards pane lists
    frames = {f["compile_id"]: f for f in report["frames"]}
    assert [e["guard_count"] for e in d["entries"]] == [frames[c]["guard_count"] for c in (second, first)]
    assert [e["guard_count"] for e in d["entries"]] == [len(frames[c]["guards"]) for c in (second, first)]
    assert d["fallback"]["action"] == "recompile"
    assert (d["fallback"]["limit_name"], d["fallback"]["limit"], d["fallback"]["limit_hit"]) == ("recompile_limit", 8, False)
    text = d["text"]
    assert text.startswith("def transformed_scale(x):\n")
    assert text.index(f"__guard_{second.replace('/', '_')}_for_scale(x)") < text.index(
        f"__guard_{first.replace('/', '_')}_for_scale(x)"
    )
    assert "[" + second + "] L['x'] dtype torch.float64" in text
    assert "return __compile_and_run_scale(x)" in text


def test_an_entry_that_matched_a_call_moves_to_the_front_of_the_cache():
    src = DTYPE + "c = scale(torch.randn(4))\n"  # float32 again: the old entry matches and moves to the front
    report = run(src).report
    first, second = _frame_ids(report, "scale")
    assert [e["compile_id"] for e in _code(report, "scale")["entries"]] == [first, second]


def test_a_shape_recompile_then_automatic_dynamic_the_new_entry_has_a_dynamic_size_and_its_shape_guard():
    src = "import torch\n\ndef grow(x):\n    return x.sin() + 1\n\na = grow(torch.ones(3))\nb = grow(torch.ones(5))\nc = grow(torch.ones(7))\n"
    report = run(src).report
    d = _code(report, "grow")
    assert len(d["entries"]) == 2  # the third call hit the dynamic entry: no third compile
    dynamic, static = d["entries"]
    rows = {(g["kind"], g["property"]): g for g in dynamic["distinguishing"]}
    assert rows[("TENSOR_MATCH", "size")]["value"] == "[None]"  # None: any size
    assert static["distinguishing"][0]["value"] == "[3]"
    shape = [g for g in dynamic["distinguishing"] if g["kind"] == "LAMBDA_GUARD"]
    assert [(g["source"], g["check"], g["difference"]) for g in shape] == [("", "2 <= L['x'].size()[0]", "only_here")]
    assert d["fallback"]["action"] == "recompile"


def test_an_int_specialised_three_times_gives_three_entries_each_told_by_its_equals_match():
    report = run(INTS, dynamic=False).report
    d = _code(report, "f")
    assert [e["compile_id"] for e in d["entries"]] == list(reversed(_frame_ids(report, "f")))
    assert [[g["summary"] for g in e["distinguishing"]] for e in d["entries"]] == [
        ["L['n'] == 4"],
        ["L['n'] == 3"],  # the middle entry: differs from both neighbours
        ["L['n'] == 2"],
    ]
    assert all(g["kind"] == "EQUALS_MATCH" and g["difference"] == "differs" for e in d["entries"] for g in e["distinguishing"])
    assert "3 cache entries in this order" in d["text"]


def test_past_recompile_limit_a_call_that_matches_no_entry_runs_eagerly_and_the_view_says_so():
    report = run(INTS, dynamic=False, recompile_limit=2).report
    d = _code(report, "f")
    assert len(d["entries"]) == 2  # n == 4 was not compiled
    fb = d["fallback"]
    assert (fb["action"], fb["limit_name"], fb["limit"], fb["limit_hit"]) == ("eager", "recompile_limit", 2, True)
    assert "runs f eagerly" in fb["reason"]
    assert d["text"].rstrip().endswith("return f(x, n)  # the original code, run eagerly")


def test_under_fullgraph_the_limit_makes_the_fallback_an_error():
    report = run(INTS, dynamic=False, recompile_limit=2, fullgraph=True).report
    assert report["error"] is not None  # the third call raised
    fb = _code(report, "f")["fallback"]
    assert (fb["action"], fb["limit_hit"]) == ("error", True)
    assert "FailOnRecompileLimitHit" in fb["reason"]


def test_with_profile_each_entry_says_how_many_calls_it_served():
    src = (
        "import torch\n\ndef scale(x):\n    return x * 2 + 1\n\n"
        "for _ in range(3):\n    a = scale(torch.randn(4))\n"
        "b = scale(torch.randn(4, dtype=torch.float64))\n"
    )
    report = run(src, profile=True).report
    d = _code(report, "scale")
    profiled = {e["compile_id"]: e["hits"] for e in report["profile"]["entries"]}
    assert [e["hits"] for e in d["entries"]] == [1, 3]  # float64 once, float32 three times
    assert {e["compile_id"]: e["hits"] for e in d["entries"]} == profiled
    assert ", 3 hits" in d["text"] and ", 1 hit\n" in d["text"]


def test_one_entry_has_nothing_to_tell_apart_and_every_guard_is_its_own():
    report = run("import torch\n\ndef once(x):\n    return x + 1\n\ny = once(torch.ones(2))\n").report
    d = _code(report, "once")
    (entry,) = d["entries"]
    assert entry["distinguishing"] == [] and d["shared_guards"] == 0
    (frame,) = [f for f in report["frames"] if f["code"]["name"] == "once"]
    assert entry["guard_count"] == frame["guard_tree"].count("+- ") - frame["guard_tree"].count("GuardManager")
    assert "its 1 cache entry in this order" in d["text"]


def test_a_graph_break_gives_the_resume_function_its_own_dispatch():
    src = (
        "import torch\n\ndef gate(x):\n    y = x.sin()\n    print('break')\n    return y + 1\n\n"
        "a = gate(torch.ones(3))\nb = gate(torch.ones(3, dtype=torch.float64))\n"
    )
    report = run(src).report
    names = [d["code"]["name"] for d in report["dispatch"]]
    assert names[0] == "gate" and any(n.startswith("torch_dynamo_resume_in_gate") for n in names)
    resume = next(d for d in report["dispatch"] if d["code"]["is_resume"])
    assert len(resume["entries"]) == 2 and resume["text"].startswith("def transformed_torch_dynamo_resume_in_gate")
    # each compile names the builtins dict it reads print from (__builtins_dict___N): the same print, not told apart
    gate = report["dispatch"][0]
    assert [[g["summary"] for g in e["distinguishing"]] for e in gate["entries"]] == [
        ["L['x'] dtype torch.float64"],
        ["L['x'] dtype torch.float32"],
    ]
