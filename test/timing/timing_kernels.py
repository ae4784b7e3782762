"""Hand-written tile kernels the timing tests time, and a shortcut to time them."""

from __future__ import annotations

import dataclasses

from tnpu.dialects import tile
from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import NPUConfig, load_npu_config
from tnpu.timing.report import TimingReport
from tnpu.timing.simulator import SimulationOptions
from tnpu.timing.timer import KernelTimer
from tnpu.ttir_import import import_ttir


def parse_kernel(text: str) -> tile.KernelOp:
    module = import_ttir(text, "kernel.mlir")
    op = module.body.block.first_op
    assert isinstance(op, tile.KernelOp)
    return op


def npu(name: str = "tpuv3", **changes: object) -> NPUConfig:
    return dataclasses.replace(load_npu_config(name), **changes)


def time_kernel(
    text: str,
    grid: tuple[int, int, int],
    arguments: list[int | float | None],
    config: NPUConfig | None = None,
    **options: bool,
) -> TimingReport:
    timer = KernelTimer(parse_kernel(text), config or npu())
    return timer.time(Launch(grid, arguments), SimulationOptions(**options))


def vector_add(block: int) -> str:
    """`out = x + y` over `n` f32 elements, `block` per program, the tail masked."""
    return f"""
tile.kernel @add(%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32) {{
  %pid = tile.program_id {{axis = 0 : i32}} : i32
  %block = arith.constant {block} : i32
  %start = arith.muli %pid, %block : i32
  %offset = arith.index_cast %start : i32 to index
  %count = arith.index_cast %n : i32 to index
  %left = arith.subi %count, %offset : index
  %a = tile.load %x[%offset] strides [1] upper [%left] : !tile.buffer<f32> -> tensor<{block}xf32>
  %b = tile.load %y[%offset] strides [1] upper [%left] : !tile.buffer<f32> -> tensor<{block}xf32>
  %sum = tile.map %a, %b : tensor<{block}xf32>, tensor<{block}xf32> -> tensor<{block}xf32> {{
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    tile.yield %s : f32
  }}
  tile.store %sum, %out[%offset] strides [1] upper [%left] : tensor<{block}xf32>, !tile.buffer<f32>
  tile.return
}}
"""


def vector_add_launch(n: int, block: int) -> tuple[tuple[int, int, int], list[int | None]]:
    return (-(-n // block), 1, 1), [None, None, None, n]


def matmul(bm: int, bn: int, bk: int) -> str:
    """`c = a @ b` (row-major f32, M x K by K x N), one bm x bn tile of c per program,
    a loop over K in steps of bk accumulating on the matrix unit."""
    acc = f"tensor<{bm}x{bn}xf32>"
    return f"""
tile.kernel @matmul(%a: !tile.buffer<f32>, %b: !tile.buffer<f32>, %c: !tile.buffer<f32>, %M: i32, %N: i32, %K: i32) {{
  %pm = tile.program_id {{axis = 0 : i32}} : i32
  %pn = tile.program_id {{axis = 1 : i32}} : i32
  %pmi = arith.index_cast %pm : i32 to index
  %pni = arith.index_cast %pn : i32 to index
  %n = arith.index_cast %N : i32 to index
  %k_end = arith.index_cast %K : i32 to index
  %bm = arith.constant {bm} : index
  %bn = arith.constant {bn} : index
  %bk = arith.constant {bk} : index
  %c0 = arith.constant 0 : index
  %row = arith.muli %pmi, %bm : index
  %col = arith.muli %pni, %bn : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero : f32 -> {acc}
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %init) -> ({acc}) {{
    %a_row = arith.muli %row, %k_end : index
    %a_offset = arith.addi %a_row, %k : index
    %at = tile.load %a[%a_offset] strides [%k_end, 1] : !tile.buffer<f32> -> tensor<{bm}x{bk}xf32>
    %b_row = arith.muli %k, %n : index
    %b_offset = arith.addi %b_row, %col : index
    %bt = tile.load %b[%b_offset] strides [%n, 1] : !tile.buffer<f32> -> tensor<{bk}x{bn}xf32>
    %next = tile.matmul %at, %bt, %acc : tensor<{bm}x{bk}xf32>, tensor<{bk}x{bn}xf32> -> {acc}
    scf.yield %next : {acc}
  }}
  %c_row = arith.muli %row, %n : index
  %c_offset = arith.addi %c_row, %col : index
  tile.store %result, %c[%c_offset] strides [%n, 1] : {acc}, !tile.buffer<f32>
  tile.return
}}
"""
