"""Run one corpus cell (tests/corpus/*.py) in this fresh process and record what it left behind.

    python tests/engine/corpus_run.py plain CELL.py OUT.json            # as ``python CELL.py`` runs it
    python tests/engine/corpus_run.py cli CELL.py OUT.json REPORT.json  # as ``dynamo-explorer run CELL.py`` runs it
    python tests/engine/corpus_run.py serve plain|cli    # the same, one forked child per job read from stdin
    ... --story=STORY.json    # either mode: also record Dynamo's own account of what the run compiled
    ... --as-is               # cli: the run's default options, the cell's first-line comment ignored

``STORY.json`` gets Dynamo's own record of the run, read from its structured trace (what ``TORCH_TRACE`` writes,
through a handler on ``torch._logging._internal.trace_log`` added before the cell runs, ``DynamoStory``): each
frame compile's ``compilation_metrics`` (compile id, function, first line, fail type, recompile reason), each
``dynamo_output_graph``, each graph break (``dynamo_graph_break_reason``) and each ``recompile_reasons`` artifact.
It reads nothing of the explorer's: the same record of the plain run and of the explorer's run can be compared.

``OUT.json`` gets ``{"status": ..., "globals": {name: summary}}``: the exit status (plain: filled in by
tests/engine/test_corpus.py from the process's own status, since the interpreter decides it; cli: what
``dynamo_explorer.cli.main`` returned or raised) and a comparable summary of every user-level global the cell
left (``summarize``). Nothing is written to stdout or stderr here: both belong to the cell.

plain: the cell runs in a new ``__main__`` module with the cell's directory as ``sys.path[0]`` and its
exception or ``SystemExit`` is re-raised after the summary is written, so the interpreter itself decides
the exit status and what goes to stderr, as for ``python CELL.py``.

cli: ``dynamo_explorer.cli.main(["run", CELL, ...])`` with the options of the cell's first-line comment
``# dynamo-explorer: --backend aot_eager`` (default ``--backend eager``); ``compiler.runner.run_cell`` is
wrapped here (test side only) to keep the namespace the CLI gave it.
"""

from __future__ import annotations

import builtins
import gc
import json
import math
import os
import re
import shlex
import sys
import types
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_THREAD_NUMBER = re.compile(r"\bThread-\d+")
CELL_DIR = ""  # the directory of the cell being run (its sibling modules' classes count as the cell's)


def cli_options(source: str) -> list[str]:
    """The CLI options a cell asks for on its first line, ``--backend eager`` when it asks for none."""
    first = source.split("\n", 1)[0]
    m = re.match(r"#\s*dynamo-explorer:\s*(.*)$", first)
    options = shlex.split(m.group(1)) if m else []
    if "--backend" not in options:
        options = ["--backend", "eager", *options]
    return options


def _text(value: Any) -> str:
    """``repr`` without what differs between two processes: addresses and thread counters."""
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ is summarized, not fatal
        text = f"<repr failed: {type(exc).__name__}>"
    return _THREAD_NUMBER.sub("Thread-N", _ADDRESS.sub("0x?", text))[:2000]


def _number(x: float) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    return round(x, 4) if isinstance(x, float) else x


def _users(cls: type) -> bool:
    """A class of the cell's own (or of a module beside it): its instances' attributes are compared."""
    if cls.__module__ == "__main__":
        return True
    path = getattr(sys.modules.get(cls.__module__), "__file__", None)
    return bool(CELL_DIR and path) and os.path.dirname(os.path.abspath(path)) == CELL_DIR


