"""Complete recompile diagnosis (issue 12 item 4), on real torch.compile runs (eager backend, CPU).

Every failing guard of every old cache entry with what it expected and what the call brought (tensor and
non-tensor guards alike), the values read when Dynamo decided to recompile, the specialisation of a dynamic
dimension with its user line and ShapeEnv's reason, and the shape recompile next to the automatic-dynamic
decision it led to.
"""

from __future__ import annotations

from typing import Any

from compiler.collectors.guards import guard_failures

from .helpers import frames_named, run


def _failures(frame: dict[str, Any], old: str | None = None) -> list[dict[str, Any]]:
    (reason,) = [r for r in frame["recompile_reasons"] if old is None or r["failed_compile_id"] == old]
    return reason["failures"]


def _by(failures: list[dict[str, Any]]) -> dict[tuple[str, str, str | None], dict[str, Any]]:
    return {(f["guard_type"], f["source"], f["property"]): f for f in failures}


def test_dtype_int_and_flag_changed_gives_three_failures_of_one_entry_each_with_expected_and_actual():
    src = (
        "import torch\n\n"
        "def f(x, n, flag):\n"
        "    y = x * n\n"
        "    if flag:\n"
        "        y = y + 1\n"
        "    return y\n\n"
        "a = f(torch.ones(2, 3), 2, True)\n"
        "b = f(torch.ones(2, 3, dtype=torch.float64), 3, False)\n"
    )
    first, second = frames_named(run(src).report, "f")
    (reason,) = second["recompile_reasons"]
    assert reason["failed_compile_id"] == first["compile_id"]
    assert reason["reason"].startswith("n == 2")  # Dynamo's own reason: the first failing guard only
    assert reason["failures_note"] is None
    found = _by(reason["failures"])
    assert set(found) == {
        ("TENSOR_MATCH", "L['x']", "dtype"),
        ("EQUALS_MATCH", "L['n']", None),
        ("TRUE_MATCH", "L['flag']", None),
    }
    dtype, n, flag = (
        found[("TENSOR_MATCH", "L['x']", "dtype")],
        found[("EQUALS_MATCH", "L['n']", None)],
        found[("TRUE_MATCH", "L['flag']", None)],
    )
    assert (dtype["expected"], dtype["actual"]) == ("torch.float32", "torch.float64")
    assert dtype["check"].startswith("check_tensor(L['x'], Tensor,")
    assert (n["expected"], n["actual"], n["check"]) == ("2", "3", "L['n'] == 2")
    assert (flag["expected"], flag["actual"], flag["check"]) == ("True", "False", "L['flag'] == True")
    assert (dtype["line"], n["line"], flag["line"]) == (4, 4, 5)
    assert [f["in_reason"] for f in (dtype, n, flag)] == [False, True, False]
    # what failed, in the words every view shows (compiler.summary.failure_what, written once by the engine)
    assert [f["what"] for f in (dtype, n, flag)] == ["dtype mismatch", "L['n'] == 2", "L['flag'] == True"]


def test_a_list_length_change_says_the_lengths_and_counts_the_items_that_no_longer_exist():
    src = (
        "import torch\n\n"
        "def total(x, xs):\n"
        "    for v in xs:\n"
        "        x = x + v\n"
        "    return x\n\n"
        "a = total(torch.ones(2), [1, 2, 3])\n"
        "b = total(torch.ones(2), [1, 2])\n"
    )
    _, second = frames_named(run(src).report, "total")
    (reason,) = second["recompile_reasons"]
    length = _by(reason["failures"])[("LENGTH_CHECK", "L['xs']", None)]
    assert (length["check"], length["expected"], length["actual"], length["in_reason"]) == ("len(L['xs']) == 3", "3", "2", True)
    assert length["line"] == 4
    assert "1 check could not be evaluated" in reason["failures_note"]  # L['xs'][2] is gone


def test_the_values_are_those_of_the_call_that_recompiled_not_later_ones():
    src = (
        "import torch\n\n"
        "def total(x, xs):\n"
        "    return x + len(xs)\n\n"
        "xs = [1, 2]\n"
        "a = total(torch.ones(2), xs)\n"
        "xs.append(3)\n"
        "b = total(torch.ones(2), xs)\n"
        "xs.append(4)\n"
    )
    _, second = frames_named(run(src).report, "total")
    length = _by(_failures(second))[("LENGTH_CHECK", "L['xs']", None)]
    assert (length["expected"], length["actual"]) == ("2", "3")


