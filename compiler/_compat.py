"""Every torch-version difference the engine depends on, decided once at import time.

Run against torch 2.11 to 2.15 (README, "Torch and Python versions"; docs/dynamo-capture.md §4).
Where it can, a difference is decided by feature (``hasattr``, a signature), not by version number. A piece
every run needs and this torch lacks fails the import once, naming the torch and the piece
(``TorchUnsupported``); a piece one collector needs fails that collector's install, and the report names it.
Collectors import from here and never probe ``torch`` with ``hasattr`` themselves.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import re
import sys
import tempfile
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import torch
import torch._dynamo

#: the releases this module was checked against (README, "Torch and Python versions")
CHECKED = "2.11 to 2.15"


#: torch 2.11's Dynamo crashes the process (SIGSEGV) when several threads run compiled code at once, under plain
#: ``torch.compile`` too (measured on tests/corpus/thread_target_fn.py; 2.12 to 2.15 run it). A crash cannot be
#: probed for, so this one difference is decided by the release number: on 2.11 a function handed to a thread
#: runs plain (compiler/calls.py), and the header says so.
THREADS_RUN_COMPILED_CODE: bool = tuple(int(p) for p in re.findall(r"\d+", torch.__version__)[:2]) >= (2, 12)


class TorchUnsupported(ImportError):
    """This torch lacks a piece the engine cannot run without (a private name a release moved)."""


def _require(module: str, name: str) -> Any:
    """``module.name``, or one clear error naming this torch and the missing piece (never an anonymous
    ImportError from deep inside the engine)."""
    import importlib

    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise TorchUnsupported(
            f"dynamo-explorer cannot run on torch {torch.__version__}: it has no {module}.{name} ({exc}); "
            f"the engine is checked on torch {CHECKED}: install one of those (pip install torch==2.13.0)"
        ) from exc


# The pieces every run needs (the collectors' own needs are looked up as each installs: one that is missing
# costs that collector, and the report says so).
reset_code = _require("torch._C._dynamo.eval_frame", "reset_code")
RelationalGuard = _require("torch._C._dynamo.guards", "RelationalGuard")
register_bytecode_hook = _require("torch._dynamo.convert_frame", "register_bytecode_hook")
_debug_get_cache_entry_list = _require("torch._dynamo.eval_frame", "_debug_get_cache_entry_list")
TORCH_DYNAMO_RESUME_IN_PREFIX: str = _require("torch._dynamo.resume_execution", "TORCH_DYNAMO_RESUME_IN_PREFIX")
LazyVariableTracker = _require("torch._dynamo.variables.lazy", "LazyVariableTracker")
CompileContext = _require("torch._guards", "CompileContext")
trace_log = _require("torch._logging._internal", "trace_log")

__all__ = [
    "CHECKED",
    "IMPORT_ALIAS_PREFIX",
    "THREADS_RUN_COMPILED_CODE",
    "TorchUnsupported",
    "UserCompile",
    "automatic_dynamic_memory",
    "backward_provenance",
    "cache_entries",
    "chromium_events",
    "compilation_metrics_window",
    "compile_callbacks",
    "continue_frame_numbering",
    "current_shape_env",
    "current_trace_id",
    "describe_remembered",
    "drop_code_cache",
    "dynamic_part",
    "entry_is_valid",
    "failing_entry",
    "first_failure",
    "forget_automatic_dynamic",
    "frames_numbered",
    "gb_registry",
    "global_state_now",
    "graph_break_log",
    "guard_leaves",
    "guard_scope",
    "inductor_backend",
    "inline_reason",
    "invalidate_entries",
    "is_allowed_in_graph",
    "is_resume_code",
    "kernel_provenance",
    "never_trace",
    "realized",
    "recompile_limit",
    "register_bytecode_hook",
    "remove_helper_globals",
    "resume_codes_of",
    "shape_env_specializations",
    "shape_env_symbols",
    "shape_replacements",
    "skip_rule",
    "tensor_check",
    "trace_log",
    "traced_calls",
    "user_compile",
]


def current_trace_id() -> tuple[str | None, int]:
    """``('0/0', attempt)`` of the compile running on this thread, or ``(None, 0)``."""
    tid = CompileContext.current_trace_id()
    if tid is None:
        return None, 0
    return str(tid.compile_id), int(tid.attempt or 0)


def is_resume_code(code: types.CodeType) -> bool:
    """Resume functions are named ``torch_dynamo_resume_in_<fn>_at_<line>`` in 2.11 and 2.13."""
    return code.co_name.startswith(TORCH_DYNAMO_RESUME_IN_PREFIX)


def codes_dynamo_saw() -> list[types.CodeType]:
    """Every code object Dynamo was called on in this process and that is still alive
    (``convert_frame.input_codes``, weak references; in 2.11 and 2.13): a frame whose compile failed
    produced no bytecode-hook record, and this is where its original code can still be found."""
    from torch._dynamo import convert_frame

    return [c for c in (ref() for ref in list(convert_frame.input_codes.seen)) if c is not None]


def cache_entries(code: types.CodeType) -> list[Any]:
    """Dynamo's cache entries of ``code`` (most recent first)."""
    return list(_debug_get_cache_entry_list(code))


def entry_is_valid(entry: Any) -> bool:
    """Whether a cache entry can still match a call: not invalidated (an object its guards ID-matched was freed,
    or ``invalidate_entries``), which swaps its guard manager for a ``DeletedGuardManagerWrapper`` (2.11, 2.13)."""
    from torch._dynamo.guards import DeletedGuardManagerWrapper

    return not isinstance(entry.guard_manager, DeletedGuardManagerWrapper)


def recompile_limit() -> tuple[str, int]:
    """``(name, value)`` of the per-code cache limit now: ``torch._dynamo.config.recompile_limit`` in 2.11 and
    2.13 (``cache_size_limit`` before 2.6, kept there as an alias)."""
    return "recompile_limit", int(torch._dynamo.config.recompile_limit)


def drop_code_cache(code: types.CodeType) -> None:
    """Forget every cache entry of ``code`` (what ``torch._dynamo.eval_frame.remove_from_cache`` does)."""
    reset_code(code)


def invalidate_entries(entries: list[Any], reason: str) -> None:
    """Make each of ``entries`` (cache entries of one code) never match again, leaving the others.

    The mechanism Dynamo itself uses when an object a guard ID-matched is freed
    (``CheckFunctionManager.invalidate``, 2.11 and 2.13): the entry keeps its slot (it still counts
    toward ``recompile_limit``) but drops its compiled code, and a guard failure on it reads ``reason``.
    """
    from torch._dynamo.guards import DeletedGuardManagerWrapper

    for entry in entries:
        extra = getattr(entry.guard_manager, "extra_state", None)
        if extra is not None and not isinstance(entry.guard_manager, DeletedGuardManagerWrapper):
            extra.invalidate(entry, DeletedGuardManagerWrapper(reason))


def never_trace(filenames: list[str]) -> None:
    """Dynamo never compiles nor traces a frame of these files: ``trace_rules.FORCE_SKIP_FILES`` (a set of paths,
    2.11 and 2.13), checked before a frame is counted or compiled.

    The explorer's own functions (a log handler, a chromium-event wrapper, a compile callback) can run while
    Dynamo's frame evaluation is live, e.g. during a backward compiled lazily inside compiled code: without this,
    Dynamo evaluates their frames, ``counters['frames']`` counts them and its story differs from plain
    torch.compile's."""
    from torch._dynamo import trace_rules

    trace_rules.FORCE_SKIP_FILES.update(filenames)


