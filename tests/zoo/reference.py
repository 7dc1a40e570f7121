"""Run one zoo script under plain ``torch.compile`` and print what Dynamo itself counted, as JSON.

    python -m tests.zoo.reference SCRIPT.py BACKEND OUT.json

The script's header names what a user would wrap (``# torch.compile: gen`` or an explicit
``# torch.compile: layers = [torch.compile(l, backend=BACKEND) for l in layers]``); the wrap is added
right after the top-level statement that binds the name, on the same line or the blank line after it,
so every other line keeps its number. Nothing of Dynamo Explorer is imported: the numbers come from
``torch._dynamo.utils.counters``, ``get_compilation_metrics()`` and every ``dynamo_graph_break_reason``
artifact of the structured trace (what ``TORCH_TRACE`` / tlparse show: one per break, where the
``graph_breaks`` log prints a location once). ``--plain`` listens to nothing (the timing side of
benchmarks/zoo_cost.py).
"""

from __future__ import annotations

import ast
import json
import logging
import os
import re
import sys
import time
import types

_DECL = re.compile(r"^# torch\.compile: (?P<decl>.+)$", re.M)
_AT = re.compile(r"Graph break in user code at (?P<file>.+):(?P<line>\d+)\s*$", re.M)
_GB = re.compile(r"/gb/(gb\d+)\.html")


def declared(source: str) -> tuple[str, str]:
    """``(name, statement)`` from the script's ``# torch.compile:`` header (``BACKEND`` not yet filled in)."""
    m = _DECL.search(source)
    if m is None:
        raise ValueError("a zoo script starts with '# torch.compile: NAME' (or 'NAME = EXPR')")
    decl = m.group("decl").strip()
    if "=" in decl:
        name = decl.split("=", 1)[0].strip()
        return name, decl
    return decl, f"{decl} = torch.compile({decl}, backend=BACKEND)"


def with_compile(source: str, backend: str) -> str:
    """``source`` with the declared ``torch.compile`` wrap added, every line keeping its number."""
    name, stmt = declared(source)
    stmt = stmt.replace("BACKEND", repr(backend))
    lines = source.splitlines()
    for node in ast.parse(source).body:
        targets = _binds(node)
        if name in targets:
            end = node.end_lineno
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.For, ast.With, ast.If, ast.While, ast.Try)):
                if end >= len(lines) or lines[end].strip():
                    raise ValueError(f"line {end + 1} after '{name}' must be blank: the wrap goes there")
                lines[end] = stmt
            else:
                lines[end - 1] = f"{lines[end - 1]}; {stmt}"
            return "\n".join(lines) + "\n"
    raise ValueError(f"the script binds no top-level name {name!r}")


def _binds(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def run(path: str, backend: str, observe: bool = True) -> dict:
    """Run the script with the wrap in this process; return Dynamo's own numbers."""
    from torch._dynamo import utils

    path = os.path.abspath(path)
    utils.set_compilation_metrics_limit(100_000)
    breaks: list[list] = []

    class Breaks(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if getattr(record, "metadata", {}).get("artifact", {}).get("name") != "dynamo_graph_break_reason":
                return
            msg = str(getattr(record, "payload", ""))
            at, gb = _AT.search(msg), _GB.search(msg)
            if at:
                user_tb = msg.split("Traceback (most recent call last)")[0]  # not Dynamo's own frames
                user_lines = sorted({int(n) for n in re.findall(rf'File "{re.escape(path)}", line (\d+)', user_tb)})
                breaks.append([gb.group(1).upper() if gb else None, at.group("file"), int(at.group("line")), user_lines])

    if observe:
        trace = logging.getLogger("torch.__trace")
        trace.setLevel(logging.DEBUG)
        trace.addHandler(Breaks())
    with open(path, encoding="utf-8") as fh:
        source = with_compile(fh.read(), backend)
    main = types.ModuleType("__main__")  # as `python SCRIPT.py` runs it: a real __main__ module
    main.__file__ = path
    sys.modules["__main__"] = main
    sys.path.insert(0, os.path.dirname(path))
    started = time.perf_counter()
    exec(compile(source, path, "exec"), main.__dict__)  # noqa: S102 - the script under test
    wall = time.perf_counter() - started
    metrics = [
        [str(m.compile_id), m.co_name, m.co_filename, m.co_firstlineno, m.fail_type]
        for m in utils.get_compilation_metrics()
        if m.compile_id is not None and m.is_forward is not False and not m.is_runtime
    ]
    counters = {cat: {str(k): int(v) for k, v in c.items()} for cat, c in utils.counters.items() if c}
    return {"counters": counters, "metrics": metrics, "breaks": breaks, "wall_s": wall}


if __name__ == "__main__":
    script, backend, out = sys.argv[1:4]
    result = run(script, backend, observe="--plain" not in sys.argv[4:])
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
