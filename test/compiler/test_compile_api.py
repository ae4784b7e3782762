"""The compile API: TTIR lowered once, each target's artefacts built once, refusals raised once.

The pipelines `tnpu-opt` runs and the API share their steps: for corpus
kernels, `-p tnpu-to-rvv -t tnpu-riscv-asm` prints the API's assembly and
`-p tnpu-to-npu{config=...}` its NPU tile IR, byte for byte.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest
from conftest import CORPUS, print_module
from xdsl.utils.exceptions import ParseError

import tnpu
from tnpu.compiler.kernel import Kernel, compile_ttir
from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.diagnostics import CompileError, InternalError
from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import load_npu_config, npu_config_from_mapping
from tnpu.tools.tnpu_opt import main as tnpu_opt
from tnpu.ttir_import import import_ttir

INDUCTOR = CORPUS / "inductor"
SOFTMAX = INDUCTOR / "softmax__triton_per_fused__softmax_0" / "kernel.ttir"
INLINE_ASM = INDUCTOR / "inline_asm_fma__triton_poi_fused_relu_0" / "kernel.ttir"
AGREEING = [
    "softmax__triton_per_fused__softmax_0",
    "ew_gelu_erf__triton_poi_fused_gelu_0",
    "mm__triton_tem_fused_mm_0",
    "layer_norm_bf16__triton_per_fused_native_layer_norm_0",
    "cumprod_logcumsumexp__triton_per_fused_add_cumprod_logcumsumexp_0",
]
"""Kernels with math ops each target treats differently, a matmul, bf16 and a scan."""


@pytest.fixture
def lowerings(monkeypatch):
    """How many times tnpu-to-tile runs."""
    calls = []
    apply = TnpuToTilePipeline.apply

    def counted(self, ctx, op):
        calls.append(op)
        apply(self, ctx, op)

    monkeypatch.setattr(TnpuToTilePipeline, "apply", counted)
    return calls


def test_a_kernel_is_lowered_once_and_every_artefact_built_once(lowerings):
    kernel = compile_ttir(SOFTMAX.read_text(), source=str(SOFTMAX))
    assert kernel.name == "triton_per_fused__softmax_0"
    assert not [op.name for op in kernel.ttir.walk() if op.name.startswith("tile.")]
    assert kernel.tile_kernel.sym_name.data == kernel.name
    tile_ir = print_module(kernel.tile)
    tpuv3, tpuv6e = load_npu_config("tpuv3"), load_npu_config("tpuv6e")
    assert kernel.rvv is kernel.rvv and kernel.tile is kernel.tile
    assert kernel.timer(tpuv3) is kernel.timer(load_npu_config("tpuv3"))
    assert kernel.timer(tpuv6e) is not kernel.timer(tpuv3)
    assert kernel.timer(tpuv6e).npu is tpuv6e
    assert len(lowerings) == 1
    # The targets transform copies: the shared tile IR is as tnpu-to-tile left it.
    assert print_module(kernel.tile) == tile_ir
    assert "math.exp" in tile_ir
    assert "math.exp" not in print_module(kernel.rvv.tile)
    assert "math.exp" in print_module(kernel.npu_tile(tpuv3))


def test_configurations_that_agree_on_native_math_share_their_tile_ir():
    kernel = compile_ttir(SOFTMAX.read_text())
    tpuv3, tpuv6e = load_npu_config("tpuv3"), load_npu_config("tpuv6e")
    assert kernel.npu_tile(tpuv3) is kernel.npu_tile(tpuv6e)
    bare = npu_config_from_mapping({"base": "tpuv3", "vpu_native_math_ops": []}, "bare")
    assert kernel.npu_tile(bare) is not kernel.npu_tile(tpuv3)
    assert "math." not in print_module(kernel.npu_tile(bare))
    # Expanding exp on the vector unit costs cycles.
    launch = Launch((64, 1, 1), [None, None, 64, 100])
    assert kernel.timer(bare).time(launch).cycles > kernel.timer(tpuv3).time(launch).cycles


def test_the_elf_is_built_once_and_runs():
    rvv = compile_ttir(SOFTMAX.read_text()).rvv
    assert rvv.elf is rvv.elf and rvv.elf.is_file()
    assert rvv.code.argument_types == ("float *", "float *", "int32_t", "int32_t")
    assert rvv.code.written_buffers == frozenset({0})
    assert rvv.assembly == rvv.code.assembly and f"tnpu_kernel_{rvv.code.name}:" in rvv.assembly


def test_a_refusal_is_one_line_naming_the_op_and_is_raised_once(lowerings):
    with pytest.raises(CompileError) as refusal:
        compile_ttir(INLINE_ASM.read_text(), source="kernel.ttir")
    message = str(refusal.value)
    assert message.startswith("kernel.ttir:") and "\n" not in message
    assert "'tt.elementwise_inline_asm' op cannot be lowered" in message
    kernel = Kernel(import_ttir(INLINE_ASM.read_text()))
    errors = []
    for build in (lambda: kernel.tile, lambda: kernel.rvv, lambda: kernel.timer(load_npu_config("tpuv3"))):
        with pytest.raises(CompileError) as again:
            build()
        errors.append(again.value)
    assert errors[0] is errors[1] is errors[2]
    assert len(lowerings) == 2  # once by compile_ttir, once for the lazy kernel


def test_the_kernel_is_named_or_the_only_public_function():
    module = import_ttir(SOFTMAX.read_text())
    assert Kernel(module, "triton_per_fused__softmax_0").name == Kernel(module).name
    with pytest.raises(CompileError, match="has no tt.func named 'other'"):
        Kernel(module, "other")


def test_malformed_text_is_a_parse_error_naming_its_source():
    with pytest.raises(ParseError) as error:
        compile_ttir("tt.func @f( {", source="mine.ttir")
    assert error.value.span.get_location().file == "mine.ttir"


def test_the_api_is_reexported_from_the_package():
    assert tnpu.compile_ttir is compile_ttir and tnpu.Kernel is Kernel
    with pytest.raises(AttributeError):
        tnpu.not_an_api  # noqa: B018


def test_the_api_and_the_timer_do_not_import_the_harness():
    code = (
        "import sys, tnpu.compiler, tnpu.timing.timer\n"
        "print([m for m in sys.modules if m.startswith('tnpu.execution')])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def run_tnpu_opt(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tnpu_opt(list(args))
    return out.getvalue()


@pytest.mark.parametrize("name", AGREEING)
def test_tnpu_opt_prints_what_the_api_compiles(name):
    path = INDUCTOR / name / "kernel.ttir"
    kernel = compile_ttir(path.read_text(), source=str(path))
    assert run_tnpu_opt(str(path), "-p", "tnpu-to-rvv", "-t", "tnpu-riscv-asm") == kernel.rvv.assembly
    assert run_tnpu_opt(str(path), "-p", "tnpu-to-rvv").rstrip() == print_module(kernel.rvv.ir)
    for preset in ("tpuv3", "tpuv6e"):
        npu_ir = run_tnpu_opt(str(path), "-p", f"tnpu-to-npu{{config={preset}}}")
        assert npu_ir.rstrip() == print_module(kernel.npu_tile(load_npu_config(preset)))


def test_a_bug_in_a_pass_is_one_line_naming_the_pass_and_the_op(monkeypatch):
    """An exception that is not a diagnostic is an internal error: the pass, the TTIR op
    it was lowering and its line, the exception; through the API and tnpu-opt alike."""
    from tnpu.dialects import tt
    from tnpu.lowering.ttir_to_tile import LOWERINGS

    def broken(lowering, op):  # noqa: ANN001, ANN202
        return {}[op.name]

    monkeypatch.setitem(LOWERINGS, tt.MakeRangeOp, broken)
    text = SOFTMAX.read_text()
    with pytest.raises(InternalError) as error:
        compile_ttir(text, source="softmax.ttir")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "tt.make_range" in row)
    assert str(error.value) == (
        f"internal error in ttir-to-tile at 'tt.make_range' (softmax.ttir:{line}:5): KeyError: 'tt.make_range'"
    )
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit:
        tnpu_opt([str(SOFTMAX), "-p", "tnpu-to-tile"])
    assert exit.value.code == 1
    assert err.getvalue().count("\n") == 1
    assert err.getvalue().startswith(
        f"tnpu-opt: internal error in ttir-to-tile at 'tt.make_range' ({SOFTMAX}:{line}:5): KeyError"
    )
