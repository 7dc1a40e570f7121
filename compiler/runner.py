"""``run_cell``: run one cell through the real TorchDynamo and build its compile report.

The order of work: ``run_cell`` validates the options (once, for every front end), says what must be said before
the run, and runs the cell once (``_run_once``), or twice for ``--try`` (``try_fix.run_with_fix``). A run: parse the
cell (``cell.prepare``) -> install every collector of the registry, then the Dynamo hooks they declare
(``collectors/dispatch.py``), the run's config and the fix (``_install``) -> execute (``_execute``) -> undo
everything in ``finally`` (the config, caches and globals: ``isolation.py``) -> what the run tells once over and the
plain run of ``--compare-eager`` (``_after_run``) -> let each collector add its part to the report, in ``requires``
order (``_finalize``; docs/architecture.md). The result, ``CellRun``, and the live status, ``Progress``:
``run_result.py``.

Isolation ([Note: isolation]): no ``torch._dynamo.reset()``, ``explain()`` or ``run_and_get_code()``.
Every hook, handler and config patch is scoped by an ``ExitStack`` and removed in ``finally``, also on
exceptions and KeyboardInterrupt. Only this thread's events are kept. After the run, the cache of each
code object the run compiled is dropped when every entry in it came from the explorer, so re-running
a cell re-captures its frames and Dynamo's helper globals (``__compiled_fn_*``, ``__resume_at_*``) are
cleaned from the namespace; code that also holds the user's own compiled entries is left untouched.
What Dynamo's automatic dynamic shapes learned stays, as after any torch.compile run: the next run of
the same code starts from it, and its report says so ([Note: automatic dynamic memory] in _compat.py;
``--fresh`` forgets it for the cell's own code and what the run compiles).
"""

from __future__ import annotations

import builtins
import contextlib
import itertools
import linecache
import platform
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from . import _compat, caps
from .backend import explorer_backend
from .baseline import NOTICE as EAGER_NOTICE
from .baseline import CallTimer, EagerCalls, baseline
from .calls import CALL_NAME, CallCompiler, run_settings
from .cell import ANCHOR_NAME, OUT_NAME, UNBOUND, UNBOUND_NAME, CellProgram, prepare
from .collectors import DEFAULT_COLLECTORS, CaptureContext, Collector, ordered
from .collectors.base import gc_paused
from .collectors.dispatch import Dispatcher
from .isolation import config_values, drop_explorer_caches, drop_import_aliases, dynamo_config
from .model import CompileReport, ErrorInfo
from .options import RunOptions, watch_ignores
from .reset import forget_file
from .run_result import CellRun, Progress, throttled
from .runner_torch import frames_hidden, never_trace, skip_frame_but_not_callees
from .schema import report_errors
from .try_fix import Applied, run_with_fix
from .try_fix import notice as try_notice
from .try_fix import resolve as resolve_fix
from .user_code import EXPLORER_FILES, is_explorer_file

__all__ = ["CellRun", "Progress", "run_cell"]  # CellRun and Progress: run_result.py

_cell_counter = itertools.count(1)

# Dynamo never traces the explorer's own code (its hooks can run while frame evaluation is live): every module of
# compiler/, kernel_ext/ and dynamo_explorer/, subfolders included, for the life of the process (they are never the user's code)
never_trace(list(EXPLORER_FILES))


