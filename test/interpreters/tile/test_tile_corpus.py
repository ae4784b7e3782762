"""Every Inductor corpus kernel lowers to tile IR, and the tile interpreter agrees
with the TTIR interpreter on it, or the lowering refuses it for a reason listed here.

The comparison with Triton's interpreter itself is `tnpu sweep
test/fixtures/corpus/inductor --jobs 2` (the oracle needs tens of seconds a
case); here the TTIR interpreter is the reference, on the same generated
inputs, so a wrong DMA descriptor, a wrong lowering of an op or a wrong
interpretation of a tile op fails, as does a bounds check or device assert.
"""

from __future__ import annotations

import pytest
from conftest import INDUCTOR_CASES, case_id

from tnpu.execution.case import load_case
from tnpu.execution.runner import run_case

LIBDEVICE_CALLS = [
    "attention__triton_per_fused__softmax_abs_all_amax_eq_mul_ne_sub_view_5",
    "attention_causal__triton_per_fused__softmax_bitwise_not_masked_fill_mul_ones_tril_view_1",
    "batch_norm_train__triton_poi_fused__native_batch_norm_legit_1",
    "batch_norm_train_running__triton_poi_fused__native_batch_norm_legit_functional_1",
    "cross_entropy__triton_per_fused__log_softmax_0",
    "ew_activations_misc__triton_poi_fused_add_elu_hardsigmoid_hardswish_leaky_relu_mish_softplus_0",
    "ew_clamp_abs_sign__triton_poi_fused_abs_add_ceil_clamp_floor_fmod_mul_round_sign_0",
    "ew_exp2_log__triton_poi_fused_abs_add_exp_exp2_expm1_log_log1p_log2_0",
    "ew_gelu_erf__triton_poi_fused_gelu_0",
    "ew_gelu_tanh__triton_poi_fused_gelu_0",
    "ew_isnan_where__triton_poi_fused__to_copy_add_isinf_isnan_mul_nan_to_num_where_zeros_like_0",
    "ew_pow__triton_poi_fused_abs_add_pow_sqrt_0",
    "ew_silu__triton_poi_fused_silu_0",
    "ew_tanh__triton_poi_fused_tanh_0",
    "ew_trig_erf__triton_poi_fused_add_asinh_atan_atan2_cos_erf_mul_sin_0",
    "group_norm__triton_poi_fused_native_group_norm_1",
    "layer_norm__triton_per_fused_native_layer_norm_0",
    "layer_norm_bf16__triton_per_fused_native_layer_norm_0",
    "layer_norm_dynamic__triton_per_fused_native_layer_norm_0",
    "layer_norm_train__triton_per_fused_native_layer_norm_0",
    "log_softmax__triton_per_fused__log_softmax_0",
    "red_logsumexp__triton_per_fused_logsumexp_0",
    "rms_norm__triton_per_fused_add_mean_mul_pow_rsqrt_0",
    "rms_norm_train__triton_per_fused_add_mean_mul_pow_rsqrt_0",
    "softmax__triton_per_fused__softmax_0",
    "softmax_dim0__triton_poi_fused__softmax_2",
    "softmax_dynamic__triton_red_fused__softmax_0",
    "softmax_large__triton_red_fused__softmax_0",
    "swiglu_block__triton_per_fused_add_mean_mul_pow_rsqrt_0",
    "swiglu_block__triton_tem_fused_mm_mul_silu_t_2",
]
"""Cases calling libdevice: `tnpu-to-tile` does not run `lower-libdevice` yet."""

REFUSED: dict[str, str] = {
    "inline_asm_fma__triton_poi_fused_relu_0": "tt.elementwise_inline_asm",
    "cumprod_logcumsumexp__triton_per_fused_add_cumprod_logcumsumexp_0":
        "combine region holds 'tt.extern_elementwise'",
    **dict.fromkeys(LIBDEVICE_CALLS, "library call left; run lower-libdevice first"),
}
"""Cases the lowering refuses, with a part of its one-line reason."""


@pytest.fixture(autouse=True)
def interpreter_rungs_only(monkeypatch):
    from tnpu.execution import rungs

    monkeypatch.setattr(rungs, "RUNGS", {name: rungs.RUNGS[name] for name in ("ttir", "tile")})
    monkeypatch.setattr("tnpu.execution.runner.RUNGS", rungs.RUNGS)


@pytest.mark.parametrize("directory", INDUCTOR_CASES, ids=case_id)
def test_tile_interpreter_matches_ttir_interpreter(directory):
    result = run_case(load_case(directory))
    ttir, tile = result.rungs
    if directory.name in REFUSED:
        assert tile.status == "refused", "the lowering now accepts it: drop it from REFUSED"
        assert REFUSED[directory.name] in tile.message
        assert "\n" not in tile.message
        return
    assert ttir.status == "ok", ttir.message
    assert tile.status == "ok", tile.message
    assert result.match, result.mismatch
