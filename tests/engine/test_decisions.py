"""frames[].decisions: Dynamo's inline / skip / disabled / allow_in_graph decision for every call it met,
from real Dynamo (backend eager): [Note: decisions] in compiler/collectors/decisions/decisions.py."""

from __future__ import annotations

from typing import Any

from tests.goldens.cases import CASES, line_of

from .helpers import frames_named, run

SRC = CASES["decisions"]["source"]


def _called(frame: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [d for d in frame["decisions"] if d["name"] == name]


def _frame_calling(rep: dict[str, Any], name: str) -> dict[str, Any]:
    """The one frame whose top-level decisions hold a call of ``name``. Where f breaks first depends on the
    release (torch 2.11 breaks at ``copy.deepcopy`` and inside ``re.match``; 2.13 inlines the one and skips the
    other), so a call is looked for in the frame that made it, not in f's."""
    (frame,) = [fr for fr in rep["frames"] if any(d["depth"] == 0 for d in _called(fr, name))]
    return frame


def test_a_user_helper_is_inlined_by_default_and_its_own_helper_nested_under_it():
    rep = run(SRC, decisions=True).report
    (f,) = frames_named(rep, "f")
    (helper,) = _called(f, "helper")
    assert (helper["decision"], helper["variable"]) == ("inline", "UserFunctionVariable")
    # Dynamo's own words: 'inlined by default' (2.13+), 'inlined according trace_rules.lookup inlined by default' (2.11)
    assert helper["rule"].endswith("inlined by default")
    assert helper["call_line"] == line_of(SRC, "y = helper(x)") and helper["call_filename"] == rep["cell"]["filename"]
    assert helper["line"] == line_of(SRC, "def helper(x):") and helper["depth"] == 0 and helper["parent"] is None
    (inner,) = _called(f, "helper2")
    assert inner["decision"] == "inline" and inner["depth"] == 1
    assert f["decisions"][inner["parent"]] == helper
    assert inner["call_line"] == line_of(SRC, "return helper2(x) + 1")


def test_copy_deepcopy_and_re_match_are_what_dynamo_decided_and_a_break_is_linked():
    rep = run(SRC, decisions=True).report
    (f,) = frames_named(rep, "f")
    deepcopy = next(d for d in f["decisions"] if d["name"] == "deepcopy" and d["parent"] is None)
    assert deepcopy["module"] == "copy"
    if deepcopy["outcome"] == "graph_break":  # torch 2.11: a builtin Dynamo does not trace, the frame breaks there
        assert deepcopy["decision"] == "builtin" and f["graph_breaks"][deepcopy["graph_break"]]["gb_type"] == "copy.deepcopy()"
        assert f["decisions"][-1] == deepcopy, "the breaking call ends the frame's trace"
    else:  # 2.13+: inlined by the builtin-inline rule, what it called nested under it
        assert deepcopy["decision"] == "inline" and deepcopy["rule"].startswith("file matches BUILTIN_INLINE_WHEN_CALLED")
        assert any(d["parent"] == f["decisions"].index(deepcopy) for d in f["decisions"]), "what deepcopy called, nested"
    m = _frame_calling(rep, "match")
    (match,) = _called(m, "match")
    assert match["module"] == "re"
    if match["decision"] == "skip":  # 2.13+: skipped on constants, without a break
        assert match["variable"] == "SkipFunctionVariable" and match["outcome"] == "ok"
        assert match["rule"].startswith("file is under skip directory")
    else:  # 2.11: inlined into re's own code, which breaks the graph inside when the pattern is not in re's cache
        assert match["decision"] == "inline" and match["outcome"] in ("ok", "graph_break")
        if match["outcome"] == "graph_break":
            assert m["graph_breaks"][match["graph_break"]]["gb_type"] == match["error"]


def test_a_skipped_library_function_on_tensors_breaks_the_graph_and_links_to_the_break():
    rep = run(SRC, decisions=True).report
    resume = _frame_calling(rep, "pairwise")
    (pairwise,) = _called(resume, "pairwise")
    assert pairwise["decision"] == "skip" and pairwise["module"].startswith("networkx")
    # 'file is under skip directory (.../networkx/)' (2.13+), 'skipped according trace_rules.lookup SKIP_DIRS' (2.11)
    assert "networkx" in pairwise["rule"] or pairwise["rule"].endswith("SKIP_DIRS")
    assert pairwise["outcome"] == "graph_break" and pairwise["error"] == "Attempted to call function marked as skipped"
    brk = resume["graph_breaks"][pairwise["graph_break"]]
    assert brk["gb_type"] == pairwise["error"] and brk["line"] == line_of(SRC, "return list(pairwise([z, z + 1]))")


def test_a_disabled_function_is_a_linked_break_kept_across_the_restart():
    rep = run(SRC, decisions=True).report
    fr = _frame_calling(rep, "disabled")
    assert fr["attempt"] >= 1, "Dynamo restarted the analysis after the break"
    (disabled,) = _called(fr, "disabled")
    assert disabled["decision"] == "disabled" and disabled["rule"] == "torch._dynamo.disable"
    assert disabled["outcome"] == "graph_break"
    assert fr["graph_breaks"][disabled["graph_break"]]["gb_type"] == "Skip calling `torch.compiler.disable()`d function"
    assert fr["decisions"][-1] == disabled, "the breaking call ends the frame's trace"
    # only the last attempt's calls: the restart traced them again, the report has each once
    assert len(_called(fr, "opaque")) == 1 and sum(len(_called(x, "helper")) for x in rep["frames"]) == 1


def test_an_allow_in_graph_function_is_one_node_of_the_graph():
    rep = run(SRC, decisions=True).report
    fr = _frame_calling(rep, "opaque")
    (opaque,) = _called(fr, "opaque")
    assert (opaque["decision"], opaque["variable"]) == ("allow_in_graph", "TorchInGraphFunctionVariable")
    assert not [d for d in fr["decisions"] if d["parent"] == fr["decisions"].index(opaque)], "not traced into"
    (graph,) = [g for g in rep["graphs"] if g["compile_id"] == fr["compile_id"] and g["kind"] == "dynamo"]
    assert [n["target"] for n in graph["nodes"] if "opaque" in n["target"]] != []
    assert not any("sin" in n["target"] for n in graph["nodes"]), "opaque's body is not in the graph"


def test_a_break_inside_an_inlined_callee_marks_the_whole_chain():
    src = (
        "import torch\n\ndef inner(x):\n    print('hi')\n    return x + 1\n\ndef outer(x):\n    return inner(x) * 2\n\n"
        "def f(x):\n    y = x.cos()\n    return outer(y)\n\nv = f(torch.randn(3))\n"
    )
    rep = run(src, decisions=True).report
    (f,) = frames_named(rep, "f")
    chain = [d for d in f["decisions"] if d["outcome"] == "graph_break"]
    assert [(d["name"], d["decision"], d["depth"]) for d in chain] == [
        ("outer", "inline", 0),
        ("inner", "inline", 1),
        ("print", "builtin", 2),
    ]
    assert {d["graph_break"] for d in chain} == {0}
    assert f["graph_breaks"][0]["line"] == chain[-1]["call_line"] == 4


def test_a_module_call_is_the_inlined_forward():
    src = (
        "import torch\n\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.lin = torch.nn.Linear(3, 3)\n\n    def forward(self, x):\n        return self.lin(x).relu()\n\n"
        "m = M()\n\ndef f(x):\n    return m(x)\n\nv = f(torch.randn(3))\n"
    )
    rep = run(src, decisions=True).report
    (f,) = frames_named(rep, "f")
    top = [d for d in f["decisions"] if d["parent"] is None]
    assert [(d["name"], d["decision"]) for d in top] == [("M.forward", "inline")]
    assert "UnspecializedNNModuleVariable" in top[0]["rule"] and top[0]["line"] == 8
    assert ("Linear.forward", "inline") in [(d["name"], d["decision"]) for d in f["decisions"]]
    assert ("linear", "in_graph") in [(d["name"], d["decision"]) for d in f["decisions"]]


def test_nothing_is_left_wrapped_after_the_run():
    from torch._dynamo import symbolic_convert as sc

    before = sc.InstructionTranslatorBase.__dict__["call_function"], sc.InliningInstructionTranslator.__dict__["inline_call"]
    run("import torch\n\ndef g(x):\n    return x + 1\n\nv = g(torch.ones(2))\n", decisions=True)
    after = sc.InstructionTranslatorBase.__dict__["call_function"], sc.InliningInstructionTranslator.__dict__["inline_call"]
    assert after == before


def test_off_by_default_nothing_is_wrapped_and_nothing_recorded():
    from torch._dynamo import symbolic_convert as sc

    original = sc.InstructionTranslatorBase.__dict__["call_function"]
    seen = []
    src = (
        "import torch\nfrom torch._dynamo import symbolic_convert as sc\n\n"
        "def g(x):\n    return x + 1\n\n"
        "v = g(torch.ones(2))\nseen.append(sc.InstructionTranslatorBase.__dict__['call_function'])\n"
    )
    rep = run(src, {"__name__": "__main__", "seen": seen}).report
    assert rep["options"]["decisions"] is False and all(f["decisions"] == [] for f in rep["frames"])
    assert seen == [original]  # read while the cell ran, after g compiled: Dynamo's own method