def run_cell(
    source: str,
    namespace: dict[str, Any],
    options: RunOptions | None = None,
    *,
    filename: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    label_file: Callable[[str], str | None] | None = None,
    collectors: Sequence[type[Collector]] | None = None,
    before: dict[str, Any] | None = None,
    before_from: str | None = None,
    owned: Sequence[Any] = (),
    say: Callable[[str], object] | None = None,
) -> CellRun:
    """Run ``source`` in ``namespace`` under TorchDynamo and return a ``CellRun``.

    Raises ``SyntaxError`` / ``compiler.errors.UsageError`` before anything runs when the input cannot
    be run; every exception raised by the cell itself is returned in ``CellRun.exception`` instead.
    The options are validated here, once, for every front end; ``say`` gets, one line each, what a person must know
    before the run starts (``--compare-eager`` and ``--try`` run the cell more than once), after the validation.
    ``label_file(filename)`` names a file for people (the kernel: ``In [2]`` for a notebook cell), or
    returns None ([Note: sources] in collectors/sources.py). ``collectors`` replaces the registry's
    (``collectors.REGISTRY``); they run in the order their ``requires`` give (``collectors.ordered``).
    With ``options.try_fix`` the cell runs with that fix of the ``before`` report applied (``before_from``
    says where that report came from); without ``before`` it runs first as it is ([Note: try a fix]).
    ``owned``: callables a front end compiled for this run (``explore(fn)``'s ``torch.compile(fn, ...)``): the cache
    entries they make are dropped afterwards, as the explorer's own are (``isolation.drop_explorer_caches``).
    """
    options = (options or RunOptions()).validate()
    if options.try_fix is not None and before is not None:  # a fix the earlier run does not offer: refused now
        resolve_fix(options.try_fix, before)
    if say is not None:
        if options.compare_eager:
            say(EAGER_NOTICE)
        if options.try_fix is not None:
            say(try_notice(options.try_fix, before_from))

    def once(
        source: str, namespace: dict[str, Any], options: RunOptions, *, filename: str, fix: Applied | None = None
    ) -> CellRun:
        return _run_once(
            source,
            namespace,
            options,
            filename=filename,
            fix=fix,
            on_progress=on_progress,
            label_file=label_file,
            collectors=collectors,
            owned=owned,
        )

    filename = filename or f"<dynamo-cell-{next(_cell_counter)}>"
    if options.try_fix is not None:
        return run_with_fix(once, source, namespace, options, filename=filename, before=before, before_from=before_from)
    return once(source, namespace, options, filename=filename)


def _run_once(
    source: str,
    namespace: dict[str, Any],
    options: RunOptions,
    *,
    filename: str,
    fix: Applied | None,
    on_progress: Callable[[Progress], None] | None,
    label_file: Callable[[str], str | None] | None,
    collectors: Sequence[type[Collector]] | None,
    owned: Sequence[Any],
) -> CellRun:
    """One run of the cell with validated options: install every collector and hook, execute, undo everything,
    then build the report."""
    if filename not in linecache.cache:
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    program = prepare(source, filename, namespace, options.scope, watch=not options.override_compile_options)
    namespace.setdefault("__builtins__", builtins)

    aliases_before = frozenset(n for n in namespace if n.startswith(_compat.IMPORT_ALIAS_PREFIX))
    ctx = CaptureContext(program=program, options=options, on_progress=throttled(on_progress), label_file=label_file)
    report = CompileReport(
        torch_version=str(torch.__version__),
        python_version=platform.python_version(),
        device="cpu",
        backend=options.backend,
        options=options.to_json(),
        scope=program.scope,
        scope_reason=program.scope_reason,
        cell={"filename": filename, "source": source},
    )
    if options.fresh:  # before the collectors read the memory: what --fresh forgot is not "carried"
        forget_file(filename)
    kinds = DEFAULT_COLLECTORS if collectors is None else ordered(tuple(collectors))
    run_collectors = [cls() for cls in kinds]
    ctx.attach(run_collectors)
    hooks = Dispatcher(ctx, run_collectors)
    scaffold = _Scaffold(timer=CallTimer(ctx) if options.compare_eager else None, fix=fix)
    value: Any = None
    exception: BaseException | None = None
    started = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            _install(stack, ctx, run_collectors, hooks, program, namespace, fix)
            try:
                _execute(program, namespace, options, hooks, scaffold)
            finally:
                value = namespace.pop(OUT_NAME, None)
                _restore_namespace(program, namespace, scaffold)
    except BaseException as exc:  # noqa: BLE001 - the cell's own exception, KeyboardInterrupt included
        exception = _trim_traceback(exc, filename)
        value = None
    finally:
        drop_explorer_caches(ctx, owned)
        scopes = [(namespace, aliases_before), *(scaffold.calls.globals_before.values() if scaffold.calls else ())]
        drop_import_aliases(ctx, scopes)
    report.timings["wall_s"] = time.perf_counter() - started
    plain = _after_run(report, ctx, program, namespace, scaffold, exception)
    out = _finalize(report, ctx, run_collectors, scaffold, plain, exception)
    return CellRun(report=out, value=value, exception=exception, parts=ctx.parts)


