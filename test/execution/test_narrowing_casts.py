"""A value past the range of its type is an infinity in the float64 evaluation too.

Triton's `test_cast` (python/test/unit/language/test_core.py) converting
int64 to float16 was reported as a mismatch, "oracle differs from the
float64 evaluation ... inf vs 70124.0", though every rung agreed bit for
bit: past 65504 the conversion gives an infinity, and the evaluation,
computing in float64, kept the value.  The evaluation now keeps each value
in its own type's range (`tolerance.OVERFLOW`), so the narrowing casts of
test_cast match on every rung, and a rung that gets an overflow wrong is
still caught.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type
from kernel_cases import kernel_case, oracle, tensor

from tnpu.execution import runner
from tnpu.execution.rungs import RungResult
from tnpu.execution.runner import run_case
from tnpu.execution.tolerance import OVERFLOW, float64_reference
from tnpu.ttir_import import import_ttir

__all__ = ["oracle"]  # the module-scoped oracle fixture of kernel_cases

KERNELS = Path(__file__).resolve().parent / "cast_kernels.py"
SIZE = 1024
WIDE = (-100_000, 100_000)
"""int64 inputs past float16's range and int8's and int16's."""

CASTS = [
    # kernel, from, to, constexprs, input ranges, whether some values are past the target's range
    ("cast", "int64", "float16", {}, {"X": WIDE}, True),
    ("cast", "int64", "float32", {}, {"X": (-(2**62), 2**62)}, False),
    ("cast", "int64", "bfloat16", {}, {"X": WIDE}, False),  # an oracle fault: the TTIR interpreter stands in
    ("cast", "int64", "int8", {}, {"X": WIDE}, True),
    ("cast", "int64", "int16", {}, {"X": WIDE}, True),
    ("cast", "float32", "float16", {}, None, False),
    ("scaled_cast", "float32", "float16", {"SCALE": 30000.0}, None, True),
    ("cast", "float32", "bfloat16", {}, None, False),
    ("scaled_cast", "float32", "bfloat16", {"SCALE": 1.2e38}, None, True),
    ("scaled_cast", "float64", "float16", {"SCALE": 30000.0}, None, True),
    ("scaled_cast", "float64", "float32", {"SCALE": 1e38}, None, True),
    ("cast", "float32", "int32", {}, None, False),
]


def cast_case(directory: Path, kernel: str, source: str, target: str, constexprs: dict, ranges: dict | None):
    arguments = {"X": tensor(source, SIZE), "Z": tensor(target, SIZE)}
    return kernel_case(directory, kernel, arguments, {**constexprs, "SIZE": SIZE}, (1,), ranges, kernels=KERNELS)


@pytest.mark.parametrize(("kernel", "source", "target", "constexprs", "ranges", "past"), CASTS,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASTS])  # fmt: skip
def test_a_narrowing_cast_matches_on_every_rung(kernel, source, target, constexprs, ranges, past, tmp_path, oracle):
    result = run_case(cast_case(tmp_path, kernel, source, target, constexprs, ranges), mode="qemu", oracle=oracle)
    assert all(r.status == "ok" or r.name == "oracle" and result.oracle_fault for r in result.rungs), result.error
    assert result.match, result.mismatch
    assert result.no_float64 is None and result.stage_reached == "compare"
    if past:  # infinities, or integers wrapped
        ran = next(r for r in result.rungs if r.status == "ok").buffers
        z = ran["Z"].astype(np.float64)
        assert np.isinf(z).any() if target.startswith("float") else (z != ran["X"]).any()


class _Overflow:
    """qemu's answer with one element's overflow undone (the largest finite float16 for an
    infinity) or made up (an infinity for a finite element): a deliberately wrong rung."""

    modes = frozenset({"qemu"})

    def __init__(self, name: str, infinite: bool):
        self.name, self.infinite = name, infinite

    def run(self, context):  # noqa: ANN001, ANN201
        right = runner.RUNGS["qemu"].run(context)
        z = right.buffers["Z"].copy()
        index = int(np.argmax(np.isinf(z) == self.infinite))
        z[index] = np.copysign(np.finfo(np.float16).max, z[index]) if self.infinite else np.inf
        return RungResult(self.name, "ok", buffers={**right.buffers, "Z": z})


