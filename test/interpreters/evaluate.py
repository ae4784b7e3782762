"""Evaluate one function of MLIR text with tnpu's numpy evaluators (a test helper)."""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions

from tnpu.interpreters.arith import ArithFunctions
from tnpu.interpreters.math import MathFunctions
from tnpu.ttir_import import import_ttir


def evaluate(body: str, signature: str, *args: Any) -> Any:
    """Run `func.func @f(signature) { body }` on `args`; return its single result.

    `body` ends with the value to return as `%r` of type given after `->` in
    `signature`, e.g. `evaluate("%r = arith.addi %a, %b : i32", "%a: i32, %b: i32 -> i32", ...)`.
    """
    arguments, result_type = signature.rsplit("->", 1)
    module = import_ttir(
        f"func.func @f({arguments}) -> {result_type} {{\n{body}\n"
        f"func.return %r : {result_type}\n}}"
    )
    interpreter = Interpreter(module)
    for functions in (FuncFunctions(), ArithFunctions(), MathFunctions()):
        interpreter.register_implementations(functions)
    (result,) = interpreter.call_op("f", args)
    return result
