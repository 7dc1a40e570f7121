"""Dynamo's internals the run itself touches (not a collector): its frame evaluation kept off the explorer's own
files (``never_trace``, ``runner.py``), the explorer's frames kept out of the user stacks Dynamo prints
(``frames_hidden``, ``runner.py``), a frames-scope cell's module code left uncompiled while what it calls compiles
(``skip_frame_but_not_callees``, ``runner.py``), and after the run the explorer's cache entries invalidated and
their helper globals removed (``invalidate_entries``, ``remove_helper_globals``, ``isolation.py``).

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
part lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["frames_hidden", "invalidate_entries", "never_trace", "remove_helper_globals", "skip_frame_but_not_callees"]


def never_trace(filenames: list[str]) -> None:
    """Dynamo never compiles nor traces a frame of these files: ``trace_rules.FORCE_SKIP_FILES`` (a set of paths,
    2.11 and 2.13), checked before a frame is counted or compiled.

    The explorer's own functions (a log handler, a chromium-event wrapper, a compile callback) can run while
    Dynamo's frame evaluation is live, e.g. during a backward compiled lazily inside compiled code: without this,
    Dynamo evaluates their frames, ``counters['frames']`` counts them and its story differs from plain
    torch.compile's."""
    from torch._dynamo import trace_rules

    trace_rules.FORCE_SKIP_FILES.update(filenames)


@contextlib.contextmanager
def frames_hidden(hidden: Callable[[str], bool], cell: str) -> Iterator[None]:
    """While open, the user stacks Dynamo prints and records (a graph break's ``User code traceback`` in
    ``TORCH_LOGS=graph_breaks`` and in the ``dynamo_graph_break_reason`` artifact, the stack of an error it raises)
    leave out every frame of a file ``hidden`` names (the explorer's own) and, when the cell's file ``cell`` is on the
    stack, every frame outside its outermost one (what ran the cell: the CLI, IPython, the explorer), as
    ``python SCRIPT.py`` would show them.

    2.11 to 2.15: ``torch._dynamo.exc.get_stack_above_dynamo`` returns ``filter_stack(<the Python stack>)``, looking
    ``filter_stack`` up in the module's globals; it is wrapped there, and put back unless replaced since."""
    from torch._dynamo import exc

    original = exc.filter_stack

    def filter_stack(stack: Any) -> Any:
        kept = original(stack)
        outermost = next((i for i, fs in enumerate(kept) if fs.filename == cell), 0)
        out = type(kept)()
        out.extend(fs for fs in list(kept)[outermost:] if not hidden(fs.filename))
        return out

    exc.filter_stack = filter_stack
    try:
        yield
    finally:
        if exc.filter_stack is filter_stack:
            exc.filter_stack = original


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
