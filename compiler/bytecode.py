"""Bytecode listings as schema ``Instruction`` rows, and decompilation through depyf.

``instruction_rows`` reads ``dis`` (Python 3.11/3.12); ``decompile`` returns ``(source, error)`` and
never raises: depyf fails on some Dynamo output (e.g. the toy_example's modified code, ``SWAP``), and
the report then falls back to the ``dis`` listing.
"""

from __future__ import annotations

import dis
import re
import types
from functools import lru_cache

from .model import Instruction, NameRef

#: the name Dynamo gives a resume function's code (``torch_dynamo_resume_in_f_at_12``): torch's
#: ``TORCH_DYNAMO_RESUME_IN_PREFIX``, written here so that reading a trace needs no torch (``_compat`` checks it)
RESUME_PREFIX = "torch_dynamo_resume_in"

_JUMPS = set(dis.hasjrel) | set(dis.hasjabs)
_GLOBAL_OPS = {"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL"}


def _ref_for(name: str) -> NameRef | None:
    if name.startswith("__compiled_fn"):
        return NameRef(kind="compiled_fn", name=name)
    if name.startswith("__resume_at_"):
        return NameRef(kind="resume", name=name)
    if name.startswith("__import_"):
        return NameRef(kind="import", name=name)
    if name.startswith("__builtins_dict__"):
        return NameRef(kind="builtins_dict", name=name)
    return None


def instruction_rows(code: types.CodeType) -> list[Instruction]:
    rows = []
    line = None
    for ins in dis.get_instructions(code):
        pos_line = ins.positions.lineno if ins.positions is not None else None
        if pos_line is not None:
            line = pos_line
        elif ins.starts_line is not None and not isinstance(ins.starts_line, bool):
            line = ins.starts_line
        ref = _ref_for(ins.argval) if ins.opname in _GLOBAL_OPS and isinstance(ins.argval, str) else None
        rows.append(
            Instruction(
                offset=ins.offset,
                opname=ins.opname,
                argrepr=ins.argrepr,
                line=line,
                is_jump_target=bool(ins.is_jump_target),
                jump_target=ins.argval if ins.opcode in _JUMPS and isinstance(ins.argval, int) else None,
                ref=ref,
            )
        )
    return rows


_LISTING = re.compile(
    r"^\s*(?P<line>\d+)?\s+(?P<target>>>)?\s*(?P<offset>\d+) (?P<op>[A-Z][A-Z0-9_]*)(?:\s+(?P<arg>-?\d+))?(?:\s+\((?P<repr>.*)\))?\s*$"
)
_TO = re.compile(r"^to (?:L\d+ \()?(\d+)")


def rows_from_listing(text: str) -> list[Instruction]:
    """``Instruction`` rows from a ``dis`` listing's text (what a ``TORCH_TRACE`` log holds as the
    ``*_ORIGINAL_BYTECODE`` / ``*_MODIFIED_BYTECODE`` artifacts of a resume function): the same rows
    ``instruction_rows`` makes from the code object, as far as the text tells (a jump's target from
    ``to N``, Dynamo's globals from the argument's repr)."""
    rows = []
    line = None
    for raw in text.splitlines():
        m = _LISTING.match(raw)
        if m is None:
            continue
        if m.group("line"):
            line = int(m.group("line"))
        argrepr = m.group("repr") or ""
        name = argrepr.removeprefix("NULL + ").removesuffix(" + NULL")
        to = _TO.match(argrepr)
        rows.append(
            Instruction(
                offset=int(m.group("offset")),
                opname=m.group("op"),
                argrepr=argrepr,
                line=line,
                is_jump_target=bool(m.group("target")),
                jump_target=int(to.group(1)) if to else None,
                ref=_ref_for(name) if m.group("op") in _GLOBAL_OPS else None,
            )
        )
    return rows


# depyf's cost grows faster than linearly: a 2,600-node graph's frame has ~9,400 modified
# instructions (one load per parameter) and takes seconds; its listing is the readable view there.
DECOMPILE_MAX_INSTRUCTIONS = 3000


def decompile(code: types.CodeType, n_instructions: int = 0) -> tuple[str | None, str | None]:
    if n_instructions > DECOMPILE_MAX_INSTRUCTIONS:
        return (
            None,
            f"not decompiled: {n_instructions} instructions (over {DECOMPILE_MAX_INSTRUCTIONS}); read the bytecode listing",
        )
    # Each recompile of a function yields the same modified bytecode but for the globals Dynamo
    # numbers (``__compiled_fn_7_<uuid>``, ``__resume_at_30_4``): decompile one shape once.
    names = code.co_names
    unique = [i for i, n in enumerate(names) if _NUMBERED.fullmatch(n)]
    shape = code.replace(co_names=tuple(_placeholder(i) if i in unique else n for i, n in enumerate(names)))
    try:
        hash(shape)
    except TypeError:  # Dynamo's code may hold unhashable constants (a dict): decompile uncached
        source, error = _decompile_shape.__wrapped__(shape)
    else:
        source, error = _decompile_shape(shape)
    if source is not None and unique:
        source = _PLACEHOLDER.sub(lambda m: names[int(m.group(1))], source)
    return source, error


_NUMBERED = re.compile(r"__compiled_fn_\d+\w*|__resume_at_\d+_\d+|__builtins_dict___\d+")
_PLACEHOLDER = re.compile(r"__dynamo_explorer_name_(\d+)__")


def _placeholder(i: int) -> str:
    return f"__dynamo_explorer_name_{i}__"


@lru_cache(maxsize=256)
def _decompile_shape(code: types.CodeType) -> tuple[str | None, str | None]:
    try:
        import depyf

        return depyf.decompile(code), None
    except Exception as exc:  # noqa: BLE001 - depyf raises DecompilationError and others on Dynamo bytecode
        return None, _why_not(exc)


_AT = re.compile(r"opname='(?P<op>\w+)'.*?offset=(?P<offset>\d+)")


def _why_not(exc: Exception) -> str:
    """One line on why depyf gave up, naming the instruction (depyf's own message repeats itself and
    prints a whole ``Instruction(...)``)."""
    import depyf

    head = f"depyf {depyf.__version__} cannot decompile this code"
    at = _AT.search(str(exc))
    cause = exc.__cause__
    if at is not None and isinstance(cause, IndexError):  # an instruction reads a stack slot depyf has not got
        return (
            f"{head}: its model of the stack runs out of values at {at['op']} (offset {at['offset']}); read the bytecode listing"
        )
    if at is not None:
        why = f"{type(cause).__name__}: {cause}" if cause is not None else type(exc).__name__
        return f"{head}: {at['op']} (offset {at['offset']}): {why}"[:300]
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{head}: {type(exc).__name__}: {first}"[:300]
