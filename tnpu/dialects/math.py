"""xDSL's `math` dialect with `math.erfc`, which MLIR has and xDSL 0.75 lacks.

`lower-libdevice` substitutes CUDA's `erfcf` by `math.erfc`: writing it as
`1 - erf(x)` would lose every digit for large x, where erfc is tiny.  tnpu's
context registers this dialect in place of xDSL's; once xDSL has `math.erfc`,
delete this file.
"""

from __future__ import annotations

from xdsl.dialects import math as xdsl_math
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure, SameOperandsAndResultType


@irdl_op_definition
class ErfcOp(xdsl_math.FloatingPointLikeUnaryMathOperation):
    """`math.erfc %x : T`: the complementary error function, 1 - erf(x), elementwise."""

    name = "math.erfc"

    traits = traits_def(Pure(), SameOperandsAndResultType())


Math = Dialect(
    "math",
    [*xdsl_math.Math.operations, ErfcOp],
    list(xdsl_math.Math.attributes),
)
