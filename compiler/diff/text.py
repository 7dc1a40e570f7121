"""A diff of two runs (``compiler.diff``) as plain text: what ``dynamo-explorer diff`` prints and a notebook's
``text/plain`` of it.

``diff_text(diff)``: the two sides (torch, backend, device, what each compiled), a ``confounded`` line for each
setting that differs, the first difference (or ``the same compile story``), then each pair of compiles that differs,
in B's compile order, with its differences: what was added (``+``), removed (``-``) and changed (``~``), a graph's canonical diff
(``|``), and what it cost (compile time beyond noise, the caches); the last line counts them.
"""

from __future__ import annotations

from typing import Any

from ..summary import plural

__all__ = ["MAX_ROWS", "diff_text"]

#: the rows of one difference shown before saying how many more there are (the JSON has them all)
MAX_ROWS = 8


def _side(s: dict[str, Any]) -> str:
    counts = ", ".join(
        plural(s[k], w)
        for k, w in (("frames", "frame"), ("graphs", "graph"), ("graph_breaks", "graph break"), ("recompiles", "recompile"))
    )
    return f"{s['source']}: torch {s['torch_version']}, backend {s['backend']}, {s['device']}: {counts}, compile {s['compile_s']:.2f} s"


def diff_text(diff: dict[str, Any]) -> str:
    """The diff as a person at a terminal reads it: plain lines, for ``grep`` too."""
    out: list[str] = []

    def line(text: str = "") -> None:
        out.append(text + "\n")

    a, b = diff["sides"]
    line(f"A {_side(a)}")
    line(f"B {_side(b)}")
    for c in diff["confounded"]:
        line(f"confounded: {c['setting']} {c['a']} vs {c['b']}: a difference below may come from it")
    line(f"first difference: {diff['first_difference']}" if diff["first_difference"] else "the same compile story")
    same = 0
    for pair in diff["frames"]:
        shown = pair["differences"] + pair["costs"]
        if not shown:
            same += 1
            continue
        ids = f"A [{pair['a']}] → B [{pair['b']}]" if pair["a"] and pair["b"] else f"only in {'B' if pair['b'] else 'A'}"
        line()
        line(f"{pair['function']} ({pair['filename']}): {ids}")
        for d in shown:
            line(f"  {d['kind']}: {d['summary']}")
            for sign, rows in (("+", d["added"]), ("-", d["removed"]), ("~", d["changed"])):
                for row in rows[:MAX_ROWS]:
                    line(f"    {sign} {row}")
                if len(rows) > MAX_ROWS:
                    line(f"    {sign} ... {len(rows) - MAX_ROWS} more (--json has them all)")
            if d["kind"] == "graph" and d["detail"]:
                for row in d["detail"].splitlines()[2 : 2 + 3 * MAX_ROWS]:
                    line(f"    | {row}")
    line()
    n = diff["differences"]
    differ = sum(1 for p in diff["frames"] if p["differences"])
    story = (
        f"the compile stories differ: {plural(n, 'difference')} in {plural(differ, 'compile')}" if n else "the same compile story"
    )
    line(f"{same} of {len(diff['frames'])} compiles alike; {story}")
    return "".join(out)
