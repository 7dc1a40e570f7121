"""Rewrite the golden reports: ``python -m tests.goldens.regenerate [NAME ...]``.

``guard_trees`` (``guard_trees.json``): the guard trees of the golden reports with the rows the Python parser makes
of them (``parse_tree``, ``rows_from_tree``), which the view's parser (labextension/src/model/guardTree.ts) must make
too; written from the reports, nothing run.

Each case runs in a fresh Dynamo state through the real engine; the normalized report is written
to ``tests/goldens/<name>.report.json``. Review the diff of ``skeleton`` before committing. Each diff case
(``DIFF_CASES``) runs its two programs so and writes their diff (``compiler.diff``) to ``<name>.diff.json``, its
times zeroed (``normalize_diff``).
"""

from __future__ import annotations

import json
import linecache
import pathlib
import sys

HERE = pathlib.Path(__file__).parent


def run_case(name: str) -> dict:
    import torch

    from compiler import RunOptions, run_cell
    from compiler.normalize import normalize_report

    from .cases import CASES

    torch._dynamo.reset()
    case = CASES[name] if name in CASES else CASES_RUN[name]
    namespace: dict = {"__name__": "__main__"}
    filename, labels = f"<golden:{name}>", {}
    if "earlier" in case:  # an earlier notebook cell, as IPython runs one: its own file, its text in linecache
        earlier = f"<golden-earlier:{name}>"
        linecache.cache[earlier] = (len(case["earlier"]), None, case["earlier"].splitlines(True), earlier)
        exec(compile(case["earlier"], earlier, "exec"), namespace)  # noqa: S102
        labels = {earlier: case["labels"]["earlier"], filename: case["labels"]["cell"]}
    for _ in range(case.get("runs_before", 0)):  # the same cell run before, in the same kernel
        run_cell(case["source"], namespace, RunOptions(**case["options"]), filename=filename, label_file=labels.get)
    run = run_cell(case["source"], namespace, RunOptions(**case["options"]), filename=filename, label_file=labels.get)
    return normalize_report(run.report)


def normalize_diff(diff: dict) -> dict:
    """A diff without what a machine's speed decides: each side's compile time, the compile-time costs."""
    for side in diff["sides"]:
        side["compile_s"] = 0.0
    for pair in diff["frames"]:
        pair["costs"] = [c for c in pair["costs"] if c["kind"] != "compile_time"]
    return diff


def diff_case(name: str) -> dict:
    """The normalized diff of diff case ``name``: its two programs, each run as a case is."""
    from compiler.diff import diff_reports

    from .cases import DIFF_CASES

    case = DIFF_CASES[name]
    sides = []
    for side in ("a", "b"):
        CASES_RUN[f"{name}:{side}"] = {"source": case[side], "options": case["options"]}
        sides.append(run_case(f"{name}:{side}"))
    return normalize_diff(diff_reports(sides[0], sides[1], (f"{name}.a.json", f"{name}.b.json")))


#: the diff cases' sides, run as cases (``run_case`` reads a case from here when it is no golden case)
CASES_RUN: dict[str, dict] = {}


def _write(path: pathlib.Path, value: dict) -> None:
    path.write_text(json.dumps(value, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(HERE.parent.parent)} ({path.stat().st_size // 1024} KiB)")


def guard_trees() -> dict:
    """Each distinct guard tree of the golden reports (whole, not cut), its frame's file and its rows."""
    from compiler.collectors.guards.guards import parse_tree, rows_from_tree
    from compiler.model import json_ready

    cases, seen = [], set()
    for path in sorted(HERE.glob("*.report.json")):
        for frame in json.loads(path.read_text(encoding="utf-8"))["frames"]:
            tree, filename = frame.get("guard_tree"), frame["code"]["filename"]
            if not tree or "... (truncated)" in tree or tree in seen:
                continue
            seen.add(tree)
            rows = json_ready(rows_from_tree(parse_tree(tree, filename)))
            cases.append(
                {"golden": path.name, "compile_id": frame["compile_id"], "filename": filename, "tree": tree, "rows": rows}
            )
    # what no golden holds: a source of no frame's locals or globals, a leaf whose comment names another file, a
    # non-ASCII name, managers nested and closed, a leaf without a comment
    tree = (
        "TREE_GUARD_MANAGER:\n"
        "+- RootGuardManager\n"
        "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           # _dynamo/output_graph.py:688 in init_ambient_guards\n"
        "| +- GuardManager: source=___stack0, accessed_by=FrameLocalsGuardAccessor(key='___stack0', framelocals_idx=0)\n"
        "| | +- TYPE_MATCH: ___check_type_id(___stack0, 94)                             # y = ___stack0 + 1  # /home/u/lib/other.py:7 in g\n"
        "| +- GuardManager: source=L['größe'], accessed_by=FrameLocalsGuardAccessor(key='größe', framelocals_idx=1)\n"
        "| | +- GuardManager: source=L['größe'].shape, accessed_by=GetAttrGuardAccessor(shape)\n"
        "| | | +- EQUALS_MATCH: L['größe'].shape[0] == 3                                  # return größe.sum()  # nb/cell.py:4 in f\n"
        "| | +- ID_MATCH: ___check_obj_id(L['größe'], 140)\n"
        "| +- GuardManager: source=G, accessed_by=GlobalsGuardAccessor\n"
        "| | +- DICT_VERSION: ___dict_version(G) == 12                                  # z = helper(x)  # nb/cell.py:9 in f\n"
    )
    rows = json_ready(rows_from_tree(parse_tree(tree, "/work/nb/cell.py")))
    cases.append({"golden": "synthetic", "compile_id": "0/0", "filename": "/work/nb/cell.py", "tree": tree, "rows": rows})
    return {"cases": cases}


def main(names: list[str]) -> None:
    from .cases import CASES, DIFF_CASES

    for name in names or [*CASES, *DIFF_CASES, "guard_trees"]:
        if name == "guard_trees":
            _write(HERE / "guard_trees.json", guard_trees())
        elif name in DIFF_CASES:
            _write(HERE / f"{name}.diff.json", diff_case(name))
        else:
            _write(HERE / f"{name}.report.json", run_case(name))


if __name__ == "__main__":
    main(sys.argv[1:])
