"""ShapeEnv's symbols, replacements and specialisations, read from its internals for ``collectors/dynamic_shapes/dynamic_shapes.py``.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import torch
import torch._dynamo

from ..._compat import patched


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
    with patched(ShapeEnv, "_set_replacement", _set_replacement):
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
