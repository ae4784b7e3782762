"""Random Triton kernels shaped like Inductor's, as hypothesis strategies, for checking rungs
against each other.

Three families, one strategy each (`kernel_specs` draws from all three):

* `pointwise_kernels`: one to three inputs over a 1- to 3-D logical shape, each
  with its own layout (dimension order, padding, broadcast dimensions of
  stride 0, storage offset), combined by a random elementwise expression and
  stored through a layout of its own.  A program covers a flat block of
  `xindex`, split Inductor's way (`i0 = xindex % A`, `i1 = (xindex // A) % B`,
  `i2 = xindex // (A*B)`), or a 2-D tile whose rows split the same way; sizes
  are rarely multiples of the block, so the tails are masked.
* `reduction_kernels`: a 2- or 3-D input reduced along a random axis (sum,
  max, min, or argmax through a two-operand combine function), the other
  axes flattened and split as above; persistent (one block covers the
  axis) or looped (Inductor's `for roffset in range(0, rnumel, RBLOCK)` over
  accumulators), with the reduced axis along the tile's rows or columns.
* `matmul_kernels`: `C = A @ B`, optionally plus a bias row and a ReLU, with
  row- or column-major (padded, offset) operands, a K loop whose last step is
  masked, and a 2-D grid or a 1-D one split by `//` and `%`.

In any family, sizes and strides may be literals or, as in Inductor's
dynamic-shape kernels, i32 or i64 scalar parameters (`i0 = xindex % ks0`,
`in0_stride1*i1`), and program ids may be widened to i64.

Each example is a `GeneratedKernel`: the Python module holding the
`@triton.jit` function `kernel` (`source()`), its signature, constexprs, grid
and argument descriptions.  `case(directory)` writes `kernel.py` and the TTIR
Triton compiles from it, and returns the `Case` any rung runs: `run_case(case)`
generates the inputs (`tnpu.execution.inputs`) and compares the rungs of a
mode (`mode="qemu"` adds the compiled code).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from tnpu.execution.case import Case, ScalarArg, TensorArg

POINTER_TYPES = {"float32": "*fp32", "int32": "*i32"}
"""Element dtype (torch name) -> Triton pointer type."""

BINARY = {
    "add": "({a} + {b})",
    "sub": "({a} - {b})",
    "mul": "({a} * {b})",
    "max": "tl.maximum({a}, {b})",
    "min": "tl.minimum({a}, {b})",
    "where": "tl.where({a} > {b}, {a}, {b})",
}
UNARY = {
    "neg": "(-{a})",
    "abs": "tl.abs({a})",
    "square": "({a} * {a})",
}
FLOAT_UNARY = {"exp": "tl.exp(tl.minimum({a}, 8.0))", "sqrt": "tl.sqrt(tl.abs({a}))"}
INTEGER_UNARY = {"div": "({a} // 3)", "rem": "({a} % -3)"}
"""Triton's integer `//` and `%` truncate toward zero, as C does; inputs include negatives."""

NEUTRAL = {
    ("sum", "float32"): "0.0",
    ("sum", "int32"): "0",
    ("max", "float32"): 'float("-inf")',
    ("max", "int32"): "-2147483648",
    ("min", "float32"): 'float("inf")',
    ("min", "int32"): "2147483647",
    ("argmax", "float32"): 'float("-inf")',
    ("argmax", "int32"): "-2147483648",
}
"""(reduction, dtype) -> the value masked-off elements take."""

ARGMAX_COMBINE = '''
@triton.jit
def argmax_combine(a_value, a_index, b_value, b_index):
    take_a = (a_value > b_value) | ((a_value == b_value) & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)
'''
"""Inductor's `maximum_with_index` without NaN handling: the larger value, then the lower index."""


@dataclass(frozen=True)
class Layout:
    """Where element (i0, i1, ...) of a logical tensor lives: `offset + sum(i_d * strides[d])`."""

    strides: tuple[int, ...]
    offset: int

    def address(self, indices: Sequence[str], strides: Sequence[str] | None = None) -> str:
        """The element offset as Inductor writes it, `3 + i0 + 24*i1`, or with
        `strides` (their text: literals or parameter names) `3 + i0 + ks1*i1`;
        stride-0 terms are left out, stride 1 is implicit."""
        strides = strides or [str(stride) for stride in self.strides]
        terms = [str(self.offset)] if self.offset else []
        for index, stride, text in zip(indices, self.strides, strides):
            if stride:
                terms.append(index if stride == 1 else f"{text}*{index}")
        return " + ".join(terms) or "0"

    def depends_on(self, dimension: int) -> bool:
        return self.strides[dimension] != 0

    def storage_size(self, shape: Sequence[int]) -> int:
        return self.offset + 1 + sum((n - 1) * s for n, s in zip(shape, self.strides))


