"""The oracle's worker process: Triton's interpreter, run on request.

Started by `tnpu.execution.oracle.Oracle` as `python -m
tnpu.execution.oracle_worker` with `TRITON_INTERPRET=1` in its environment,
which Triton reads when a kernel module is imported, so this process never
compiles a kernel for real.  It reads pickled `OracleRequest`s on stdin and
writes pickled `OracleResponse`s on its original stdout; anything the
kernel prints goes to stderr.

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
"""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import os
import pickle
import sys
from typing import Any

import ml_dtypes
import numpy as np

from tnpu.execution.oracle import OracleRequest, OracleResponse, TensorData

_SYMBOLS_USED: set[str] = set()


def install_libdevice_stand_ins() -> None:
    import triton.language.extra.cuda.libdevice as cuda_libdevice
    import triton.language.extra.libdevice as stub_libdevice
    from triton.language import core
    from triton.runtime import interpreter

    from tnpu.interpreters.libdevice import evaluate_libdevice

    def create_extern_elementwise(self, lib_name, lib_path, symbol, args, result_type, is_pure):
        _SYMBOLS_USED.add(symbol)
        dtype = interpreter._get_np_dtype(result_type)  # pyright: ignore[reportPrivateUsage]
        data = evaluate_libdevice(symbol, [arg.data for arg in args], dtype)
        return interpreter.TensorHandle(np.asarray(data), result_type.scalar)

    interpreter.InterpreterBuilder.create_extern_elementwise = create_extern_elementwise

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


def load_kernel(path: str, name: str, serial: int) -> Any:
    from triton.runtime.interpreter import InterpretedFunction

    if "torch._inductor" in open(path).read():
        from tnpu.inductor_support import install_inductor_patches

        install_inductor_patches()
    module_name = f"tnpu_oracle_kernel_{serial}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    function = getattr(module, name)
    # Inductor wraps its kernels in a CachingAutotuner; the kernel is `.fn`.
    while not isinstance(function, InterpretedFunction) and hasattr(function, "fn"):
        function = function.fn
    if not isinstance(function, InterpretedFunction):
        raise TypeError(f"'{name}' is not a @triton.jit function")
    return function


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


def run(request: OracleRequest, serial: int) -> OracleResponse:
    import torch

    _SYMBOLS_USED.clear()
    try:
        kernel = load_kernel(request.kernel_py, request.kernel_name, serial)
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


def serve() -> None:
    requests = sys.stdin.buffer
    responses = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # kernel prints go to stderr
    install_libdevice_stand_ins()
    configure_interpreter()
    serial = 0
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        serial += 1
        pickle.dump(run(request, serial), responses)
        responses.flush()


if __name__ == "__main__":
    serve()