def summarize(value: Any, depth: int = 0) -> Any:
    """A JSON-ready summary of ``value`` that two runs of the same cell give equal.

    Tensors: dtype, shape, requires_grad, values rounded to 4 decimals (the first 256), a leaf's grad;
    modules, classes and functions: their names; containers: their items; an object of a class of the
    cell's own: its attributes; any other object: its type and ``repr`` without addresses.
    """
    import threading

    import torch

    if isinstance(value, torch.Tensor):
        t = value.detach()
        if t.layout != torch.strided or t.device.type == "meta":
            return {"tensor": str(t.dtype), "shape": list(t.shape), "layout": str(t.layout)}
        flat = t.reshape(-1)[:256]
        if flat.is_floating_point():
            values = [_number(v) for v in flat.double().tolist()]
        elif flat.is_complex():
            values = [_text(v) for v in flat.tolist()]
        else:
            values = flat.tolist()
        out = {"tensor": str(t.dtype), "shape": list(t.shape), "requires_grad": value.requires_grad, "values": values}
        if value.is_leaf and value.grad is not None:
            out["grad"] = summarize(value.grad, depth + 1)
        return out
    if isinstance(value, types.ModuleType):
        return {"module": value.__name__}
    if isinstance(value, type):
        return {"class": value.__qualname__}
    if isinstance(value, torch.nn.Module):
        return {"nn.Module": _text(value), "state": summarize(dict(value.state_dict()), depth + 1)}
    if isinstance(value, threading.Thread):  # its ident and the process-wide counter in its name differ
        return {"thread": _text(value.name), "alive": value.is_alive(), "daemon": value.daemon}
    if isinstance(value, (bool, int, str, bytes, type(None))):
        return _text(value)
    if isinstance(value, float):
        return _number(value)
    if depth < 4:
        if type(value) in (list, tuple):
            return {type(value).__name__: [summarize(v, depth + 1) for v in value[:200]], "len": len(value)}
        if type(value) is dict:
            items = [(k, v) for k, v in value.items() if not (isinstance(k, str) and k.startswith("__"))]
            return {"dict": {_text(k): summarize(v, depth + 1) for k, v in items[:200]}, "len": len(value)}
        if isinstance(value, (set, frozenset)):
            return {type(value).__name__: sorted(_text(v) for v in value)}
    if callable(value) and hasattr(value, "__qualname__"):
        return {"callable": type(value).__name__, "name": value.__qualname__}
    if depth < 4 and _users(type(value)):
        attrs = {}
        for name in [*getattr(type(value), "__slots__", ()), *getattr(value, "__dict__", {})]:
            if not name.startswith("__") and hasattr(value, name):
                attrs[name] = getattr(value, name)
        return {"object": type(value).__qualname__, "repr": _text(value), "attrs": summarize(attrs, depth + 1)}
    return {"object": type(value).__qualname__, "repr": _text(value)}


def summarize_globals(namespace: dict[str, Any]) -> dict[str, Any]:
    return {name: summarize(value) for name, value in sorted(namespace.items()) if not name.startswith("__")}


def _write(path: str, status: Any, namespace: dict[str, Any] | None) -> None:
    try:
        summary = summarize_globals(namespace) if namespace is not None else None
        problem = None
    except Exception as exc:  # noqa: BLE001 - the test reports it as a difference
        summary, problem = None, f"{type(exc).__name__}: {exc}"
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"status": status, "globals": summary, "summary_failed": problem}, fh)


#: what torch's trace records add beside an event's own key (torch/_logging/_internal.py, trace_structured)
_TRACE_CONTEXT = {
    "rank",
    "compiled_autograd_id",
    "frame_id",
    "frame_compile_id",
    "attempt",
    "severity",
    "timestamp",
    "pathname",
    "thread",
    "subgraph_name",
    "has_payload",
    "stack",
}
_STORY_EVENTS = ("compilation_metrics", "dynamo_output_graph", "dynamo_graph_break_reason", "recompile_reasons")


class DynamoStory:
    """Dynamo's own record of a run: a handler on torch's structured-trace logger, as ``TORCH_TRACE`` adds one."""

    def __init__(self, path: str | None) -> None:
        import logging

        self.path = path
        self.events: list[dict[str, Any]] = []
        story = self

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                story.record(getattr(record, "metadata", None) or {}, getattr(record, "payload", None))

        self.handler = Handler(level=logging.DEBUG)
        if path is not None:
            from torch._logging._internal import trace_log

            trace_log.addHandler(self.handler)

    def record(self, md: dict[str, Any], payload: Any) -> None:
        kind = next((k for k in md if k not in _TRACE_CONTEXT), None)
        meta = md.get(kind) if kind is not None else None
        name = meta.get("name") if kind == "artifact" and isinstance(meta, dict) else kind
        if name not in _STORY_EVENTS:
            return
        cid = None
        if md.get("frame_id") is not None:
            cid = f"{md['frame_id']}/{md['frame_compile_id']}"
            if md.get("compiled_autograd_id") is not None:
                cid = f"!{md['compiled_autograd_id']}/{cid}"
        event: dict[str, Any] = {"event": name, "compile_id": cid}
        if name == "compilation_metrics" and isinstance(meta, dict):
            event.update(
                compile_id=meta.get("compile_id") or cid,
                co_name=meta.get("co_name"),
                co_firstlineno=meta.get("co_firstlineno"),
                co_filename=os.path.basename(str(meta.get("co_filename") or "")),
                fail_type=meta.get("fail_type"),
                recompile_reason=meta.get("recompile_reason"),
                graph_op_count=meta.get("graph_op_count"),
            )
        elif name == "dynamo_graph_break_reason":
            event["at"] = str(payload or "").split("\n", 1)[0]
        self.events.append(event)

    def write(self) -> None:
        if self.path is None:
            return
        from torch._logging._internal import trace_log

        trace_log.removeHandler(self.handler)
        with open(self.path, "w", encoding="utf-8") as fh:
            json.dump(self.events, fh)


