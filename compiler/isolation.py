"""The global state a run changes and puts back ([Note: isolation] in ``runner.py``): the ``torch._dynamo.config``
values it sets (``config_values``, patched for the run by ``dynamo_config``), and after it the cache entries the
explorer made with Dynamo's helper globals for them (``drop_explorer_caches``) and the module aliases Dynamo wrote
into the globals (``drop_import_aliases``); the user's own compiled entries, and what they use, stay.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import torch

from . import _compat
from .backend import is_explorer_backend
from .calls_torch import compiled_backend
from .collectors import CaptureContext
from .options import RunOptions
from .runner_torch import invalidate_entries, remove_helper_globals

__all__ = ["config_values", "drop_explorer_caches", "drop_import_aliases", "dynamo_config"]


def config_values(options: RunOptions, scope: str) -> dict[str, Any]:
    """The ``torch._dynamo.config`` values a run sets (scope ``watch``: only a ``--recompile-limit`` given)."""
    if scope == "watch":  # the code compiles itself: its compiles run with the config it set ([Note: watch scope])
        return {"recompile_limit": options.recompile_limit} if options.recompile_limit is not None else {}
    # a frame Dynamo cannot compile (a fake-tensor error while tracing, a recursion too deep to trace) runs
    # eagerly, so the cell behaves as plain Python and the error lands in the report; fullgraph still raises, and a
    # callable the user compiled with their own torch.compile raises as it would without the explorer (calls.py)
    patch: dict[str, Any] = {"suppress_errors": not options.fullgraph}
    if scope != "calls":  # all-frames uses optimize(...) as a context manager, as the original torchdynamo did
        patch["raise_on_ctx_manager_usage"] = False
    if options.recompile_limit is not None:
        patch["recompile_limit"] = options.recompile_limit
    return patch


@contextlib.contextmanager
def dynamo_config(options: RunOptions, scope: str) -> Iterator[None]:
    """The config values the run needs, each put back afterwards unless the cell set it meanwhile (then the
    cell's value stays, as it would after a plain run)."""
    patch = config_values(options, scope)
    config = torch._dynamo.config
    before = {name: getattr(config, name) for name in patch}
    for name, value in patch.items():
        setattr(config, name, value)
    try:
        yield
    finally:
        for name, value in patch.items():
            if getattr(config, name) == value:  # still ours: the cell did not set it
                setattr(config, name, before[name])


def drop_explorer_caches(ctx: CaptureContext, owned: Sequence[Any] = ()) -> None:
    """Forget every cache entry the explorer made, and their helper globals; keep the user's own entries (and the
    helper globals their code calls: a function the user compiled that compiled during the run keeps working).
    ``owned``: callables a front end compiled for the run (``explore(fn)``): their entries are the explorer's too.

    A code whose entries all came from the explorer is reset; one that also holds entries of the user's
    own ``torch.compile`` keeps those and loses only the explorer's (``invalidate_entries``), so the
    next run compiles (and reports) again and the user's compiled function keeps its cache.
    """
    ran_ours: set[int] = set()  # the modified code of each of the explorer's entries: its helper globals go too
    backends = [b for b in (compiled_backend(c) for c in owned) if b is not None]
    for code in ctx.codes_seen:
        entries = _compat.cache_entries(code)
        ours = [e for e in entries if is_explorer_backend(e.backend) or any(e.backend is b for b in backends)]
        if not ours:
            continue
        ran_ours.update(id(e.code) for e in ours if e.code is not None)
        if len(ours) == len(entries):
            _compat.drop_code_cache(code)
        else:
            invalidate_entries(ours, "dropped by Dynamo Explorer after its run")
            ctx.shared_codes.append(code)
    for rec in ctx.code_records:  # never those of the user's own compiled code: its entries still call them
        if id(rec.new) in ran_ours:
            remove_helper_globals(rec.new)


def drop_import_aliases(ctx: CaptureContext, scopes: Sequence[tuple[dict[str, Any], frozenset[str]]]) -> None:
    """Take out of each globals the module aliases Dynamo wrote there during the run (``__import_torch...``),
    except those a cache entry still uses (the user's own compiled code): plain Python leaves no such name."""
    used: set[str] = set()
    for code in ctx.codes_seen:
        for entry in _compat.cache_entries(code):
            if entry.code is not None:  # an invalidated entry has no code left
                used.update(entry.code.co_names)
    for scope, before in scopes:
        for name in [n for n in scope if n.startswith(_compat.IMPORT_ALIAS_PREFIX)]:
            if name not in before and name not in used:
                del scope[name]
