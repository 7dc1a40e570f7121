"""Every torch-version difference the engine depends on, decided once at import time.

Verified against torch 2.13 (run) and 2.11 (source), see shared/design/dynamo-capture.md §4.
Collectors import from here and never probe ``torch`` with ``hasattr`` themselves.
"""

from __future__ import annotations

import json
import re
import types
from functools import lru_cache
from importlib import resources
from typing import Any

import torch
import torch._dynamo  # noqa: F401  (registers torch._dynamo.* submodules)
from torch._C._dynamo.eval_frame import reset_code
from torch._dynamo.convert_frame import register_bytecode_hook
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from torch._dynamo.resume_execution import TORCH_DYNAMO_RESUME_IN_PREFIX  # noqa: F401 (re-exported)
from torch._guards import CompileContext
from torch._logging._internal import trace_log

TORCH_VERSION: tuple[int, int] = tuple(int(p) for p in re.findall(r"\d+", torch.__version__)[:2])  # type: ignore[assignment]
MIN_TORCH = (2, 11)

__all__ = [
    "TORCH_VERSION",
    "cache_entries",
    "current_trace_id",
    "drop_code_cache",
    "gb_registry",
    "inductor_backend",
    "interned_filename",
    "is_resume_code",
    "register_bytecode_hook",
    "trace_log",
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


def cache_entries(code: types.CodeType) -> list[Any]:
    """Dynamo's cache entries of ``code`` (most recent first)."""
    return list(_debug_get_cache_entry_list(code))


def drop_code_cache(code: types.CodeType) -> None:
    """Forget every cache entry of ``code`` (what ``torch._dynamo.eval_frame.remove_from_cache`` does)."""
    reset_code(code)


def inductor_backend(mode: str | None, dynamic: bool | None) -> Any:
    """The backend object ``torch.compile(backend='inductor', mode=...)`` builds.

    2.13 added a ``name=`` parameter; both versions take ``(mode, options, dynamic)`` positionally.
    """
    return torch._TorchCompileInductorWrapper(mode, None, dynamic)


def interned_filename(idx: Any) -> str:
    """Structured-trace stacks carry filenames as interned ints; map one back."""
    if not isinstance(idx, int):
        return str(idx)
    from torch._logging.structured import INTERN_TABLE

    return _inverse_intern(len(INTERN_TABLE)).get(idx, f"<interned {idx}>")


@lru_cache(maxsize=4)
def _inverse_intern(_size: int) -> dict[int, str]:
    from torch._logging.structured import INTERN_TABLE

    return {v: k for k, v in INTERN_TABLE.items()}


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

        trace_rules.add(code)  # pragma: no cover - exercised on torch < 2.13 only
