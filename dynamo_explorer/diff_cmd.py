"""``dynamo-explorer diff A B``: what changed between two runs (``compiler.diff``), as diff(1) tells it.

A and B are each a report (the ``--json`` of ``run`` or ``open``) or a ``TORCH_TRACE`` directory or log. Printed
(``compiler.diff.text``): the two sides, a ``confounded`` line for each setting that differs, the first difference in
one line, then every compile that differs with what was added and removed, and what it cost. ``--json`` writes the
diff (compiler/schema/compile_diff.v1.schema.json), ``--html`` one self-contained page (the explorer's diff view, ``kernel_ext.export.diff_page``),
both through ``kernel_ext.outputs``.

Exit status, as diff(1)'s: 0 the same compile story (costs may differ), 1 the stories differ, 2 trouble (a path
that is no report and no trace, an output that cannot be written: one line naming the fix).
"""

from __future__ import annotations

import argparse
import sys

from kernel_ext.outputs import Outputs

from .say import error, say

__all__ = ["diff_main"]


def diff_main(args: argparse.Namespace, outputs: Outputs) -> int:
    problem = outputs.problem()
    if problem is not None:
        return error(problem)
    from compiler.diff import SideError, diff_paths
    from compiler.diff.text import diff_text

    try:
        diff = diff_paths(args.a, args.b)
    except SideError as exc:
        return error(str(exc))
    if not outputs:
        sys.stdout.write(diff_text(diff))
    elif diff["first_difference"]:
        print(f"first difference: {diff['first_difference']}")
    if not outputs.write_diff(diff, say=say, complain=error):
        return 2
    return 0 if diff["same_story"] else 1
