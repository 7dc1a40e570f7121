"""Automatic dynamic shapes across runs: the report says which inputs are dynamic and who marked them
(a compile of this run, or an earlier run in the process), ``--fresh`` and ``reset_code`` start one code
from a clean slate ([Note: automatic dynamic memory] in compiler/_compat.py).

Each test names its cells' files itself: Dynamo remembers per (file, first line, name), and a test must
not see another test's memory.
"""

from __future__ import annotations

import linecache
import uuid

import torch

from compiler import RunOptions, reset_code, run_cell, validate_report

SIZES = """
import torch
def f(x, n):
    return x.sin() * n
for k in {sizes}:
    f(torch.randn(k, 3), k)
"""


def _run(source: str, ns: dict, filename: str, **options) -> dict:
    options.setdefault("backend", "eager")
    report = run_cell(source, ns, RunOptions(**options), filename=filename).report
    validate_report(report)
    assert not [d for d in report["diagnostics"] if d["kind"] in ("collector_failed", "schema_mismatch")]
    return report


def _dynamic(frame: dict) -> dict[str, dict]:
    return {d["source"]: d for d in frame["automatic_dynamic"]}


def _file() -> str:
    return f"<cell-{uuid.uuid4().hex[:8]}>"


def test_the_recompile_that_marks_a_dim_dynamic_says_so_and_what_it_saw_before():
    rep = _run(SIZES.format(sizes=(2, 3, 4)), {}, _file())
    first, second = rep["frames"]
    assert first["automatic_dynamic"] == []
    marked = _dynamic(second)
    assert marked["L['x']"]["kind"] == "tensor" and marked["L['x']"]["dims"] == [0]
    assert marked["L['x']"]["marked_in"] == second["compile_id"]
    assert marked["L['x']"]["was"] == "size (2, 3)" and marked["L['x']"]["now"] == "size (?, 3)"
    assert marked["L['n']"] == {
        "source": "L['n']",
        "kind": "scalar",
        "dims": [],
        "now": "?",
        "marked_in": second["compile_id"],
        "was": "2",
        "was_from_earlier_run": False,
    }


def test_a_second_run_of_the_same_cell_starts_dynamic_and_says_an_earlier_run_marked_it():
    """The tour's story disappears on a re-run: one frame, already symbolic, no recompile. The report says why."""
    cell, ns = _file(), {}
    _run(SIZES.format(sizes=(2, 3)), ns, cell)
    again = _run(SIZES.format(sizes=(2, 3)), ns, cell)
    (only,) = again["frames"]
    assert only["status"] != "recompile"
    carried = _dynamic(only)
    assert carried["L['x']"]["marked_in"] is None and carried["L['x']"]["dims"] == [0]
    assert carried["L['n']"]["marked_in"] is None
    assert any(s["compile_id"] == only["compile_id"] for s in again["symbols"])


def test_fresh_forgets_the_cells_code_and_tells_the_story_again():
    cell, ns = _file(), {}
    first = _run(SIZES.format(sizes=(2, 3)), ns, cell)
    fresh = _run(SIZES.format(sizes=(2, 3)), ns, cell, fresh=True)
    assert fresh["options"]["fresh"] is True
    assert [f["status"] for f in fresh["frames"]] == [f["status"] for f in first["frames"]]
    assert len(fresh["frames"]) == 2
    assert _dynamic(fresh["frames"][1])["L['x']"]["marked_in"] == fresh["frames"][1]["compile_id"]


def test_a_size_seen_by_an_earlier_run_makes_the_first_compile_of_this_run_mark_it():
    cell, ns = _file(), {}
    _run(SIZES.format(sizes=(2,)), ns, cell)
    rep = _run(SIZES.format(sizes=(5,)), ns, cell)
    (only,) = rep["frames"]
    marked = _dynamic(only)["L['x']"]
    assert marked["marked_in"] == only["compile_id"]
    assert marked["was"] == "size (2, 3)" and marked["was_from_earlier_run"] is True


def test_fresh_forgets_a_function_defined_in_an_earlier_cell_that_this_cell_calls():
    defs, ns = _file(), {"__name__": "__main__"}
    _run("import torch\ndef g(x):\n    return x.cos() + 1\n", ns, defs, scope="cell")
    caller = _file()
    _run("g(torch.randn(2, 4))\ng(torch.randn(3, 4))\n", ns, caller)
    kept = _run("g(torch.randn(2, 4))\n", ns, caller)
    assert _dynamic(kept["frames"][0])["L['x']"]["marked_in"] is None
    fresh = _run("g(torch.randn(2, 4))\n", ns, caller, fresh=True)
    (frame,) = fresh["frames"]
    assert frame["automatic_dynamic"] == [], "g's memory came from the earlier runs and --fresh forgot it"


def test_reset_code_drops_the_users_own_cache_and_memory_of_that_function_only():
    ns: dict = {}
    source = "import torch\ndef h(x):\n    return x * 2\ndef other(x):\n    return x - 1\n"
    filename = _file()
    # in linecache, as IPython puts a cell: torch 2.11 compiles a function whose source it cannot find inside a
    # wrapper frame of its own (external_utils.wrap_inline), and the cache entries are that frame's
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), ns)  # noqa: S102 - functions of their own file, as a notebook cell's
    h = torch.compile(ns["h"], backend="eager")
    other = torch.compile(ns["other"], backend="eager")
    for n in (2, 3):
        h(torch.randn(n))
        other(torch.randn(n))
    from compiler import _compat

    assert len(_compat.cache_entries(ns["h"].__code__)) == 2
    said = reset_code(h)
    assert said.startswith("reset_code(h): dropped 2 cache entries")
    assert _compat.cache_entries(ns["h"].__code__) == []
    assert len(_compat.cache_entries(ns["other"].__code__)) == 2
    key = (ns["h"].__code__.co_filename, ns["h"].__code__.co_firstlineno, "h")
    memory = _compat.automatic_dynamic_memory()
    assert key not in memory
    assert (key[0], ns["other"].__code__.co_firstlineno, "other") in memory


def test_reset_code_refuses_what_has_no_python_code_with_the_fix():
    try:
        reset_code(len)
    except TypeError as exc:
        assert "pass a function, a method, an nn.Module" in str(exc)
    else:
        raise AssertionError("reset_code(len) should refuse")
