"""The compile API and the target pipelines, above both consumers of the tile IR.

* `kernel`       `compile_ttir`, `Kernel`, `RvvKernel`: TTIR lowered once, per-target artefacts
  (re-exported as `tnpu.compile_ttir`, `tnpu.Kernel`, `tnpu.RvvKernel`);
* `tnpu_to_tile` the `tnpu-to-tile` pipeline: the TTIR passes, `ttir-to-tile`, `fuse-tile-maps`;
* `tnpu_to_rvv`  the `tnpu-to-rvv` pipeline and the RISC-V target's steps (`RVV_STEPS`);
* `tnpu_to_npu`  the `tnpu-to-npu{config=...}` pipeline and an NPU's steps (`npu_steps`).

Nothing is imported here, so that running one pipeline does not import
both backends.  It imports the passes, the lowering, the transforms,
`backend_riscv` and `timing`, never the harness (`execution`), which
calls it as the Triton backend will.  docs/compile-api.md describes it.
"""
