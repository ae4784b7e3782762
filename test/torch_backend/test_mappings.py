"""GEMM and convolution blocks, and persistent reductions' rows, from the NPU description
(tnpu/torch_backend/mappings.py)."""

from __future__ import annotations

import pytest
import torch

import tnpu
from tnpu.timing.npu_config import load_npu_config
from tnpu.torch_backend import mappings
from tnpu.torch_backend.mappings import Blocks, gemm_blocks, npu_mappings, scratchpad_bytes

SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 768, 3072), (50176, 128, 128), (8, 512, 512, 64)]


def _fills(npu, blocks: Blocks) -> None:
    rows, cols, arrays = npu.systolic_array_rows, npu.systolic_array_cols, npu.num_systolic_array_per_core
    assert blocks.k % rows == 0, blocks
    assert blocks.n % cols == 0, blocks
    assert mappings.folds(npu, blocks) % arrays == 0, blocks
    assert blocks.m >= rows, blocks
    # Both operands double-buffered and the accumulator twice fit the scratchpad.
    assert 2 * (blocks.m + blocks.n) * blocks.k * 4 + 2 * blocks.m * blocks.n * 4 <= npu.scratchpad_bytes


@pytest.mark.parametrize("preset", ["tpuv3", "tpuv6e"])
@pytest.mark.parametrize("shape", SHAPES[:3], ids=str)
def test_gemm_blocks_fill_the_arrays_and_fit_the_scratchpad(preset, shape):
    npu = load_npu_config(preset)
    chosen = gemm_blocks(npu, *shape)
    assert 1 <= len(chosen) <= mappings.CANDIDATES
    for blocks in chosen:
        _fills(npu, blocks)


def test_each_preset_gets_its_own_blocks():
    v3, v6e = (gemm_blocks(load_npu_config(name), 2048, 2048, 2048)[0] for name in ("tpuv3", "tpuv6e"))
    assert v6e.k % 256 == 0 and v6e.n % 256 == 0 and v6e.m >= 256
    assert v3 != v6e