def _install(
    stack: contextlib.ExitStack,
    ctx: CaptureContext,
    run_collectors: list[Collector],
    hooks: Dispatcher,
    program: CellProgram,
    namespace: dict[str, Any],
    fix: Applied | None,
) -> None:
    """Enter, on ``stack``, every collector, the Dynamo hooks they declare, the run's config and the fix: all undone
    when the stack closes, also when the cell raises."""
    for c in run_collectors:
        try:
            stack.enter_context(c.install(ctx))
        except Exception as exc:  # noqa: BLE001 - a torch without what one collector needs: the rest run
            ctx.hook_failures.append((c.name, "install", exc))
    stack.enter_context(hooks.install())
    stack.enter_context(frames_hidden(is_explorer_file, program.filename))
    stack.enter_context(dynamo_config(ctx.options, program.scope))
    if fix is not None:  # --try: applied for this run only, put back also when the cell raises
        stack.enter_context(fix.applied(namespace))


def _after_run(
    report: CompileReport,
    ctx: CaptureContext,
    program: CellProgram,
    namespace: dict[str, Any],
    scaffold: _Scaffold,
    exception: BaseException | None,
) -> tuple[float, CallTimer] | None:
    """What the run itself tells once it is over (the backends of a watched run, the calls scope's callees) and, for
    ``--compare-eager``, the plain run of the cell: its wall time and timer, or None."""
    options = ctx.options
    report.resets = ctx.resets
    if program.scope == "watch":  # the backends the code's own compiles used ([Note: watch scope] in calls.py)
        report.backend = ", ".join(ctx.backends) or "none (nothing was compiled)"
        not_applied = watch_ignores(options)
        if not_applied:
            report.diagnose(
                "options_not_applied",
                f"{', '.join(not_applied)}: not applied: the code compiles itself (scope watch), each compile with its "
                "own torch.compile options; --override-compile-options compiles it with this line's options instead",
            )
    if scaffold.calls is not None:
        report.scope_reason = f"{program.scope_reason}. {scaffold.calls.summary()}"
        report.callees = scaffold.calls.callees()
        ctx.fullgraph_codes = scaffold.calls.fullgraph_codes
    if not options.compare_eager or exception is not None:
        return None
    eager_timer = CallTimer()  # [Note: eager baseline] in baseline.py
    eager_s, eager_exc = _run_plain(program, namespace, eager_timer)
    if eager_exc is None:
        return eager_s, eager_timer
    report.diagnose(
        "eager_baseline_failed",
        f"--compare-eager: the plain run raised {type(eager_exc).__name__}: {str(eager_exc).strip()[:300]}; "
        "no speedup is reported",
    )
    return None


