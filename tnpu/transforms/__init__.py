"""Tile IR → tile IR: the transforms a target applies to what `ttir-to-tile` produces.

`fuse-tile-maps` runs in `tnpu-to-tile`; the others are a target's steps
(`compiler.tnpu_to_rvv.RVV_STEPS`, `compiler.tnpu_to_npu.npu_steps`):
`expand-math`, `widen-half-floats`, `expand-integer-division`,
`recognise-combiners`, `welford-to-sums`, `recompute-cheap-maps`,
`hoist-map-invariants`, `hoist-scalar-arith`.  `combiner_patterns` is
shared with the RISC-V backend's combiner recognition.  Above the lowering,
below the consumers of tile IR (`backend_riscv`, `timing`).
"""
