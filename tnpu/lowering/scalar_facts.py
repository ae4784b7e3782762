"""Scalar facts: what `ttir-to-tile` knows about the integer scalars of a TTIR kernel.

When the lowering turns a TTIR integer scalar into an `index` value for a
DMA descriptor, it records two facts about it, which the pointer analysis
(`tnpu.lowering.affine`) needs to split `%` and `//` exactly and to bound
masks:

* a **divisor**, a positive integer known to divide the value: `|c|` for a
  constant `c` (any number for 0), the `tt.divisibility` hint Triton put on a
  kernel argument, the product of the factors' divisors for `muli`, the gcd
  of the operands' for `addi`/`subi`, the operand's through `extsi`, `extui`
  and `index_cast`, and for an `scf.for` induction variable the gcd of its
  lower bound's and step's;
* **non-negativity**: constants at least 0, program ids and grid sizes,
  `addi`, `muli`, `minsi`, `divsi` of non-negative operands, `maxsi` with one
  non-negative operand, `remsi` of a non-negative dividend (the remainder has
  the dividend's sign), `extsi`/`index_cast` of a non-negative value, any
  `extui`, and an `scf.for` induction variable whose lower bound and step
  are non-negative.

It gives up, saying divisor 1 and not known non-negative, on everything
else: loaded values, `scf.if`/`scf.while` results, the other block
arguments of loops, `subi` signs, unsigned division and shifts.  Giving up
is safe: the analysis then refuses a structured form (and gathers), or
checks `value >= 0` at run time where Inductor's indices need it
(`IndexEmitter.require_non_negative`).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, SSAValue

from tnpu.dialects import arith as tarith
from tnpu.dialects import tt


class ScalarFacts:
    """Divisors and signs of the integer scalars of one `tt.func` (see the module docstring)."""

    def __init__(self, func: tt.FuncOp):
        self.argument_divisors: dict[SSAValue, int] = {}
        if func.arg_attrs is not None:
            for arg, attrs in zip(func.body.blocks[0].args, func.arg_attrs):
                hint = attrs.data.get("tt.divisibility")
                if isinstance(hint, IntegerAttr):
                    self.argument_divisors[arg] = hint.value.data

    def multiple_of(self, value: SSAValue) -> int:
        """A positive integer known to divide `value` (1 when nothing is known)."""
        owner = value.owner
        match owner:
            case arith.ConstantOp() if isinstance(owner.value, IntegerAttr):
                return abs(owner.value.value.data) or 1 << 62
            case arith.MuliOp():
                return self.multiple_of(owner.lhs) * self.multiple_of(owner.rhs)
            case arith.AddiOp() | arith.SubiOp():
                return math.gcd(self.multiple_of(owner.lhs), self.multiple_of(owner.rhs))
            case tarith.ExtSIOp() | tarith.ExtUIOp() | tarith.IndexCastOp():
                return self.multiple_of(owner.input)
            case Block():
                loop = owner.parent_op()
                if isinstance(loop, scf.ForOp) and value is owner.args[0]:
                    return math.gcd(self.multiple_of(loop.lb), self.multiple_of(loop.step))
                return self.argument_divisors.get(value, 1)
        return 1

    def non_negative(self, value: SSAValue) -> bool:
        """Whether `value >= 0` is known (False when nothing is)."""
        owner = value.owner
        match owner:
            case arith.ConstantOp() if isinstance(owner.value, IntegerAttr):
                return owner.value.value.data >= 0
            case tt.GetProgramIdOp() | tt.GetNumProgramsOp() | tarith.ExtUIOp():
                return True
            case arith.MuliOp() | arith.AddiOp() | arith.MinSIOp() | arith.DivSIOp():
                return self.non_negative(owner.lhs) and self.non_negative(owner.rhs)
            case arith.MaxSIOp():
                return self.non_negative(owner.lhs) or self.non_negative(owner.rhs)
            case arith.RemSIOp():  # the remainder has the dividend's sign
                return self.non_negative(owner.lhs)
            case tarith.ExtSIOp() | tarith.IndexCastOp():
                return self.non_negative(owner.input)
            case Block():
                loop = owner.parent_op()
                if isinstance(loop, scf.ForOp) and value is owner.args[0]:
                    return self.non_negative(loop.lb) and self.non_negative(loop.step)
        return False