@dataclass(frozen=True)
class GeneratedKernel:
    """A random kernel and how to launch it: enough for any rung."""

    family: str
    python: str
    """A Python module defining the `@triton.jit` function `kernel`."""
    signature: dict[str, str]
    """Every parameter in order, with Triton's type strings."""
    constexprs: dict[str, int]
    grid: tuple[int, int, int]
    args: dict[str, TensorArg | ScalarArg]
    """The runtime parameters in order: each tensor as its whole (1-D) storage."""

    def source(self) -> str:
        """The `kernel.py` of the case."""
        return self.python

    def case(self, directory: Path) -> Case:
        """Write `kernel.py` and `kernel.ttir` into `directory`; the case that runs them."""
        from tnpu.frontend import KernelSource, compile_to_ttir, load_jit_function

        kernel_py = directory / "kernel.py"
        kernel_py.write_text(self.python)
        source = KernelSource(load_jit_function(kernel_py, "kernel"), self.signature, self.constexprs)
        (directory / "kernel.ttir").write_text(compile_to_ttir(source))
        launch = [
            {"shape": list(a.shape), "stride": list(a.stride), "dtype": a.dtype} if isinstance(a, TensorArg) else a.value
            for a in self.args.values()
        ]
        return Case(
            name=f"{self.family}-{directory.name}", ttir_path=directory / "kernel.ttir", kernel_py=kernel_py,
            kernel_name="kernel", signature=self.signature, constexprs=self.constexprs, grid=self.grid,
            args=self.args, launch_args=launch,
        )


def _kernel(
    family: str,
    helpers: str,
    parameters: dict[str, TensorArg | ScalarArg],
    constexprs: dict[str, int],
    body: list[str],
    grid: Sequence[int],
) -> GeneratedKernel:
    signature = {
        name: POINTER_TYPES[arg.dtype] if isinstance(arg, TensorArg) else arg.type for name, arg in parameters.items()
    }
    signature |= dict.fromkeys(constexprs, "constexpr")
    parameter_list = ", ".join([*parameters, *(f"{name}: tl.constexpr" for name in constexprs)])
    source = "\n".join(
        ["import triton", "import triton.language as tl", helpers, "", "@triton.jit", f"def kernel({parameter_list}):"]
        + [f"    {line}" for line in body]
    )
    full_grid = (*grid, *(1,) * (3 - len(grid)))
    return GeneratedKernel(family, source + "\n", signature, constexprs, full_grid, parameters)  # pyright: ignore[reportArgumentType]


def _storage(layout: Layout, shape: Sequence[int], dtype: str) -> TensorArg:
    return TensorArg((layout.storage_size(shape),), (1,), dtype)


@dataclass
class _Sizes:
    """How a kernel's text holds sizes and strides: as literals, or, in a
    dynamic-shape kernel, as scalar parameters (Inductor's `ks0`), collected
    in `parameters`."""

    dynamic: bool
    type: str
    """The parameters' Triton type, i32 or i64."""
    parameters: dict[str, ScalarArg]

    def text(self, name: str, value: int) -> str:
        if not self.dynamic:
            return str(value)
        self.parameters[name] = ScalarArg(value, self.type)
        return name

    def strides(self, tensor: str, layout: Layout) -> list[str]:
        return [self.text(f"{tensor}_stride{d}", s) if s > 1 else str(s) for d, s in enumerate(layout.strides)]

    def split(self, index: str, sizes: Sequence[int], names: Sequence[str]) -> list[str]:
        """Inductor's decomposition of a flat index over `sizes` (fastest first) into `names`:
        `i0 = xindex % 5`, `i1 = (xindex // 5) % 3`, `i2 = xindex // 15`."""
        moduli = [self.text(f"ks{sum(n.startswith('ks') for n in self.parameters)}", size) for size in sizes[:-1]]
        lines = []
        for position, name in enumerate(names):
            below = moduli[:position]
            if not below:
                quotient = index
            elif not self.dynamic:
                quotient = f"({index} // {math.prod(sizes[:position])})"
            else:
                quotient = f"({index} // {below[0] if len(below) == 1 else '(' + '*'.join(below) + ')'})"
            lines.append(f"{name} = {quotient}" + (f" % {moduli[position]}" if position < len(moduli) else ""))
        return lines


