"""The `expand-math` pass: `math` ops the target lacks become `arith` code.

Each pattern expands one `math` op on f32 or f64 with range reduction and a
polynomial, branch-free (every lane computes every path; `arith.select`
picks), using only `arith` ops: no `math.fma`, so the code is exact on a
target without a fused multiply-add, and products that must be exact are
split by masking low mantissa bits.  f16 and bf16 compute through f32.
An expansion may use another `math` op (`asinh` uses `log1p` and `sqrt`);
that op is native or expanded in turn.

One expansion serves both widths: `FloatFormat` gives the exponent and
fraction layout, and each width-dependent constant or polynomial is a
table by width (`by_width`).  Algorithms follow fdlibm / FreeBSD msun
(`expm1`, `log`, `log2`, `log10`, `log1p`, `atan`, `asin`, `acos`, `erf`,
`sinh`, `cosh`, `tanh`, `asinh`, `acosh`, `atanh`); exp reduces by
Cody-Waite, sin, cos and tan by an exact Payne-Hanek reduction in 64-bit
integers (f64: a 192-bit window of 2/pi times the 53-bit significand,
column by column), pow carries log2 x and y log2 x in two parts, and f32
sqrt is correctly rounded by exact integer arithmetic.  f64 erfc scales a
polynomial in 1/a by e^(-a^2) on three pieces.  Where fdlibm's
coefficients were not reused, they were fitted for these expansions
(near-minimax on the reduced interval, relative error stated beside each).
f64 sqrt has no expansion: every target with f64 has a square root.
`bench/math_accuracy.py` measures every expansion on the IR itself;
`docs/math-accuracy.md` has the tables.

The package, by what each part is: `float_formats` (f32 and f64 as the
expansions see them, `by_width`), `coefficients` (every width-dependent
constant and polynomial), `building_blocks` (exact arithmetic steps shared
by the expansions), `range_reductions` (x = m 2^k, Cody-Waite, Payne-Hanek),
`expansion` (`MathExpansion`, the pattern every expansion is), one module
per family of expansions (`exponential`, `logarithm`, `hyperbolic`,
`trigonometric`, `error_function`, `power`, `rounding`, `roots`), and here
the pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.utils.exceptions import DiagnosticException

from tnpu.diagnostics import CompileError
from tnpu.dialects.math import Math
from tnpu.transforms.expand_math.error_function import ExpandErf, ExpandErfc
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.exponential import ExpandExp, ExpandExp2, ExpandExpm1
from tnpu.transforms.expand_math.hyperbolic import (
    ExpandAcosh,
    ExpandAsinh,
    ExpandAtanh,
    ExpandCosh,
    ExpandSinh,
    ExpandTanh,
)
from tnpu.transforms.expand_math.logarithm import ExpandLog, ExpandLog1p, ExpandLog2, ExpandLog10
from tnpu.transforms.expand_math.power import ExpandFpowi, ExpandPowf
from tnpu.transforms.expand_math.roots import ExpandCbrt, ExpandRsqrt, ExpandSqrt
from tnpu.transforms.expand_math.rounding import (
    ExpandAbsf,
    ExpandCeil,
    ExpandCopysign,
    ExpandFloor,
    ExpandRound,
    ExpandRoundeven,
    ExpandTrunc,
)
from tnpu.transforms.expand_math.trigonometric import (
    ExpandAcos,
    ExpandAsin,
    ExpandAtan,
    ExpandAtan2,
    ExpandCos,
    ExpandSin,
    ExpandTan,
)

EXPANSIONS: tuple[type[MathExpansion], ...] = (
    ExpandExp,
    ExpandExp2,
    ExpandLog,
    ExpandLog2,
    ExpandLog10,
    ExpandLog1p,
    ExpandExpm1,
    ExpandTanh,
    ExpandSinh,
    ExpandCosh,
    ExpandAsinh,
    ExpandAcosh,
    ExpandAtanh,
    ExpandSin,
    ExpandCos,
    ExpandTan,
    ExpandAtan,
    ExpandAtan2,
    ExpandAsin,
    ExpandAcos,
    ExpandErf,
    ExpandErfc,
    ExpandPowf,
    ExpandFpowi,
    ExpandAbsf,
    ExpandCopysign,
    ExpandTrunc,
    ExpandFloor,
    ExpandCeil,
    ExpandRound,
    ExpandRoundeven,
    ExpandSqrt,
    ExpandRsqrt,
    ExpandCbrt,
)


@dataclass(frozen=True)
class RefuseUnexpandable(RewritePattern):
    """A `math` op the target lacks and no pattern expands is an error naming it."""

    expandable: tuple[type[Operation], ...]
    """The ops that are native or have an expansion."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() == "math" and not isinstance(op, self.expandable):
            short = op.name.removeprefix("math.")
            raise CompileError(
                op,
                f"has no arith expansion; the target must execute it natively "
                f"(expand-math{{native={short}}})",
            )


@dataclass(frozen=True)
class ExpandMathPass(ModulePass):
    """Rewrite the `math` ops a target cannot execute into `arith` code.

    Matches every `math` op whose name (without `math.`) is not in `native`,
    the list of math ops the target's vector unit executes (a property of
    the target; `expand-math{native=sqrt,absf,fma}`).  Produces
    branch-free `arith` code on f32 and f64 (f16 and bf16 through f32) with
    range reduction and polynomial approximations, at least as accurate as
    CUDA's libdevice documents for the same function (measured in
    `docs/math-accuracy.md`).

    Refuses, naming the op and its source line: an op with no expansion
    that is not native (`math.fma`, integer ops), and f64 `sqrt`.  An
    unknown name in `native` is an error.
    """

    name = "expand-math"

    native: tuple[str, ...] = ()
    """Names of the `math` ops the target executes itself (`sqrt`, `absf`, ...)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        known = {o.name.removeprefix("math.") for o in Math.operations}
        unknown = sorted(set(self.native) - known)
        if unknown:
            raise DiagnosticException(
                f"expand-math: unknown math op(s) {', '.join(unknown)} in native="
                f"{','.join(self.native)}; known: {', '.join(sorted(known))}"
            )
        native = tuple(o for o in Math.operations if o.name.removeprefix("math.") in self.native)
        patterns = [p() for p in EXPANSIONS if p.op_type not in native]
        expandable = (*native, *(p.op_type for p in EXPANSIONS))
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [*patterns, RefuseUnexpandable(expandable)], dce_enabled=False
            ),
        ).rewrite_module(op)
