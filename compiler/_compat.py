"""Every torch-version difference the engine depends on, decided once at import time.

Run against torch 2.11 to 2.15 (README, "Torch and Python versions"; docs/dynamo-capture.md §4).
Where it can, a difference is decided by feature (``hasattr``, a signature), not by version number. A piece
every run needs and this torch lacks fails the import once, naming the torch and the piece
(``TorchUnsupported``); a piece one collector needs fails that collector's install, and the report names it.
Collectors import from here and never probe ``torch`` with ``hasattr`` themselves; the hooks into torch's internals
that serve one collector (its decisions, shapes, failing guards, kernel provenance, profiler, step-through, and
``--try``'s registrations) live beside it, in ``collectors/<collector>_torch.py`` and ``try_fix_torch.py``; the
records torch keeps of every compile (callbacks, chromium events, metrics, the graph-break log) are read in
``collectors/capture_torch.py``.
"""

from __future__ import annotations

import contextlib
import json
import re
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
    "cache_entries",
    "current_trace_id",
    "describe_remembered",
    "drop_code_cache",
    "dynamic_part",
    "entry_is_valid",
    "forget_automatic_dynamic",
    "gb_registry",
    "inductor_backend",
    "invalidate_entries",
    "is_resume_code",
    "never_trace",
    "realized",
    "recompile_limit",
    "register_bytecode_hook",
    "remove_helper_globals",
    "resume_codes_of",
    "trace_log",
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


# --- helpers the collectors' own torch modules share (collectors/*_torch.py) ---------------------


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


def realized(vt: Any) -> Any:
    """The VariableTracker a ``LazyVariableTracker`` became once Dynamo used it (itself otherwise)."""
    if isinstance(vt, LazyVariableTracker) and vt.is_realized():
        return vt.unwrap()
    return vt
