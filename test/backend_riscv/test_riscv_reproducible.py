"""The same kernel compiles to the same assembly every time.

Register choices must not follow the memory addresses of IR objects (the
order of a set of SSA values does): the ELF cache is keyed by the assembly,
and a change to the backend is checked by comparing the assembly of the
corpus before and after.
"""

from __future__ import annotations

from conftest import CORPUS

from tnpu.compiler.kernel import compile_ttir

KERNEL = CORPUS / "inductor" / "attention__triton_per_fused__softmax_abs_all_amax_eq_mul_ne_sub_view_5" / "kernel.ttir"
"""A kernel whose fused bodies free several registers at one op (two register
assignments in six compiles when they were freed in set order)."""


def test_compiling_again_gives_the_same_assembly():
    text = KERNEL.read_text()
    assert len({compile_ttir(text).rvv.assembly for _ in range(6)}) == 1
