"""A FlashAttention-2 backward kernel, causal or not, for the tests of test_triton_attention.py.

Written for tnpu's tests from the algorithm (Dao, 2023), in the shape of
Triton's tutorial 06: one program takes a block of keys and, in a loop over
the query blocks that attend to it, accumulates their dK and dV; then takes
the same-numbered block of queries and, in a loop over the key blocks it
attends to, accumulates its dQ.  Causal and non-causal attention take
different loop bounds (from the diagonal block, or from 0 / to the end),
the pointers advance through the loops, and the dots read transposed
operands (`tl.trans`, a transposed load) as the tutorial's do.

The forward's row statistics come in: `LSE[i] = logsumexp_j(s_ij)` with
`s = q kᵀ · sm_scale`, and `DELTA[i] = Σ_d O[i, d] · dO[i, d]`.  Q, K, V, dO
are fp16 (`[batch·heads, N_CTX, HEAD_DIM]`, unit stride along HEAD_DIM),
the gradients f32; `p` and `ds` are rounded to fp16 for their dots, as the
tutorial rounds them.
"""

import triton
import triton.language as tl


@triton.jit
def attention_backward(Q, K, V, DO, LSE, DELTA, DQ, DK, DV, sm_scale, stride_bh, stride_tok, N_CTX,
                       BLOCK: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    head = tl.program_id(1)
    start = tl.program_id(0) * BLOCK
    Q += head * stride_bh
    K += head * stride_bh
    V += head * stride_bh
    DO += head * stride_bh
    DQ += head * stride_bh
    DK += head * stride_bh
    DV += head * stride_bh
    LSE += head * N_CTX
    DELTA += head * N_CTX
    dims = tl.arange(0, HEAD_DIM)

    # dK, dV of the keys [start, start + BLOCK): every query block at or after them
    keys = start + tl.arange(0, BLOCK)
    k = tl.load(K + keys[:, None] * stride_tok + dims[None, :])
    v = tl.load(V + keys[:, None] * stride_tok + dims[None, :])
    dk = tl.zeros([BLOCK, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK, HEAD_DIM], dtype=tl.float32)
    first_query = start if CAUSAL else 0
    qT_ptrs = Q + (first_query + tl.arange(0, BLOCK))[None, :] * stride_tok + dims[:, None]
    do_ptrs = DO + (first_query + tl.arange(0, BLOCK))[:, None] * stride_tok + dims[None, :]
    for query_start in range(first_query, N_CTX, BLOCK):
        queries = query_start + tl.arange(0, BLOCK)
        qT = tl.load(qT_ptrs)
        pT = tl.exp(tl.dot(k, qT) * sm_scale - tl.load(LSE + queries)[None, :])
        if CAUSAL:
            pT = tl.where(queries[None, :] >= keys[:, None], pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(DO.dtype.element_ty), do)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - tl.load(DELTA + queries)[None, :])
        dk += tl.dot(dsT.to(Q.dtype.element_ty), tl.trans(qT))
        qT_ptrs += BLOCK * stride_tok
        do_ptrs += BLOCK * stride_tok
    tl.store(DK + keys[:, None] * stride_tok + dims[None, :], dk * sm_scale)
    tl.store(DV + keys[:, None] * stride_tok + dims[None, :], dv)

    # dQ of the queries [start, start + BLOCK): every key block at or before them
    queries = start + tl.arange(0, BLOCK)
    q = tl.load(Q + queries[:, None] * stride_tok + dims[None, :])
    do = tl.load(DO + queries[:, None] * stride_tok + dims[None, :])
    lse = tl.load(LSE + queries)
    delta = tl.load(DELTA + queries)
    dq = tl.zeros([BLOCK, HEAD_DIM], dtype=tl.float32)
    end = start + BLOCK if CAUSAL else N_CTX
    kT_ptrs = K + tl.arange(0, BLOCK)[None, :] * stride_tok + dims[:, None]
    vT_ptrs = V + tl.arange(0, BLOCK)[None, :] * stride_tok + dims[:, None]
    for key_start in range(0, end, BLOCK):
        kT = tl.load(kT_ptrs)
        p = tl.exp(tl.dot(q, kT) * sm_scale - lse[:, None])
        if CAUSAL:
            p = tl.where(queries[:, None] >= (key_start + tl.arange(0, BLOCK))[None, :], p, 0.0)
        ds = p * (tl.dot(do, tl.load(vT_ptrs)) - delta[:, None])
        dq += tl.dot(ds.to(K.dtype.element_ty), tl.trans(kT))
        kT_ptrs += BLOCK * stride_tok
        vT_ptrs += BLOCK * stride_tok
    tl.store(DQ + queries[:, None] * stride_tok + dims[None, :], dq * sm_scale)
