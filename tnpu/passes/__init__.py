"""TTIR → TTIR: the passes `tnpu-to-tile` runs before `ttir-to-tile`.

`strip-gpu-only`, `lower-libdevice` (its table in `libdevice`),
`decompose-dot-scaled`, `structure-early-return`, `inline-calls`;
`arith_builder` writes the `arith` code they (and the tile transforms'
`expand-math` and `expand-integer-division`) build.
"""
