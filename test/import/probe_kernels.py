"""Hand-written Triton kernels that make Triton 3.9 emit every TTIR op it has.

Inductor's corpus uses a third of Triton's op set; these kernels produce the
rest (joins and splits, histograms, gathers, every atomic, inline asm, fp8
conversions, pointer casts, dots with every precision, MX dots, tensor
descriptors, device functions, prints and asserts, loops and branches, a spin lock), so
tests can compare what tnpu prints with what Triton prints for all of them.

`PROBES` lists each kernel with the signature and constexprs to compile it
with, and the target: sm_90 keeps tensor descriptors and fp8e4nv, which sm_80
rewrites or refuses.  Triton 3.9 no longer builds block pointers
(`tl.make_block_ptr`); test/dialects/tt/block_pointers.mlir has them in
Triton 3.6's syntax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait, libdevice


@triton.jit
def shapes(X, Y, Z, I, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(X + r, mask=r < n, other=0.0)
    y = tl.load(Y + r)
    joined = tl.join(x, y)
    lo, hi = tl.split(tl.reshape(y, (BLOCK // 2, 2)))
    square = tl.reshape(x, (BLOCK // 16, 16))
    permuted = tl.permute(tl.reshape(x, (2, BLOCK // 32, 16)), (2, 0, 1))
    both = tl.cat(x, y, can_reorder=True)
    i = tl.load(I + r)
    counts = tl.histogram(i, 16)
    masked_counts = tl.histogram(i, 16, mask=r < n)
    picked = tl.gather(x, i, 0)
    tl.store(Z + r, picked)
    tl.store(Z + tl.arange(0, BLOCK // 2), lo + hi)
    tl.store(Z + tl.arange(0, 2 * BLOCK), tl.reshape(joined, (2 * BLOCK,)))
    tl.store(Z + tl.arange(0, 2 * BLOCK), both)
    tl.store(I + tl.arange(0, 16), counts + masked_counts)
    flat = tl.reshape(tl.trans(square), (BLOCK,)) + tl.reshape(permuted, (BLOCK,))
    tl.store(Z + r, flat)
    first, second = tl.split(tl.load(X + tl.arange(0, 2)))
    tl.store(Y, first + second)


@triton.jit
def memory(X, Y, K, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    m = r < n
    x = tl.load(X + r, mask=m, other=1.0, cache_modifier=".cg", eviction_policy="evict_first",
                volatile=True)
    y = tl.load(Y + r, mask=m, eviction_policy="evict_last")
    k = tl.load(K + r, cache_modifier=".ca")
    tl.store(Y + r, x + y + k, mask=m, cache_modifier=".wt", eviction_policy="evict_last")
    tl.store(Y + r, x, cache_modifier=".cs")
    s = tl.load(X)
    tl.store(Y, s + 1.0)
    ms = tl.load(X + n, mask=n > 0, other=0.0)
    tl.store(Y + n, ms, mask=n > 0)


@triton.jit
def atomics(X, Y, I, U, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    m = r < n
    x = tl.load(X + r)
    i = tl.load(I + r)
    u = tl.load(U + r)
    a = tl.atomic_add(X + r, x, mask=m)
    a += tl.atomic_add(X + r, x, sem="relaxed", scope="cta")
    a += tl.atomic_xchg(X + r, x, mask=m, sem="release", scope="sys")
    a += tl.atomic_max(X + r, x, sem="acquire")
    ii = tl.atomic_add(I + r, i) + tl.atomic_max(I + r, i) + tl.atomic_min(I + r, i, mask=m)
    ii += tl.atomic_and(I + r, i, mask=m) + tl.atomic_or(I + r, i) + tl.atomic_xor(I + r, i)
    uu = tl.atomic_max(U + r, u) + tl.atomic_min(U + r, u)
    ii += tl.atomic_cas(I + r, i, i + 1)
    s = tl.atomic_add(X, 1.0)
    s2 = tl.atomic_cas(I, 0, 1, sem="relaxed", scope="gpu")
    tl.store(Y + r, a + ii.to(tl.float32) + uu.to(tl.float32) + s + s2)
    tl.store(Y + r, tl.atomic_load(X + r, mask=m, sem="acquire", scope="gpu"))
    tl.store(Y, tl.atomic_load(X, sem="relaxed", scope="cta"))
    tl.atomic_store(X + r, x, mask=m, sem="release", scope="gpu")
    tl.atomic_store(X, 1.0, sem="relaxed", scope="sys")
    ready = tl.atomic_poll(I + r, i, sem="acquire", scope="gpu")
    tl.store(Y + r, ready.to(tl.float32))


@triton.jit
def conversions(X, Y, F8, ADDR, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(X + r)
    e5 = x.to(tl.float8e5, fp_downcast_rounding="rtz")
    e4 = x.to(tl.float8e4nv, fp_downcast_rounding="rtne")
    tl.store(F8 + r, e5)
    tl.store(F8 + r, e4.to(tl.float8e5))
    bits = x.to(tl.int32, bitcast=True)
    as_int = (X + r).to(tl.int64)
    base = ADDR.to(tl.pointer_type(tl.float32))
    tl.store(base + r, x + e5.to(tl.float32) + as_int.to(tl.float32))
    tl.store(Y + r, tl.umulhi(bits, bits).to(tl.float32))
    tl.store(Y + r, tl.div_rn(x, x + 1.0) + tl.sqrt_rn(x) + tl.fdiv(x, x + 2.0, approx=True))
    clamped = tl.clamp(x, 0.0, 1.0, propagate_nan=tl.PropagateNan.ALL) + tl.clamp(x, -1.0, 0.0)
    tl.store(Y + r, clamped)
    tl.store(Y + r, libdevice.pow(x, x) + libdevice.fast_expf(x) + tl.exp(x) + tl.log2(x))
    one = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                    is_pure=True, pack=1)
    two, three = tl.inline_asm_elementwise(
        "mov.b32 $0, $2; mov.b32 $1, $2;", "=r,=r,r", [x], dtype=(tl.float32, tl.float32),
        is_pure=False, pack=1)
    tl.store(Y + r, one + two + three)


@triton.jit
def dots(A, B, C, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    offs = r[:, None] * BLOCK + r[None, :]
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    c = tl.dot(a, b, input_precision="tf32x3")
    c += tl.dot(a, b, input_precision="ieee")
    c += tl.dot(a, b, input_precision="bf16x3")
    c += tl.dot(a, b, input_precision="bf16x6")
    c += tl.dot(a.to(tl.float16), b.to(tl.float16))
    c = tl.dot(a.to(tl.float8e5), b.to(tl.float8e5), c, max_num_imprecise_acc=32)
    c += tl.dot(a.to(tl.int8), b.to(tl.int8)).to(tl.float32)
    a3 = tl.reshape(a, (2, BLOCK // 2, BLOCK))
    batched = tl.dot(a3, tl.reshape(tl.join(b, b), (2, BLOCK, BLOCK)))
    tl.store(C + offs, c + tl.reshape(batched, (BLOCK, BLOCK)))


@triton.jit
def mx_dots(A, B, SA, SB, C, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    half = tl.arange(0, BLOCK // 2)
    groups = tl.arange(0, BLOCK // 32)
    a = tl.load(A + r[:, None] * (BLOCK // 2) + half[None, :])
    b = tl.load(B + half[:, None] * BLOCK + r[None, :])
    sa = tl.load(SA + r[:, None] * (BLOCK // 32) + groups[None, :])
    sb = tl.load(SB + r[:, None] * (BLOCK // 32) + groups[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1")
    bf = tl.load(C + r[:, None] * BLOCK + r[None, :]).to(tl.bfloat16)
    c += tl.dot_scaled(a, sa, "e2m1", bf, None, "bf16")
    tl.store(C + r[:, None] * BLOCK + r[None, :], c)


@triton.jit
def descriptors(X, Y, I, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(X, [M, N], [N, 1], [BM, BN])
    dst = tl.make_tensor_descriptor(Y, [M, N], [N, 1], [BM, BN], padding_option="nan")
    rows = tl.make_tensor_descriptor(Y, [M, N], [N, 1], [1, BN])
    ints = tl.make_tensor_descriptor(I, [M, N], [N, 1], [BM, BN])
    x = src.load([0, 0])
    dst.store([BM, 0], x)
    dst.atomic_add([0, 0], x)
    ints.atomic_max([0, 0], ints.load([0, 0]))
    index = tl.load(I + tl.arange(0, 8))
    gathered = rows.gather(index, 0)
    rows.scatter(gathered, index, 0)


@triton.jit
def descriptor_arguments(in_desc, out_desc):
    out_desc.store([0, 0], in_desc.load([0, 0]) + 1.0)


@triton.jit(noinline=True)
def scalar_pair(x, y):
    return x * y + 1.0, x - y


@triton.jit(noinline=True)
def store_scalar(P, v):
    tl.store(P, v)


@triton.jit
def device_functions(X, Y):
    x = tl.load(X)
    a, b = scalar_pair(x, x)
    store_scalar(Y, a + b)


@triton.jit
def pick_larger(a, ia, b, ib):
    return tl.where(a > b, a, b), tl.where(a > b, ia, ib)


@triton.jit
def scale_and_shift(x, y):
    return x * y + 1.0


@triton.jit
def reductions(X, Y, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(X + r[:, None] * BLOCK + r[None, :])
    sums = tl.cumsum(x, 1, reverse=True)
    index = r[None, :] + tl.zeros_like(x).to(tl.int32)
    largest, where = tl.reduce((x, index), 1, pick_larger)
    scanned, scanned_index = tl.associative_scan((x, x.to(tl.int32)), 0, pick_larger)
    tl.store(Y + r[:, None] * BLOCK + r[None, :], sums + scanned + scanned_index.to(tl.float32))
    tl.store(Y + r, largest + where.to(tl.float32))
    tl.store(Y, tl.sum(tl.reshape(x, (BLOCK * BLOCK,)), 0))
    mapped = tl.map_elementwise(scale_and_shift, x, x)
    tl.store(Y + r[:, None] * BLOCK + r[None, :], mapped)


@triton.jit
def control_flow(X, Y, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tl.assume(pid >= 0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n, BLOCK):
        r = start + tl.arange(0, BLOCK)
        acc += tl.load(X + r, mask=r < n, other=0.0)
    total = tl.sum(acc, 0)
    i = 0
    while total > 1.0:
        total = total / 2.0
        i += 1
    if pid == 0:
        tl.store(Y, total)
    else:
        tl.store(Y + pid, total + i)
    for k in tl.static_range(2):
        tl.store(Y + k + tl.num_programs(1), total)
    tl.debug_barrier()
    gdc_wait()
    gdc_launch_dependents()


@triton.jit
def spin_lock(Lock, X):
    # No loop-carried values: Triton prints `scf.while : () -> ()`.
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    tl.store(X, tl.load(X) + 1.0)
    tl.atomic_xchg(Lock, 0)


@triton.jit
def debugging(X, I, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(X + r)
    i = tl.load(I + r)
    tl.device_print("values", x, i)
    tl.device_print("hex", i, hex=True)
    tl.device_assert(x == x, "no NaN")
    tl.static_assert(BLOCK > 0)
    big = tl.load(I + n).to(tl.int64)
    tl.store(I + r, (i * 3 + big).to(tl.int32))


@triton.jit
def address_spaces(X, Y, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    tl.store(Y + r, tl.load(X + r))


@dataclass(frozen=True)
class Probe:
    kernel: triton.JITFunction
    signature: dict[str, str]
    constexprs: dict[str, object] = field(default_factory=dict)
    arch: int = 90

    @property
    def name(self) -> str:
        return self.kernel.__name__


PROBES = [
    Probe(shapes, {"X": "*fp32", "Y": "*fp32", "Z": "*fp32", "I": "*i32", "n": "i32",
                   "BLOCK": "constexpr"}, {"BLOCK": 64}),
    Probe(memory, {"X": "*fp32", "Y": "*fp32", "K": "*fp32", "n": "i32", "BLOCK": "constexpr"},
          {"BLOCK": 64}),
    Probe(atomics, {"X": "*fp32", "Y": "*fp32", "I": "*i32", "U": "*u32", "n": "i32",
                    "BLOCK": "constexpr"}, {"BLOCK": 64}),
    Probe(conversions, {"X": "*fp32", "Y": "*fp32", "F8": "*fp8e5", "ADDR": "i64", "n": "i32",
                        "BLOCK": "constexpr"}, {"BLOCK": 64}),
    Probe(dots, {"A": "*fp32", "B": "*fp32", "C": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 32}),
    Probe(mx_dots, {"A": "*u8", "B": "*u8", "SA": "*u8", "SB": "*u8", "C": "*fp32",
                    "BLOCK": "constexpr"}, {"BLOCK": 64}),
    Probe(descriptors, {"X": "*fp32", "Y": "*fp32", "I": "*i32", "M": "i32", "N": "i32",
                        "BM": "constexpr", "BN": "constexpr"}, {"BM": 16, "BN": 32}),
    Probe(descriptor_arguments, {"in_desc": "tensordesc<fp32[16, 32]>",
                                 "out_desc": "tensordesc<fp32[16, 32]>"}),
    Probe(device_functions, {"X": "*fp32", "Y": "*fp32"}),
    Probe(reductions, {"X": "*fp32", "Y": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 16}),
    Probe(control_flow, {"X": "*fp32", "Y": "*fp32", "n": "i32", "BLOCK": "constexpr"},
          {"BLOCK": 64}),
    Probe(spin_lock, {"Lock": "*i32", "X": "*fp32"}),
    Probe(debugging, {"X": "*fp32", "I": "*i32", "n": "i32", "BLOCK": "constexpr"},
          {"BLOCK": 64}),
    Probe(address_spaces, {"X": "*kfp32", "Y": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 16}),
]
