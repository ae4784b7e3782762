"""Reference values of the libdevice functions Triton kernels call, by symbol.

`tt.extern_elementwise` names a CUDA libdevice function (`__nv_expf`,
`__nv_rsqrtf`, ...).  Each symbol here maps to a float64 numpy evaluation
of the same mathematical function, rounded once to the result type: the
correctly rounded value (but for rare double rounding), which libdevice
itself approximates within a few ulp.  `__nv_isnanf` and friends return
i32 0/1, as libdevice does.

Two rungs use this table, and say so in their reports: the TTIR
interpreter, for `tt.extern_elementwise`, and the Triton-interpreter oracle,
whose stock interpreter returns None for every libdevice call
(triton-lang/triton#8825); there the symbol is chosen by Triton's own
libdevice wrappers and only the value comes from here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tnpu.interpreters.arith import quietly
from tnpu.interpreters.math import (
    erf,
    exact_fma_float64,
    fma_round_to_odd,
    round_half_away,
    rsqrt,
)


@dataclass(frozen=True)
class Reference:
    """How to evaluate one libdevice symbol."""

    function: Callable[..., Any]
    """Evaluates in float64 (integer arguments arrive as int64)."""
    integer_arguments: tuple[int, ...] = ()
    """Positions of i32 arguments (`ldexp`'s exponent, ...)."""


def _vectorized(function: Callable[[float], float]) -> Callable[..., Any]:
    return np.vectorize(function, otypes=[np.float64])


def _predicate(function: Callable[..., Any]) -> Callable[..., Any]:
    return lambda x: function(x).astype(np.int32)


def _ilogb(x: Any) -> Any:
    exponent = np.frexp(x)[1] - 1
    return np.where(x == 0, np.iinfo(np.int32).min, np.where(np.isfinite(x), exponent, np.iinfo(np.int32).max))


_FLOAT_FUNCTIONS: dict[str, Reference] = {
    name: Reference(function)
    for name, function in {
        "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
        "atan": np.arctan, "atanh": np.arctanh, "cbrt": np.cbrt, "ceil": np.ceil,
        "cos": np.cos, "cosh": np.cosh, "erf": erf, "erfc": _vectorized(math.erfc),
        "exp": np.exp, "exp10": lambda x: np.power(10.0, x), "exp2": np.exp2,
        "expm1": np.expm1, "fabs": np.abs, "floor": np.floor,
        "lgamma": _vectorized(math.lgamma), "log": np.log, "log10": np.log10,
        "log1p": np.log1p, "log2": np.log2, "nearbyint": np.rint, "rint": np.rint,
        "round": round_half_away,
        "rsqrt": rsqrt, "sin": np.sin, "sinh": np.sinh, "sqrt": np.sqrt, "tan": np.tan,
        "tanh": np.tanh, "tgamma": _vectorized(math.gamma), "trunc": np.trunc,
        "atan2": np.arctan2, "copysign": np.copysign, "fdim": lambda x, y: np.where(x > y, x - y, 0.0),
        "fmax": np.fmax, "fmin": np.fmin, "fmod": np.fmod, "hypot": np.hypot,
        "pow": np.power, "remainder": lambda x, y: x - y * np.rint(x / y),
    }.items()
}
"""libdevice's float functions: `__nv_NAMEf` (f32) and `__nv_NAME` (f64)."""

_SPECIAL_SYMBOLS: dict[tuple[str, str], Reference] = {  # pyright: ignore[reportAssignmentType]
    ("__nv_isnanf", "__nv_isnand"): Reference(_predicate(np.isnan)),
    ("__nv_isinff", "__nv_isinfd"): Reference(_predicate(np.isinf)),
    ("__nv_finitef", "__nv_isfinited"): Reference(_predicate(np.isfinite)),
    ("__nv_signbitf", "__nv_signbitd"): Reference(_predicate(np.signbit)),
    ("__nv_ilogbf", "__nv_ilogb"): Reference(_ilogb),
    ("__nv_ldexpf", "__nv_ldexp"): Reference(np.ldexp, integer_arguments=(1,)),
    ("__nv_scalbnf", "__nv_scalbn"): Reference(np.ldexp, integer_arguments=(1,)),
    ("__nv_powif", "__nv_powi"): Reference(lambda x, n: np.power(x, n.astype(np.float64)), (1,)),
    # Rounded to odd in float64, so that the one rounding to f32 is correct.
    ("__nv_fmaf",): Reference(fma_round_to_odd),
    ("__nv_fma",): Reference(exact_fma_float64),
}


def _table() -> dict[str, Reference]:
    table = {}
    for name, reference in _FLOAT_FUNCTIONS.items():
        table[f"__nv_{name}f"] = reference
        table[f"__nv_{name}"] = reference
    for symbols, reference in _SPECIAL_SYMBOLS.items():
        table.update(dict.fromkeys(symbols, reference))
    return table


LIBDEVICE: dict[str, Reference] = _table()
"""libdevice symbol -> its reference evaluation."""


class UnknownLibdeviceSymbol(KeyError):
    pass


def evaluate_libdevice(symbol: str, args: Sequence[Any], result_dtype: np.dtype) -> np.ndarray:
    """`symbol` applied elementwise to `args`, rounded once to `result_dtype`."""
    reference = LIBDEVICE.get(symbol)
    if reference is None:
        raise UnknownLibdeviceSymbol(symbol)
    wide = [
        np.asarray(arg, np.int64 if i in reference.integer_arguments else np.float64)
        for i, arg in enumerate(args)
    ]
    return np.asarray(quietly(reference.function, *wide)).astype(result_dtype)
