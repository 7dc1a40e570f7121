"""Rewrite the golden reports: ``python -m tests.goldens.regenerate [NAME ...]``.

Each case runs in a fresh Dynamo state through the real engine; the normalized report is written
to ``tests/goldens/<name>.report.json``. Review the diff of ``skeleton`` before committing.
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
    case = CASES[name]
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


def main(names: list[str]) -> None:
    from .cases import CASES

    for name in names or list(CASES):
        report = run_case(name)
        path = HERE / f"{name}.report.json"
        path.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(HERE.parent.parent)} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main(sys.argv[1:])
