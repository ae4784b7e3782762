"""The oracle's worker process: Triton's interpreter, run on request.

Started by `tnpu.execution.oracle.Oracle` as `python -m
tnpu.execution.oracle_worker` with `TRITON_INTERPRET=1` in its environment,
which Triton reads when a kernel module is imported, so this process never
compiles a kernel for real.  It reads pickled `OracleRequest`s on stdin and
writes pickled `OracleResponse`s on its original stdout; anything the
kernel prints goes to stderr.  Each request imports its kernel module
afresh, so a result does not depend on the requests before it.

Two settings differ from a stock interpreter, both documented in
docs/execution.md:

* device asserts are on (`debug=True`), as Inductor compiles them, so an
  out-of-range index fails as it would on a GPU; overflow sanitising is off,
  as in Inductor's compile options (integer wrap-around is the semantics);
* libdevice stand-ins: Triton 3.9's interpreter returns None for every
  libdevice call (triton-lang/triton#8825).  Each `libdevice.NAME` the
  kernel calls goes through Triton's CUDA libdevice wrapper, which picks the
  symbol for the argument types (`__nv_expf`, ...), and the value comes from
  `tnpu.interpreters.libdevice`.  The symbols used are reported.

Two changes make it fast without changing what it computes:

* Triton's interpreter patches `triton.language` before every call of a
  `@triton.jit` helper, walking the whole language with `inspect.getmembers`
  each time (most of the oracle's time on Inductor's reductions, whose
  combine functions call helpers); this process runs nothing but the
  interpreter, so it patches the language once, before the first kernel;
* `tl.reduce` and `tl.associative_scan` with a combine function Triton does
  not recognise run it once per element (a Python call each); here the
  combine function runs on whole arrays, in an order-preserving pairwise
  tree (reduce) and a Hillis-Steele scan.  Both orders are ones the
  function's required associativity allows, as a GPU's would be, so results
  differ from the element-by-element fold by float reassociation only.  A
  combine function that asks a multi-element tensor for its truth value
  (`if`, `not`, `and` on data), which would mean something else on an
  array, falls back to Triton's own element-by-element evaluation.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import pickle
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from tnpu.execution.oracle import OracleRequest, OracleResponse, TensorData
from tnpu.frontend import load_jit_function

_SYMBOLS_USED: set[str] = set()


def install_libdevice_stand_ins() -> None:
    import triton.language.extra.cuda.libdevice as cuda_libdevice
    import triton.language.extra.libdevice as stub_libdevice
    from triton.language import core
    from triton.runtime import interpreter

    from tnpu.interpreters.libdevice import evaluate_libdevice

    def create_extern_elementwise(self, lib_name, lib_path, symbol, args, result_type, is_pure):
        _SYMBOLS_USED.add(symbol)
        dtype = interpreter._get_np_dtype(result_type)
        data = evaluate_libdevice(symbol, [arg.data for arg in args], dtype)
        return interpreter.TensorHandle(np.asarray(data), result_type.scalar)

    interpreter.InterpreterBuilder.create_extern_elementwise = create_extern_elementwise  # pyright: ignore[reportAttributeAccessIssue]

    def with_interpreter_semantic(function):
        def call(*args, **kwargs):
            kwargs.pop("_semantic", None)
            return function(*args, **kwargs, _semantic=interpreter.interpreter_semantic)

        return call

    for name, function in inspect.getmembers(cuda_libdevice):
        if core.is_builtin(function):
            stand_in = with_interpreter_semantic(function)
            setattr(stub_libdevice, name, stand_in)
            setattr(cuda_libdevice, name, stand_in)


def configure_interpreter() -> None:
    from triton.runtime import interpreter

    builder = interpreter.interpreter_builder
    builder.options = dataclasses.replace(builder.options, debug=True, sanitize_overflow=False)


class _WholeArrayCombine:
    """Set while a combine function runs on whole arrays, where a tensor's
    truth value would mean something else (`_install_truth_value`)."""

    active = False


class TruthOfArray(Exception):
    """A combine function asked a multi-element tensor for its truth value."""


def patch_language_once() -> None:
    """Patch the whole language for the interpreter now, and never again nor back."""
    import triton.language as tl
    from triton.runtime import interpreter

    sees_the_language = types.FunctionType((lambda: None).__code__, {"tl": tl, "core": tl.core})
    interpreter._patch_lang(sees_the_language)
    _install_truth_value(tl.core.tensor)
    interpreter._patch_lang = lambda function: interpreter._LangPatchScope()


def _install_truth_value(tensor_class: type) -> None:
    """Keep the interpreter's `tensor.__bool__`, but refuse arrays during a whole-array combine."""
    interpreted = tensor_class.__bool__

    def truth_value(self: Any) -> bool:
        if _WholeArrayCombine.active and self.handle.data.size != 1:
            raise TruthOfArray()
        return interpreted(self)

    tensor_class.__bool__ = truth_value


def _combine_whole_arrays(
    operation: Any, operand_types: Sequence[Any], left: list[np.ndarray], right: list[np.ndarray]
) -> list[np.ndarray]:
    """`operation.combine_fn` applied to every (left, right) pair of elements at once.

    The arrays are flattened to 1-D blocks; each result is cast back to its
    operand's storage dtype, as Triton's element-by-element loop stores it.
    """
    shape = left[0].shape
    tensors = [
        operation.to_tensor(np.ascontiguousarray(array).reshape(-1), dtype)
        for array, dtype in zip(left + right, [*operand_types, *operand_types])
    ]
    _WholeArrayCombine.active = True
    try:
        results = operation.combine_fn.fn(*tensors)
    finally:
        _WholeArrayCombine.active = False
    results = results if isinstance(results, tuple) else (results,)
    combined = []
    for result, like in zip(results, left):
        data = result.handle.data if hasattr(result, "handle") else result
        combined.append(np.broadcast_to(np.asarray(data), (like.size,)).astype(like.dtype).reshape(shape))
    return combined


