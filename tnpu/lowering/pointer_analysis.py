"""The pointer and mask analysis of `ttir-to-tile`: which accesses are structured DMA.

Every TTIR value the lowering visits gets a `Lowered` record of the forms it
was lowered to.  Data always has its tile (or scalar); this analysis adds
the symbolic forms, in the algebra of `tnpu.lowering.affine`:

* an integer tensor's `AffineIndex`, `base + sum(stride * digit)` over
  mixed-radix digits of the tile coordinates.  Proved through
  `tt.make_range`, splats and splat constants, `addi`, `subi`, `muli` by a
  uniform value, `extsi`/`extui`/`index_cast`, `tt.expand_dims`,
  `tt.broadcast`, `tt.trans`, `tt.reshape` adding or dropping dimensions of
  size 1, and `divsi`/`remsi`/`divui`/`remui` by a
  constant when the divided digits cannot carry (`affine.divmod_constant`:
  Inductor's `x0 = xindex % 64`, `x1 = xindex // 64`);
* where they would carry (`p % 7` over 512 lanes), a `QuasiAffine` form: an
  affine part plus quotient and remainder terms, carried through `addi`,
  `subi`, `muli` by a constant, casts, shape ops and `tt.addptr`, until the
  terms recombine (`c * (x % m) + c * m * (x // m) = c * x` for a dividend
  proved non-negative) and leave an `AffineIndex`: the convolution
  template's `n * s_n + h * s_h + w * s_w` of a dense tensor is `p * s_w`;
* an i1 tensor's `Box`, per-digit bounds `lower <= digit < upper`: from
  `cmpi slt/sle/sgt/sge` of two affine values whose difference changes sign
  along one digit (`affine.less_than_zero`), from splat and constant i1
  tensors, and from `andi` of two boxes whose digit splits nest;
* a pointer's buffer and offsets: a kernel argument is a buffer at offset 0,
  `tt.addptr` adds an affine (or any) offset, splats and shape ops carry it;
  `arith.select` of pointers into one buffer selects their offsets, and of
  pointers into two buffers is a `PointerChoice` of both.

A load or store whose pointer tensor has an `AffineIndex` is a structured
`tile.load`/`tile.store`; its mask's boxes (`mask_parts`) become the DMA's
bounds, and what is left of the mask an explicit mask tile.

It gives up — the form is None — on everything else: `cmpi eq/ne` and
unsigned comparisons, `ori`/`xori` of masks, `select`, values loaded from
memory (an embedding's indices), products of two varying values, division by
a non-constant or where digits would carry and the terms do not recombine
(`(x % 3) * 4 + (x // 3) * 10`, or a dividend not proved non-negative),
other `tt.reshape`s, and the results of `scf.if`/`scf.while`.  Giving up is always
correct: the lowering computes the value on the vector unit, and the access
becomes a `tile.gather`/`tile.scatter` or keeps an explicit mask tile.
Pointers carried by an `scf.for` keep their index when every iteration
advances them by a uniform step (`uniform_advance`), and are carried as
offset tiles otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType
from xdsl.ir import Block, Operation, SSAValue

from tnpu.dialects import arith as tarith
from tnpu.dialects import tt
from tnpu.lowering import affine
from tnpu.lowering.affine import AffineIndex, Box, IndexEmitter, QuasiAffine, Scalar


@dataclass
class ScalarPointer:
    """A `!tt.ptr`: a buffer and an element offset into it."""

    buffer: SSAValue
    offset: Scalar


@dataclass
class PointerTensor:
    """A tensor of `!tt.ptr` into one buffer: element offsets as an affine `index`,
    an i64 tile of `offsets`, or both."""

    buffer: SSAValue
    index: AffineIndex | None = None
    offsets: SSAValue | None = None
    quasi: QuasiAffine | None = None
    """Where `index` is None: the offsets as an affine index plus quotient and
    remainder terms, which a later `tt.addptr` may recombine into an index."""


Pointer = ScalarPointer | PointerTensor
"""A pointer (or tensor of them) into one buffer."""


@dataclass
class PointerChoice:
    """`tl.where(c, p, q)` of pointers into two buffers: `if_true` where `condition`
    holds, `if_false` elsewhere.

    `condition` has the forms of the i1 scalar or tensor choosing (a scalar
    chooses for every element); either side may be a choice itself.  Accesses
    through it are one per side, under complementary masks.
    """

    condition: Lowered
    if_true: Pointer | PointerChoice
    if_false: Pointer | PointerChoice


def map_pointer(
    pointer: Pointer | PointerChoice,
    side: Callable[[Pointer], Pointer],
    condition: Callable[[Lowered], Lowered] = lambda c: c,
) -> Pointer | PointerChoice:
    """`side` applied to every one-buffer pointer of a choice (and `condition` to its
    conditions), or to `pointer` itself."""
    if isinstance(pointer, PointerChoice):
        return PointerChoice(
            condition(pointer.condition),
            map_pointer(pointer.if_true, side, condition),
            map_pointer(pointer.if_false, side, condition),
        )
    return side(pointer)


@dataclass
class Descriptor:
    """A `!tt.tensordesc` made by `tt.make_tensor_descriptor`: blocks of the tensor of
    `shape` and `strides` (in elements) at `base`; loads read `pad` outside it."""

    base: ScalarPointer
    shape: tuple[Scalar, ...]
    strides: tuple[Scalar, ...]
    nan_padding: bool


@dataclass
class Lowered:
    """The forms a TTIR value was lowered to.

    `value` is the tile (or scalar) computing it, present for data;
    `uniform` the scalar every element equals, if the analysis knows one;
    `index`, `box` and `pointer` its symbolic forms (see the module
    docstring); `quasi`, where `index` is None, an integer tensor's
    quasi-affine form (affine plus quotient and remainder terms);
    `descriptor` a tensor descriptor's.
    """

    value: SSAValue | None = None
    uniform: SSAValue | None = None
    index: AffineIndex | None = None
    quasi: QuasiAffine | None = None
    box: Box | None = None
    pointer: Pointer | PointerChoice | None = None
    descriptor: Descriptor | None = None


def quasi_of(index: AffineIndex | None, quasi: QuasiAffine | None) -> QuasiAffine | None:
    """The quasi-affine form of a value with an affine `index` or a `quasi` form."""
    if index is not None:
        return QuasiAffine(index)
    return quasi


def settled(quasi: QuasiAffine | None) -> tuple[AffineIndex | None, QuasiAffine | None]:
    """`(index, quasi)` of a quasi-affine result: an index when no term is left."""
    if quasi is None:
        return None, None
    if not quasi.terms:
        return quasi.affine, None
    return None, quasi


def symbolic_forms(
    op: Operation, operands: Sequence[Lowered], emit: IndexEmitter
) -> tuple[AffineIndex | None, Box | None, QuasiAffine | None]:
    """The affine index, box and quasi-affine form of an elementwise `arith` op's
    result, where proved."""
    if isinstance(op, tarith.ExtSIOp | tarith.ExtUIOp | tarith.IndexCastOp):
        return operands[0].index, None, operands[0].quasi
    if isinstance(op, arith.AndIOp):
        if tt.element_type_of(op.result.type) != IntegerType(1):
            return None, None, None
        a, b = (operand.box for operand in operands)
        return None, None if a is None or b is None else affine.intersect(a, b, emit), None
    if len(operands) != 2:
        return None, None, None
    lhs, rhs = (quasi_of(operand.index, operand.quasi) for operand in operands)
    if lhs is None or rhs is None:
        return None, None, None
    result: QuasiAffine | None = None
    match op:
        case arith.AddiOp():
            result = affine.quasi_add(lhs, rhs, emit)
        case arith.SubiOp():
            negated = affine.quasi_scale(rhs, -1, emit)
            result = None if negated is None else affine.quasi_add(lhs, negated, emit)
        case arith.MuliOp() if not rhs.terms and rhs.affine.is_uniform():
            result = affine.quasi_scale(lhs, rhs.affine.base, emit)
        case arith.MuliOp() if not lhs.terms and lhs.affine.is_uniform():
            result = affine.quasi_scale(rhs, lhs.affine.base, emit)
        case arith.DivSIOp() | arith.RemSIOp() | arith.DivUIOp() | arith.RemUIOp() if (
            not rhs.terms and rhs.affine.is_uniform() and isinstance(rhs.affine.base, int)
        ):
            signed = isinstance(op, arith.DivSIOp | arith.RemSIOp)
            parts = affine.quasi_divmod(lhs, rhs.affine.base, signed, emit)
            if parts is not None:
                quotient, remainder = parts
                result = quotient if isinstance(op, arith.DivSIOp | arith.DivUIOp) else remainder
        case tarith.CmpiOp() if not lhs.terms and not rhs.terms:
            return None, comparison_box(op, lhs.affine, rhs.affine, emit), None
        case tarith.CmpiOp():  # terms may cancel in the difference
            negated = affine.quasi_scale(rhs, -1, emit)
            difference = None if negated is None else affine.quasi_add(lhs, negated, emit)
            if difference is None or difference.terms:
                return None, None, None
            zero = AffineIndex.uniform(difference.shape, 0)
            return None, comparison_box(op, difference.affine, zero, emit), None
    index, quasi = settled(result)
    return index, None, quasi


def comparison_box(
    op: tarith.CmpiOp, lhs: AffineIndex, rhs: AffineIndex, emit: IndexEmitter
) -> Box | None:
    """Where `lhs <op> rhs` holds, as a box, for the signed orderings."""
    predicate = tarith.CmpiOp.PREDICATES[op.predicate.value.data]
    difference = affine.add(lhs, affine.scale(rhs, -1, emit), emit)
    if difference is None:
        return None
    match predicate:
        case "slt":  # lhs - rhs < 0
            return affine.less_than_zero(difference, emit)
        case "sge":
            return affine.at_least_zero(difference, emit)
        case "sgt":  # rhs - lhs < 0
            return affine.less_than_zero(affine.scale(difference, -1, emit), emit)
        case "sle":
            return affine.at_least_zero(affine.scale(difference, -1, emit), emit)
    return None


def mask_parts(
    mask: SSAValue, forms: dict[SSAValue, Lowered]
) -> tuple[list[Box], list[SSAValue]]:
    """A mask as a conjunction of boxes and of TTIR masks that are not boxes."""
    box = forms[mask].box
    if box is not None:
        return [box], []
    owner = mask.owner
    if isinstance(owner, arith.AndIOp):
        boxes_a, rest_a = mask_parts(owner.lhs, forms)
        boxes_b, rest_b = mask_parts(owner.rhs, forms)
        return boxes_a + boxes_b, rest_a + rest_b
    return [], [mask]


def uniform_advance(yielded: SSAValue, loop: Operation) -> SSAValue | None:
    """The uniform step, if `yielded` is `tt.addptr(iter_arg, uniform)` of this loop."""
    owner = yielded.owner
    if not isinstance(owner, tt.AddPtrOp):
        return None
    source = owner.ptr
    if not (isinstance(source.owner, Block) and source.owner.parent_op() is loop):
        return None
    step = owner.offset.owner
    if isinstance(step, tt.SplatOp):
        return owner.offset
    if isinstance(step, arith.ConstantOp):
        value = step.value
        if isinstance(value, DenseIntOrFPElementsAttr) and tarith.is_splat(value):
            return owner.offset
    return None