@st.composite
def sizes_in_text(draw: st.DrawFn) -> _Sizes:
    return _Sizes(draw(st.booleans()), draw(st.sampled_from(["i32", "i64"])), {})


@st.composite
def layouts(draw: st.DrawFn, shape: Sequence[int], broadcast: bool = False) -> Layout:
    """A layout of `shape`: any dimension order, rows padded apart, some
    dimensions (if `broadcast`) of stride 0, and a storage offset."""
    order = draw(st.permutations(range(len(shape))))
    strides = [0] * len(shape)
    step = 1
    for dimension in reversed(order):  # the last in `order` varies fastest
        if broadcast and draw(st.integers(0, 3)) == 0:
            continue
        strides[dimension] = step
        step *= shape[dimension] + draw(st.sampled_from([0, 0, 1, 3]))
    return Layout(tuple(strides), draw(st.integers(0, 4)))


@st.composite
def expressions(draw: st.DrawFn, leaves: list[str], dtype: str, depth: int = 3) -> str:
    """An elementwise expression over `leaves`: one to `depth` operations deep."""

    def operand() -> str:
        if depth == 1 or draw(st.integers(0, 3)) == 0:
            return draw(st.sampled_from(leaves))
        return draw(expressions(leaves, dtype, depth - 1))

    unary = UNARY | (FLOAT_UNARY if dtype == "float32" else INTEGER_UNARY)
    if draw(st.booleans()):
        return unary[draw(st.sampled_from(sorted(unary)))].format(a=operand())
    return BINARY[draw(st.sampled_from(sorted(BINARY)))].format(a=operand(), b=operand())


@st.composite
def program_ids(draw: st.DrawFn) -> str:
    """`tl.program_id({axis})`, sometimes widened as Inductor does for big tensors."""
    return draw(st.sampled_from(["tl.program_id({axis})", "tl.program_id({axis}).to(tl.int64)"]))


