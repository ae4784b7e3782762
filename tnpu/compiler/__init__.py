"""The target pipelines, above both consumers of the tile IR.

* `tnpu_to_rvv`  the `tnpu-to-rvv` pipeline and the RISC-V target's steps (`RVV_STEPS`);
* `tnpu_to_npu`  the `tnpu-to-npu{config=...}` pipeline and an NPU's steps (`npu_steps`).
"""