def _pairwise_tree(operation: Any, operand_types: Sequence[Any], data: list[np.ndarray]) -> list[np.ndarray]:
    """Reduce the last axis by combining neighbours, the lower index on the left."""
    while data[0].shape[-1] > 1:
        length = data[0].shape[-1]
        paired = length - length % 2
        combined = _combine_whole_arrays(
            operation, operand_types, [d[..., 0:paired:2] for d in data], [d[..., 1:paired:2] for d in data]
        )
        if length % 2:
            combined = [np.concatenate([c, d[..., -1:]], axis=-1) for c, d in zip(combined, data)]
        data = combined
    return [d[..., 0] for d in data]


def _hillis_steele(operation: Any, operand_types: Sequence[Any], data: list[np.ndarray]) -> list[np.ndarray]:
    """Inclusive scan of the last axis; each step combines whole arrays.

    Block shapes must be powers of two, so every step combines the full
    length: position i < offset is paired with itself and keeps its value.
    """
    length = data[0].shape[-1]
    offset = 1
    while offset < length:
        earlier = [np.concatenate([d[..., :offset], d[..., :-offset]], axis=-1) for d in data]
        combined = _combine_whole_arrays(operation, operand_types, earlier, data)
        data = [np.concatenate([d[..., :offset], c[..., offset:]], axis=-1) for d, c in zip(data, combined)]
        offset *= 2
    return data


def _or_element_by_element(whole_array: Callable, element_by_element: Callable) -> Callable:
    def evaluate(self: Any, input: Any) -> Any:
        try:
            return whole_array(self, input)
        except Exception:  # TruthOfArray, or a combine function that needs scalars: Triton's own path
            return element_by_element(self, input)

    return evaluate


def combine_whole_arrays() -> None:
    """Run custom reductions and scans on whole arrays (see the module docstring)."""
    from triton.runtime.interpreter import ReduceOps, ScanOps

    def reduce(self: Any, input: Any) -> Any:
        operands, axis = self.unravel(input, self.axis)
        types = [operand.dtype for operand in operands]
        data = [np.moveaxis(operand.handle.data, axis, -1) for operand in operands]
        results = []
        for value, operand in zip(_pairwise_tree(self, types, data), operands):
            if self.keep_dims:
                value = np.expand_dims(value, axis) if self.axis is not None else value.reshape((1,) * data[0].ndim)
            elif self.axis is None:
                value = value.item()
            results.append(self.to_tensor(value, operand.dtype))
        return results

    def scan(self: Any, input: Any) -> Any:
        types = [operand.dtype for operand in input]
        data = [np.moveaxis(operand.handle.data, self.axis, -1) for operand in input]
        results = _hillis_steele(self, types, data)
        return [self.to_tensor(np.moveaxis(r, -1, self.axis), t) for r, t in zip(results, types)]

    ReduceOps.generic_reduce = _or_element_by_element(reduce, ReduceOps.generic_reduce)
    ScanOps.generic_scan = _or_element_by_element(scan, ScanOps.generic_scan)


def to_torch(storage: np.ndarray) -> Any:
    """A torch tensor sharing `storage` (bf16, which numpy cannot hand over, as its bits)."""
    import torch

    if storage.dtype == ml_dtypes.bfloat16:
        return torch.from_numpy(storage.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(storage)


def to_numpy(tensor: Any, dtype: np.dtype) -> np.ndarray:
    import torch

    if dtype == ml_dtypes.bfloat16:
        return tensor.view(torch.int16).numpy().view(dtype).copy()
    return tensor.numpy().copy()


def run(request: OracleRequest) -> OracleResponse:
    import torch

    _SYMBOLS_USED.clear()
    try:
        kernel = load_jit_function(request.kernel_py, request.kernel_name)
        storages: dict[int, Any] = {}
        args = []
        for index, arg in enumerate(request.args):
            if isinstance(arg, TensorData):
                storages[index] = to_torch(np.array(arg.storage))
                args.append(torch.as_strided(storages[index], arg.shape, arg.stride))
            else:
                args.append(arg)
        kernel[request.grid](*args, **request.constexprs)
        buffers = {
            index: to_numpy(storage, request.args[index].storage.dtype)
            for index, storage in storages.items()
        }
        return OracleResponse(buffers, sorted(_SYMBOLS_USED), None)
    except Exception as error:
        cause = error.__cause__ or error
        message = " ".join(f"{type(cause).__name__}: {cause}".split())
        return OracleResponse({}, sorted(_SYMBOLS_USED), message[:600])


def prepare() -> None:
    """Everything the worker sets up once, before its first request."""
    install_libdevice_stand_ins()
    configure_interpreter()
    patch_language_once()
    combine_whole_arrays()


def serve() -> None:
    requests = sys.stdin.buffer
    responses = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # kernel prints go to stderr
    prepare()
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        pickle.dump(run(request), responses)
        responses.flush()


if __name__ == "__main__":
    serve()
