"""Start one piece of code from a clean slate, leaving every other code as it is (``torch._dynamo.reset()``
forgets everything, the user's own compiled functions included).

- ``reset_code(obj)``: for a function, bound method, ``nn.Module`` (its ``forward``) or a ``torch.compile``
  result: drop Dynamo's cache entries of its code and of the resume functions Dynamo made from it, and
  forget what automatic dynamic shapes remember of it and of the code defined inside it
  ([Note: automatic dynamic memory] in _compat.py). The next call compiles as if for the first time.
- ``forget_memory(code)`` / ``forget_file(filename)``: the memory part only; ``--fresh`` runs use them on
  the cell's own file and on each function or module the run compiles, before it compiles.
"""

from __future__ import annotations

import types
from typing import Any

import torch

from . import _compat

__all__ = ["code_of", "forget_file", "forget_memory", "reset_code"]


def code_of(obj: Any) -> types.CodeType | None:
    """The code Dynamo starts on when ``obj`` is compiled: a function's, a method's, a module's ``forward``."""
    orig = getattr(obj, "_orig_mod", None) or getattr(obj, "_torchdynamo_orig_callable", None)
    if orig is not None and orig is not obj:
        return code_of(orig)
    if isinstance(obj, torch.nn.Module):
        return code_of(type(obj).forward)
    if isinstance(obj, types.MethodType):
        return code_of(obj.__func__)
    if isinstance(obj, types.FunctionType):
        return obj.__code__
    if isinstance(obj, types.CodeType):
        return obj
    call = getattr(type(obj), "__call__", None)  # noqa: B004 - the function, to find its code
    return call.__code__ if isinstance(call, types.FunctionType) else None


def _span(code: types.CodeType) -> tuple[int, int]:
    lines = [line for _, _, line in code.co_lines() if line is not None]
    return code.co_firstlineno, max(lines, default=code.co_firstlineno)


def forget_memory(code: types.CodeType) -> int:
    """Forget the automatic-dynamic memory of ``code``, its resume functions and the code defined inside
    it (same file, first line within its lines); returns how many codes were forgotten."""
    first, last = _span(code)
    return _compat.forget_automatic_dynamic(lambda f, line, _n: f == code.co_filename and first <= line <= last)


def forget_file(filename: str) -> int:
    """Forget the automatic-dynamic memory of every code of ``filename`` (a notebook cell's file)."""
    return _compat.forget_automatic_dynamic(lambda f, _line, _n: f == filename)


def reset_code(obj: Any) -> str:
    """Start ``obj``'s code from a clean slate (see the module docstring); returns what was done, in one line.

    Raises ``TypeError`` with the fix when ``obj`` has no Python code of its own (a builtin, a class).
    """
    code = code_of(obj)
    if code is None:
        raise TypeError(
            f"reset_code: {type(obj).__name__} has no Python code to reset; pass a function, a method, "
            "an nn.Module or what torch.compile returned"
        )
    codes = [code, *_compat.resume_codes_of(code)]
    entries = sum(len(_compat.cache_entries(c)) for c in codes)
    for c in codes:
        _compat.drop_code_cache(c)
    forgotten = forget_memory(code)
    return (
        f"reset_code({code.co_name}): dropped {entries} cache entr{'y' if entries == 1 else 'ies'} "
        f"of {len(codes)} code object{'s' if len(codes) != 1 else ''}, forgot the automatic-dynamic "
        f"memory of {forgotten} code{'s' if forgotten != 1 else ''}"
    )
