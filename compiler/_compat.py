"""The torch-version differences several parts of the engine share, decided once at import time.

Run against torch 2.11 to 2.15 (docs/testing.md, "Torch and Python versions"; docs/dynamo-capture.md §4).
Where it can, a difference is decided by feature (``hasattr``, a signature), not by version number. A piece
every run needs and this torch lacks fails the import once, naming the torch and the piece
(``TorchUnsupported``); a piece one collector needs fails that collector's install, and the report names it.
Collectors import from here and never probe ``torch`` with ``hasattr`` themselves. The hooks into torch's internals
that serve one part live beside it: a collector's (its decisions, shapes, failing guards, kernel provenance,
profiler, step-through, dispatch view, graph-break registry) in ``collectors/<collector>_torch.py``, ``--try``'s
registrations in ``try_fix_torch.py``, the user's own ``torch.compile`` settings in ``calls_torch.py``, the run's own
(the explorer's files never traced, its cache entries and helper globals dropped) in ``runner_torch.py``, the
inductor backend object in ``backend.py``; the records torch keeps of every compile (callbacks, chromium events,
metrics, the codes Dynamo saw, the graph-break log) are read in ``collectors/capture_torch.py``.
"""

from __future__ import annotations

import contextlib
import re
import types
from collections.abc import Callable, Iterator
from typing import Any

import torch
import torch._dynamo

from .bytecode import RESUME_PREFIX
from .compile_ids import report_id
from .model import DynamicKind

#: the releases this module was checked against (docs/testing.md, "Torch and Python versions")
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
assert TORCH_DYNAMO_RESUME_IN_PREFIX == RESUME_PREFIX, "torch names resume functions otherwise: bytecode.RESUME_PREFIX"
LazyVariableTracker = _require("torch._dynamo.variables.lazy", "LazyVariableTracker")
CompileContext = _require("torch._guards", "CompileContext")
trace_log = _require("torch._logging._internal", "trace_log")

__all__ = [
    "CHECKED",
    "IMPORT_ALIAS_PREFIX",
    "THREADS_RUN_COMPILED_CODE",
    "TorchUnsupported",
    "automatic_dynamic_memory",
    "cache_entries",
    "current_trace_id",
    "describe_remembered",
    "drop_code_cache",
    "dynamic_part",
    "forget_automatic_dynamic",
    "patched",
    "register_bytecode_hook",
    "resume_code_for",
    "resume_codes_of",
    "trace_log",
]


def current_trace_id() -> tuple[str | None, int]:
    """``('0/0', attempt)`` of the compile running on this thread, or ``(None, 0)``; the id as the report names it
    ([Note: compile ids after a reset] in compile_ids.py)."""
    tid = CompileContext.current_trace_id()
    if tid is None:
        return None, 0
    return report_id(str(tid.compile_id)), int(tid.attempt or 0)


def cache_entries(code: types.CodeType) -> list[Any]:
    """Dynamo's cache entries of ``code`` (most recent first)."""
    return list(_debug_get_cache_entry_list(code))


def drop_code_cache(code: types.CodeType) -> None:
    """Forget every cache entry of ``code`` (what ``torch._dynamo.eval_frame.remove_from_cache`` does)."""
    reset_code(code)


#: Dynamo's alias of a module it imports for a guard or a graph call (``__import_torch_dot__dynamo_dot_utils``), a global
#: it writes into the frame's globals and never removes (``InstructionTranslator.import_source``, 2.11 and 2.13)
IMPORT_ALIAS_PREFIX = "__import_"


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


def dynamic_part(remembered: Remembered) -> tuple[DynamicKind, list[int]] | None:
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


# Dynamo's table of the resume functions it generated (``ContinueExecutionCache``), read by ``reset.py`` and
# ``collectors/links.py``.


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


# --- helpers the collectors' own torch modules share (collectors/*_torch.py) ---------------------


@contextlib.contextmanager
def patched(owner: type, name: str, replacement: Any) -> Iterator[None]:
    """``owner.name`` (a class attribute: a method, a classmethod object) replaced while open; the original is
    put back on exit, unless something else replaced it meanwhile (then that stays: it is not ours to undo)."""
    original = owner.__dict__[name]
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        if owner.__dict__.get(name) is replacement:
            setattr(owner, name, original)