def _finalize(
    report: CompileReport,
    ctx: CaptureContext,
    run_collectors: list[Collector],
    scaffold: _Scaffold,
    plain: tuple[float, CallTimer] | None,
    exception: BaseException | None,
) -> dict[str, Any]:
    """Each collector adds its part to the report, in ``requires`` order; the report as JSON, checked."""
    built = time.perf_counter()
    ctx.exception = exception
    filename = ctx.program.filename
    with gc_paused():  # report building allocates ~10^5 small objects; a full collection of the
        # kernel's heap (the model, its fake tensors) in the middle costs more than the building
        for name, hook, error in ctx.hook_failures[:20]:
            if hook == "install":  # what this torch lacks, named: the pane stays empty, the header says why
                report.diagnose(
                    "collector_failed",
                    f"{name}: not captured, it cannot run on torch {torch.__version__}: {type(error).__name__}: {error}",
                )
            else:
                report.diagnose("collector_failed", f"{name}.{hook}: {type(error).__name__}: {error}")
        not_installed = {name for name, hook, _ in ctx.hook_failures if hook == "install"}
        for c in run_collectors:
            if c.name in not_installed:
                continue
            try:
                with ctx.reading_as(c):
                    c.finalize(ctx, report)
            except Exception as exc:  # noqa: BLE001 - a capture bug must never cost the user their run
                report.diagnose("collector_failed", f"{c.name}: {type(exc).__name__}: {exc}")
        caps.cap(ctx, report)  # what every collector read whole, the report holds up to its caps
        if plain is not None and scaffold.timer is not None:
            report.eager_baseline = baseline(
                report, plain[0], scaffold.ran_s, ctx.compiling_s, scaffold.timer, plain[1], profiled=ctx.options.profile
            )
        if exception is not None:
            report.error = _error_info(exception, filename)
            if getattr(exception, "real_stack", None) is not None:  # raised by Dynamo: name the frame it gave up on
                failed = [f for f in report.frames if f.fail_type]
                report.error.compile_id = failed[-1].compile_id if failed else None
        report.timings["capture_s"] = time.perf_counter() - built
        out = report.to_json()
        fix = scaffold.fix
        if fix is not None:
            out["try_fix"] = fix.result(out)
            if fix.user_options is not None:  # the options the user gave, not those the fix ran with
                out["options"] = fix.user_options.to_json()
        for problem in report_errors(out):
            out["diagnostics"].append({"kind": "schema_mismatch", "message": problem, "compile_id": None})
    return out


@dataclass(slots=True)
class _Scaffold:
    """What the runner put into the user's namespace for this run, to take out again."""

    added_names: list[str] = field(default_factory=list)  # helper names that were not there before
    calls: CallCompiler | None = None  # the calls scope's compiler ([Note: calls scope])
    timer: CallTimer | None = None  # --compare-eager: the compiled callees' time ([Note: eager baseline])
    ran_s: float = 0.0  # the cell's own run, from its first line to its last (compiles included)
    fix: Applied | None = None  # --try: the fix applied to this run ([Note: try a fix] in try_fix.py)


def _execute(
    program: CellProgram, namespace: dict[str, Any], options: RunOptions, hooks: Dispatcher, scaffold: _Scaffold
) -> None:
    started = time.perf_counter()
    try:
        if program.scope == "watch":  # [Note: watch scope] in calls.py: the code compiles itself, nothing is added
            assert program.module_code is not None
            exec(program.module_code, namespace)  # noqa: S102 - running the user's cell is the point
            return
        backend = explorer_backend(options.backend, options.mode, options.dynamic)
        optimize = torch._dynamo.optimize(backend, nopython=options.fullgraph, dynamic=options.dynamic)
        if program.scope == "calls":  # [Note: calls scope] in calls.py
            assert program.module_code is not None
            chosen = scaffold.fix.optimize(optimize) if scaffold.fix is not None else optimize
            scaffold.calls = CallCompiler(
                chosen,
                fresh=options.fresh,
                timer=scaffold.timer,
                override=options.override_compile_options,
                claim=hooks.ctx.claim_thread,
                thread_config=config_values(options, program.scope),
                run_settings=run_settings(
                    options.backend, options.mode, options.dynamic, options.fullgraph, options.recompile_limit
                ),
            )
            if CALL_NAME not in namespace:
                scaffold.added_names.append(CALL_NAME)
            namespace[CALL_NAME] = scaffold.calls
            exec(program.module_code, namespace)  # noqa: S102 - running the user's cell is the point
        elif program.scope == "all-frames":
            assert program.module_code is not None
            skip_frame_but_not_callees(program.module_code)
            with optimize:
                exec(program.module_code, namespace)  # noqa: S102 - running the user's cell is the point
        else:
            optimize(_cell_function(program, namespace, scaffold))()
    finally:
        scaffold.ran_s = time.perf_counter() - started