@st.composite
def pointwise_kernels(draw: st.DrawFn) -> GeneratedKernel:
    dtype = draw(st.sampled_from(sorted(POINTER_TYPES)))
    shape = tuple(draw(st.lists(st.integers(1, 7), min_size=1, max_size=3)))
    numel = math.prod(shape)
    names = [f"i{d}" for d in range(len(shape))]
    operands = draw(st.lists(layouts(shape, broadcast=True), min_size=1, max_size=3))
    output = draw(layouts(shape))
    sizes = draw(sizes_in_text())
    program_id = draw(program_ids())
    tiled = len(shape) > 1 and draw(st.booleans())
    body: list[str]
    if tiled:  # x covers dimension 0, y the others, flattened
        XBLOCK, YBLOCK = draw(st.sampled_from([2, 4, 8])), draw(st.sampled_from([2, 4, 8]))
        ynumel = numel // shape[0]  # pyright: ignore[reportGeneralTypeIssues]
        constexprs = {"XBLOCK": XBLOCK, "YBLOCK": YBLOCK}
        grid = (-(-shape[0] // XBLOCK), -(-ynumel // YBLOCK))  # pyright: ignore[reportGeneralTypeIssues]
        body = [
            f"yindex = {program_id.format(axis=1)} * YBLOCK + tl.arange(0, YBLOCK)[:, None]",
            "ymask = yindex < ynumel",
            f"xindex = {program_id.format(axis=0)} * XBLOCK + tl.arange(0, XBLOCK)[None, :]",
            "xmask = xindex < xnumel",
            "i0 = xindex",
            *sizes.split("yindex", shape[1:], names[1:]),
        ]
        scalars = {"xnumel": ScalarArg(shape[0], "i32"), "ynumel": ScalarArg(ynumel, "i32")}  # pyright: ignore[reportGeneralTypeIssues]
        masks = {0: "xmask"} | dict.fromkeys(range(1, len(shape)), "ymask")
    else:
        XBLOCK = draw(st.sampled_from([8, 16, 32, 64]))
        constexprs = {"XBLOCK": XBLOCK}
        grid = (-(-numel // XBLOCK),)
        body = [
            f"xindex = {program_id.format(axis=0)} * XBLOCK + tl.arange(0, XBLOCK)",
            "xmask = xindex < xnumel",
            *sizes.split("xindex", shape, names),
        ]
        scalars = {"xnumel": ScalarArg(numel, "i32")}
        masks = dict.fromkeys(range(len(shape)), "xmask")
    other = "1.0" if dtype == "float32" else "1"
    for k, layout in enumerate(operands):
        used = sorted({masks[d] for d in range(len(shape)) if layout.depends_on(d)})
        mask = f", {' & '.join(used)}, other={other}" if used else ""
        body.append(f"v{k} = tl.load(in{k} + ({layout.address(names, sizes.strides(f'in{k}', layout))}){mask})")
    leaves = [f"v{k}" for k in range(len(operands))] + ["2.5" if dtype == "float32" else "3"]
    expression = draw(expressions(leaves, dtype))
    if "v" not in expression:  # only the constant: load something
        expression = f"({expression} + v0)"
    store_mask = " & ".join(sorted(set(masks.values())))
    body += [f"y = {expression}", f"tl.store(out + ({output.address(names, sizes.strides('out', output))}), y, {store_mask})"]
    parameters: dict[str, TensorArg | ScalarArg] = {
        f"in{k}": _storage(layout, shape, dtype) for k, layout in enumerate(operands)
    }
    parameters["out"] = _storage(output, shape, dtype)
    return _kernel("pointwise", "", parameters | scalars | sizes.parameters, constexprs, body, grid)


@st.composite
def reduction_kernels(draw: st.DrawFn) -> GeneratedKernel:
    kind = draw(st.sampled_from(["sum", "max", "min", "argmax"]))
    dtype = draw(st.sampled_from(sorted(POINTER_TYPES)))
    shape = tuple(draw(st.lists(st.integers(1, 12), min_size=2, max_size=3)))
    axis = draw(st.integers(0, len(shape) - 1))
    kept = [d for d in range(len(shape)) if d != axis]
    xnumel, rnumel = math.prod(shape[d] for d in kept), shape[axis]
    layout = draw(layouts(shape))
    sizes = draw(sizes_in_text())
    looped = draw(st.booleans())
    XBLOCK = draw(st.sampled_from([1, 2, 4, 8]))
    RBLOCK = draw(st.sampled_from([2, 4, 8])) if looped else 1 << (rnumel - 1).bit_length()
    along_rows = draw(st.booleans())  # the reduced axis along the tile's rows (axis 1), else its columns
    tile_axis, x_slice, r_slice = (1, "[:, None]", "[None, :]") if along_rows else (0, "[None, :]", "[:, None]")
    shape_text = "[XBLOCK, RBLOCK]" if along_rows else "[RBLOCK, XBLOCK]"
    names = [f"i{d}" for d in range(len(shape))]
    neutral = NEUTRAL[(kind, dtype)]
    triton_dtype = "tl.float32" if dtype == "float32" else "tl.int32"
    body = [
        f"xindex = {draw(program_ids()).format(axis=0)} * XBLOCK + tl.arange(0, XBLOCK){x_slice}",
        "xmask = xindex < xnumel",
        *sizes.split("xindex", [shape[d] for d in kept], [names[d] for d in kept]),
    ]
    load = [
        "rmask = rindex < rnumel",
        f"{names[axis]} = rindex",
        f"v = tl.load(in0 + ({layout.address(names, sizes.strides('in0', layout))}), xmask & rmask, other={neutral})",
    ]
    if not looped:
        body += [f"rindex = tl.arange(0, RBLOCK){r_slice}", *load, f"v = tl.where(xmask & rmask, v, {neutral})"]
        if kind == "argmax":
            body.append(f"v_index = tl.broadcast_to(rindex, {shape_text})")
    else:
        body.append(f"acc = tl.full({shape_text}, {neutral}, {triton_dtype})")
        if kind == "argmax":
            body.append(f"acc_index = tl.full({shape_text}, 2147483647, tl.int32)")
        body += ["for roffset in range(0, rnumel, RBLOCK):"]
        step = [f"rindex = roffset + tl.arange(0, RBLOCK){r_slice}", *load]
        if kind == "argmax":
            step += [
                f"next_acc, next_index = argmax_combine(acc, acc_index, v, tl.broadcast_to(rindex, {shape_text}))",
                "acc = tl.where(xmask & rmask, next_acc, acc)",
                "acc_index = tl.where(xmask & rmask, next_index, acc_index)",
            ]
        else:
            update = {"sum": "acc + v", "max": "tl.maximum(acc, v)", "min": "tl.minimum(acc, v)"}[kind]
            step.append(f"acc = tl.where(xmask & rmask, {update}, acc)")
        body += [f"    {line}" for line in step]
        body += ["v = acc"] + (["v_index = acc_index"] if kind == "argmax" else [])
    if kind == "argmax":
        body += [
            f"y, y_index = tl.reduce((v, v_index), {tile_axis}, argmax_combine)",
            f"tl.store(out + xindex, y{x_slice}, xmask)",
            f"tl.store(out_index + xindex, y_index{x_slice}, xmask)",
        ]
    else:
        body += [f"y = tl.{kind}(v, {tile_axis}){x_slice}", "tl.store(out + xindex, y, xmask)"]
    parameters: dict[str, TensorArg | ScalarArg] = {
        "in0": _storage(layout, shape, dtype),
        "out": TensorArg((xnumel,), (1,), dtype),
    }
    if kind == "argmax":
        parameters["out_index"] = TensorArg((xnumel,), (1,), "int32")
    parameters |= {"xnumel": ScalarArg(xnumel, "i32"), "rnumel": ScalarArg(rnumel, "i32")} | sizes.parameters
    helpers = ARGMAX_COMBINE if kind == "argmax" else ""
    grid = (-(-xnumel // XBLOCK),)
    return _kernel("reduction", helpers, parameters, {"XBLOCK": XBLOCK, "RBLOCK": RBLOCK}, body, grid)


@st.composite
def matmul_kernels(draw: st.DrawFn) -> GeneratedKernel:
    M, N, K = (draw(st.integers(1, 40)) for _ in range(3))
    BLOCK_M, BLOCK_N, BLOCK_K = (draw(st.sampled_from([16, 32])) for _ in range(3))
    a, b, c = draw(layouts((M, K))), draw(layouts((K, N))), draw(layouts((M, N)))
    sizes = draw(sizes_in_text())
    epilogue = draw(st.sampled_from(["", "bias", "relu"]))
    grid_m, grid_n = -(-M // BLOCK_M), -(-N // BLOCK_N)
    if draw(st.booleans()):
        grid: tuple[int, ...] = (grid_m, grid_n)
        body = ["pid_m = tl.program_id(0)", "pid_n = tl.program_id(1)"]
    else:  # one axis, split as Inductor's templates do
        grid = (grid_m * grid_n,)
        body = [f"pid_m = tl.program_id(0) // {grid_n}", f"pid_n = tl.program_id(0) % {grid_n}"]
    body += [
        "rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]",
        "rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]",
        "acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)",
        "for k in range(0, K, BLOCK_K):",
        "    ka = k + tl.arange(0, BLOCK_K)[None, :]",
        "    kb = k + tl.arange(0, BLOCK_K)[:, None]",
        f"    a_tile = tl.load(a + ({a.address(['rm', 'ka'], sizes.strides('a', a))}), (rm < M) & (ka < K), other=0.0)",
        f"    b_tile = tl.load(b + ({b.address(['kb', 'rn'], sizes.strides('b', b))}), (kb < K) & (rn < N), other=0.0)",
        "    acc += tl.dot(a_tile, b_tile)",
    ]
    parameters: dict[str, TensorArg | ScalarArg] = {
        "a": _storage(a, (M, K), "float32"),
        "b": _storage(b, (K, N), "float32"),
        "c": _storage(c, (M, N), "float32"),
    }
    if epilogue == "bias":
        body.append("acc = acc + tl.load(bias + rn, rn < N, other=0.0)")
        parameters["bias"] = TensorArg((N,), (1,), "float32")
    elif epilogue == "relu":
        body.append("acc = tl.maximum(acc, 0.0)")
    body.append(f"tl.store(c + ({c.address(['rm', 'rn'], sizes.strides('c', c))}), acc, (rm < M) & (rn < N))")
    parameters |= {"M": ScalarArg(M, "i32"), "N": ScalarArg(N, "i32"), "K": ScalarArg(K, "i32")} | sizes.parameters
    constexprs = {"BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N, "BLOCK_K": BLOCK_K}
    return _kernel("matmul", "", parameters, constexprs, body, grid)


def kernel_specs() -> st.SearchStrategy[GeneratedKernel]:
    """A kernel of any family."""
    return st.one_of(pointwise_kernels(), reduction_kernels(), matmul_kernels())
