"""GEMM and convolution mappings for the NPU in force: the blocks Inductor's templates are offered.

Inductor's Triton templates for mm, bmm, addmm, baddbmm (and the attention
matmuls, which are bmm after `rewrite_attention`) and convolutions take their
blocks (`BLOCK_M`, `BLOCK_N`, `BLOCK_K`) from a list of configurations per
device.  For CPU tensors — tnpu's route — that list is Inductor's CPU one,
scaled by one half and cut to blocks of at most 64 (`CPUConfigHeuristic`):
a 128 × 128 weight-stationary array never gets a fold it can fill.  Here the
blocks are computed from the NPU description (`NPUConfig`) and the problem,
as an NPU compiler chooses them:

* **K and N blocks fill the arrays.**  A `tl.dot` of `BLOCK_M × BLOCK_K` by
  `BLOCK_K × BLOCK_N` holds `b` in `ceil(BLOCK_K / rows) × ceil(BLOCK_N /
  cols)` folds of `rows × cols` weights, spread over the core's arrays
  (docs/timing.md, "Matrix unit").  `BLOCK_K` is a multiple of the array's
  rows and `BLOCK_N` of its columns, with a multiple of `arrays` folds per
  dot, so that no PE row, column or array idles — unless the problem itself
  is smaller (then the block is the problem's dimension).
* **M blocks amortise the weight loads.**  Loading a fold's weights takes
  `rows` cycles; it is hidden behind the previous fold's stream only when at
  least `rows` rows of `a` stream through it, so `BLOCK_M ≥ rows`.  Longer
  M blocks reuse each loaded `b` tile over more rows.
* **Traffic under the DRAM's rate.**  Per K step a program loads
  `(BLOCK_M + BLOCK_N) × BLOCK_K` elements and the arrays work
  `ceil(folds / arrays) × max(BLOCK_M, rows)` cycles; a block whose loads
  take longer than that at the DRAM's bandwidth leaves the arrays waiting.
  Candidates are ranked by the larger of the two (`estimated_cycles`), so
  the blocks that keep both operands' traffic under the DRAM's rate come
  first.
* **They fit the scratchpad.**  Both operands double-buffered (the next K
  step's tiles land while the current one computes) and the accumulator
  twice (one program's result leaves while the next accumulates) must fit
  the core's scratchpad (`scratchpad_bytes`).
* Blocks are powers of two (Triton's `tl.arange`) of at least 16 (its
  `tl.dot`), no larger than the problem's dimension rounded to a power
  of two, and no tile of them over Triton's 2^20 elements.

A few candidates (`CANDIDATES`) go to Inductor, best estimate first;
autotuning by simulated cycles (`benchmarking.py`) picks among them, and
without autotuning (`test_configs.max_mm_configs = 1`) the first is taken.
Every number comes from the NPU in force (`profile.npu_in_force()`: the
compile's, whose `config` is the option, else the innermost `tnpu.profile`'s,
else the setting), the one autotuning times the candidates on, so tpuv6e's
256 × 256 arrays get their own blocks, and so does a user's YAML.  Each
kernel's `inductor_meta` carries the NPU's digest, so that a kernel whose
configurations were decided for one NPU is never reused for another.

A convolution is Inductor's implicit GEMM (`conv2d_template`): output pixels
(N·H·W) by output channels, each `tl.dot` a `BLOCK_M` pixels × `BLOCK_K`
input channels tile of the input under one filter tap times a `BLOCK_K ×
BLOCK_N` slice of the weights, accumulated over the kh × kw taps and the
input channels.  Its blocks follow the same rules with M = N·H·W, N =
C_out, K = C_in per tap: the output channels fill the array's columns, never
one GEMM per output channel.  The taps share one input window in the
scratchpad (docs/timing.md, "A loop's window"), so the estimate loads a
block of the input once over the kh × kw taps (`_filter_taps`, from the
FX node Inductor is lowering) and the weights at every tap.

A persistent reduction (a softmax or a layer norm whose row fits one
program) holds `XBLOCK` rows per program.  Inductor offers a block of
several rows only when there are at least 1,024 rows (`xnumel // 8 < 128`
in `_persistent_reduction_configs`: a GPU needs 128 programs to fill its
SMs) and when the block has at most 4,096 elements (a GPU's registers);
otherwise one row per program.  An NPU core runs the programs one after
another and holds the block in its scratchpad, so neither limit applies;
what a row-per-program mapping costs it is the vector: a vector register
is `lanes` lanes by `width / lanes` sublanes (8 × 128 f32 on tpuv3), and a
program of one row leaves the cross-lane steps of its reductions to one
row where they could serve a sublane's worth.  So a persistent reduction
is also offered `reduction_rows(npu)` rows per program (8 on tpuv3, 16 on
tpuv6e), and autotuning by simulated cycles picks (a softmax of 512 rows
of 512 on tpuv3: 25,371 cycles with a row per program, 13,082 with 8).

A reduction along an axis other than the minor one (a column reduction)
is held whole in a program, as one along the minor axis is, up to
`PERSISTENT_REDUCTION_LIMIT` elements (Inductor's limit for the minor
axis).  Inductor loops such a reduction beyond 64 elements, for a GPU's
reasons (its warps coalesce along the block's other axis, and a whole
column block costs registers); an NPU reads the column block as one
strided box into its scratchpad, and a reduction held whole reads its
input once rather than once per pass of a loop.  Such a reduction is also
offered the lanes' width of columns per program (`persistent_blocks`: 128
on tpuv3), so that each DRAM run of its column block fills the lanes
rather than 32 bytes of it (8 columns): attention's softmax along dim −2
(PyTorchSim's), its max and sum in one such kernel, 55,014 cycles at
1.04× its DRAM roofline.

`npu_mappings()` offers these configurations to Inductor in its scope,
through Inductor's own hooks: its template-heuristic registry (for the
`mm` and `bmm` templates on device `cpu`, Inductor's
`override_template_heuristics`) and its choices handler (for convolutions,
`V.set_choices_handler`); for persistent reductions, the function
Inductor's `persistent_reduction` heuristic takes its configurations from
(`_persistent_reduction_configs`), for CPU tensors only.  Nothing changes
outside the scope.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

from tnpu.timing.npu_config import NPUConfig

CANDIDATES = 5
"""Configurations offered per GEMM or convolution: autotuning compiles and times each."""
SMALLEST_BLOCK = 16
"""Triton's `tl.dot` takes no dimension below 16."""
ACCUMULATOR_BYTES = 4
"""The templates accumulate in f32 (`ACC_TYPE`)."""