#: Dynamo's alias of a module it imports for a guard or a graph call (``__import_torch_dot__dynamo_dot_utils``), a global
#: it writes into the frame's globals and never removes (``InstructionTranslator.import_source``, 2.11 and 2.13)
IMPORT_ALIAS_PREFIX = "__import_"


def remove_helper_globals(modified_code: types.CodeType) -> None:
    """Delete the globals Dynamo installed for ``modified_code`` (``__compiled_fn_*``, ``__resume_at_*``).

    Dynamo deletes them when the modified code is garbage collected (``CleanupManager``, keyed by the
    code); call this only once no cache entry runs that code any more.
    """
    from torch._dynamo.utils import CleanupManager

    manager = CleanupManager.instance
    hooks = manager.values.get(id(modified_code))
    if not hooks:
        return
    manager.values[id(modified_code)] = []  # the GC-time callback then finds nothing left to do
    for hook in hooks:
        with contextlib.suppress(KeyError):  # the user deleted the global already
            hook()


# [Note: automatic dynamic memory] Dynamo's automatic dynamic shapes keep, per code object, what each
# input looked like in earlier compiles (``torch._dynamo.pgo``: ``_CODE_STATE``, a dict CodeId -> CodeState,
# in 2.11 and 2.13). It is keyed by (file, first line, name), lives for the whole process and survives
# ``reset_code`` (dropping the cache entries): a function compiled again, or a notebook cell run again
# under the same text (IPython names the file after the text), starts from what an earlier run learned,
# e.g. ``L['x']`` already dynamic in dim 0, so its first compile is symbolic and no recompile happens.
# ``torch._dynamo.reset()`` clears it for every code; ``forget_automatic_dynamic`` does it for one code.


def _code_state() -> dict[Any, Any]:
    """Dynamo's automatic-dynamic memory, without creating it (``pgo.get_code_state()`` would load caches)."""
    from torch._dynamo import pgo

    state = getattr(pgo, "_CODE_STATE", None)
    return state if isinstance(state, dict) else {}


def _same_code(code_id: Any, code: types.CodeType) -> bool:
    return (
        getattr(code_id, "filename", None) == code.co_filename
        and getattr(code_id, "firstlineno", None) == code.co_firstlineno
        and getattr(code_id, "name", None) == code.co_name
    )


#: What the memory holds for one input: pgo's (size, scalar), immutable (ints, tuples, ``auto_dynamic``).
Remembered = tuple[Any, Any]


def automatic_dynamic_memory(
    only: tuple[str, int, str] | None = None,
) -> dict[tuple[str, int, str], dict[str, Remembered]]:
    """Dynamo's automatic-dynamic memory of every code (or of the code keyed ``only``), keyed
    ``(filename, firstlineno, name)`` ([Note: automatic dynamic memory]). A copy: Dynamo updates its
    entries in place."""
    out: dict[tuple[str, int, str], dict[str, Remembered]] = {}
    for code_id, state in list(_code_state().items()):
        key = (getattr(code_id, "filename", ""), getattr(code_id, "firstlineno", -1), getattr(code_id, "name", ""))
        if only is not None and key != only:
            continue
        entries = out.setdefault(key, {})
        for name, entry in list(getattr(state, "automatic_dynamic", {}).items()):
            entries[name] = (entry.size, entry.scalar)
    return out


def dynamic_part(remembered: Remembered) -> tuple[str, list[int]] | None:
    """``('tensor', dims)`` (the size dims marked dynamic) or ``('scalar', [])`` (a dynamic int, or a tensor
    whose number of dims changed: pgo writes both alike) when the memory marks an input dynamic, else None."""
    from torch._dynamo.pgo import auto_dynamic

    size, scalar = remembered
    if isinstance(size, tuple):
        dims = [i for i, s in enumerate(size) if s is auto_dynamic]
        return ("tensor", dims) if dims else None
    if scalar is auto_dynamic:  # pgo writes an int as (size: auto_dynamic, scalar: value); a dynamic int, or
        return ("scalar", [])  # a tensor whose number of dims changed, as (auto_dynamic, auto_dynamic)
    return None


def describe_remembered(remembered: Remembered) -> str:
    """``size (2, ?)`` for a tensor (``?``: dynamic), ``2`` or ``?`` for a scalar."""
    from torch._dynamo.pgo import auto_dynamic

    size, scalar = remembered
    if isinstance(size, tuple):
        return "size (" + ", ".join("?" if s is auto_dynamic else str(s) for s in size) + ")"
    return "?" if scalar is auto_dynamic else str(scalar)


def forget_automatic_dynamic(matches: Callable[[str, int, str], bool]) -> int:
    """Drop Dynamo's automatic-dynamic memory of every code whose ``(filename, firstlineno, name)`` matches;
    returns how many codes were forgotten ([Note: automatic dynamic memory])."""
    state = _code_state()
    gone = [
        code_id
        for code_id in list(state)
        if matches(getattr(code_id, "filename", ""), getattr(code_id, "firstlineno", -1), getattr(code_id, "name", ""))
    ]
    for code_id in gone:
        del state[code_id]
    return len(gone)


def inductor_backend(mode: str | None, dynamic: bool | None) -> Any:
    """The backend object ``torch.compile(backend='inductor', mode=...)`` builds.

    2.13 added a ``name=`` parameter; both versions take ``(mode, options, dynamic)`` positionally.
    """
    return torch._TorchCompileInductorWrapper(mode, None, dynamic)


@dataclass(frozen=True, slots=True)
class UserCompile:
    """How the user's own ``torch.compile(fn, ...)`` (or ``torch._dynamo.optimize(...)(fn)``) result compiles.

    Read off the ``_TorchDynamoContext`` the result holds (2.11 and 2.13: ``OptimizedModule.dynamo_ctx``; a
    compiled function's closure holds it; ``Module.compile()`` keeps such a function as ``_compiled_call_impl``).
    ``backend`` is what Dynamo calls with each graph (torch.compile's ``_TorchCompileInductorWrapper`` or
    ``_TorchCompileWrapper``, which carry the mode, options and dynamic; or the backend callable given to
    ``torch._dynamo.optimize``); ``mode``/``options`` are read back from it for people.
    """

    backend: Any
    backend_name: str
    fullgraph: bool
    dynamic: bool | None
    mode: str | None
    options: dict[str, Any] | None
    recompile_limit: int | None  # torch.compile(recompile_limit=...), 2.13 (None: the config's)
    guard_filter_fn: Any
    isolate_recompiles: bool
    shapes_spec: Any  # torch.compile(shapes_spec=...), 2.13

    def optimize_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``torch._dynamo.optimize`` that make a compile like the user's (bar the backend)."""
        kwargs: dict[str, Any] = {"nopython": self.fullgraph, "dynamic": self.dynamic}
        if self.guard_filter_fn is not None:
            kwargs["guard_filter_fn"] = self.guard_filter_fn
        if self.recompile_limit is not None:
            kwargs["recompile_limit"] = self.recompile_limit
        if self.isolate_recompiles:
            kwargs["isolate_recompiles"] = True
        if self.shapes_spec is not None:
            kwargs["shapes_spec"] = self.shapes_spec
        return kwargs


