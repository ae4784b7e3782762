"""The oracle: Triton's interpreter in a worker, with libdevice stand-ins, asserts on,
custom reductions and scans on whole arrays; and the interpreter's known limitations."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tnpu.execution.oracle import Oracle, OracleError, OracleRequest, TensorData
from tnpu.execution.oracle_faults import ORACLE_FAULTS
from tnpu.execution.rungs import TRITON_INTERPRETER_LIMITATIONS

KERNELS = textwrap.dedent(
    """
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice


    @triton.jit
    def exp_kernel(x, y, B: tl.constexpr):
        r = tl.arange(0, B)
        tl.store(y + r, libdevice.exp(tl.load(x + r)))


    @triton.jit
    def assert_kernel(x, B: tl.constexpr):
        r = tl.arange(0, B)
        tl.device_assert(tl.load(x + r) < 100.0, "too big")


    @triton.jit
    def compose(a_scale, a_shift, b_scale, b_shift):
        # x -> b(a(x)), for x -> scale * x + shift: associative, not commutative.
        return a_scale * b_scale, a_shift * b_scale + b_shift


    @triton.jit
    def compose_kernel(scale, shift, reduced_scale, reduced_shift, scan_scale, scan_shift,
                       R: tl.constexpr, C: tl.constexpr):
        rows = tl.arange(0, R)
        i = rows[:, None] * C + tl.arange(0, C)[None, :]
        s, t = tl.load(scale + i), tl.load(shift + i)
        reduced = tl.reduce((s, t), 1, compose)
        tl.store(reduced_scale + rows, reduced[0])
        tl.store(reduced_shift + rows, reduced[1])
        scanned = tl.associative_scan((s, t), 1, compose)
        tl.store(scan_scale + i, scanned[0])
        tl.store(scan_shift + i, scanned[1])


    @triton.jit
    def maximum_with_index(a_value, a_index, b_value, b_index):
        # Inductor's argmax combine: NaN wins, then the larger value, then the lower index.
        mask = a_value > b_value
        equal = a_value == b_value
        a_isnan = a_value != a_value
        b_isnan = b_value != b_value
        mask |= a_isnan & (not b_isnan)
        equal |= a_isnan & b_isnan
        mask |= equal & (a_index < b_index)
        return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)


    @triton.jit
    def argmax_kernel(x, out, R: tl.constexpr, C: tl.constexpr):
        rows = tl.arange(0, R)
        columns = tl.broadcast_to(tl.arange(0, C)[None, :], (R, C))
        values = tl.load(x + rows[:, None] * C + columns)
        _, index = tl.reduce((values, columns), 1, maximum_with_index)
        tl.store(out + rows, index)
    """
)


@pytest.fixture(scope="module")
def oracle():
    with Oracle() as process:
        yield process


@pytest.fixture(scope="module")
def kernels(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("oracle") / "kernels.py"
    path.write_text(KERNELS)
    return str(path)


def tensor(storage: np.ndarray, shape: tuple[int, ...] | None = None) -> TensorData:
    shape = shape or storage.shape
    strides = tuple(int(np.prod(shape[i + 1 :])) for i in range(len(shape)))
    return TensorData(storage.reshape(-1), shape, strides)


def test_libdevice_calls_use_the_reference_stand_ins(oracle, kernels):
    x = np.linspace(-2, 2, 8, dtype=np.float32)
    args = [tensor(x), tensor(np.zeros(8, np.float32))]
    response = oracle.run(OracleRequest(kernels, "exp_kernel", args, {"B": 8}, (1, 1, 1)))
    assert response.error is None and response.libdevice_symbols == ["__nv_expf"]
    assert np.array_equal(response.buffers[1], np.exp(x.astype(np.float64)).astype(np.float32))


def test_device_asserts_are_on(oracle, kernels):
    x = np.array([1, 2, 300, 4], np.float32)
    response = oracle.run(OracleRequest(kernels, "assert_kernel", [tensor(x)], {"B": 4}, (1, 1, 1)))
    assert response.error is not None and "too big" in response.error


def sequential_compose(scale: np.ndarray, shift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inclusive scans of `compose` along the last axis, one element after another."""
    scales, shifts = [scale[:, 0]], [shift[:, 0]]
    for column in range(1, scale.shape[1]):
        scales.append(scales[-1] * scale[:, column])
        shifts.append(shifts[-1] * scale[:, column] + shift[:, column])
    return np.stack(scales, axis=1), np.stack(shifts, axis=1)


def test_custom_reduce_and_scan_keep_the_operand_order(oracle, kernels):
    """Whole-array evaluation may regroup an associative combine, never reorder it:
    composing affine maps in wrapping int32 has one right answer per order."""
    rng = np.random.default_rng(0)
    scale = rng.integers(-9, 10, (4, 16)).astype(np.int32)
    shift = rng.integers(-9, 10, (4, 16)).astype(np.int32)
    outputs = [np.zeros(4, np.int32), np.zeros(4, np.int32), np.zeros(64, np.int32), np.zeros(64, np.int32)]
    args = [tensor(scale), tensor(shift), *map(tensor, outputs)]
    response = oracle.run(OracleRequest(kernels, "compose_kernel", args, {"R": 4, "C": 16}, (1, 1, 1)))
    assert response.error is None, response.error
    with np.errstate(over="ignore"):
        scan_scale, scan_shift = sequential_compose(scale, shift)
    assert np.array_equal(response.buffers[2], scan_scale[:, -1])
    assert np.array_equal(response.buffers[3], scan_shift[:, -1])
    assert np.array_equal(response.buffers[4], scan_scale.reshape(-1))
    assert np.array_equal(response.buffers[5], scan_shift.reshape(-1))


