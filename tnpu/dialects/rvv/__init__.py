"""tnpu's RISC-V dialects beside xDSL's `riscv`/`rv64`: `rvv` (RVV 1.0) and `rvx`.

* `types`  `!rvv.reg` (a vector register group) and `!rvv.mask` (a mask register);
* `ops`    the `rvv` dialect: vsetvli, loads and stores, arithmetic, compares,
  merges, conversions and reductions, masked forms where the backend uses them;
* `rvx`    scalar ops xDSL 0.75's `riscv`/`rv64` lack: the A extension (AMO,
  LR/SC), `lwu`, `lla`, `call`, `fsrm`, the 64-bit `fmv`s, an incoming stack
  argument, and the structured `rvx.loop`/`rvx.if` the backend's code is built of.

Every op is an assembly instruction (or a structured op whose labels and
branches the printer writes): `tnpu.backend_riscv.printer` prints them after
`rvv-allocate-registers` has given every value a register.
"""
