"""Run options, declared once: ``RunOptions`` (backend, mode, dynamic, fullgraph, scope, recompile limit,
decompile, fresh, profile, compare_eager, trace_steps, decisions, override_compile_options, check_numerics) and ``OPTIONS``, their command-line form, plus ``OUTPUTS``, the report files both front ends
can write (``--html``: the standalone page). Both the CLI's and the ``%%dynamo`` magic's arguments are made
from them (``add_arguments``; ``RunOptions.from_args`` reads the run options back). ``unwritable(path,
flag)`` says why an output path cannot be written, for both to refuse it before anything runs.

``RunOptions.validate()`` checks them against what torch really offers (registered backends,
inductor modes) and raises a one-line ``UsageError`` naming the fix; ``run_cell`` calls it once.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .errors import UsageError

Scope = Literal["auto", "watch", "calls", "cell", "all-frames"]
SCOPES = ("auto", "watch", "calls", "cell", "all-frames")
Decompile = Literal["user", "all", "none"]
# [Note: decompile scope] depyf costs ~0.15 s per large frame (transformers' ``generate`` and ``_sample``:
# 0.3 s of GPT-2's 0.6 s report build), and library frames are rarely read as source: by default only
# frames of the user's code (the cell, their files) are decompiled; the bytecode listing is always there.
DECOMPILE = ("user", "all", "none")
#: What ``--trace-steps FRAME`` takes: a compile id (``frame/compile``) or a code's name (``forward``, ``<lambda>``).
TRACE_FRAME = re.compile(r"^(\d+/\d+(@\d+)?|[A-Za-z_]\w*|<[\w-]+>)$")
TRACE_STEPS_MAX = 2000  # --trace-steps-max's default: the instructions a report keeps
INDUCTOR_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")

__all__ = [
    "DECOMPILE",
    "OPTIONS",
    "OUTPUTS",
    "SCOPES",
    "Option",
    "RunOptions",
    "add_arguments",
    "check_name",
    "unwritable",
    "watch_ignores",
]


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run and capture one cell. Mirrors ``torch.compile``'s own arguments."""

    backend: str = "inductor"
    mode: str | None = None
    dynamic: bool | None = None
    fullgraph: bool = False
    scope: Scope = "auto"
    recompile_limit: int | None = None
    decompile: Decompile = "user"
    fresh: bool = False
    profile: bool = False
    compare_eager: bool = False
    try_fix: str | None = None  # --try NAME: re-run the cell with one of the report's fixes ([Note: try a fix])
    trace_steps: str | None = None  # --trace-steps [FRAME]: '' = the first frame compiled ([Note: trace steps])
    trace_steps_max: int = TRACE_STEPS_MAX
    decisions: bool = False  # --decisions: record Dynamo's inline / skip decision for each call ([Note: decisions])
    # --override-compile-options: what the user compiled with their own torch.compile(...) compiles with this run's
    # options too ([Note: calls scope]); by default it keeps the options the user gave it
    override_compile_options: bool = False
    # --check-numerics [N]: each compiled graph's first N calls against eager and float64 ([Note: numerics])
    check_numerics: int = 0

    def validate(self) -> RunOptions:
        """Return ``self`` when usable, else raise ``UsageError`` with a one-line fix."""
        from torch._dynamo.backends.registry import list_backends

        if self.backend not in list_backends(exclude_tags=()):
            common = sorted(set(list_backends()) | {"inductor", "eager", "aot_eager"})
            close = difflib.get_close_matches(self.backend, common, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise UsageError(f"unknown backend '{self.backend}': {hint}use one of {', '.join(common)} (or register your own)")
        if self.mode is not None:
            if self.backend != "inductor":
                raise UsageError(
                    f"--mode applies to the inductor backend only; drop it or use --backend inductor (got '{self.backend}')"
                )
            if self.mode not in INDUCTOR_MODES:
                raise UsageError(f"unknown mode '{self.mode}': use one of {', '.join(INDUCTOR_MODES)}")
        if self.scope == "frames":
            raise UsageError(
                "scope 'frames' was renamed: use --scope calls (torch.compile on what the cell calls) "
                "or --scope all-frames (every Python frame the cell runs, library code included)"
            )
        if self.scope not in SCOPES:
            raise UsageError(f"unknown scope '{self.scope}': use one of {', '.join(SCOPES)}")
        if self.scope == "watch" and self.override_compile_options:
            raise UsageError(
                "--override-compile-options makes the explorer compile what your code compiled, and --scope watch "
                "compiles nothing of its own: drop one of them"
            )
        if self.recompile_limit is not None and (not isinstance(self.recompile_limit, int) or self.recompile_limit < 1):
            raise UsageError(f"recompile limit must be a positive integer, got {self.recompile_limit!r}")
        if self.decompile not in DECOMPILE:
            raise UsageError(f"unknown decompile choice '{self.decompile}': use one of {', '.join(DECOMPILE)}")
        self._validate_trace_steps()
        calls = self.check_numerics
        if not isinstance(calls, int) or isinstance(calls, bool) or calls < 0:
            raise UsageError(f"--check-numerics takes a number of calls to check per graph, e.g. 1; got {calls!r}")
        if self.try_fix is not None:
            check_name(self.try_fix)
        return self

    def _validate_trace_steps(self) -> None:
        frame = self.trace_steps
        if frame is not None and frame and not TRACE_FRAME.match(frame):
            raise UsageError(
                f"--trace-steps takes a compile id such as 0/0 or a function name such as forward, got '{frame}'; "
                "give neither to step through the first frame compiled"
            )
        limit = self.trace_steps_max
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise UsageError(f"--trace-steps-max must be a positive number of instructions, e.g. 2000; got {limit!r}")
        if frame is None and limit != TRACE_STEPS_MAX:
            raise UsageError("--trace-steps-max applies to --trace-steps: add --trace-steps, or drop --trace-steps-max")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_args(cls, args: Any) -> RunOptions:
        """The options of a namespace parsed with ``add_arguments`` (not validated yet)."""
        return cls(**{f.name: getattr(args, f.name) for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class Option:
    """One option as typed on the command line (the CLI) or the magic line (``%%dynamo``)."""

    dest: str
    flag: str
    help: str
    example: str  # what follows the command in the help's example, e.g. "--backend eager"
    metavar: str | None = None
    type: Callable[[str], Any] | None = None
    switch: bool = False  # a flag without a value (store_true)
    # a switch with a ``--no-`` twin (argparse ``BooleanOptionalAction``): True, False, or None when neither is
    # given (torch's own default); the same two spellings on the command line and the magic line
    negatable: bool = False
    # an option whose value may be left out (argparse ``nargs='?'``): this is its value then
    const: str | int | None = None


def _count(text: str, flag: str) -> int:
    """An option's optional count (``--check-numerics 3``), or the one-line error argparse prints when the word after
    the flag is not one (``run --check-numerics script.py`` took the script for the count)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{flag} takes a number (e.g. {flag} 2), not {text!r}: put it after the script or cell arguments"
        ) from None


OPTIONS: tuple[Option, ...] = (
    Option(
        "backend",
        "--backend",
        "torch.compile backend: inductor (default), eager, aot_eager or any registered name",
        "--backend eager",
        metavar="NAME",
    ),
    Option(
        "mode",
        "--mode",
        "torch.compile mode for inductor: " + ", ".join(INDUCTOR_MODES),
        "--mode max-autotune-no-cudagraphs",
        metavar="MODE",
    ),
    Option(
        "dynamic",
        "--dynamic",
        "--dynamic: torch.compile(dynamic=True), symbolic sizes from the first compile; --no-dynamic: "
        "torch.compile(dynamic=False), one static compile per input size; neither (default): Dynamo's automatic "
        "dynamic shapes",
        "--dynamic",
        switch=True,
        negatable=True,
    ),
    Option(
        "fullgraph",
        "--fullgraph",
        "a graph break becomes an error naming the line, as torch.compile(fullgraph=True); the partial report is still written",
        "--fullgraph",
        switch=True,
    ),
    Option(
        "scope",
        "--scope",
        "watch: the cell (the script's top level) compiles itself with its own torch.compile calls; nothing is added, "
        "every compile Dynamo makes is shown as it happens; calls: torch.compile on each function and nn.Module the "
        "cell calls, the rest (imports, model construction, library calls) runs as plain Python; cell: compile the "
        "top-level code as one frame; auto (default): watch when the code compiles itself (it mentions torch.compile, "
        "model.compile, torch._dynamo.optimize or explain, set_stance, error_on_graph_break, compiled autograd or "
        "torch.export, or calls something already compiled), else calls when it calls a function or module of its "
        "own, else cell; all-frames (opt-in): compile every Python frame that runs, library __init__s included, "
        "which is not what torch.compile does",
        "--scope cell",
        metavar="SCOPE",
    ),
    Option(
        "override_compile_options",
        "--override-compile-options",
        "compile what the cell already compiled with its own torch.compile(...) (or model.compile(...)) with this "
        "line's --backend, --mode, --dynamic and --fullgraph too; without it, such a callable keeps the options it "
        "was given (backend, mode, options, dynamic, fullgraph) and the header says which",
        "--override-compile-options --backend eager",
        switch=True,
    ),
    Option(
        "recompile_limit",
        "--recompile-limit",
        "recompile a frame at most N times (torch._dynamo.config.recompile_limit), then run it eagerly",
        "--recompile-limit 2",
        metavar="N",
        type=int,
    ),
    Option(
        "decompile",
        "--decompile",
        "which frames' modified bytecode depyf decompiles: user (default: code of "
        "your cells and files), all (library frames too; slower on large models), none",
        "--decompile all",
        metavar="WHICH",
    ),
    Option(
        "fresh",
        "--fresh",
        "start the code this run compiles from a clean slate: forget what Dynamo's automatic dynamic shapes "
        "remember of it from earlier runs in this process (the report says when a frame is dynamic because of "
        "one), for this code only, without torch._dynamo.reset()",
        "--fresh",
        switch=True,
    ),
    Option(
        "profile",
        "--profile",
        "profile the run as it happens (torch.profiler, no second run): hits and time per cache entry and graph, "
        "eager time per graph break, the run split into compiled, eager and compile time, captured-op coverage",
        "--profile",
        switch=True,
    ),
    Option(
        "compare_eager",
        "--compare-eager",
        "after the compiled run, RUN THE CELL A SECOND TIME without Dynamo and report the speedup, overall and per "
        "compiled function (the cell's side effects happen twice)",
        "--compare-eager",
        switch=True,
    ),
    Option(
        "decisions",
        "--decisions",
        "record Dynamo's inline / skip / allow_in_graph decision for every call it traces, with the rule that "
        "decided it, as a call tree per frame (the Inline / skip decisions pane); it slows tracing (about 10 % on "
        "a 2,600-call frame), so it is off by default",
        "--decisions",
        switch=True,
    ),
    Option(
        "check_numerics",
        "--check-numerics",
        "check the numbers of each compiled graph: its first N calls (1 when N is left out) against the same Dynamo "
        "graph run eagerly on copies of its inputs and in float64, per output the largest difference and a verdict "
        "(matches; differs, no worse than eager against float64; worse than eager; not comparable). Each checked "
        "call runs its graph twice more, so it is off by default; your program's values are never touched",
        "--check-numerics",
        metavar="N",
        type=lambda text: _count(text, "--check-numerics"),
        const=1,
    ),
    Option(
        "try_fix",
        "--try",
        "RE-RUN THE CELL with one fix from the report's Try a fix list applied for that run only (a torch._dynamo "
        "config value, dynamic=True, mark_dynamic on an argument, allow_in_graph or nonstrict_trace on a helper, a "
        "torch._check line) and show graphs, breaks, recompiles and time before vs after; everything is put back "
        "afterwards. The 'before' is the cell's previous run in this kernel, else the cell runs twice (side effects "
        "too)",
        "--try capture_scalar_outputs",
        metavar="NAME",
    ),
    Option(
        "trace_steps",
        "--trace-steps",
        "record Dynamo's symbolic execution of one frame, instruction by instruction (the Step through pane): "
        "each instruction's user line, symbolic stack and locals, the FX nodes it added and where the graph "
        "broke, inlined calls included. FRAME: a function name (a resume function's too), or a compile id such as 1/0 "
        "(ids count up with every run in a process: stable from the command line); the first frame compiled when "
        "left out. Opt-in: it makes compiling slower (BENCHMARKS.md)",
        "--trace-steps forward",
        metavar="FRAME",
        const="",
    ),
    Option(
        "trace_steps_max",
        "--trace-steps-max",
        "with --trace-steps: keep at most N instructions (default 2000); the report says when it was cut",
        "--trace-steps --trace-steps-max 5000",
        metavar="N",
        type=int,
    ),
)


# Report files written after the run, by the CLI and the magic alike (each front end keeps its own other
# outputs: the CLI's --json, the magic's --out); not run options, so not in RunOptions. Default: None.
OUTPUTS: tuple[Option, ...] = (
    Option(
        "html",
        "--html",
        "write the report as one self-contained HTML page: the interactive explorer, renderer included, which "
        "opens offline in any browser",
        "--html report.html",
        metavar="OUT.html",
    ),
)


def add_arguments(add: Callable[..., Any], command: str) -> None:
    """Declare every option and output through ``add``, which takes ``ArgumentParser.add_argument``'s arguments
    (argparse itself, or IPython's ``magic_arguments.argument``); ``command`` starts each help's example."""
    defaults = RunOptions()
    for opt in OPTIONS + OUTPUTS:
        example = f"{command} {opt.example}"
        if opt.negatable:
            example += f", or {command} --no-{opt.flag.removeprefix('--')}"
        kwargs: dict[str, Any] = {"dest": opt.dest, "default": getattr(defaults, opt.dest) if opt in OPTIONS else None}
        if opt.negatable:
            kwargs["action"] = argparse.BooleanOptionalAction
            kwargs["default"] = None  # neither flag: torch's own default
        elif opt.switch:
            kwargs["action"] = "store_true"
        else:
            kwargs["metavar"] = opt.metavar
            if opt.const is not None:
                kwargs.update(nargs="?", const=opt.const)
            if opt.type is not None:
                kwargs["type"] = opt.type
        add(opt.flag, help=f"{opt.help}. Example: {example}".replace("%", "%%"), **kwargs)  # argparse formats help with %


def watch_ignores(options: RunOptions) -> list[str]:
    """The options given (not torch's defaults) that scope ``watch`` does not apply: those of the explorer's own
    compiles, which it makes none of (``--backend`` other than inductor, ``--mode``, ``--dynamic``, ``--fullgraph``)."""
    given = []
    if options.backend != "inductor":
        given.append(f"--backend {options.backend}")
    if options.mode is not None:
        given.append(f"--mode {options.mode}")
    if options.dynamic is not None:
        given.append("--dynamic" if options.dynamic else "--no-dynamic")
    if options.fullgraph:
        given.append("--fullgraph")
    return given


def unwritable(path: str, flag: str) -> str | None:
    """Why a report could not be written to ``path`` (given as ``flag``, e.g. ``--html``), or None."""
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    example = f"{flag} report.{flag.removeprefix('--')}"
    if os.path.isdir(target):
        return f"it is a directory; name a file, e.g. {example}"
    if not os.path.isdir(folder):
        return f"the directory {os.path.dirname(path) or folder} does not exist; create it or pick another {flag} path"
    if not os.access(folder, os.W_OK) or (os.path.exists(target) and not os.access(target, os.W_OK)):
        return f"permission denied; pick a writable {flag} path"
    return None


# The forms a --try NAME takes (the fixes themselves: [Note: try a fix] in try_fix.py); checked before anything runs.
_FORM = re.compile(
    r"^(capture_scalar_outputs|capture_dynamic_output_shape_ops|reorderable_logging_functions|dynamic|cond"
    r"|(mark_dynamic|maybe_mark_dynamic):[A-Za-z_]\w*:\d+|(allow_in_graph|nonstrict_trace):[A-Za-z_]\w*|torch_check:\d+"
    r"|export_(suggested|dim_auto|non_strict|draft):\d+)$"
)
_LIST = "the report's fixes (the Try a fix pane, or report['fixes'] of a run without --try) name the ones on offer"


def check_name(name: str) -> None:
    """Refuse, before anything runs, a NAME that no fix can have, and a hint (a rewrite only the user can make)."""
    if name == "cond":
        raise UsageError(
            "--try cond: a torch.cond rewrite is a change to your code that only you can make (both branches as "
            "functions); it is a hint, not a fix --try can run"
        )
    if not _FORM.match(name):
        raise UsageError(f"--try: unknown fix '{name}': {_LIST}, e.g. --try capture_scalar_outputs or --try dynamic")