@dataclass(frozen=True)
class Blocks:
    """One template configuration: `BLOCK_M × BLOCK_N` outputs per program, `BLOCK_K` per step."""

    m: int
    n: int
    k: int


def _pow2_floor(value: int) -> int:
    return 1 << (max(value, 1).bit_length() - 1)


def _pow2_ceil(value: int) -> int:
    return 1 << (max(value, 1) - 1).bit_length()


def _ladder(size: int, unit: int, most: int) -> list[int]:
    """The block sizes for a dimension of `size`: powers of two from `unit` (the array's
    side) up to the dimension, at most `most`; the dimension itself, rounded up, when it
    is smaller than `unit` or not a power of two."""
    top = max(SMALLEST_BLOCK, min(_pow2_floor(size), most))
    start = min(max(unit, SMALLEST_BLOCK), top)
    sizes = []
    block = _pow2_floor(start)
    while block <= top:
        sizes.append(block)
        block *= 2
    whole = max(SMALLEST_BLOCK, _pow2_ceil(size))
    if whole not in sizes and whole <= max(most, SMALLEST_BLOCK) and whole < 2 * max(unit, SMALLEST_BLOCK):
        sizes.append(whole)
    return sizes


def folds(npu: NPUConfig, blocks: Blocks) -> int:
    """Weight folds of one `tl.dot` of these blocks."""
    return -(-blocks.k // npu.systolic_array_rows) * -(-blocks.n // npu.systolic_array_cols)


def step_cycles(npu: NPUConfig, blocks: Blocks) -> int:
    """The arrays' busy cycles for one K step: the folds over the arrays, each streaming
    `max(BLOCK_M, rows)` rows (the weight load hidden behind at least `rows` of them), a
    fold's rows split over several arrays when the dot has fewer folds than arrays
    (the timer's `systolic_matmul_cycles`, docs/timing.md "Matrix unit")."""
    from tnpu.timing.cost_model import systolic_matmul_cycles

    busy, _ = systolic_matmul_cycles(
        1, blocks.m, blocks.n, blocks.k,
        npu.systolic_array_rows, npu.systolic_array_cols, npu.num_systolic_array_per_core,
    )  # fmt: skip
    return busy


def scratchpad_bytes(blocks: Blocks, element_bytes: int) -> int:
    """Scratchpad a program of these blocks holds: both operands double-buffered and the
    accumulator twice (one program's result leaving while the next accumulates)."""
    operands = (blocks.m + blocks.n) * blocks.k * element_bytes
    return 2 * operands + 2 * blocks.m * blocks.n * ACCUMULATOR_BYTES


def fits(npu: NPUConfig, blocks: Blocks, element_bytes: int) -> bool:
    return scratchpad_bytes(blocks, element_bytes) <= npu.scratchpad_bytes


def estimated_cycles(
    npu: NPUConfig, blocks: Blocks, m: int, n: int, k: int, element_bytes: int, steps_per_k: int = 1, batch: int = 1
) -> float:
    """A closed-form time of the whole problem with these blocks, to rank candidates.

    Per K step the larger of the arrays' cycles and the step's loads at the
    DRAM's bandwidth; per program its output's store; programs spread over
    the cores; one DRAM latency to start.  `steps_per_k` repeats the K loop
    (a convolution's kh × kw filter taps), whose steps share one input window
    in the scratchpad (`window_transfer_bytes`): `a`'s block is loaded once
    over the taps, `b`'s at every step."""
    bandwidth = npu.dram_bytes_per_cycle
    steps = -(-k // blocks.k) * steps_per_k
    loads = (blocks.m / steps_per_k + blocks.n) * blocks.k * element_bytes / bandwidth
    store = blocks.m * blocks.n * element_bytes / bandwidth
    programs = -(-m // blocks.m) * -(-n // blocks.n) * batch
    per_program = steps * max(step_cycles(npu, blocks), loads) + store
    return -(-programs // npu.num_cores) * per_program + npu.dram_latency_cycles


def gemm_blocks(
    npu: NPUConfig, m: int, n: int, k: int, element_bytes: int = 4, *, batch: int = 1, steps_per_k: int = 1,
    count: int = CANDIDATES,
) -> list[Blocks]:  # fmt: skip
    """The blocks to offer for an (m × k) @ (k × n) product, `batch` of them, best estimate first.

    Each candidate fills the arrays where the problem allows (K blocks a
    multiple of the rows, N blocks of the columns, a multiple of `arrays`
    folds per dot, M blocks at least `rows` long) and fits the scratchpad
    (module docstring); they are ranked by `estimated_cycles`."""
    rows, cols = npu.systolic_array_rows, npu.systolic_array_cols
    # K beyond two folds' rows only lengthens a step; N up to 8 arrays' columns (A's reuse), M longer.
    candidates = [
        Blocks(block_m, block_n, block_k)
        for block_k in _ladder(k, rows, 2 * rows)
        for block_n in _ladder(n, cols, 8 * cols)
        for block_m in _ladder(m, rows, 16 * rows)
    ]
    candidates = [blocks for blocks in candidates if _tiles_triton_allows(blocks)]
    fitting = [blocks for blocks in candidates if fits(npu, blocks, element_bytes)]
    if not fitting:  # a scratchpad too small for even the array's blocks: the smallest
        fitting = [min(candidates, key=lambda blocks: scratchpad_bytes(blocks, element_bytes))]
    filled = [blocks for blocks in fitting if _fills(npu, blocks, m, n, k)] or fitting

    def rank(blocks: Blocks) -> tuple[float, int]:
        # Ties (equal estimates) go to the smaller scratchpad footprint.
        cycles = estimated_cycles(npu, blocks, m, n, k, element_bytes, steps_per_k, batch)
        return cycles, scratchpad_bytes(blocks, element_bytes)

    return sorted(filled, key=rank)[:count]


def _tiles_triton_allows(blocks: Blocks) -> bool:
    """Whether every tile of the blocks (`a`'s, `b`'s, the accumulator) has at most the
    elements Triton allows a tensor (`TRITON_MAX_TENSOR_NUMEL`, 2^20): tpuv6e's scratchpad
    holds a 1024 × 2048 accumulator, Triton does not."""
    from triton.language import TRITON_MAX_TENSOR_NUMEL

    return max(blocks.m * blocks.n, blocks.m * blocks.k, blocks.k * blocks.n) <= TRITON_MAX_TENSOR_NUMEL


def _fills(npu: NPUConfig, blocks: Blocks, m: int, n: int, k: int) -> bool:
    """Whether the blocks fill the arrays as far as the problem lets them (module docstring)."""
    rows, cols, arrays = npu.systolic_array_rows, npu.systolic_array_cols, npu.num_systolic_array_per_core
    k_ok = blocks.k % rows == 0 or blocks.k >= k
    n_ok = blocks.n % cols == 0 or blocks.n >= n
    m_ok = blocks.m >= rows or blocks.m >= m
    folds_ok = folds(npu, blocks) % arrays == 0 or blocks.n >= n
    return k_ok and n_ok and m_ok and folds_ok


# ---------------------------------------------------------------------------
# Inductor's side
# ---------------------------------------------------------------------------


def _hint(size: Any) -> int:
    from torch._inductor.virtualized import V

    return int(V.graph.sizevars.optimization_hint(size, fallback=8192))


def _triton_configs(blocks: list[Blocks], **extra: int) -> Generator[Any, None, None]:
    from torch._inductor import config
    from torch._inductor.runtime.triton_compat import Config

    limit = config.test_configs.max_mm_configs
    for index, chosen in enumerate(blocks):
        if limit is not None and index >= limit:
            return
        # num_stages 2: double-buffered operands; num_warps means nothing to tnpu.
        yield Config(
            {"BLOCK_M": chosen.m, "BLOCK_N": chosen.n, "BLOCK_K": chosen.k, **extra, "hint_override": None},  # pyright: ignore[reportCallIssue]
            num_stages=2, num_warps=4,
        )  # fmt: skip


def gemm_configs(m: Any, n: Any, k: Any, dtype_size: int = 4, **_: Any) -> Generator[Any, None, None]:
    """Inductor's config generator for the mm and bmm templates, on the NPU in force."""
    from tnpu.triton_backend.profile import npu_in_force

    yield from _triton_configs(gemm_blocks(npu_in_force(), _hint(m), _hint(n), _hint(k), dtype_size or 4), GROUP_M=8)


def conv_configs(m: Any, n: Any, k: Any, dtype_size: int = 4, **_: Any) -> Generator[Any, None, None]:
    """Inductor's config generator for the convolution templates: M = N·H·W pixels, N = output
    channels, K = input channels per filter tap, on the NPU in force."""
    from tnpu.triton_backend.profile import npu_in_force

    blocks = gemm_blocks(npu_in_force(), _hint(m), _hint(n), _hint(k), dtype_size or 4, steps_per_k=_filter_taps())
    yield from _triton_configs(blocks)


def _filter_taps() -> int:
    """The kh × kw (× kd) filter taps of the convolution Inductor is lowering: it passes the
    config generator M, N and K only; the taps are its FX node's weight's trailing sizes."""
    import torch.fx
    from torch._inductor.virtualized import V

    node = getattr(V.graph, "current_node", None)
    weight = node.args[1] if node is not None and len(node.args) > 1 else None
    value = weight.meta.get("val") if isinstance(weight, torch.fx.Node) else None
    return math.prod(_hint(size) for size in value.shape[2:]) if value is not None else 1


@functools.cache
def _heuristic_classes() -> tuple[type, type]:
    from torch._inductor.template_heuristics.triton import CPUConfigHeuristic, MMTemplateConfigMixin
    from torch._inductor.template_heuristics.triton_addmm import AddMMConfigMixin

    class NpuMMTemplateConfigHeuristic(MMTemplateConfigMixin, CPUConfigHeuristic):
        """mm/bmm template configurations from the NPU in force (tnpu.torch_backend.mappings)."""

        def _get_config_generator(self) -> Any:
            return gemm_configs

    class NpuAddmmTemplateConfigHeuristic(AddMMConfigMixin, NpuMMTemplateConfigHeuristic):
        """addmm/baddbmm: the same blocks, Inductor's bias epilogue."""

    return NpuMMTemplateConfigHeuristic, NpuAddmmTemplateConfigHeuristic


@functools.cache
def _choices_class() -> type:
    from torch._inductor import config as inductor_config
    from torch._inductor.choices import InductorChoices
    from torch._inductor.virtualized import V

    class NpuChoices(InductorChoices):
        """Inductor's choices: convolution configurations from the NPU in force for CPU tensors,
        and persistent reductions along any axis (module docstring)."""

        @staticmethod
        def should_use_persistent_reduction(features: Any, cooperative_reduction: bool) -> bool:
            if InductorChoices.should_use_persistent_reduction(features, cooperative_reduction):
                return True
            if not inductor_config.triton.persistent_reductions or cooperative_reduction:
                return False
            return V.graph.sizevars.statically_known_leq(features.reduction_numel, PERSISTENT_REDUCTION_LIMIT)

        def get_conv_configs(self, device_type: str | None = "cuda") -> Any:
            if device_type == "cpu":
                return conv_configs
            return super().get_conv_configs(device_type)

    return NpuChoices


PERSISTENT_REDUCTION_LIMIT = 1024
"""Longest reduction a program holds whole, along any axis: Inductor's limit along the minor axis."""


def reduction_rows(npu: NPUConfig) -> int:
    """Rows a persistent reduction's program is offered: a vector's sublanes at f32."""
    return max(1, npu.vector_width(32) // npu.vpu_num_lanes)


def persistent_blocks(npu: NPUConfig, along_major: bool) -> tuple[int, ...]:
    """`XBLOCK`s a persistent reduction is offered besides Inductor's: a vector's sublanes of
    rows; unless the reduction is along the minor axis (Inductor's hint `INNER`), also the
    lanes' width of columns, so that each DRAM run of a column block fills the lanes."""
    rows = reduction_rows(npu)
    return (rows, npu.vpu_num_lanes) if along_major else (rows,)


def _with_persistent_blocks(configs_of: Any) -> Any:
    """Inductor's persistent-reduction configurations, plus `persistent_blocks` for CPU
    tensors (module docstring)."""
    from torch._inductor.runtime import triton_heuristics
    from torch._inductor.runtime.hints import ReductionHint

    @functools.wraps(configs_of)
    def persistent_reduction_configs(size_hints: Any, reduction_hint: Any = False,
                                     inductor_meta: Any = None, triton_meta: Any = None) -> Any:  # fmt: skip
        from tnpu.triton_backend.profile import npu_in_force

        configs = configs_of(size_hints, reduction_hint, inductor_meta, triton_meta)
        if triton_meta["device"].type != "cpu" or "y" in size_hints:
            return configs
        offered = {config.kwargs.get("XBLOCK") for config in configs}
        for block in persistent_blocks(npu_in_force(), along_major=reduction_hint != ReductionHint.INNER):
            if block in offered or block > size_hints["x"]:
                continue
            config = triton_heuristics.triton_config_reduction(
                size_hints, block, triton_heuristics.get_total_reduction_numel(size_hints),
                register_intensive=True, reduction_hint=reduction_hint,
                warp_size=triton_meta["device"].warp_size_or_default,
            )  # fmt: skip
            for prefix in size_hints:
                if triton_heuristics.prefix_is_reduction(prefix):
                    config.kwargs.pop(f"{prefix.upper()}BLOCK")
            configs = [*configs, config]
        return configs

    return persistent_reduction_configs


@contextlib.contextmanager
def _persistent_blocks_offered() -> Iterator[None]:
    from torch._inductor.codegen.triton import TritonKernel
    from torch._inductor.runtime import triton_heuristics

    original = triton_heuristics._persistent_reduction_configs
    triton_heuristics._persistent_reduction_configs = _with_persistent_blocks(original)
    common = TritonKernel.__dict__["inductor_meta_common"]  # the classmethod itself, to put back
    TritonKernel.inductor_meta_common = classmethod(_naming_the_npu(common.__func__))  # pyright: ignore[reportAttributeAccessIssue]  # a classmethod assigned as Inductor defines it
    try:
        yield
    finally:
        triton_heuristics._persistent_reduction_configs = original
        TritonKernel.inductor_meta_common = common


def _naming_the_npu(meta_common: Any) -> Any:
    """Inductor's `inductor_meta` of every kernel, with the NPU in force's digest.

    A kernel's configurations (`persistent_blocks`) are computed when its
    module is loaded, and a loaded module is reused for the same source, in
    the process and from the disk: the digest in the source keeps a
    kernel compiled for one NPU from running with another's blocks."""
    from tnpu.triton_backend.profile import npu_in_force

    @functools.wraps(meta_common)
    def inductor_meta_common(cls: Any) -> dict[str, Any]:
        npu = npu_in_force()
        return {**meta_common(cls), "npu": f"{npu.name}-{npu.digest}"}

    return inductor_meta_common


@contextlib.contextmanager
def npu_mappings() -> Iterator[None]:
    """In the scope, Inductor's GEMM and convolution templates for CPU tensors are offered the
    NPU's blocks, and its persistent reductions blocks of rows and columns (module docstring)."""
    from torch._inductor.kernel.bmm import bmm_template
    from torch._inductor.kernel.mm import mm_template
    from torch._inductor.template_heuristics.registry import override_template_heuristics
    from torch._inductor.virtualized import V

    plain, with_bias = _heuristic_classes()
    with (
        override_template_heuristics("cpu", [(mm_template.uid, "mm"), (bmm_template.uid, "bmm")], plain),
        override_template_heuristics("cpu", [(mm_template.uid, "addmm"), (bmm_template.uid, "baddbmm")], with_bias),
        V.set_choices_handler(_choices_class()()),
        _persistent_blocks_offered(),
    ):
        yield


def describe(npu: NPUConfig, m: int, n: int, k: int, element_bytes: int = 4) -> str:
    """The candidates for one problem, one line each (for people and tests)."""
    lines = []
    for blocks in gemm_blocks(npu, m, n, k, element_bytes):
        cycles = estimated_cycles(npu, blocks, m, n, k, element_bytes)
        lines.append(
            f"BLOCK_M={blocks.m} BLOCK_N={blocks.n} BLOCK_K={blocks.k}: {folds(npu, blocks)} folds per dot, "
            f"{scratchpad_bytes(blocks, element_bytes) / 2**20:.1f} MB of scratchpad, ~{cycles:,.0f} cycles"
        )
    return "\n".join(lines)


__all__ = [
    "Blocks", "conv_configs", "describe", "estimated_cycles", "fits", "folds", "gemm_blocks", "gemm_configs",
    "npu_mappings", "scratchpad_bytes", "step_cycles",
]  # fmt: skip