@pytest.mark.parametrize("infinite", [True, False], ids=["finite for inf", "inf for finite"])
def test_a_wrong_overflow_is_caught(infinite, tmp_path, oracle, monkeypatch):
    monkeypatch.setitem(runner.RUNGS, "wrong", _Overflow("wrong", infinite))
    result = run_case(cast_case(tmp_path, *CASTS[0][:5]), mode="qemu", oracle=oracle)
    assert [r.status for r in result.rungs] == ["ok"] * 5
    assert result.match is False
    assert result.mismatch.startswith(f"wrong differs from the float64 evaluation in 1 of {SIZE} elements")


TO_FLOAT16 = """
tt.func public @k(%X: !tt.ptr<i64>, %Z: !tt.ptr<f16>, %D: !tt.ptr<f16>) {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %p = tt.splat %X : !tt.ptr<i64> -> tensor<8x!tt.ptr<i64>>
  %q = tt.addptr %p, %r : tensor<8x!tt.ptr<i64>>, tensor<8xi32>
  %x = tt.load %q : tensor<8x!tt.ptr<i64>>
  %z = arith.sitofp %x : tensor<8xi64> to tensor<8xf16>
  %d = arith.subf %z, %z : tensor<8xf16>
  %s = tt.splat %Z : !tt.ptr<f16> -> tensor<8x!tt.ptr<f16>>
  %t = tt.addptr %s, %r : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  tt.store %t, %z : tensor<8x!tt.ptr<f16>>
  %u = tt.splat %D : !tt.ptr<f16> -> tensor<8x!tt.ptr<f16>>
  %v = tt.addptr %u, %r : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  tt.store %v, %d : tensor<8x!tt.ptr<f16>>
  tt.return
}"""


def test_the_evaluation_rounds_past_the_range_to_infinity_and_computes_on():
    x = np.array([100, 60000, 65504, 65519, 65520, 70124, -70124, 2**40], np.int64)
    zeros = np.zeros(8, np.float16)
    reference = float64_reference(import_ttir(TO_FLOAT16), "k", ["X", "Z", "D"], [x, zeros, zeros], (1,))
    inf = np.inf
    assert OVERFLOW[Float16Type] == 65520
    np.testing.assert_array_equal(reference.values["Z"], [100, 60000, 65504, 65519, inf, inf, -inf, inf])
    # Within its bound (half an ulp) of 65520 a value may round either way (in a rung that
    # computed it with another error): its bound is infinite, and any value matches.
    bounds = reference.bounds["Z"]
    assert np.all(np.isfinite(bounds[:2])) and np.all(np.isinf(bounds[2:5])) and np.all(bounds[5:] == 0)
    # Later ops see the infinity: inf - inf is NaN, as in every rung, not 0.
    np.testing.assert_array_equal(np.isnan(reference.values["D"]), [False] * 4 + [True] * 4)


def test_an_integer_mismatch_names_the_rung_it_was_compared_with(tmp_path, oracle):
    """Integers are compared with the reference rung, also where a float64 evaluation exists.

    float32 -> int32 past int32's range is undefined (LLVM's fptosi gives
    poison): tnpu saturates, as PTX's cvt.rzi.sat does, and Triton's
    interpreter answers what numpy does on x86 (INT_MIN).  test_cast keeps
    its values in range; out of it, the rungs differ, and the mismatch says
    from what."""
    result = run_case(cast_case(tmp_path, "scaled_cast", "float32", "int32", {"SCALE": 1e10}, None),
                      mode="qemu", oracle=oracle)  # fmt: skip
    assert result.no_float64 is None and result.reference == "oracle"
    assert result.match is False and result.mismatch.startswith("ttir differs from oracle in ")
    z = next(r for r in result.rungs if r.name == "ttir").buffers["Z"]
    assert {z.min(), z.max()} == {np.iinfo(np.int32).min, np.iinfo(np.int32).max}