def _run_plain(program: CellProgram, namespace: dict[str, Any], timer: CallTimer) -> tuple[float, BaseException | None]:
    """Run the cell again without Dynamo (``--compare-eager``); its wall time and exception, if any."""
    scaffold = _Scaffold()
    started = time.perf_counter()
    try:
        try:
            if program.scope == "calls":
                assert program.module_code is not None
                if CALL_NAME not in namespace:
                    scaffold.added_names.append(CALL_NAME)
                namespace[CALL_NAME] = EagerCalls(timer)
                exec(program.module_code, namespace)  # noqa: S102 - running the user's cell is the point
            elif program.scope == "all-frames":
                assert program.module_code is not None
                exec(program.module_code, namespace)  # noqa: S102 - running the user's cell is the point
            elif program.scope == "watch":  # the cell's own torch.compile calls run eagerly: Dynamo is off
                assert program.module_code is not None
                with torch._dynamo.config.patch(disable=True):
                    exec(program.module_code, namespace)  # noqa: S102 - running the user's cell is the point
            else:
                assert program.function_code is not None
                _cell_function(program, namespace, scaffold)()
        finally:
            namespace.pop(OUT_NAME, None)
            _restore_namespace(program, namespace, scaffold)
    except BaseException as exc:  # noqa: BLE001 - the plain run's failure (an interrupt too) is reported; the compiled run stands
        return time.perf_counter() - started, exc
    return time.perf_counter() - started, None


def _cell_function(program: CellProgram, namespace: dict[str, Any], scaffold: _Scaffold) -> types.FunctionType:
    """Scope ``cell``: the cell's top level as a function ([Note: cell scope] in cell.py)."""
    assert program.function_code is not None
    scaffold.added_names = [n for n in (ANCHOR_NAME, UNBOUND_NAME) if n not in namespace]
    namespace[ANCHOR_NAME] = torch
    namespace[UNBOUND_NAME] = UNBOUND
    for n in [n for n in program.bound_names if n not in namespace]:  # [Note: cell scope] in cell.py
        namespace[n] = UNBOUND
    return types.FunctionType(program.function_code, namespace, program.function_code.co_name)


def _restore_namespace(program: CellProgram, namespace: dict[str, Any], scaffold: _Scaffold) -> None:
    """Undo the cell-scope scaffolding ([Note: cell scope] in cell.py)."""
    for n in program.bound_names:
        if namespace.get(n) is UNBOUND:
            del namespace[n]
    for n in scaffold.added_names:
        namespace.pop(n, None)


def _trim_traceback(exc: BaseException, filename: str) -> BaseException:
    """Start the traceback at the cell's own code, as a plain cell's traceback does, and leave out the explorer's own
    frames below it (the seams a backend's error passes through, the wrapper of a compiled callee)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    if tb is None:
        return exc
    exc.__traceback__ = tb
    while tb is not None:
        nxt = tb.tb_next
        while nxt is not None and nxt.tb_next is not None and is_explorer_file(nxt.tb_frame.f_code.co_filename):
            nxt = nxt.tb_next
        tb.tb_next = nxt
        tb = nxt
    return exc


def _error_info(exc: BaseException, filename: str) -> ErrorInfo:
    """The cell's exception; the line is the cell's own (Dynamo errors: from ``real_stack``)."""
    line = None
    stack = getattr(exc, "real_stack", None)  # Dynamo errors: the user frames Dynamo was tracing
    if stack:
        line = next((fs.lineno for fs in reversed(list(stack)) if fs.filename == filename), None)
    if line is None:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == filename:
                line = tb.tb_lineno
            tb = tb.tb_next
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return ErrorInfo(type=type(exc).__name__, message=message[:2000], line=line, compile_id=None)
