"""Minimal reproducers of the Triton-interpreter limitations and faults in docs/oracle-exceptions.md.

Each kernel is written by hand, as small as the limitation allows, and runs
on the stock interpreter (no tnpu code involved):

    TRITON_INTERPRET=1 python test/execution/interpreter_limitations.py

prints one JSON object: for each limitation and oracle fault, by the name
tnpu's oracle gives it, the error the interpreter raised or the values it
computed.
`test_execution_oracle.py` runs this and checks each outcome, so a Triton
that fixes a limitation fails the check and the exception can go.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import torch
import triton
import triton.language as tl


@triton.jit
def scalar_comparison_mask(y, B: tl.constexpr):
    r = tl.arange(0, B)
    tl.store(y + r, r + 0.0, (r < 3) & (tl.program_id(0) < 2))


@triton.jit
def bf16_dot(a, b, c, N: tl.constexpr):
    r = tl.arange(0, N)
    i = r[:, None] * N + r[None, :]
    tl.store(c + i, tl.dot(tl.load(a + i), tl.load(b + i)))


@triton.jit
def bf16_arithmetic(x, out, B: tl.constexpr):
    r = tl.arange(0, B)
    v = tl.load(x + r)
    tl.store(out + r, -v)
    tl.store(out + B + r, tl.maximum(v, -v))
    tl.store(out + 2 * B + r, tl.clamp(v, -0.0023, 0.0023))
    tl.store(out + 3 * B + r, v + v)


@triton.jit
def bf16_conversion(x, y, B: tl.constexpr):
    r = tl.arange(0, B)
    tl.store(y + r, tl.load(x + r).to(tl.bfloat16))


@triton.jit
def inline_asm(x, y, B: tl.constexpr):
    r = tl.arange(0, B)
    v = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x + r)], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y + r, v)


def outcome(run: Callable[[], Any]) -> dict[str, Any]:
    try:
        return {"values": run()}
    except Exception as error:  # the interpreter wraps the cause in an InterpreterError
        cause = error.__cause__ or error
        return {"error": f"{type(cause).__name__}: {cause}"}


def run_scalar_comparison_mask() -> list[float]:
    y = torch.zeros(4)
    scalar_comparison_mask[(1,)](y, B=4)
    return y.tolist()


def run_bf16_dot() -> list[float]:
    ones = torch.ones(16, 16, dtype=torch.bfloat16)
    c = torch.zeros(16, 16)
    bf16_dot[(1,)](ones, ones, c, N=16)
    return c[0, :2].tolist()


def run_bf16_arithmetic() -> list[float]:
    """-x, max(x, -x), clamp(x, -0.0023, 0.0023), x + x for x = 0.945 and -0.5."""
    x = torch.tensor([0.945, -0.5], dtype=torch.bfloat16)
    out = torch.zeros(8, dtype=torch.bfloat16)
    bf16_arithmetic[(1,)](x, out, B=2)
    return out.float().tolist()


def run_bf16_conversion() -> dict[str, list[float]]:
    """int32 70 and 2**24 + 2**16 + 1 to bf16 in the kernel, and torch's conversion of the same."""
    x = torch.tensor([70, 2**24 + 2**16 + 1], dtype=torch.int32)
    y = torch.zeros(2, dtype=torch.bfloat16)
    bf16_conversion[(1,)](x, y, B=2)
    return {"kernel": y.float().tolist(), "torch": x.to(torch.bfloat16).float().tolist()}


def run_inline_asm() -> list[float]:
    x = torch.arange(4, dtype=torch.float32)
    y = torch.zeros(4)
    inline_asm[(1,)](x, y, B=4)
    return y.tolist()


if __name__ == "__main__":
    print(json.dumps({
        "scalar-comparison-mask": outcome(run_scalar_comparison_mask),
        "bf16-dot": outcome(run_bf16_dot),
        "bf16-arithmetic": outcome(run_bf16_arithmetic),
        "bf16-conversion": outcome(run_bf16_conversion),
        "inline-asm": outcome(run_inline_asm),
    }))
