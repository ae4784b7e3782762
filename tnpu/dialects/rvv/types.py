"""Vector register types: `!rvv.reg<m4>` (a register group) and `!rvv.mask<m4>` (a mask).

A value's type says how many registers it holds (`m1`, `m2`, `m4`, `m8`:
the group of its strip loop's LMUL) and, once allocated, the first of them
(`!rvv.reg<m4, v8>` is v8..v11).  A mask needs one register, but it is
given a group of its loop's size like every other value of the loop, so
that the register pressure of a loop is a count of groups (see
`tnpu.backend_riscv.lmul`); a mask in `v0`, which masked instructions read
(`v0.t`), is `!rvv.mask<m1, v0>`.  Both types share one register file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.backend.register_type import RegisterType
from xdsl.dialects.builtin import IntAttr, NoneAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

LMULS = (1, 2, 4, 8)
"""Registers in a group."""

_INDEX_BY_NAME = {f"v{i}": i for i in range(32)}


class VectorGroupType(RegisterType):
    """A group of `lmul` vector registers, allocated (`index` its first) or not."""

    index: IntAttr | NoneAttr
    lmul: IntAttr

    REGISTER_FILE: ClassVar[str] = "rvv.reg"

    def __init__(self, index: IntAttr | NoneAttr, lmul: IntAttr | int = 1):
        ParametrizedAttribute.__init__(self, index, IntAttr(lmul) if isinstance(lmul, int) else lmul)

    @classmethod
    def index_by_name(cls) -> dict[str, int]:
        return _INDEX_BY_NAME

    @classmethod
    def infinite_register_prefix(cls) -> str:
        return "vj_"

    @classmethod
    def register_pool_key(cls) -> str:
        return cls.REGISTER_FILE

    @classmethod
    def group(cls, lmul: int, register: int | None = None) -> Self:
        """A group of `lmul` registers starting at `register` (None: unallocated)."""
        return cls(NoneAttr() if register is None else IntAttr(register), IntAttr(lmul))

    @property
    def registers(self) -> int:
        return self.lmul.data

    def allocated_to(self, register: int) -> Self:
        return type(self).group(self.registers, register)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        position = parser.pos
        lmul = parser.parse_identifier()
        if lmul not in {f"m{n}" for n in LMULS}:
            parser.raise_error(f"expected m1, m2, m4 or m8, got {lmul}", position, parser.pos)
        index: IntAttr | NoneAttr = NoneAttr()
        if parser.parse_optional_punctuation(","):
            position = parser.pos
            name = parser.parse_identifier()
            try:
                index = cls._index_from_name(name)
            except ValueError as error:
                parser.raise_error(str(error), position, parser.pos)
        parser.parse_punctuation(">")
        return (index, IntAttr(int(lmul[1:])))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"m{self.registers}")
            if self.is_allocated:
                printer.print_string(f", {self.register_name}")

    def verify(self) -> None:
        super().verify()
        if self.registers not in LMULS:
            raise VerifyException(f"a vector register group holds 1, 2, 4 or 8 registers, not {self.registers}")
        if isinstance(self.index, IntAttr) and self.index.data >= 0 and self.index.data % self.registers:
            raise VerifyException(
                f"a group of {self.registers} registers starts at a multiple of {self.registers}, not at {self.register_name}"
            )


@irdl_attr_definition
class VectorRegisterType(VectorGroupType):
    """A vector register group holding one value."""

    name = "rvv.reg"


@irdl_attr_definition
class MaskRegisterType(VectorGroupType):
    """A mask: one bit per element, in the first register of its group."""

    name = "rvv.mask"


V0 = MaskRegisterType.group(1, 0)
"""The mask register masked instructions read."""
