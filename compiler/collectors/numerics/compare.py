"""One output of a compiled graph judged against eager and float64: the numbers and the verdict ([Note: numerics]).

The rule is torch's own (``torch._dynamo.utils.same`` with ``fp64_ref``, what its benchmark suite uses): a compiled
value may differ from eager's, but must be no further from the float64 run's than eager is, by root-mean-square
error, with a multiplier of 2 (3 for bfloat16) and a floor of a few units in the last place at the value's size
(where eager happens to land on float64 exactly, one rounding more is no bug). Within the dtype's tolerance of eager
(``torch.testing``'s defaults) it simply matches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

__all__ = ["Judged", "judge", "tolerance"]

#: (rtol, atol) by dtype: torch.testing.assert_close's defaults
_TOLERANCE = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}
#: how many units in the last place (at the value's root-mean-square size) a compiled value may be further off
_ULPS = 4.0
_REDUCED = (torch.float16, torch.bfloat16)


@dataclass(slots=True)
class Judged:
    """One output's verdict and numbers."""

    verdict: str
    max_abs: float | None
    max_rel: float | None
    compiled_error: float | None
    eager_error: float | None
    why: str | None


def tolerance(dtype: torch.dtype) -> tuple[float, float]:
    """(rtol, atol) a compiled value of ``dtype`` matches eager's within."""
    return _TOLERANCE.get(dtype, (0.0, 0.0))


def judge(compiled: torch.Tensor, eager: torch.Tensor, ref64: torch.Tensor | None) -> Judged:
    """``compiled`` against ``eager`` (the same graph, eagerly, on copies of the inputs) and ``ref64`` (in float64;
    None when there was none)."""
    if compiled.shape != eager.shape:
        return Judged("worse_than_eager", None, None, None, None, f"shape {list(compiled.shape)}, eager's {list(eager.shape)}")
    if compiled.dtype != eager.dtype:
        return Judged("worse_than_eager", None, None, None, None, f"dtype {_name(compiled.dtype)}, eager's {_name(eager.dtype)}")
    if compiled.numel() == 0:
        return Judged("matches", 0.0, 0.0, None, None, None)
    exact = not (compiled.is_floating_point() or compiled.is_complex())
    c = compiled.detach().to(torch.complex128 if compiled.is_complex() else torch.float64)
    e = eager.detach().to(c.dtype).to(c.device)
    diff = _distance(c, e)  # 0 where equal (the same infinity, NaN and NaN), inf or NaN where only one is finite
    max_abs = _finite(diff.max())
    max_rel = _finite((diff / e.abs().clamp_min(torch.finfo(torch.float64).tiny)).max())
    if exact:
        same = max_abs == 0.0
        why = None if same else "integers differ"
        return Judged("matches" if same else "worse_than_eager", max_abs, max_rel, None, None, why)
    rtol, atol = tolerance(compiled.dtype)
    if bool(torch.all(diff <= atol + rtol * torch.where(torch.isfinite(e), e.abs(), 0))):
        return Judged("matches", max_abs, max_rel, None, None, None)
    if ref64 is None:
        why = "differs from eager, and there is no float64 run to tell which is closer"
        return Judged("not_comparable", max_abs, max_rel, None, None, why)
    r = ref64.detach().to(c.dtype).to(c.device)
    compiled_error, eager_error = _rmse(c, r), _rmse(e, r)
    multiplier = 3.0 if compiled.dtype == torch.bfloat16 else 2.0
    finite = r[torch.isfinite(r)]
    floor = _ULPS * torch.finfo(compiled.dtype).eps * float(finite.abs().pow(2).mean().sqrt()) if finite.numel() else 0.0
    if compiled_error <= multiplier * eager_error + floor:
        why = _expected(compiled.dtype)
        return Judged("differs_no_worse", max_abs, max_rel, _finite(compiled_error), _finite(eager_error), why)
    why = None if math.isfinite(compiled_error) else "not finite where float64 is (or finite where it is not)"
    return Judged("worse_than_eager", max_abs, max_rel, _finite(compiled_error), _finite(eager_error), why)


def _distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """|a - b|, 0 where both hold the same value (the same infinity, or both NaN)."""
    d = (a - b).abs()
    same = (a == b) | (torch.isnan(a) & torch.isnan(b))
    return torch.where(same, torch.zeros_like(d), d)


def _rmse(a: torch.Tensor, b: torch.Tensor) -> float:
    """Root-mean-square of ``_distance``; inf where one is finite and the other is not."""
    d = _distance(a, b)
    if not bool(torch.isfinite(d).all()):
        return math.inf
    return float(d.pow(2).mean().sqrt())


def _finite(value: float | torch.Tensor) -> float | None:
    """A number JSON can hold: None for inf and NaN."""
    x = float(value)
    return x if math.isfinite(x) else None


def _expected(dtype: torch.dtype) -> str:
    if dtype in _REDUCED:
        return (
            f"expected: the compiled code keeps {_name(dtype)} intermediates in float32 (fused), eager rounds each "
            f"op's result to {_name(dtype)}"
        )
    return "expected: another order of floating-point operations (fused kernels, reductions split differently)"


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")