def test_a_users_npu_gets_blocks_for_its_arrays_and_scratchpad(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text("base: tpuv3\nsystolic_array_rows: 32\nsystolic_array_cols: 64\nnum_systolic_array_per_core: 4\n"
                    "vpu_spad_size_kb_per_lane: 4\n")  # fmt: skip
    npu = load_npu_config(path)
    for blocks in gemm_blocks(npu, 2048, 2048, 2048):
        _fills(npu, blocks)
        assert scratchpad_bytes(blocks, 4) <= 512 * 1024


def test_no_tile_of_the_blocks_is_larger_than_triton_allows():
    """tpuv6e's 128 MB scratchpad would hold a 1024 x 2048 accumulator (Llama's MLP at a 1,024-token
    prefill); Triton allows 2^20 elements per tensor."""
    npu = load_npu_config("tpuv6e")
    for blocks in gemm_blocks(npu, 1024, 14336, 4096):
        assert max(blocks.m * blocks.n, blocks.m * blocks.k, blocks.k * blocks.n) <= 2**20, blocks


def test_a_problem_smaller_than_the_array_gets_blocks_of_its_size():
    npu = load_npu_config("tpuv3")
    assert gemm_blocks(npu, 128, 256, 128) == [Blocks(128, 256, 128)]
    for blocks in gemm_blocks(npu, 512, 64, 64):  # a convolution's 64 channels: K and N are the problem's
        assert (blocks.n, blocks.k) == (64, 64) and blocks.m >= 128


def test_the_mappings_hold_in_their_scope_only():
    from torch._inductor.kernel.mm import mm_template
    from torch._inductor.template_heuristics.registry import get_template_heuristic

    before = type(get_template_heuristic(mm_template.uid, "cpu", "addmm"))
    with npu_mappings():
        inside = type(get_template_heuristic(mm_template.uid, "cpu", "addmm"))
    assert inside.__name__ == "NpuAddmmTemplateConfigHeuristic"
    assert type(get_template_heuristic(mm_template.uid, "cpu", "addmm")) is before


def test_a_persistent_reduction_is_offered_a_vectors_sublanes_of_rows():
    """512 rows of 512: Inductor offers one row per program (fewer than 1,024 rows, a GPU's
    occupancy rule); in the mappings' scope also 8 (tpuv3's f32 sublanes).  A reduction's
    configurations are ranked by modeled time with autotuning on or off, and 8 rows win:
    64 programs."""
    from torch._inductor.runtime import triton_heuristics

    assert mappings.reduction_rows(load_npu_config("tpuv3")) == 8
    assert mappings.reduction_rows(load_npu_config("tpuv6e")) == 16
    original = triton_heuristics._persistent_reduction_configs
    launches = {}
    for autotune in (True, False):
        torch._dynamo.reset()
        softmax = torch.compile(torch.nn.Softmax(dim=1), backend="tnpu", dynamic=False,
                                options={"execution": "timing", "autotune": autotune})  # fmt: skip
        with torch.no_grad(), tnpu.profile(config="tpuv3") as prof:
            softmax(torch.randn(512, 512))
        (launches[autotune],) = prof.launches
    assert triton_heuristics._persistent_reduction_configs is original
    assert launches[True].grid[0] == launches[False].grid[0] == 64


def test_a_softmax_along_columns_holds_lane_wide_column_blocks_whole():
    """A softmax along dim -2 of 4 x 256 x 512 (attention's, as PyTorchSim writes it): its max
    and sum are one persistent kernel (the 256-long columns held whole) of 128 columns per
    program (tpuv3's lanes): 4 x 512 / 128 = 16 programs; the output is one pointwise kernel.
    Each, less the launch's fixed cost, within 1.3x its compulsory traffic."""
    torch._dynamo.reset()
    softmax = torch.compile(lambda x: x.softmax(dim=-2), backend="tnpu", dynamic=False,
                            options={"execution": "timing"})  # fmt: skip
    with torch.no_grad(), tnpu.profile(config="tpuv3") as prof:
        softmax(torch.randn(4, 256, 512))
    reduction, output = prof.launches
    assert "_per_" in reduction.kernel and reduction.grid == (16, 1, 1)
    assert "_poi_" in output.kernel
    fixed = load_npu_config("tpuv3").launch_overhead_cycles
    assert all(launch.report.cycles - fixed < 1.3 * launch.report.compulsory_cycles for launch in prof.launches)


def _timed(function, *inputs):
    torch._dynamo.reset()
    compiled = torch.compile(function, backend="tnpu", dynamic=False,
                             options={"execution": "timing", "autotune": False})  # fmt: skip
    with torch.no_grad(), tnpu.profile(config="tpuv3") as prof:
        compiled(*inputs)
    (launch,) = [launch for launch in prof.launches if "tem" in launch.kernel]
    return launch


def test_a_gemm_takes_its_closed_form_time_on_the_arrays():
    """512³ with the first candidate (512 × 512 × 128): the arrays' 4 K steps of 4 folds over 2
    arrays, 512 rows each; before them the first step's operands, after them the result's store,
    each a DRAM latency, the array's fill (2 rows + cols − 1) and the launch's fixed cost.
    Within 10%."""
    npu = load_npu_config("tpuv3")
    blocks = gemm_blocks(npu, 512, 512, 512)[0]
    assert blocks == Blocks(512, 512, 128)
    launch = _timed(torch.matmul, torch.randn(512, 512), torch.randn(512, 512))
    bandwidth, latency = npu.dram_bytes_per_cycle, npu.dram_latency_cycles
    arrays = 4 * mappings.step_cycles(npu, blocks)
    closed = (arrays + (512 + 512) * 128 * 4 / bandwidth + 512 * 512 * 4 / bandwidth + 2 * latency + 2 * 128 + 127
              + npu.launch_overhead_cycles)
    assert arrays == 512**3 / npu.macs_per_cycle
    assert launch.cycles == pytest.approx(closed, rel=0.10)


def test_a_convolution_takes_its_closed_form_time_on_the_arrays():
    """Batch 4, 16 × 16, 128 → 128, 3 × 3: an implicit GEMM of 1024 pixels by 128 channels, 9 taps
    of 128 input channels, in one program.  Each dot holds one 128 × 128 fold, loaded into both
    arrays with half the rows each (docs/timing.md, "Matrix unit"): 9 × 1024 / 2 cycles of the
    arrays.  The taps share the input's window in the scratchpad ("A loop's window"): the first
    tap loads the input block before the arrays start, the later taps only their weights
    (hidden behind the arrays), and the output's store follows them, each with a DRAM latency;
    then the launch's fixed cost.  Within 15%."""
    npu = load_npu_config("tpuv3")
    conv = torch.nn.Conv2d(128, 128, 3, padding=1, bias=False)
    x = torch.randn(4, 128, 16, 16).to(memory_format=torch.channels_last)
    conv.weight = torch.nn.Parameter(conv.weight.detach().to(memory_format=torch.channels_last))
    launch = _timed(conv, x)
    arrays = 9 * 4 * 16 * 16 / npu.num_systolic_array_per_core
    pixels = 4 * 16 * 16 * 128 * 4
    closed = arrays + 2 * pixels / npu.dram_bytes_per_cycle + 2 * npu.dram_latency_cycles + npu.launch_overhead_cycles
    assert launch.cycles >= arrays
    assert launch.cycles == pytest.approx(closed, rel=0.15)


def test_gemm_and_convolution_blocks_of_the_new_shapes_match_eager_under_qemu():
    torch._dynamo.reset()
    a, b = torch.randn(128, 256), torch.randn(256, 128)
    with tnpu.profile(config="tpuv3") as prof:
        product = torch.compile(torch.matmul, backend="tnpu", dynamic=False)(a, b)
    torch.testing.assert_close(product, a @ b, rtol=1e-4, atol=1e-4)
    assert [launch.execution for launch in prof.launches if "tem" in launch.kernel] == ["qemu"]
    torch._dynamo.reset()
    conv = torch.nn.Conv2d(16, 32, 3, padding=1, bias=False)
    x = torch.randn(1, 16, 8, 8)
    with torch.no_grad(), tnpu.profile(config="tpuv3") as prof:
        out = torch.compile(conv, backend="tnpu", dynamic=False)(x)
        torch.testing.assert_close(out, conv(x), rtol=1e-4, atol=1e-4)
    assert {launch.execution for launch in prof.launches} == {"qemu"}
    assert any(launch.kernel.startswith("triton_tem_fused_convolution") for launch in prof.launches)


def test_a_convolution_over_an_image_of_odd_width_reads_its_input_as_a_box_and_matches_eager():
    """A 7 × 7 image: the template's `p % 7`, `(p // 7) % 7`, `(p // 7) // 7` are not affine
    over a block of pixels, but the input's row offset they make recombines to `p · C_in`
    (tnpu/lowering/affine.py, `QuasiAffine`): the input tile is a strided `tile.load`, and its
    values under qemu match eager, padding (the explicit mask) included."""
    torch._dynamo.reset()
    conv = torch.nn.Conv2d(16, 32, 3, padding=1, bias=False)
    conv.weight = torch.nn.Parameter(conv.weight.detach().to(memory_format=torch.channels_last))
    x = torch.randn(3, 16, 7, 7).to(memory_format=torch.channels_last)
    with torch.no_grad(), tnpu.profile(config="tpuv3") as prof:
        out = torch.compile(conv, backend="tnpu", dynamic=False)(x)
        torch.testing.assert_close(out, conv(x), rtol=1e-4, atol=1e-4)
    assert {launch.execution for launch in prof.launches} == {"qemu"}
    assert any(launch.kernel.startswith("triton_tem_fused_convolution") for launch in prof.launches)


def test_a_reduction_compiled_for_one_npu_then_another_gets_each_ones_rows():
    """A 64 x 256 softmax is one persistent reduction, offered a vector's sublanes of rows: 8 on
    tpuv3 (8 programs), 16 on tpuv6e (4).  Compiled for tpuv3 and then for tpuv6e in one process,
    its kernel's source is the same; its configurations are computed when its module is loaded,
    and the loaded module was reused: tpuv6e ran with tpuv3's 8 rows.  The NPU's digest in the
    kernel's `inductor_meta` keeps the two apart."""
    grids = {}
    for config in ("tpuv3", "tpuv6e"):
        torch._dynamo.reset()
        softmax = torch.compile(lambda x: x.softmax(dim=-1), backend="tnpu", dynamic=False,
                                options={"execution": "timing", "config": config, "autotune": False})  # fmt: skip
        with torch.no_grad(), tnpu.profile(config=config) as prof:
            softmax(torch.randn(64, 256))
        (launch,) = prof.launches
        grids[config] = launch.grid
    assert grids == {"tpuv3": (8, 1, 1), "tpuv6e": (4, 1, 1)}