def test_combine_asking_truth_of_data_runs_element_by_element(oracle, kernels):
    """`not b_isnan` is Python's `not`: right on one element, wrong on an array,
    so this combine must run (and NaN must win) one element at a time."""
    x = np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32)
    x[1, 5] = x[2, 0] = x[2, 6] = np.nan
    out = np.zeros(4, np.int32)
    response = oracle.run(OracleRequest(kernels, "argmax_kernel", [tensor(x), tensor(out)], {"R": 4, "C": 8}, (1, 1, 1)))
    assert response.error is None, response.error
    assert response.buffers[1].tolist() == [int(np.argmax(x[0])), 5, 0, int(np.argmax(x[3]))]


def test_a_dead_or_stuck_worker_is_reported_and_replaced(kernels, tmp_path):
    dying = tmp_path / "dying.py"
    dying.write_text("import os, sys\nprint('going down', file=sys.stderr, flush=True)\nos._exit(3)\n")
    stuck = tmp_path / "stuck.py"
    stuck.write_text("import time\ntime.sleep(600)\n")
    x = np.array([1, 2, 3, 4], np.float32)
    healthy = OracleRequest(kernels, "assert_kernel", [tensor(x)], {"B": 4}, (1, 1, 1))
    with Oracle() as oracle:
        assert oracle.run(healthy).error is None  # warm: the worker's imports are done
        oracle.timeout = 5
        with pytest.raises(OracleError, match="took more than 5 s"):
            oracle.run(OracleRequest(str(stuck), "kernel", [], {}, (1, 1, 1)))
        oracle.timeout = 600
        with pytest.raises(OracleError, match="process died: going down"):
            oracle.run(OracleRequest(str(dying), "kernel", [], {}, (1, 1, 1)))
        assert oracle.run(healthy).error is None


@pytest.fixture(scope="module")
def stock_interpreter_outcomes(tmp_path_factory) -> dict:
    """What the stock interpreter does with each minimal reproducer."""
    script = Path(__file__).with_name("interpreter_limitations.py")
    cache = tmp_path_factory.mktemp("triton-cache")
    env = dict(os.environ, TRITON_INTERPRET="1", TRITON_CACHE_DIR=str(cache))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


LIMITATIONS = {limitation.name: limitation for limitation in TRITON_INTERPRETER_LIMITATIONS}
FAULTS = {fault.name: fault for fault in ORACLE_FAULTS}


def test_every_limitation_and_fault_has_a_reproducer(stock_interpreter_outcomes):
    assert set(stock_interpreter_outcomes) == set(LIMITATIONS) | set(FAULTS)


def test_scalar_comparison_in_a_mask_is_rejected(stock_interpreter_outcomes):
    outcome = stock_interpreter_outcomes["scalar-comparison-mask"]
    assert LIMITATIONS["scalar-comparison-mask"].error in outcome.get("error", ""), outcome


def test_bf16_dot_multiplies_bit_patterns(stock_interpreter_outcomes):
    """ones(16, 16) @ ones(16, 16) is 16; the interpreter multiplies 0x3F80 (16256) by itself."""
    assert stock_interpreter_outcomes["bf16-dot"] == {"values": [16 * 16256.0**2] * 2}


def bf16_bits(values: list[float]) -> list[int]:
    import ml_dtypes

    return np.array(values, np.float32).astype(ml_dtypes.bfloat16).view(np.uint16).tolist()


def test_bf16_arithmetic_computes_on_bit_patterns(stock_interpreter_outcomes):
    """x = 0.945 (0x3F72) and -0.5 (0xBF00): numpy's uint16 negation, maximum, clip and add."""
    negated, maximum, clamped, doubled = np.array(stock_interpreter_outcomes["bf16-arithmetic"]["values"]).reshape(4, 2)
    x = np.array([0x3F72, 0xBF00], np.uint16)
    with np.errstate(over="ignore"):
        assert bf16_bits(negated.tolist()) == (-x).tolist()  # right: [-0.945, 0.5]
        assert bf16_bits(maximum.tolist()) == np.maximum(x, -x).tolist()  # right: [0.945, 0.5]
        assert bf16_bits(doubled.tolist()) == (x + x).tolist()  # right: [1.89, -1.0]
    # clamp of -0.5 to [-0.0023, 0.0023] compares bit patterns: 0xBF00 is "above" 0x3B17.
    assert clamped[1] > 0, clamped


def test_bf16_conversion_stores_the_integer_as_bits(stock_interpreter_outcomes):
    """70 becomes the bf16 whose bits are 70; and torch cannot be the reference for
    2**24 + 2**16 + 1, which it rounds twice (through f32, to a tie, to even: 2**24)."""
    outcome = stock_interpreter_outcomes["bf16-conversion"]["values"]
    assert bf16_bits(outcome["kernel"]) == [70, (2**24 + 2**16 + 1) & 0xFFFF]
    assert outcome["torch"] == [70.0, 2.0**24]  # once rounded, it is 2**24 + 2**17


def test_inline_asm_is_not_implemented(stock_interpreter_outcomes):
    outcome = stock_interpreter_outcomes["inline-asm"]
    assert LIMITATIONS["inline-asm"].error in outcome.get("error", ""), outcome