def test_an_id_match_on_a_swapped_function_names_both_functions():
    src = "import torch\n\nact = torch.relu\n\ndef k(x):\n    return act(x) + 1\n\na = k(torch.ones(2))\nact = torch.tanh\nb = k(torch.ones(2))\n"
    _, second = frames_named(run(src).report, "k")
    (failure,) = _failures(second)
    assert (failure["guard_type"], failure["source"], failure["line"], failure["in_reason"]) == ("ID_MATCH", "G['act']", 6, True)
    assert failure["check"].startswith("___check_obj_id(G['act'], ")
    assert failure["expected"].startswith("torch.relu (id 0x")
    assert failure["actual"].startswith("torch.tanh (id 0x")
    assert failure["what"] == "is another object"


def test_a_type_match_on_a_swapped_module_names_both_classes():
    src = "import torch\n\nm = torch.nn.ReLU()\n\ndef h(x):\n    return m(x) + 1\n\na = h(torch.ones(2))\nm = torch.nn.Tanh()\nb = h(torch.ones(2))\n"
    _, second = frames_named(run(src).report, "h")
    failure = _by(_failures(second))[("TYPE_MATCH", "G['m']", None)]
    assert (failure["expected"], failure["actual"]) == ("torch.nn.modules.activation.ReLU", "torch.nn.modules.activation.Tanh")
    assert failure["what"] == "has another type"


def test_two_old_entries_both_failing_are_each_explained():
    src = "import torch\n\ndef g(x, n):\n    return x * n\n\nfor n in (1, 2, 3):\n    y = g(torch.ones(2), n)\n"
    chain = frames_named(run(src, dynamic=False).report, "g")
    assert len(chain) == 3
    third = chain[2]
    assert [r["failed_compile_id"] for r in third["recompile_reasons"]] == [chain[1]["compile_id"], chain[0]["compile_id"]]
    for reason, expected in zip(third["recompile_reasons"], ("2", "1"), strict=True):
        (failure,) = reason["failures"]
        assert (failure["guard_type"], failure["source"], failure["expected"], failure["actual"]) == (
            "EQUALS_MATCH",
            "L['n']",
            expected,
            "3",
        )
        assert failure["in_reason"]


def test_a_global_state_change_names_the_field_with_both_values():
    src = "import torch\n\ndef p(x):\n    return x * 2\n\na = p(torch.ones(2))\nwith torch.no_grad():\n    b = p(torch.ones(2))\n"
    _, second = frames_named(run(src).report, "p")
    (failure,) = _failures(second)
    assert (failure["guard_type"], failure["source"], failure["property"]) == ("GLOBAL_STATE", "", "grad_mode")
    assert (failure["expected"], failure["actual"], failure["line"], failure["in_reason"]) == ("true", "false", None, True)
    assert failure["what"] == "grad_mode changed"


def test_a_shape_recompile_points_at_the_automatic_dynamic_decision_it_led_to():
    src = "import torch\n\ndef q(x):\n    return torch.relu(x) * 2\n\nfor n in (8, 16, 32):\n    y = q(torch.ones(n, 3))\n"
    rep = run(src).report
    static, dynamic = frames_named(rep, "q")
    size = _by(_failures(dynamic, static["compile_id"]))[("TENSOR_MATCH", "L['x']", "size")]
    assert (size["expected"], size["actual"], size["in_reason"]) == ("[8, 3]", "[16, 3]", True)
    (marked,) = dynamic["automatic_dynamic"]
    assert (marked["source"], marked["dims"], marked["marked_in"]) == (size["source"], [0], dynamic["compile_id"])
    (symbol,) = [s for s in rep["symbols"] if s["compile_id"] == dynamic["compile_id"]]
    assert symbol["source"] == "L['x'].size()[0]" and symbol["specialized_to"] is None


