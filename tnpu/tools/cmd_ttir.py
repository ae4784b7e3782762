"""Compile a @triton.jit kernel to TTIR (Triton's first stage; no GPU needed).

The kernel is named as FILE.py:FUNCTION with its --signature (and
--constexpr values), or given as a case directory whose meta.json records
the kernel name, signature, constexprs, specialisation attributes, options
and target (the format of test/fixtures/corpus/inductor).  The TTIR, with
Triton's locations, goes to stdout.  Examples:

  tnpu ttir add.py:add_kernel --signature 'x=*fp32,y=*fp32,out=*fp32,n=i32' \\
      --constexpr BLOCK=256
  tnpu ttir corpus/inductor/adam_step__triton_poi_fused_add_copy__div_fma_mul_sqrt_0
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tnpu.frontend import (
    FrontendError,
    KernelSource,
    case_kernel,
    compile_to_ttir,
    load_jit_function,
)
from tnpu.tools.command_line import UserError, literal, output_file, parse_assignments, parse_target

HELP = "compile a Triton kernel to TTIR"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kernel", help="FILE.py:FUNCTION, or a case directory with meta.json")
    parser.add_argument(
        "--signature",
        help="comma-separated NAME=TYPE for every parameter, e.g. 'x=*fp32,n=i32,BLOCK=constexpr'",
    )
    parser.add_argument(
        "--constexpr",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="value of a constexpr parameter (repeatable)",
    )
    parser.add_argument(
        "--target",
        help="Triton target as BACKEND:ARCH, e.g. cuda:90 (default: the case's target, "
        "else cuda:80, what Inductor's corpus used)",
    )
    parser.add_argument("-o", "--output", help="write the TTIR here instead of stdout (- for stdout)")


def run(args: argparse.Namespace) -> int:
    target = parse_target(args.target)
    try:
        if Path(args.kernel).is_dir():
            source, case_target = case_kernel(args.kernel)
            target = target if args.target is not None else case_target
        else:
            file, sep, function = args.kernel.rpartition(":")
            if not sep or not file:
                raise UserError(f"'{args.kernel}' is neither FILE.py:FUNCTION nor a case directory")
            if args.signature is None:
                raise UserError("--signature is required for FILE.py:FUNCTION")
            signature = parse_assignments([args.signature], "signature entry")
            constexprs = {
                name: literal(value)
                for name, value in parse_assignments(args.constexpr, "--constexpr").items()
            }
            missing = [n for n, t in signature.items() if t == "constexpr" and n not in constexprs]
            if missing:
                raise UserError(f"no --constexpr value for {', '.join(missing)}")
            source = KernelSource(load_jit_function(file, function), signature, constexprs)
        ttir = compile_to_ttir(source, target)
    except FrontendError as error:
        raise UserError(str(error)) from None
    with output_file(args.output) as out:
        out.write(ttir)
    return 0
