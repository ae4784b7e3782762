"""numpy interpreters of tnpu's IR, on xDSL's interpreter framework.

`arith` and `math` evaluate those dialects with exact dtype semantics on
tensors and scalars (the reference the expand-math bench measures against);
`tt`, `scf` and `cf` with `memory` and `kernel` run a whole TTIR kernel over
a grid.  Values are numpy arrays and scalars (see `values`).
"""
