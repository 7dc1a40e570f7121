"""Recompile diagnosis ([Note: every failing guard] in ``collectors/guards/guard_failures.py``): the cache entry Dynamo is
explaining, its guard manager's leaves and scope, the first failure, a tensor's check, the global state; for that
collector and ``recompiles.py``.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import json
from typing import Any

import torch
import torch._dynamo

from ..._compat import RelationalGuard

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