def _flags(args: list[str]) -> tuple[list[str], str | None, bool]:
    """``args`` less the flags, the ``--story`` path, and whether ``--as-is`` was given."""
    story = next((a for a in args if a.startswith("--story=")), None)
    rest = [a for a in args if a != story and a != "--as-is"]
    return rest, story.split("=", 1)[1] if story else None, "--as-is" in args


def run_plain(cell: str, out: str, story: str | None = None) -> None:
    global CELL_DIR
    cell = os.path.abspath(cell)
    CELL_DIR = os.path.dirname(cell)
    with open(cell, encoding="utf-8") as fh:
        source = fh.read()
    main = types.ModuleType("__main__")
    main.__file__ = cell
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    sys.path[0] = os.path.dirname(cell)
    sys.argv = [cell]
    code = compile(source, cell, "exec")
    dynamo_story = DynamoStory(story)
    try:
        exec(code, main.__dict__)  # noqa: S102 - running the cell as python CELL.py does is the point
    finally:
        dynamo_story.write()
        _write(out, None, main.__dict__)


def run_cli(cell: str, out: str, report: str, story: str | None = None, as_is: bool = False) -> int:
    global CELL_DIR
    cell = os.path.abspath(cell)
    CELL_DIR = os.path.dirname(cell)
    sys.path[0] = REPO  # the console script's own directory is no concern of the cell's
    import compiler.runner
    from dynamo_explorer import cli

    seen: list[dict[str, Any]] = []
    real = compiler.runner.run_cell

    def keeping_namespace(source: str, namespace: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        seen.append(namespace)
        return real(source, namespace, *args, **kwargs)

    compiler.runner.run_cell = keeping_namespace
    with open(cell, encoding="utf-8") as fh:
        options = [] if as_is else cli_options(fh.read())
    argv = ["run", cell, *options, "--json", report]
    sys.argv = ["dynamo-explorer", *argv]  # what the console script's process has
    status: Any
    dynamo_story = DynamoStory(story)
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    finally:
        dynamo_story.write()
    if status is None:
        status = 0
    elif not isinstance(status, int):  # SystemExit("text"): the interpreter prints it and exits 1
        print(status, file=sys.stderr)
        status = 1
    sys.stdout.flush()
    _write(out, status, seen[-1] if seen else None)
    return status


def serve(mode: str) -> dict[str, Any] | None:
    """Import what every run of ``mode`` imports first, then fork one child per job read from stdin.

    A job is a JSON line ``{"args": [...], "cwd", "stdout", "stderr", "timeout"}``; the answer, one JSON line
    ``{"status": N}``, is the child's exit status (``None`` after a timeout, the child killed). The child
    returns its job to run at top level, so that its exception or ``SystemExit`` ends it as it ends a
    plain interpreter. A child is a fresh process as far as any cell can tell: the parent only imported
    torch, ``torch._dynamo`` and its backends (and, for ``cli``, the explorer) and ran nothing; it saves those
    seconds of imports per run, and ``gc.freeze`` the second a child's exit would spend walking their objects.
    """
    import torch._dynamo  # 2 s of imports that any cell that compiles pays, in both modes alike
    import torch._inductor.config

    # and the second of imports the first compile of a process pays (the backends' registry loads them all:
    # AOTAutograd, its partitioners, inductor's codecache); importing runs nothing a cell could tell from
    torch._dynamo.list_backends(exclude_tags=())

    if mode == "cli":
        sys.path[0] = REPO
        import dynamo_explorer.cli  # noqa: F401
    for line in sys.stdin:
        job = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        # the server's objects out of the collector's sight in the child (Python's advice for a forking server):
        # the child's exit then skips walking torch's heap, 0.8 s a run; the cell's own objects are collected as before
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            for fd, key in ((1, "stdout"), (2, "stderr")):
                target = os.open(job[key], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(target, fd)
                os.close(target)
            os.chdir(job["cwd"])
            return job
        print(json.dumps({"status": _wait(pid, job["timeout"])}), flush=True)
    return None


def _wait(pid: int, timeout: float) -> int | None:
    import time

    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.02)


def run(mode: str, args: list[str]) -> None:
    args, story, as_is = _flags(args)
    if mode == "plain":
        run_plain(*args, story=story)
    elif mode == "cli":
        sys.exit(run_cli(*args, story=story, as_is=as_is))
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    mode, *rest = sys.argv[1:]
    if mode == "serve":
        job = serve(rest[0])
        if job is None:
            sys.exit(0)
        run(rest[0], job["args"])
    else:
        run(mode, rest)
