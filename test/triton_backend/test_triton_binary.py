"""The bytes of tnpu's last Triton stage are self-contained and stable, and rebuild the kernel's timer."""

from __future__ import annotations

import io
import zipfile

import pytest
from conftest import CORPUS
from xdsl.printer import Printer

import tnpu
from tnpu.compiler.kernel import Kernel
from tnpu.execution.case import case_launch, load_case
from tnpu.timing.npu_config import load_npu_config
from tnpu.triton_backend.binary import BinaryError, KernelBinary

CASES = [
    "softmax__triton_per_fused__softmax_0",
    "bucketize__triton_poi_fused_bucketize_0",  # an scf.while
    "cumsum_cols__triton_spl_fused_cumsum_0",  # a look-back loop
    "mm__triton_tem_fused_mm_0",
]


def _printed(module) -> str:
    out = io.StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


@pytest.mark.parametrize("name", CASES)
def test_the_stored_tile_ir_rebuilds_the_same_timer(name):
    case = CORPUS / "inductor" / name
    kernel = tnpu.compile_ttir((case / "kernel.ttir").read_text())
    rebuilt = Kernel.from_tile(_printed(kernel.tile), source=f"{name}.tile")
    assert rebuilt.ttir is None and rebuilt.name == kernel.name
    npu = load_npu_config("tpuv3")
    launch = case_launch(load_case(case))
    assert rebuilt.timer(npu).time(launch).cycles == kernel.timer(npu).time(launch).cycles
    assert _printed(rebuilt.tile) == _printed(kernel.tile)


def test_a_binary_round_trips_and_its_bytes_are_stable():
    kernel = tnpu.compile_ttir((CORPUS / "inductor" / CASES[0] / "kernel.ttir").read_text())
    binary = KernelBinary(kernel.rvv.code, kernel.rvv.elf.read_bytes(), _printed(kernel.tile))
    data = binary.write()
    assert data == binary.write()
    assert KernelBinary.read(data) == binary
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names == ["kernel.json", "kernel.s", "kernel.elf", "tile.mlir"]


def test_bytes_that_are_not_a_binary_of_this_tnpu_are_refused_in_one_line():
    with pytest.raises(BinaryError, match="^not a tnpu kernel binary"):
        KernelBinary.read(b"\x7fELF not a zip")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("kernel.json", '{"format": "tnpu-kernel/0", "tnpu_version": "0.0.1"}')
    with pytest.raises(BinaryError, match="tnpu-kernel/0 kernel of tnpu 0.0.1, not a tnpu-kernel/1 kernel"):
        KernelBinary.read(out.getvalue())
