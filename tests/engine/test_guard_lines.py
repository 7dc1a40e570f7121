"""The user line of each guard (``frames[].guards[].line``, compiler/collectors/guards/guards.py) on real cells.

The root guards of a frame (grad mode, default device, the global-state blob, ...) have no source and no
user line: they must carry none, even when a shape guard sits next to them at the root of the guard tree
with a line of its own (issue 11: every global-state guard of the tour's dynamic-shapes cell linked to
the shape guard's ``line 3``). Input guards carry the line Dynamo gives them: the first use of the input.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.goldens.cases import CASES, TOY_EXAMPLE, line_of

from .helpers import frames_named, run

# The tour's dynamic-shapes cell (notebooks/01_tour.ipynb), its body on line 3 as in the notebook.
DOUBLE = "import torch\ndef double(x):\n    return x * 2\n\nfor n in (8, 16, 32):\n    double(torch.ones(n))\n"


def _root_guards(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for g in frame["guards"] if g["source"] == ""]


def _lines_of_frame_code(source: str, frame: dict[str, Any]) -> set[int]:
    """Lines of the cell from the frame's first line to the end (a cell frame's guards point into these)."""
    return set(range(frame["code"]["firstlineno"], len(source.splitlines()) + 1))


@pytest.mark.parametrize("dynamic", [None, True], ids=["automatic-dynamic", "dynamic=True"])
def test_root_guards_carry_no_line_next_to_a_shape_guard(dynamic):
    rep = run(DOUBLE, dynamic=dynamic).report
    body = line_of(DOUBLE, "return x * 2")
    shapes = {
        f["compile_id"]: {s["expr"] for s in rep["shape_guards"] if s["compile_id"] == f["compile_id"]} for f in rep["frames"]
    }
    symbolic = [f for f in frames_named(rep, "double") if shapes[f["compile_id"]]]
    assert symbolic, "a frame of double() must be compiled with a dynamic size (its shape guards: SHAPE_ENV's checks)"
    for frame in symbolic:
        root = _root_guards(frame)
        assert {g["type"] for g in root} >= {"GLOBAL_STATE", "DEFAULT_DEVICE"}, root  # the tree's names (minor 26)
        holds = [g for g in root if set(g["code"]) & shapes[frame["compile_id"]]]
        stray = [(g["type"], g["line"]) for g in root if g not in holds and g["line"] is not None]
        assert stray == [], f"[{frame['compile_id']}] global-state guards with a line: {stray}"
        (shape,) = [g for g in holds if "2 <= L['x'].size()[0]" in g["code"]]
        assert shape["line"] == body  # Dynamo's own line for the shape guard: the first use of the size
        inputs = [g for g in frame["guards"] if g["source"] == "L['x']"]
        assert {g["type"] for g in inputs} >= {"TENSOR_MATCH"} and all(g["line"] == body for g in inputs)


def test_input_guards_carry_their_first_use_and_globals_the_line_that_reads_them():
    rep = run(TOY_EXAMPLE).report
    (toy,) = frames_named(rep, "toy_example")
    by = {(g["type"], g["source"]): g["line"] for g in toy["guards"]}
    divide, branch = line_of(TOY_EXAMPLE, "x = a / (torch.abs(a) + 1)"), line_of(TOY_EXAMPLE, "if b.sum() < 0:")
    assert by[("TENSOR_MATCH", "L['a']")] == divide
    assert by[("TENSOR_MATCH", "L['b']")] == branch
    assert by[("ID_MATCH", "G['torch']")] == divide  # `torch.abs` on that line is what reads G['torch']
    assert all(g["line"] is None for g in _root_guards(toy))


@pytest.mark.parametrize("case", ["toy_example", "dynamic_sizes", "list_append", "recompile_dtype", "item_break"])
def test_every_guard_line_is_a_line_of_the_frames_code_and_no_root_guard_has_one(case):
    source = CASES[case]["source"]
    rep = run(source, **CASES[case]["options"]).report
    assert rep["frames"]
    for frame in rep["frames"]:
        if frame["code"]["filename"] != rep["cell"]["filename"]:
            continue
        allowed = _lines_of_frame_code(source, frame)
        for g in frame["guards"]:
            if g["line"] is not None:
                assert g["line"] in allowed, (case, frame["compile_id"], g)
        shape_exprs = {s["expr"] for s in rep["shape_guards"] if s["compile_id"] == frame["compile_id"]}
        for guard in (g for g in _root_guards(frame) if g["line"] is not None):  # only a shape guard may have one
            assert set(guard["code"]) & shape_exprs, (case, frame["compile_id"], guard)


def test_a_guard_tree_is_read_a_line_at_a_time_as_str_would_give_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """[Note: a guard tree never whole] ``read_tree`` gets a real cache entry's tree through torch's own ``__str__``
    a line at a time (guards_torch.write_tree): the same text as ``str(manager).strip()``, the same leaves as
    ``parse_tree`` of it, the text past the cap never held whole (its ``Encoded`` form decodes to the whole), for
    every flush size and cap tried; torch's buffer class is put back."""
    import threading

    import torch
    import torch._dynamo.guards as guards_mod

    from compiler._compat import cache_entries
    from compiler.collectors.guards import guards
    from compiler.encoding import Encoded

    model = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(6)])

    def step(x: torch.Tensor) -> torch.Tensor:
        return model(x)

    torch._dynamo.reset()
    torch.compile(step, backend="eager")(torch.ones(2, 4))
    [entry] = cache_entries(step.__code__)
    manager = entry.guard_manager
    want = str(manager).strip()
    leaves = guards.parse_tree(want, __file__)
    assert len(want) > 2000 and len(leaves) > 20
    buffer = guards_mod.IndentedBufferWithPrefix
    # another thread printing the tree while it is read gets its whole text, and the reading is not disturbed
    seen: list[str] = []
    append = guards.TreeText.append

    def append_and_print_elsewhere(self: Any, line: str) -> None:
        if not seen:
            printer = threading.Thread(target=lambda: seen.append(str(manager)))
            printer.start()
            printer.join()
        append(self, line)

    monkeypatch.setattr(guards.TreeText, "append", append_and_print_elsewhere)
    assert guards.read_tree(manager, __file__)[3] == leaves and [s.strip() for s in seen] == [want]
    monkeypatch.setattr(guards.TreeText, "append", append)
    for flush, cap in ((8192, 10**9), (7, 500), (1, len(want) - 1), (3, len(want))):
        monkeypatch.setattr(guards.TreeText, "_FLUSH", flush)
        monkeypatch.setattr(guards, "MAX_TREE_CHARS", cap)
        head, chars, whole, got = guards.read_tree(manager, __file__)
        assert guards_mod.IndentedBufferWithPrefix is buffer
        assert chars == len(want) and got == leaves and head == want[:cap]
        if len(want) > cap:
            assert isinstance(whole, Encoded) and len(whole) == chars and whole.value() == want
        else:
            assert whole == want
    torch._dynamo.reset()


def test_a_report_cuts_a_tree_or_code_at_a_lines_end_or_inside_a_first_line_longer_than_its_cap() -> None:
    """``line_cut``: the guards collector's tree and caps.py's graph code are cut the same way."""
    from compiler.collectors.base import line_cut

    text = "+- A: x\n+- B: y\n+- C: z"
    assert text[: line_cut(text, 12)] == "+- A: x"
    assert text[: line_cut(text, 16)] == "+- A: x\n+- B: y"
    assert line_cut("x" * 50, 10) == 10  # no line's end within the cap: cut inside the first line, never before it
    assert line_cut("\n" + "x" * 50, 10) == 10