def test_a_specialised_dimension_has_its_line_value_reason_and_pinning_guard():
    src = (
        "import torch\n\n"
        "def f(x):\n"
        "    if x.shape[0] == 3:\n"
        "        return x + 1\n"
        "    return x - 1\n\n"
        "def g(x):\n"
        "    s = 0\n"
        "    for i in range(x.shape[0]):\n"
        "        s = s + x[i]\n"
        "    return s\n\n"
        "a = f(torch.ones(3, 2))\n"
        "b = g(torch.ones(2, 2))\n"
    )
    rep = run(src, dynamic=True).report
    (f,) = frames_named(rep, "f")
    (g,) = frames_named(rep, "g")
    by_frame = {(s["compile_id"], s["source"]): s for s in rep["symbols"]}
    pinned = by_frame[(f["compile_id"], "L['x'].size()[0]")]
    assert (pinned["specialized_to"], pinned["specialization_reason"], pinned["line"]) == ("3", "range_refined_to_singleton", 4)
    assert pinned["specialization_guard"] == "L['x'].size()[0] == 3"
    looped = by_frame[(g["compile_id"], "L['x'].size()[0]")]
    assert (looped["specialized_to"], looped["specialization_reason"], looped["line"]) == ("2", "range_refined_to_singleton", 10)
    free = by_frame[(f["compile_id"], "L['x'].size()[1]")]
    assert free["specialized_to"] is None and free["specialization_reason"] is None
    # The size is now checked by TENSOR_MATCH, not by a shape guard; the 0/1 specialization guard says why it exists.
    shape = {g_["expr"]: g_ for g_ in rep["shape_guards"] if g_["compile_id"] == f["compile_id"]}
    assert "L['x'].size()[0] == 3" not in shape
    assert "0/1 specialization" in shape["2 <= L['x'].size()[1]"]["note"]


def test_duck_sizing_is_a_shape_guard_with_dynamos_note():
    src = "import torch\n\ndef f(x, y):\n    return x + y[: x.shape[0]]\n\na = f(torch.ones(4), torch.ones(4))\n"
    rep = run(src, dynamic=True).report
    (duck,) = [g for g in rep["shape_guards"] if g["expr"] == "L['y'].size()[0] == L['x'].size()[0]"]
    assert duck["note"].startswith("duck sizing added this equality")


def test_a_run_without_recompiles_evaluates_no_guard(monkeypatch):
    calls = []
    real = guard_failures.evaluate

    def counting(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr("compiler.collectors.recompiles.evaluate", counting)
    run("import torch\n\ndef f(x):\n    return x + 1\n\nfor _ in range(3):\n    y = f(torch.ones(2))\n")
    assert calls == []
    run("import torch\n\ndef f(x):\n    return x + 1\n\na = f(torch.ones(2))\nb = f(torch.ones(2, dtype=torch.float64))\n")
    assert len(calls) == 1


def test_a_very_large_guard_set_is_cut_and_says_so(monkeypatch):
    monkeypatch.setattr(guard_failures, "MAX_EVALUATED", 3)
    src = "import torch\n\ndef f(x, n):\n    return x * n\n\na = f(torch.ones(2), 2)\nb = f(torch.ones(2, dtype=torch.float64), 3)\n"
    _, second = frames_named(run(src).report, "f")
    (reason,) = second["recompile_reasons"]
    assert reason["failures_note"].startswith("stopped after 3 of ")
    assert any(f["in_reason"] for f in reason["failures"])  # Dynamo's own failure is always kept


def test_only_the_most_recent_entries_of_a_recompile_are_evaluated(monkeypatch):
    """A recompile limit raised far above Dynamo's 8 would cost one evaluation per old entry per recompile."""
    monkeypatch.setattr("compiler.collectors.recompiles.MAX_ENTRIES", 1)
    src = "import torch\n\ndef g(x, n):\n    return x * n\n\nfor n in (1, 2, 3):\n    y = g(torch.ones(2), n)\n"
    third = frames_named(run(src, dynamic=False).report, "g")[2]
    recent, older = third["recompile_reasons"]
    assert [f["expected"] for f in recent["failures"]] == ["2"] and recent["failures_note"] is None
    assert older["failures"] == [] and older["failures_note"].startswith("not evaluated: only the ")
    assert older["reason"].startswith("n == 1")  # Dynamo's own reason is still there


def test_what_failed_in_a_few_words():
    """``GuardFailure.what`` (minor 15): the words the renderer and the static view show, computed once here."""
    from compiler.summary import failure_what

    assert failure_what("TENSOR_MATCH", "dtype", "check_tensor(L['x'], ...)") == "dtype mismatch"
    assert failure_what("GLOBAL_STATE", "grad_mode", "___check_global_state()") == "grad_mode changed"
    assert failure_what("ID_MATCH", None, "___check_obj_id(G['act'], 1)") == "is another object"
    assert failure_what("TYPE_MATCH", None, "___check_type_id(G['m'], 1)") == "has another type"
    assert failure_what("EQUALS_MATCH", None, "L['n'] == 2") == "L['n'] == 2"
