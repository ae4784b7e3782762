"""The Triton frontend: a ``@triton.jit`` function to TTIR text, with no GPU.

Triton's own ``triton.compile`` runs every stage down to a cubin and wants a
driver; tnpu needs only the first stage.  ``compile_to_ttir`` builds the IR
from the Python AST and runs the backend's ``make_ttir`` pipeline (inliner,
canonicalizer, combine, CSE, loop unroll) exactly as ``triton.compile`` does,
then stops: no PTX, no cubin, no cache writes, nothing under ``$HOME``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_TARGET = ("cuda", 80, 32)
"""The target Inductor's corpus was compiled for: an sm_80 GPU, warp size 32."""


def prepare_triton_environment() -> None:
    """Settings for importing Triton here; each is kept if the user set it.

    Triton's and Inductor's caches go to a temporary directory, not `$HOME`;
    FP fusion stays on (Triton 3.9's default, which Inductor's corpus used)
    without Triton's warning about the default changing in 3.10.
    """
    root = Path(tempfile.gettempdir()) / f"tnpu-cache-{os.getuid()}"
    os.environ.setdefault("TRITON_CACHE_DIR", str(root / "triton"))
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(root / "inductor"))
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")


class FrontendError(Exception):
    """A kernel could not be turned into TTIR; the message is one line."""


@dataclass
class KernelSource:
    """What ``compile_to_ttir`` needs: a jit function, its signature, constexprs.

    ``signature`` maps every parameter to a Triton type string (``*fp32``,
    ``i32``, ``fp32``, ``constexpr``, ...); ``constexprs`` gives the value of
    each constexpr parameter; ``attrs`` maps parameter indices to Triton
    specialisation attributes such as ``[["tt.divisibility", 16]]``.
    """

    fn: Any
    signature: Mapping[str, str]
    constexprs: Mapping[str, Any] = field(default_factory=dict)
    attrs: Mapping[Any, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)


def compile_to_ttir(
    source: KernelSource, target: tuple[str, int, int] = DEFAULT_TARGET
) -> str:
    """Return the TTIR Triton prints for ``source``, with locations."""
    prepare_triton_environment()
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend

    gpu_target = GPUTarget(*target)
    backend = make_backend(gpu_target)
    attrs = {
        (key,) if isinstance(key, int) else tuple(key): value
        for key, value in _normalise_attrs(source.attrs).items()
    }
    src = ASTSource(source.fn, dict(source.signature), dict(source.constexprs), attrs)
    options = backend.parse_options(
        {**dict(source.options), **src.parse_options()}
    )
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    codegen_fns = backend.get_codegen_implementation(options)  # pyright: ignore[reportAttributeAccessIssue]
    module_map = backend.get_module_map()
    try:
        module = src.make_ir(gpu_target, options, codegen_fns, module_map, context)
    except Exception as error:  # Triton raises CompilationError and plain errors
        raise FrontendError(_one_line(error)) from error
    stages: dict[str, Any] = {}
    backend.add_stages(stages, options, src.language)
    metadata = {"target": gpu_target, **options.__dict__}
    return str(stages["ttir"](module, metadata))


def case_kernel(directory: str | Path) -> tuple[KernelSource, tuple[str, int, int]]:
    """The kernel of a corpus case folder and the target it was compiled for.

    The folder holds `kernel.py` and `meta.json` (kernel name, signature,
    constexprs, specialisation attributes, compile options and target), the
    format of test/fixtures/corpus/inductor.
    """
    directory = Path(directory)
    meta = read_case_meta(directory, ("kernel_name", "signature"), FrontendError)
    options = {
        key: value
        for key, value in meta.get("compile_options", {}).items()
        if key in ("num_warps", "num_stages", "debug", "sanitize_overflow", "enable_fp_fusion")
    }
    source = KernelSource(
        load_jit_function(directory / "kernel.py", meta["kernel_name"]),
        meta["signature"],
        meta.get("constexprs", {}),
        meta.get("attrs", {}),
        options,
    )
    target = meta.get("target", {})
    return source, (
        target.get("backend", DEFAULT_TARGET[0]),
        target.get("arch", DEFAULT_TARGET[1]),
        target.get("warp_size", DEFAULT_TARGET[2]),
    )


def read_case_meta(
    directory: Path, required: Sequence[str], error: type[Exception]
) -> dict[str, Any]:
    """The JSON object in a case folder's `meta.json`, which has the `required` fields.

    Raises `error` with one line naming the file and what is wrong with it.
    """
    meta_path = directory / "meta.json"
    if not meta_path.is_file():
        raise error(f"{directory}: no meta.json")
    try:
        meta = json.loads(meta_path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as problem:
        raise error(f"{meta_path}: not JSON: {problem}") from None
    if not isinstance(meta, dict):
        raise error(f"{meta_path}: expected a JSON object")
    for key in required:
        if key not in meta:
            raise error(f"{meta_path}: missing field '{key}'")
    return meta


def _normalise_attrs(attrs: Mapping[Any, Any]) -> dict[Any, Any]:
    """Accept JSON-style keys ("0", "1,2") as well as ints and tuples."""
    result: dict[Any, Any] = {}
    for key, value in attrs.items():
        if isinstance(key, str):
            key = tuple(int(part) for part in key.split(","))
        result[key] = value
    return result


def _one_line(error: BaseException) -> str:
    text = str(error).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


def load_jit_function(path: str | Path, name: str) -> Any:
    """Import the module at ``path`` and return its attribute ``name``.

    Inductor's modules import ``torch._inductor.runtime``; on a machine with no
    GPU those need the patches of ``tnpu.inductor_support``, applied here.
    """
    prepare_triton_environment()
    path = Path(path)
    if not path.is_file():
        raise FrontendError(f"{path}: no such file")
    text = path.read_text()
    if "torch._inductor" in text:
        from tnpu.inductor_support import install_inductor_patches

        install_inductor_patches()
    # A name that is the same in every process: Triton prefixes it to the
    # symbols of noinline device functions (`@<module>.helper__fp32`).
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    module_name = f"tnpu_kernel_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise FrontendError(f"{path}: import failed: {_one_line(error)}") from error
    if not hasattr(module, name):
        raise FrontendError(f"{path}: no function '{name}'")
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    # What @triton.jit makes: an InterpretedFunction under TRITON_INTERPRET=1.
    jit_function = (JITFunction, InterpretedFunction)
    fn = getattr(module, name)
    # Inductor wraps its kernels in a CachingAutotuner; the jit function is .fn.
    while not isinstance(fn, jit_function) and hasattr(fn, "fn"):
        fn = fn.fn
    if not isinstance(fn, jit_function):
        raise FrontendError(f"{path}: '{name}' is not a @triton.jit function")
    return fn
