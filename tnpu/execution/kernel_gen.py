"""Random Triton kernels, as hypothesis strategies, for checking rungs against each other.

A generated kernel loads one to three tensors (1-D or 2-D tiles, each with
its own strides and storage offset), masks them with random bounds,
combines them in a random elementwise DAG (with broadcasting of a row or
column), optionally reduces over a random axis, and stores the result.
`KernelSpec.source()` is the Python text; `KernelSpec.case(directory)`
compiles it to TTIR and describes it as a `Case`.  Issues 5 and 7 extend
the op and dtype tables here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from tnpu.execution.case import Case, ScalarArg, TensorArg

DTYPES = {"float32": ("*fp32", "tl.float32"), "int32": ("*i32", "tl.int32")}

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
REDUCTIONS = {"sum": "tl.sum", "max": "tl.max"}


@dataclass(frozen=True)
class Operand:
    transposed: bool
    """A 2-D input stored column-major (a transposed view)."""
    offset: int
    """Storage elements before the view starts."""
    broadcast: str
    """"" (full tile), "row" (one row, broadcast down) or "col" (one column)."""


@dataclass(frozen=True)
class KernelSpec:
    dtype: str
    rows: int
    """1 for a 1-D tile."""
    cols: int
    bound_rows: int
    bound_cols: int
    operands: tuple[Operand, ...]
    expression: str
    reduction: tuple[str, int] | None

    def source(self) -> str:
        pointer_args = ", ".join(f"in{i}" for i in range(len(self.operands)))
        lines = [
            "import triton",
            "import triton.language as tl",
            "",
            "",
            "@triton.jit",
            f"def kernel({pointer_args}, out, n_rows, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):",
            "    r = tl.arange(0, ROWS)[:, None]",
            "    c = tl.arange(0, COLS)[None, :]",
            "    mask = (r < n_rows) & (c < n_cols)",
        ]
        for i, operand in enumerate(self.operands):
            row_stride, col_stride = (1, self.rows) if operand.transposed else (self.cols, 1)
            index = {"": f"r * {row_stride} + c * {col_stride}", "row": "c", "col": "r"}[operand.broadcast]
            where = {"": "mask", "row": "c < n_cols", "col": "r < n_rows"}[operand.broadcast]
            lines.append(f"    x{i} = tl.load(in{i} + {operand.offset} + {index}, mask={where}, other=1)")
        lines.append(f"    y = {self.expression}")
        if self.reduction is None:
            lines.append(f"    tl.store(out + r * {self.cols} + c, y, mask=mask)")
        else:
            kind, axis = self.reduction
            neutral = "0" if kind == "sum" else "-1000000"
            lines.append(f"    y = tl.where(mask, y, {neutral})")
            lines.append(f"    y = {REDUCTIONS[kind]}(y, axis={axis}, keep_dims=True)")
            lines.append(f"    tl.store(out + {'c' if axis == 0 else 'r'} + 0 * {'r' if axis == 0 else 'c'}, y)")
        return "\n".join(lines) + "\n"

    def case(self, directory: Path) -> Case:
        from tnpu.frontend import KernelSource, compile_to_ttir, load_jit_function

        kernel_py = directory / "kernel.py"
        kernel_py.write_text(self.source())
        pointer_type, _ = DTYPES[self.dtype]
        signature = {f"in{i}": pointer_type for i in range(len(self.operands))}
        signature |= {"out": pointer_type, "n_rows": "i32", "n_cols": "i32", "ROWS": "constexpr", "COLS": "constexpr"}
        constexprs = {"ROWS": self.rows, "COLS": self.cols}
        ttir = compile_to_ttir(KernelSource(load_jit_function(kernel_py, "kernel"), signature, constexprs))
        (directory / "kernel.ttir").write_text(ttir)
        args: dict[str, TensorArg | ScalarArg] = {}
        for i, operand in enumerate(self.operands):
            size = {"": self.rows * self.cols, "row": self.cols, "col": self.rows}[operand.broadcast]
            args[f"in{i}"] = TensorArg((operand.offset + size,), (1,), self.dtype)
        args["out"] = TensorArg((self.rows * self.cols,), (1,), self.dtype)
        args["n_rows"] = ScalarArg(self.bound_rows, "i32")
        args["n_cols"] = ScalarArg(self.bound_cols, "i32")
        launch = [
            {"shape": list(a.shape), "stride": list(a.stride), "dtype": a.dtype} if isinstance(a, TensorArg) else a.value
            for a in args.values()
        ]
        return Case(
            name=directory.name, ttir_path=directory / "kernel.ttir", kernel_py=kernel_py,
            kernel_name="kernel", signature=signature, constexprs=constexprs, grid=(1, 1, 1),
            args=args, launch_args=launch,
        )


@st.composite
def expressions(draw, leaves: list[str], dtype: str, depth: int = 3) -> str:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))
    unary = UNARY | (FLOAT_UNARY if dtype == "float32" else {})
    if draw(st.booleans()):
        template = unary[draw(st.sampled_from(sorted(unary)))]
        return template.format(a=draw(expressions(leaves, dtype, depth - 1)))
    template = BINARY[draw(st.sampled_from(sorted(BINARY)))]
    return template.format(
        a=draw(expressions(leaves, dtype, depth - 1)), b=draw(expressions(leaves, dtype, depth - 1))
    )


@st.composite
def kernel_specs(draw) -> KernelSpec:
    dtype = draw(st.sampled_from(sorted(DTYPES)))
    two_d = draw(st.booleans())
    rows = draw(st.sampled_from([2, 4, 8])) if two_d else 1
    cols = draw(st.sampled_from([4, 8, 16, 32]))
    operands = tuple(
        Operand(
            transposed=two_d and draw(st.booleans()),
            offset=draw(st.integers(0, 5)),
            broadcast=draw(st.sampled_from(["", "row", "col"] if two_d else [""])),
        )
        for _ in range(draw(st.integers(1, 3)))
    )
    constant = "2.5" if dtype == "float32" else "3"
    leaves = [f"x{i}" for i in range(len(operands))] + [constant]
    expression = draw(expressions(leaves, dtype))
    if expression == constant:
        expression = f"(x0 + {constant})"
    reduction = None
    if two_d and draw(st.booleans()):
        reduction = (draw(st.sampled_from(sorted(REDUCTIONS))), draw(st.integers(0, 1)))
    return KernelSpec(
        dtype, rows, cols,
        bound_rows=draw(st.integers(1, rows)), bound_cols=draw(st.integers(1, cols)),
        operands=operands, expression=expression, reduction=reduction,
    )
