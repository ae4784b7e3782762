"""Elementwise programs on RVV: a fused `tile.map` body, kept in vector registers.

An `ElementwiseProgram` is a straight-line list of scalar `arith`/`math` ops
applied to every element: values streamed from the scratchpad or global
memory (`Stream`: a tile, a strided slice of one, a load read in place,
masked past its in-bounds elements, or an iota computed), uniform values
(scalar slots and constants, the same for every element), and results
streamed back or folded across strips by a reduction instruction (`Fold`).
It lowers to one strip loop (`builder.StripLoop`); inside a trip every
intermediate value is a vector register group, so a fused body never goes
through memory.

Runs of scalar ops outside tile ops that `scalar_program` does not select
(float ops, bitcasts, ...) are one-element programs: one instruction table
serves tiles and those scalars alike.

All values share one SEW/LMUL ratio, set by the widest element type, so
`vl` is the same for every type in the body; the strip loop picks its LMUL
from the body's register pressure when it closes.  Masked instructions
read `v0`.

The package: `program` says what a program is (streams, folds, uniform
values, the widths it runs at); `program_code` builds its strip loop and
holds its values in registers; the op families select instructions for
each op, by tables mapping `arith`/`math` op classes to `rvv` op
classes where they can: `arithmetic`, `compares`, `casts` (their float
algorithms come from `float_algorithms`); `lowering` sends each op to
its family and is where `emit_elementwise` starts.  Uniform values
are read through integer (bits) and float registers set before the loop.
"""