def _dynamo_context(obj: Any) -> Any:
    from torch._dynamo.eval_frame import _TorchDynamoContext

    ctx = getattr(obj, "dynamo_ctx", None)
    if isinstance(ctx, _TorchDynamoContext):
        return ctx
    for cell in getattr(obj, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(value, _TorchDynamoContext):
            return value
    return None


def user_compile(obj: Any) -> UserCompile | None:
    """The settings of ``obj`` when it is the result of the user's own ``torch.compile`` (or a module they called
    ``.compile()`` on), else None."""
    from torch._dynamo.eval_frame import innermost_backend

    if isinstance(obj, torch.nn.Module) and not isinstance(obj, torch._dynamo.eval_frame.OptimizedModule):
        obj = obj.__dict__.get("_compiled_call_impl")
        if obj is None:
            return None
    ctx = _dynamo_context(obj)
    callback = getattr(ctx, "callback", None)
    if ctx is None or not callable(callback):
        return None  # not compiled, or torch._dynamo.disable / run-only contexts
    backend = innermost_backend(callback)
    name = str(getattr(backend, "compiler_name", None) or getattr(backend, "__name__", None) or type(backend).__name__)
    mode: str | None = None
    options: dict[str, Any] | None = None
    if isinstance(backend, torch._TorchCompileInductorWrapper):
        config = dict(backend.config)
        for candidate in ("max-autotune", "max-autotune-no-cudagraphs", "reduce-overhead"):
            implied = torch._inductor.list_mode_options(candidate, backend.dynamic)
            if implied and all(config.get(k) == v for k, v in implied.items()):
                mode = candidate
                config = {k: v for k, v in config.items() if k not in implied}
                break
        options = config or None
    elif isinstance(backend, torch._TorchCompileWrapper):
        mode = backend.kwargs.get("mode")
        options = backend.kwargs.get("options") or None
    hooks = getattr(ctx, "_hooks", None)
    limit = getattr(callback, "_recompile_limit", None)  # 2.13; older: the config's
    return UserCompile(
        backend=backend,
        backend_name=name,
        fullgraph=bool(getattr(ctx, "fullgraph", False)),
        dynamic=getattr(ctx, "_dynamic", None),
        mode=mode,
        options=options,
        recompile_limit=limit if isinstance(limit, int) else None,
        guard_filter_fn=getattr(hooks, "guard_filter_fn", None),
        isolate_recompiles=getattr(ctx, "_isolate_recompiles_id", -1) != -1,
        shapes_spec=getattr(ctx, "_shapes_spec", None),
    )


@lru_cache(maxsize=1)
def gb_registry() -> dict[str, dict[str, Any]]:
    """``GBxxxx -> {Gb_type, Context, Explanation, Hints}`` from torch's graph-break registry."""
    try:
        text = resources.files("torch._dynamo").joinpath("graph_break_registry.json").read_text()
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    data = json.loads(text)
    return {gid: (entries[0] if isinstance(entries, list) and entries else entries) for gid, entries in data.items()}


def resume_code_for(code: types.CodeType, resume_offset: int) -> types.CodeType | None:
    """The resume function Dynamo generated for ``__resume_at_<resume_offset>_<n>`` in ``code``.

    ``symbolic_convert.create_call_resume_at`` names the global after ``resume_inst.offset`` and passes
    the same offset as the first key of ``ContinueExecutionCache.lookup`` (2.11 and 2.13).
    """
    from torch._dynamo.resume_execution import ContinueExecutionCache

    table = ContinueExecutionCache.cache.get(code) or {}
    for key, new_code in table.items():
        if key and key[0] == resume_offset:
            return new_code
    return None


def resume_codes_of(code: types.CodeType) -> list[types.CodeType]:
    """Every resume function Dynamo generated from ``code`` (``ContinueExecutionCache``, 2.11 and 2.13)."""
    from torch._dynamo.resume_execution import ContinueExecutionCache

    return list((ContinueExecutionCache.cache.get(code) or {}).values())


_skip_code: Callable[[types.CodeType], None] | None
try:  # 2.13: the eval-frame API for "don't compile this frame, do compile its callees"
    from torch._dynamo.eval_frame import skip_code as _skip_code
except ImportError:  # older torch: Dynamo's own skip list for one code object
    _skip_code = None


def skip_frame_but_not_callees(code: types.CodeType) -> None:
    """Never compile ``code`` itself (a frames-scope cell's module code), still compile what it calls.

    Without this, a module frame whose globals hold tensors passes ``has_tensor_in_frame`` and Dynamo
    tries to compile the cell's module code (``STORE_NAME``: "Missing bytecode handler").
    """
    if _skip_code is not None:
        _skip_code(code)
    else:
        from torch._dynamo import trace_rules

        trace_rules.add(code)  # type: ignore[arg-type]  # pragma: no cover - torch < 2.13 takes a code object too


# --- zero-cost capture sources ([Note: zero-cost capture] in collectors/base.py) -----------------


@contextlib.contextmanager
def compile_callbacks(
    on_start: Callable[[str, str], None],
    on_end: Callable[[str, str], None],
    on_reset: Callable[[], None] | None = None,
) -> Iterator[None]:
    """Call ``on_start(compile_id, trigger)`` / ``on_end(compile_id, trigger)`` around every compile.

    ``torch._dynamo.callback_handler`` runs them on the compiling thread (2.11 and 2.13), outermost
    compile only: trigger ``DYNAMO`` in ``convert_frame._compile`` before tracing and after the
    backend compile; ``LAZY_BACKWARD`` when AOTAutograd compiles a backward at its first call, under
    the forward's compile id.

    ``torch._dynamo.reset()`` (``torch.compiler.reset()``, a common first line of a notebook cell) ends with
    ``callback_handler.clear()``, which drops every registered callback, ours too (2.11 and 2.13). While open,
    the handler's ``clear`` is wrapped on the instance: the callbacks are registered again right after it, and
    ``on_reset()`` is told (Dynamo's ``compile_lock`` is held: it must not compile). On exit each callback is
    removed if it is still registered, and the original ``clear`` is put back unless someone replaced it since.
    """
    handler = torch._dynamo.callback_handler

    # A LAZY_BACKWARD compile starts inside the user's compiled code when ``loss.backward()`` runs at a
    # graph break: Dynamo's frame evaluation is live there, and a callback frame that refers to torch
    # would be traced by Dynamo, whose compile then waits on the callback handler's lock the outer
    # compile holds (a deadlock, seen with --profile). The callbacks run with Dynamo off.
    @torch._dynamo.disable(recursive=True)
    def start(args: Any) -> None:
        on_start(str(args.compile_id), args.callback_trigger.name)

    @torch._dynamo.disable(recursive=True)
    def end(args: Any) -> None:
        on_end(str(args.compile_id), args.callback_trigger.name)

    def register() -> None:
        if start not in handler.start_callbacks:
            handler.register_start_callback(start)
        if end not in handler.end_callbacks:
            handler.register_end_callback(end)

    had_own_clear = "clear" in handler.__dict__
    own_clear = handler.__dict__.get("clear")
    original_clear = handler.clear

    def clear() -> None:
        original_clear()
        register()
        if on_reset is not None:
            with contextlib.suppress(Exception):  # a capture bug must never fail the user's reset
                on_reset()

    register()
    handler.clear = clear  # type: ignore[method-assign]
    try:
        yield
    finally:
        if handler.__dict__.get("clear") is clear:
            if had_own_clear:
                handler.clear = own_clear  # type: ignore[method-assign,assignment]
            else:
                del handler.clear
        if start in handler.start_callbacks:
            handler.remove_start_callback(start)
        if end in handler.end_callbacks:
            handler.remove_end_callback(end)


def frames_numbered() -> int:
    """How many frame ids Dynamo has handed out (``convert_frame.FRAME_COUNTER``, 2.11 and 2.13)."""
    from torch._dynamo import convert_frame

    return int(convert_frame.FRAME_COUNTER)


def continue_frame_numbering(next_id: int) -> None:
    """Let Dynamo's next new frame be ``next_id/0`` (``torch._dynamo.reset()`` restarts the count at 0)."""
    from torch._dynamo import convert_frame

    convert_frame.FRAME_COUNTER = max(int(convert_frame.FRAME_COUNTER), next_id)


@contextlib.contextmanager
def chromium_events(record: Callable[[str, str, int, str | None, str | None], None]) -> Iterator[None]:
    """Hand each compile event Dynamo's one ``ChromiumEventLogger`` logs to ``record`` while open.

    Every ``dynamo_timed`` phase (and ``chromium_event_timed``, e.g. the outermost ``dynamo``) logs its
    start and end there, on the thread that runs it, whether or not anything listens (the ``chromium_event``
    trace and tlparse's Perfetto view are built from the same calls); cache lookups log instant events
    (``fx_graph_cache_miss``, ``autograd_cache_hit``, ...). ``record(ph, name, time_ns, compile_id, key)``
    gets ``ph`` ``'B'``, ``'E'`` or ``'i'``, the event name, its ``time.time_ns()``, the compile id the
    logger tags it with (``None`` outside a compile) and, on a start whose event name is a ``phase_name``,
    the ``dynamo_timed`` key (``backend_compile`` is ``OutputGraph.call_user_compiler``), on any thread.

    The three methods are wrapped on the logger instance and put back on exit (LIFO with any other
    wrapper of the same instance); nothing is built that Dynamo does not build anyway. 2.13 and 2.11:
    ``log_event_start(name, time_ns, metadata, ...)`` sets ``metadata['compile_id']``, and so does
    ``log_event_end(name, time_ns, metadata, ...)`` and ``log_instant_event(name, time_ns, metadata, ...)``.
    """
    from torch._dynamo.utils import get_chromium_event_logger

    logger = get_chromium_event_logger()
    names = ("log_event_start", "log_event_end", "log_instant_event")
    saved = {n: logger.__dict__[n] for n in names if n in logger.__dict__}
    start, end, instant = logger.log_event_start, logger.log_event_end, logger.log_instant_event

    def _cid(metadata: dict[str, Any]) -> str | None:
        cid = metadata.get("compile_id")
        return None if cid is None or cid == "None" else str(cid)

    def log_event_start(event_name: str, time_ns: int, metadata: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        start(event_name, time_ns, metadata, *args, **kwargs)
        record("B", event_name, time_ns, _cid(metadata), metadata.get("fn_name"))

    def log_event_end(event_name: str, time_ns: int, metadata: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        end(event_name, time_ns, metadata, *args, **kwargs)
        record("E", event_name, time_ns, _cid(metadata), None)

    def log_instant_event(
        event_name: str, time_ns: int, metadata: dict[str, Any] | None = None, *args: Any, **kwargs: Any
    ) -> None:
        metadata = {} if metadata is None else metadata
        instant(event_name, time_ns, metadata, *args, **kwargs)
        record("i", event_name, time_ns, _cid(metadata), None)

    logger.log_event_start = log_event_start  # type: ignore[method-assign]
    logger.log_event_end = log_event_end  # type: ignore[method-assign]
    logger.log_instant_event = log_instant_event  # type: ignore[method-assign]
    try:
        yield
    finally:
        for n in names:
            if n in saved:
                setattr(logger, n, saved[n])
            else:
                logger.__dict__.pop(n, None)


@contextlib.contextmanager
def compilation_metrics_window(limit: int = 100_000) -> Iterator[Callable[[], list[Any]]]:
    """Yield a getter of the ``CompilationMetrics`` Dynamo records while the window is open.

    Dynamo always appends one record per frame compile to a deque of 64 (``get_compilation_metrics``).
    The window widens it so a cell with more compiles loses none, and narrows it back on exit, which
    leaves exactly the last 64 records, as if it had never been widened.
    """
    from torch._dynamo import utils

    original = utils._compilation_metrics.maxlen or utils.DEFAULT_COMPILATION_METRICS_LIMIT
    before = {id(m) for m in utils.get_compilation_metrics()}
    utils.set_compilation_metrics_limit(limit)
    captured: list[Any] = []

    def new_records() -> list[Any]:
        if not captured:
            captured.extend(m for m in utils.get_compilation_metrics() if id(m) not in before)
        return captured

    try:
        yield new_records
    finally:
        new_records()
        utils.set_compilation_metrics_limit(original)


_GRAPH_BREAK_LOGGERS = ("torch._dynamo.symbolic_convert", "torch._dynamo.convert_frame")


class _EveryBreak:
    """Stands in for ``graph_break_dup_warning_checker``: every break is logged with its user stack."""

    def add(self, key: Any) -> bool:
        return True

    def reset(self) -> None:
        return None


@contextlib.contextmanager
def graph_break_log(handler: logging.Handler) -> Iterator[None]:
    """Route Dynamo's ``graph_breaks`` artifact log (what ``TORCH_LOGS=graph_breaks`` prints) to ``handler``.

    The message is the same text as the ``dynamo_graph_break_reason`` structured artifact, built only
    when a break happens. Dynamo prints a break's user stack once per process and location; while
    installed, every break keeps its stack and the user's own de-duplication state is left untouched.
    """
    from torch._dynamo import symbolic_convert

    loggers = [logging.getLogger(f"{name}.__graph_breaks") for name in _GRAPH_BREAK_LOGGERS]
    saved = [(lg, lg.level, lg.propagate) for lg in loggers]
    checker = symbolic_convert.graph_break_dup_warning_checker
    for lg in loggers:
        lg.addHandler(handler)
        if not lg.isEnabledFor(logging.DEBUG):  # not asked for by the user: enable it for us alone
            lg.setLevel(logging.DEBUG)
            lg.propagate = False
    symbolic_convert.graph_break_dup_warning_checker = _EveryBreak()  # type: ignore[assignment]  # duck-typed: add() and reset()
    try:
        yield
    finally:
        symbolic_convert.graph_break_dup_warning_checker = checker
        for lg, level, propagate in saved:
            lg.removeHandler(handler)
            lg.setLevel(level)
            lg.propagate = propagate


# --- Dynamo's call decisions (collectors/decisions.py) -------------------------------------------


@contextlib.contextmanager
def _patched(owner: type, name: str, replacement: Any) -> Iterator[None]:
    """``owner.name`` (a class attribute: a method, a classmethod object) replaced while open; the original is
    put back on exit, unless something else replaced it meanwhile (then that stays: it is not ours to undo)."""
    original = owner.__dict__[name]
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        if owner.__dict__.get(name) is replacement:
            setattr(owner, name, original)


@contextlib.contextmanager
def traced_calls(
    enter: Callable[[Any, Any], Any],
    leave: Callable[[Any, Any, Any, BaseException | None], None],
    inlined: Callable[[Any, Any], None],
) -> Iterator[None]:
    """Tell the listener about every call Dynamo's symbolic execution meets, while open.

    ``InstructionTranslatorBase.call_function(tx, fn, args, kwargs)`` is where every CALL instruction of a
    traced frame (and of each inlined callee: same method, the inlining tracer runs synchronously inside
    its parent's call) hands the callee's VariableTracker to Dynamo's decision; ``enter(tx, fn)`` runs
    before it and returns a token, ``leave(token, tx, fn, error)`` after it (``error`` is what it raised:
    ``Unsupported`` is a graph break). ``InliningInstructionTranslator.inline_call(parent, func, ...)`` is
    where Dynamo starts inlining a function (a module's ``forward`` too); ``inlined(parent, func)`` runs
    before it. Both are class attributes in 2.11 and 2.13, wrapped here and put back on exit. A listener
    that raises is ignored: a capture bug must never fail the user's compile.
    """
    from torch._dynamo import symbolic_convert as sc

    base, inlining = sc.InstructionTranslatorBase, sc.InliningInstructionTranslator
    original_call = base.__dict__["call_function"]
    original_inline = inlining.__dict__["inline_call"]  # a classmethod object
    inline_fn = original_inline.__func__

    # try/except rather than contextlib.suppress: this runs for every call Dynamo traces (no object per call)
    def call_function(self: Any, fn: Any, args: Any, kwargs: Any) -> Any:
        try:
            token = enter(self, fn)
        except Exception:  # noqa: BLE001 -- a capture bug must never fail the user's compile
            token = None
        error: BaseException | None = None
        try:
            return original_call(self, fn, args, kwargs)
        except BaseException as e:
            error = e
            raise
        finally:
            try:
                leave(token, self, fn, error)
            except Exception:  # noqa: BLE001 -- as above
                token = None  # (a statement for the handler: the linters refuse a bare pass here)
            error = None  # no reference cycle through the traceback

    def inline_call(cls: Any, parent: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(Exception):
            inlined(parent, func)
        return inline_fn(cls, parent, func, *args, **kwargs)

    call_function.__wrapped__ = original_call  # type: ignore[attr-defined]
    with _patched(base, "call_function", call_function), _patched(inlining, "inline_call", classmethod(inline_call)):
        yield


def realized(vt: Any) -> Any:
    """The VariableTracker a ``LazyVariableTracker`` became once Dynamo used it (itself otherwise)."""
    if isinstance(vt, LazyVariableTracker) and vt.is_realized():
        return vt.unwrap()
    return vt


def inline_reason(tx: Any, code: types.CodeType) -> str | None:
    """The reason Dynamo gave for inlining ``code`` in this trace: the ``SkipResult`` it kept for the code
    in ``TracingContext.previously_inlined_functions`` (2.11 and 2.13), e.g. 'inlined by default'."""
    result = tx.output.tracing_context.previously_inlined_functions.get(code)
    return None if result is None else str(result.reason)


def skip_rule(obj: Any, is_inlined_call: bool) -> str | None:
    """``trace_rules.check_verbose(obj, is_inlined_call)``'s reason ('file is under skip directory (...)',
    'file matches BUILTIN_INLINE_WHEN_CALLED (...)'); None where it has none (C functions: it asserts).
    Called positionally: 2.11 has no ``frame`` argument."""
    from torch._dynamo import trace_rules

    with contextlib.suppress(Exception):
        return str(trace_rules.check_verbose(obj, is_inlined_call).reason)
    return None


def is_allowed_in_graph(obj: Any) -> bool:
    """Was ``obj`` registered with ``torch._dynamo.allow_in_graph`` (trace_rules' allowed callable ids)?"""
    from torch._dynamo import trace_rules

    try:
        return id(obj) in trace_rules._allowed_callable_ids
    except TypeError:
        return False


def current_shape_env() -> Any:
    """The ShapeEnv of the compile in progress (its ``TracingContext``'s fake mode), or None."""
    tc = torch._guards.TracingContext.try_get()
    return getattr(getattr(tc, "fake_mode", None), "shape_env", None)


def shape_env_symbols(shape_env: Any = None) -> list[tuple[str, list[str], Any, str]]:
    """``(symbol, [source names], hint value, value range)`` of ``shape_env`` (default: the compile in progress's)."""
    if shape_env is None:
        shape_env = current_shape_env()
    if shape_env is None:
        return []
    values = shape_env.backed_var_to_val  # 2.11 and 2.13 (``var_to_val`` is deprecated in 2.13)
    out = []
    for sym, sources in list(shape_env.var_to_sources.items()):
        vr = shape_env.var_to_range.get(sym)
        rng = f"[{vr.lower}, {vr.upper}]" if vr is not None else ""
        out.append((str(sym), [s.name for s in sources], values.get(sym), rng))
    return out


# --- kernel provenance ([Note: kernel origins] in collectors/output_code.py) ---------------------


@contextlib.contextmanager
def kernel_provenance() -> Iterator[None]:
    """Have inductor record which FX nodes each kernel it generates computes, while the run lasts.

    ``torch._inductor.config.trace.provenance_tracking_level`` 2 ("basic", 2.11 and 2.13; what
    ``INDUCTOR_PROVENANCE=2`` sets): every kernel call in the wrapper gets a
    ``# [Provenance debug handles] <kernel>:<n>`` comment and each compile emits the structured artifact
    ``inductor_provenance_tracking_node_mappings`` (kernel -> post-grad nodes -> Dynamo graph nodes), also
    replayed on an FX-graph cache hit. Level 1 would also copy node metadata through every pattern
    replacement; level 2 adds no work to tracing or lowering. A level the user set is kept.
    """
    from torch._inductor import config as inductor_config

    if inductor_config.trace.provenance_tracking_level != 0:
        yield
        return
    with inductor_config.patch({"trace.provenance_tracking_level": 2}):
        yield


@contextlib.contextmanager
def backward_provenance() -> Iterator[None]:
    """Let the provenance of a lazily compiled backward be written, from a clean slate (2.11 and 2.13).

    ``debug.dump_inductor_provenance_info`` writes the kernel -> node mapping only while
    ``debug._pre_grad_graph_id`` is set, and ``compile_fx`` sets it for the forward compile alone, inside
    ``debug.reset_provenance_globals()``: a backward AOTAutograd compiles at its first call would get
    ``{"version": 2.0}``, and its kernels would pile up in the module's globals from one backward to the
    next. The same context around the backward compile gives it what the forward gets: fresh globals and
    ``_pre_grad_graph_id`` -1 ("no pre-grad graph": the kernel -> post-grad mapping is written, the
    post-grad -> pre-grad one stays empty), all put back afterwards.
    """
    from torch._inductor import debug

    with debug.reset_provenance_globals():
        yield


# --- recompile diagnosis ([Note: every failing guard] in collectors/guard_failures.py) ----------


def failing_entry() -> tuple[Any, dict[str, object]] | None:
    """``(guard manager, frame locals)`` of the cache entry Dynamo is explaining, from inside ``guard_fail_fn``.

    Dynamo calls ``guard_fail_fn`` from ``guards.get_guard_fail_reason(guard_manager, code, f_locals, ...)``
    (2.13), itself called by ``get_and_maybe_log_recompilation_reasons`` once per old cache entry when
    ``convert_frame`` decides to recompile: its ``f_locals`` are the values of the call whose guards failed.
    That frame is found on the stack by its code object; None when it is not there (another torch).
    """
    from torch._dynamo import guards

    target = guards.get_guard_fail_reason.__code__
    frame: types.FrameType | None = sys._getframe(1)
    try:
        while frame is not None and frame.f_code is not target:
            frame = frame.f_back
        if frame is None:
            return None
        scope = frame.f_locals
        manager, f_locals = scope.get("guard_manager"), scope.get("f_locals")
    finally:
        del frame
    if manager is None or not isinstance(f_locals, dict) or getattr(manager, "root", None) is None:
        return None
    return manager, f_locals


#: One leaf guard of a guard-manager tree: (Dynamo's kind, the source it guards ('' at the root),
#: its verbose code parts, the type the guarded value had when the entry was compiled (None at the root)).
GuardLeaf = tuple[str, str, list[str], Any]


def guard_leaves(guard_manager: Any) -> list[GuardLeaf]:
    """Every leaf guard of a cache entry's guard-manager tree, in tree order (what ``str(guard_manager)``
    prints, ``GuardManagerWrapper.construct_manager_string``: leaves, dict key/value managers, child managers
    through their accessors, then the root's epilogue lambda guards). A relational guard (``NO_TENSOR_ALIASING``)
    hangs under each source it relates and is listed once."""
    out: list[GuardLeaf] = []
    related: list[Any] = []  # the relational guards met so far (kept alive: pybind gives each C++ guard one object)

    def leaves(mgr: Any, source: str, kind_of_value: Any) -> None:
        for leaf in mgr.get_leaf_guards():
            if isinstance(leaf, RelationalGuard):
                if any(leaf is r for r in related):
                    continue
                related.append(leaf)
            out.append((type(leaf).__name__, source, list(leaf.verbose_code_parts()), kind_of_value))

    def visit(mgr: Any, root: bool = False) -> None:
        source = "" if root else str(mgr.get_source())
        leaves(mgr, source, None if root else mgr.get_type_of_guarded_value())
        if hasattr(mgr, "get_key_value_managers"):
            for _, pair in sorted(mgr.get_key_value_managers().items()):
                for child in pair:
                    if child is not None:
                        visit(child)
        for child in mgr.get_child_managers():
            visit(child)

    root = guard_manager.root
    visit(root, root=True)
    for leaf in root.get_epilogue_lambda_guards() if hasattr(root, "get_epilogue_lambda_guards") else []:
        out.append((type(leaf).__name__, "", list(leaf.verbose_code_parts()), None))
    return out


def guard_scope(guard_manager: Any, f_locals: dict[str, object]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(globals, locals)`` to ``eval`` a guard's code part in, as Dynamo's ``get_guard_fail_reason_helper``
    builds them (2.11 and 2.13): ``L`` the frame's locals, ``G`` its globals, and the guard helpers
    (``___check_obj_id``, ``___check_type_id``, ``utils_device``, ...)."""
    global_scope = dict(guard_manager.global_scope or {})
    scope: dict[str, Any] = {"L": f_locals, "G": global_scope.get("G", {})}
    scope.update(guard_manager.closure_vars or {})
    return global_scope, scope


def first_failure(guard_manager: Any, f_locals: dict[str, object]) -> list[str]:
    """What Dynamo's own check names: the verbose code parts of the first failing leaf guard, or a tensor's
    reason (``tensor 'x' dtype mismatch. expected Float, actual Double``); [] when every guard passes."""
    info = guard_manager.check_verbose(f_locals)
    return [] if info.result else [str(p) for p in info.verbose_code_parts]


def tensor_check(value: torch.Tensor, name: str) -> str:
    """Dynamo's ``check_tensor(...)`` text for ``value`` as it is now (``guards.get_tensor_guard_code_part``,
    2.11 and 2.13): the same words as the TENSOR_MATCH guard of a cache entry, so both read alike."""
    from torch._dynamo.guards import get_tensor_guard_code_part

    return get_tensor_guard_code_part(
        value, name, list(value.size()), list(value.stride()), type(value), torch._C._dispatch_keys(value)
    )


def global_state_now() -> dict[str, Any]:
    """The global state Dynamo's GLOBAL_STATE guard compares (grad mode, default dtype, num threads, ...), by
    its own names: ``GlobalStateGuard``'s JSON, as ``___check_global_state() against {...}`` prints it."""
    from torch._C._dynamo.guards import GlobalStateGuard

    value = json.loads(str(GlobalStateGuard().__getstate__()))
    return value if isinstance(value, dict) else {}


# --- specialisations of dynamic shapes (collectors/dynamic_shapes.py) ----------------------------


@contextlib.contextmanager
def shape_replacements(on_replace: Callable[[Any, Any, Any, str], None]) -> Iterator[None]:
    """Call ``on_replace(shape_env, symbol, target, reason)`` after each ``ShapeEnv._set_replacement``.

    ShapeEnv keeps what it replaced a symbol with (``replacements``) and where (``replacements_slocs``,
    ``specialization_stacks``), but the reason it was given (``range_refined_to_singleton``, ``solve``, ...)
    only reaches ``TORCH_LOGS=dynamic`` and the structured trace ([Note: zero-cost capture]). The method is
    wrapped while the run lasts (one Python call per replacement; none when nothing is dynamic) and put back.
    """
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    original = ShapeEnv.__dict__["_set_replacement"]

    def _set_replacement(self: Any, a: Any, tgt: Any, msg: str) -> None:
        original(self, a, tgt, msg)
        with contextlib.suppress(Exception):  # a capture bug must never fail the user's compile
            on_replace(self, a, tgt, msg)

    _set_replacement.__wrapped__ = original  # type: ignore[attr-defined]
    with _patched(ShapeEnv, "_set_replacement", _set_replacement):
        yield


#: One symbol ShapeEnv replaced by a constant: (symbol, constant, the ShapeEnv guard that pinned it in source
#: terms or None, the user stack where it was specialised as [(filename, line)], the ``file:line in fn``
#: text of ``replacements_slocs`` or None).
Specialization = tuple[str, str, str | None, list[tuple[str, int]], str | None]


def shape_env_specializations(shape_env: Any) -> list[Specialization]:
    """Every symbol of ``shape_env`` replaced by a constant (``ShapeEnv.replacements``, 2.11 and 2.13), with
    ShapeEnv's own records of it: the first guard on the symbol (``ShapeEnv.guards``, printed with its sources
    by Dynamo's ``ShapeGuardPythonPrinter``: ``L['x'].size()[0] == 3``), the user stack of the specialisation
    (``specialization_stacks``, per source) and the user location of the replacement (``replacements_slocs``)."""
    import sympy
    from torch.fx.experimental.symbolic_shapes import ShapeGuardPythonPrinter

    var_to_sources = shape_env.var_to_sources
    printer = ShapeGuardPythonPrinter(var_to_sources, lambda s: s.name, var_to_sources)
    stacks = getattr(shape_env, "specialization_stacks", {}) or {}
    slocs = getattr(shape_env, "replacements_slocs", {}) or {}
    out: list[Specialization] = []
    for symbol, target in list(shape_env.replacements.items()):
        if not isinstance(target, (sympy.Integer, sympy.Float, sympy.Rational)):
            continue
        guard = None
        for g in list(shape_env.guards):
            if symbol in g.expr.free_symbols:
                try:
                    guard = printer.doprint(g.expr)
                except Exception:  # noqa: BLE001 - a symbol without a source (an unbacked one)
                    guard = str(g.expr)
                break
        frames: list[tuple[str, int]] = []
        for source in var_to_sources.get(symbol, []):
            stack = stacks.get(source)
            if stack:
                frames = [(fs.filename, int(fs.lineno or 0)) for fs in stack]
                break
        sloc = slocs.get(symbol)
        user_loc = getattr(sloc, "maybe_user_loc", None)
        out.append((str(symbol), str(target), guard, frames, str(user_loc) if user_loc else None))
    return out


# --- torch.profiler, for --profile ([Note: profile] in collectors/profile.py) ----------------------------
@dataclass(frozen=True, slots=True)
class ProfilerEvent:
    """One kineto event, in the fields the profile collector reads (ns since the epoch)."""

    name: str
    start: int
    end: int
    thread: int
    device_type: str  # 'cpu', or the device's name in lower case ('cuda')
    correlation: int
    # a kernel's or a runtime call's link: the correlation of the CPU op (RecordFunction) that was innermost
    # on the launching thread when it was launched (0: none); 0 for the CPU ops themselves
    linked_correlation: int
    # kineto's activity type: 'cpu_op' and 'user_annotation' (RecordFunctions), 'cuda_runtime' and
    # 'cuda_driver' (cudaLaunchKernel, cuLaunchKernel), 'kernel', 'gpu_memcpy', 'gpu_memset',
    # 'gpu_user_annotation', ...; '' where this torch does not say
    kind: str = ""


# Kineto's own log lines: "USDT:2026-11-23 17:41:31 21082:21082 SyncActivityProfilerHandler.cpp:52] profiler_start".
_KINETO_LINE = re.compile(r"^(?:USDT|STAGE|INFO|WARNING):\S+ \S+ \d+:\d+ \w+\.cpp:\d+\] ")


@contextlib.contextmanager
def _without_kineto_lines() -> Iterator[None]:
    """Keep kineto's start/stop lines out of the user's output; pass anything else written meanwhile on.

    torch 2.13's kineto writes a ``USDT: ... profiler_start`` / ``profiler_stop`` line to the process's
    stderr (file descriptor 2, under the kernel: the cell's output) on every start and stop. Its level comes
    from ``KINETO_LOG_LEVEL``, read only when torch is imported, so it cannot be set here: fd 2 goes to a
    temporary file while the profiler starts or stops, and the lines that are not kineto's go to stderr.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real fd 2 (an embedded interpreter): nothing to redirect
        yield
        return
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            rest = [ln for ln in tmp.read().decode(errors="replace").splitlines(True) if not _KINETO_LINE.match(ln)]
            if rest:
                sys.stderr.write("".join(rest))


def start_profiler() -> tuple[Any, bool]:
    """Start ``torch.profiler`` on CPU activity (and CUDA where there is a GPU), on every thread; ``(profiler, cuda)``.

    Every thread: a backward that autograd runs on another thread than the cell's (its device thread on a
    GPU, or a ``threading.Thread(target=loss.backward)``), and the lazy backward compile it starts there, are
    recorded too. Without ``profile_all_threads`` (``_ExperimentalConfig``, torch 2.8 and later) the profiler
    records only the thread that started it and the threads that inherit its state (autograd's device
    threads).
    """
    from torch.profiler import ProfilerActivity, profile

    cuda = torch.cuda.is_available()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    options: dict[str, Any] = {}
    try:
        from torch._C._profiler import _ExperimentalConfig

        options["experimental_config"] = _ExperimentalConfig(profile_all_threads=True)
    except (ImportError, TypeError):  # an older torch: the cell's thread and those that inherit it
        pass
    prof = profile(activities=activities, record_shapes=False, with_stack=False, profile_memory=False, **options)
    with _without_kineto_lines():
        prof.start()
    return prof, cuda


def stop_profiler(prof: Any) -> list[ProfilerEvent]:
    """Stop ``prof`` and read kineto's raw events (building ``FunctionEvent`` trees costs far more)."""
    with _without_kineto_lines():
        prof.stop()
    results = getattr(prof.profiler, "kineto_results", None)
    if results is None:
        return []
    out = []
    events = results.events()
    kind = bool(events) and hasattr(events[0], "activity_type")  # 2.13; 2.11 only tells user annotations
    annotated = bool(events) and hasattr(events[0], "is_user_annotation")
    for e in events:
        start = e.start_ns()
        device = str(e.device_type()).rsplit(".", 1)[-1].lower()
        if kind:
            activity = e.activity_type()
        elif annotated and e.is_user_annotation():  # a record_function range, and its GPU-side twin
            activity = "user_annotation" if device == "cpu" else "gpu_user_annotation"
        else:
            activity = ""
        out.append(
            ProfilerEvent(
                name=e.name(),
                start=start,
                end=start + e.duration_ns(),
                thread=e.start_thread_id(),
                device_type=device,
                correlation=e.correlation_id(),
                linked_correlation=e.linked_correlation_id(),
                kind=activity,
            )
        )
    return out


def profiler_mark(name: str) -> contextlib.AbstractContextManager[Any]:
    """A profiler span named ``name`` (a no-op costing ~1 µs when no profiler runs)."""
    return torch._C._profiler._RecordFunctionFast(name)


def marked_call(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` with each call inside a profiler span ``name``."""
    mark = torch._C._profiler._RecordFunctionFast

    def call(*args: Any, **kwargs: Any) -> Any:
        with mark(name):
            return fn(*args, **kwargs)

    call.__name__ = getattr(fn, "__name__", "compiled_fn")
    call.__wrapped__ = fn  # type: ignore[attr-defined]
    return call


# --- step-through: Dynamo's symbolic execution, one instruction at a time ([Note: trace steps]) --


class StepObserver:
    """What ``symbolic_steps`` calls around each instruction Dynamo's symbolic interpreter runs: ``before(tx)``
    returns a token (None: do not watch this one), ``after(tx, token, result, error)`` gets it back with what the
    step returned, or the exception that left it (re-raised afterwards). Neither may raise into Dynamo."""

    def before(self, tx: Any) -> Any:
        """Called before the step; the token for ``after``, or None to let this step run unwatched."""
        return None

    def after(self, tx: Any, token: Any, result: bool | None, error: BaseException | None) -> None:
        """Called after a watched step."""


@contextlib.contextmanager
def symbolic_steps(observer: StepObserver) -> Iterator[None]:
    """Wrap ``InstructionTranslatorBase.step`` (the one method that runs one bytecode instruction symbolically,
    for the frame and every inlined call: ``InliningInstructionTranslator`` inherits it; 2.11 and 2.13) while
    open, and put the original back on exit. Only ``--trace-steps`` opens it: nothing is patched otherwise."""
    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    original = InstructionTranslatorBase.__dict__["step"]

    def step(self: Any) -> bool:
        try:
            token = observer.before(self)
        except Exception:  # noqa: BLE001 - a capture bug must never fail the user's compile
            token = None
        if token is None:
            return original(self)
        try:
            result = original(self)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                observer.after(self, token, None, exc)
            raise
        with contextlib.suppress(Exception):
            observer.after(self, token, result, None)
        return result

    step.__wrapped__ = original  # type: ignore[attr-defined]
    with _patched(InstructionTranslatorBase, "step", step):
        yield


def steps_patched() -> bool:
    """Is ``InstructionTranslatorBase.step`` wrapped (by ``symbolic_steps``) right now?"""
    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    return hasattr(InstructionTranslatorBase.__dict__["step"], "__wrapped__")


@dataclass(frozen=True, slots=True)
class StepBefore:
    """A translator's state before one step: the instruction it is about to run and what it holds."""

    ip: int
    offset: int | None
    opname: str
    argrepr: str
    line: int | None
    depth: int
    code: types.CodeType
    stack: list[str]
    locals: dict[str, str]
    nodes: int
    output_instructions: int


def tx_root_code(tx: Any) -> types.CodeType:
    """The code of the frame being compiled (the root translator's), whatever call ``tx`` is inlining."""
    return tx.output.root_tx.f_code  # type: ignore[no-any-return]


def step_before(tx: Any) -> StepBefore | None:
    """``tx``'s next instruction and its symbolic stack and locals (short reprs: ``vt_repr``), or None at the end.
    Reads attributes only: nothing is realized, guarded or added to the graph."""
    ip = tx.instruction_pointer
    if ip is None:
        return None
    inst = tx.instructions[ip]
    depth = tx.inline_depth  # 0 for the frame's own tracer, +1 per inlined call
    line = inst.starts_line if isinstance(inst.starts_line, int) and not isinstance(inst.starts_line, bool) else None
    argrepr = inst.argrepr if isinstance(getattr(inst, "argrepr", None), str) else ""
    if not argrepr and inst.argval is not None:
        argrepr = _short(repr(inst.argval) if isinstance(inst.argval, (int, str, float)) else type(inst.argval).__name__)
    return StepBefore(
        ip=ip,
        offset=inst.offset,
        opname=inst.opname,
        argrepr=argrepr,
        line=line if line is not None else tx.lineno,
        depth=depth,
        code=tx.f_code,
        stack=[vt_repr(vt) for vt in tx.stack],
        locals={name: vt_repr(vt) for name, vt in tx.symbolic_locals.items()},
        nodes=len(tx.output.graph.nodes),
        output_instructions=len(tx.output.output_instructions),
    )


def nodes_added(tx: Any, before: int) -> list[tuple[str, str, str]]:
    """``(name, op, target)`` of the FX nodes the current graph gained past its first ``before`` nodes."""
    nodes = tx.output.graph.nodes
    gained = len(nodes) - before
    if gained <= 0:
        return []
    out: list[tuple[str, str, str]] = []
    for node in reversed(nodes):
        if len(out) == gained:
            break
        target = node.target
        name = target if isinstance(target, str) else getattr(target, "__name__", None) or type(target).__name__
        out.append((node.name, node.op, _short(str(name))))
    return out[::-1]


def compiled_graph_at(tx: Any, before: StepBefore) -> bool:
    """Did the step compile a graph (``compile_subgraph`` adds the output instructions)?"""
    return len(tx.output.output_instructions) > before.output_instructions


def speculation_reason(tx: Any, ip: int) -> str | None:
    """The reason of the failed speculation at instruction ``ip`` of ``tx``'s code, if any: the graph break
    Dynamo recorded there before it restarted the analysis (``SpeculationEntry.reason``, 2.11 and 2.13)."""
    filename = tx.f_code.co_filename
    for entry in reversed(tx.speculation_log.entries):
        if entry.instruction_pointer == ip and entry.filename == filename and entry._failed:
            reason = entry.reason
            return None if reason is None else str(reason.reason)
    return None


def step_error(error: BaseException) -> tuple[str, str | None, str] | None:
    """What an exception leaving a step means: ``(action, gb_type, reason)``: ``'restart'`` (Dynamo restarts the
    analysis: ``RestartAnalysis``), ``'unsupported'`` (a graph break raised here: ``Unsupported``, which the caller
    handles), ``'error'`` (anything else); None for the exceptions that end a frame normally."""
    from torch._dynamo import exc

    if isinstance(error, exc.RestartAnalysis):
        return "restart", None, str(getattr(error, "restart_reason", None) or type(error).__name__)
    if isinstance(error, exc.Unsupported):
        return "unsupported", getattr(error, "gb_type", None) or None, str(error.msg)
    if type(error).__name__ in ("ReturnValueOp", "YieldValueOp"):
        return None
    return "error", None, f"{type(error).__name__}: {error}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def vt_repr(vt: Any) -> str:
    """A short repr of a VariableTracker, e.g. ``TensorVariable(l_x_: float32[3, 4])``, ``ConstantVariable(int: 3)``,
    ``UserFunctionVariable(helper)``, ``LazyVariableTracker(Tensor)``: its class name and a detail read from plain
    attributes. Never realizes a lazy tracker, never calls the user's ``repr``, never raises."""
    try:
        return _vt_repr(vt)
    except Exception:  # noqa: BLE001 - a repr must never fail the compile
        return type(vt).__name__


def _vt_repr(vt: Any) -> str:
    cls = type(vt)
    if cls is LazyVariableTracker or issubclass(cls, LazyVariableTracker):
        cache = object.__getattribute__(vt, "_cache")
        if cache.vt is None:  # not realized: say what it wraps, do not build it (that would install guards)
            return f"LazyVariableTracker({type(cache.value).__name__})"
        vt, cls = cache.vt, type(cache.vt)
    attrs = vt.__dict__
    name = cls.__name__
    detail = ""
    if "proxy" in attrs and "dtype" in attrs:  # TensorVariable and its subclasses
        size = attrs.get("_size")
        shape = "[" + ", ".join(str(s) for s in size) + "]" if size is not None else "[?]"
        dtype = str(attrs["dtype"]).removeprefix("torch.")
        detail = f"{attrs['proxy'].node.name}: {dtype}{shape}"
    elif "sym_num" in attrs:  # SymNodeVariable
        detail = str(attrs["sym_num"])
    elif name == "ConstantVariable" or ("value" in attrs and type(attrs["value"]) in (int, float, bool, str, type(None))):
        value = attrs.get("value")
        text = repr(value) if type(value) in (int, float, bool, str, type(None)) else type(value).__name__
        detail = f"{type(value).__name__}: {text}"
    elif "items" in attrs and isinstance(attrs["items"], (list, tuple)):
        detail = f"len {len(attrs['items'])}"
    else:
        target = attrs.get("fn", attrs.get("value", attrs.get("module_key")))
        if isinstance(target, str):
            detail = target
        elif isinstance(target, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)):
            detail = str(getattr(target, "__qualname__", None) or getattr(target, "__name__", ""))
        elif target is not None:
            detail = type(target).__name__
    return _short(f"{name}({detail})", 80)


# --- --try: a registration for one run ([Note: try a fix] in try_fix.py) --------------------------------


def register_for_run(fn: Callable[..., Any], how: str) -> tuple[Callable[..., Any], Callable[[], None]]:
    """``allow_in_graph(fn)`` (``how`` 'allow_in_graph') or ``nonstrict_trace(fn)`` ('nonstrict_trace') for one run:
    ``(what the name should be bound to, undo)``. torch 2.13 keeps both as ids of callables in
    ``trace_rules._allowed_callable_ids`` (and ``_nonstrict_trace_callable_ids``), with no lookup cache in
    front of them; its decorators only ever undo on garbage collection (``weakref.finalize``), so the ids are
    added and taken out here by hand. ``nonstrict_trace`` registers a new wrapper (Dynamo keys it by id), so
    the name must be bound to the wrapper for the run."""
    from torch._dynamo import trace_rules

    allowed, nonstrict, disallowed = (
        trace_rules._allowed_callable_ids,
        trace_rules._nonstrict_trace_callable_ids,
        trace_rules._disallowed_callable_ids,
    )
    if how == "allow_in_graph":
        target, fn_id = fn, id(fn)
        had = (fn_id in allowed, fn_id in disallowed)
        disallowed.remove(fn_id)
        allowed.add(fn_id)

        def undo() -> None:
            if not had[0]:
                allowed.remove(fn_id)
            if had[1]:
                disallowed.add(fn_id)

        return target, undo
    if how != "nonstrict_trace":
        raise ValueError(how)

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    wrapped_id = id(wrapped)
    allowed.add(wrapped_id)
    nonstrict.add(wrapped_id)
    keep = [wrapped]  # the id stays this function's until undone

    def undo_wrapper() -> None:
        allowed.remove(wrapped_id)
        nonstrict.remove(wrapped_id)
        keep.clear()

    return wrapped, undo_wrapper


#: The attributes ``torch._dynamo.mark_dynamic`` / ``maybe_mark_dynamic`` set on a tensor (torch 2.11 to 2.15;
#: a name a release does not use is simply never found on a tensor).
MARK_ATTRIBUTES = (
    "_dynamo_dynamic_indices",
    "_dynamo_dynamic_range",
    "_dynamo_hint_overrides",
    "_specialize_on",
    "_has_dynamo_dim_marking",
    "_dynamo_weak_dynamic_indices",
)
