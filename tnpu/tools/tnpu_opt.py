"""`tnpu-opt`: xDSL's `xdsl-opt` with tnpu's dialects, passes and importer.

Every flag is `xdsl-opt`'s.  What differs:

* input (`.mlir`, `.ttir` or stdin) goes through tnpu's TTIR importer, so
  Triton's trailing `#loc` aliases parse and ops remember their position;
  `-` names standard input, and `-o -` standard output, as for mlir-opt;
* `arith`, `llvm` and `gpu` are tnpu's tensor-capable versions;
* errors are one line, `file:line:col: error: message`, exit code 1 (with
  `--verify-diagnostics` or `--parsing-diagnostics` the line goes to stdout
  and the exit code is 0, as in `xdsl-opt`); never a Python traceback.  A
  bug of tnpu is one line too, naming the pass (or target) and the op it
  met it at: `tnpu-opt: internal error in ttir-to-tile at 'tt.load'
  (k.ttir:9:5): KeyError: ...`.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from tnpu import __version__
from tnpu.context import register_dialects
from tnpu.diagnostics import InternalError, compiling, format_parse_error, one_line
from tnpu.ir_helpers import apply_passes
from tnpu.registry import ALL_PASSES, ALL_TARGETS
from tnpu.ttir_import import decode_ttir, import_ttir
from tnpu.verifier import verify_with_diagnostics

DESCRIPTION = """\
tnpu's optimizer driver: xdsl-opt with the Triton (tt) and tile dialects,
tnpu's passes and targets, and an importer for TTIR as Triton 3.6-3.9
prints it (.ttir and .mlir files, or stdin).  Every flag is xdsl-opt's.
Bad input gets one line, file:line:col: error: ..., and exit code 1.

examples:
  tnpu-opt kernel.ttir                        import, verify, print
  tnpu-opt kernel.ttir --print-debuginfo      ... with Triton's source locations
  tnpu-opt kernel.ttir --print-op-generic     ... in the generic MLIR form
  tnpu-opt kernel.ttir -p strip-gpu-only      run a pass
  tnpu-opt kernel.ttir -p tnpu-to-tile        the whole pipeline to the tile dialect
  tnpu-opt kernel.ttir -p tnpu-to-rvv -t tnpu-riscv-asm
                                              the RISC-V assembly tnpu run --exec qemu runs
  tnpu-opt kernel.ttir -p 'tnpu-to-npu{config=tpuv3}'
                                              the tile IR the timer reads for tpuv3
"""


class TnpuOptMain(xDSLOptMain):
    version_format = f"tnpu-opt {__version__}, built on xdsl {{xdsl_version}}"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description=DESCRIPTION, args=args)

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.formatter_class = _HelpFormatter
        super().register_all_arguments(arg_parser)
        arg_parser.epilog = _PASS_LIST

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":
            return sys.stdin.buffer, "mlir"
        return super().get_input_stream()

    def get_input_name(self) -> str:
        return "<stdin>" if self.args.input_file in (None, "-") else self.args.input_file

    def prepare_output(self) -> IO[str]:
        return sys.stdout if self.args.output_file == "-" else super().prepare_output()

    def apply_passes(self, prog: ModuleOp) -> None:
        # xDSL's PassPipeline.apply, with each pass named in an internal error.
        passes = self.pipeline.passes
        callback = self.pipeline.callback
        assert callback is not None
        for previous, step in zip((None, *passes), passes):
            callback(previous, prog, step)
            apply_passes(self.ctx, prog, (step,))
        callback(passes[-1] if passes else None, prog, None)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        with compiling(self.args.target):
            return super().output_resulting_program(prog)

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if (self.args.frontend or file_extension) not in ("mlir", "ttir"):
            return super().parse_chunk(chunk, file_extension, start_offset)
        return import_ttir(
            decode_ttir(chunk.read(), self.get_input_name()),
            self.get_input_name(),
            self.ctx,
            verify=False,
            allow_implicit_module=not self.args.no_implicit_module,
            line_offset=start_offset,
        )

    def setup_pipeline(self) -> None:
        def verify_between(
            previous: ModulePass | None, module: ModuleOp, next_pass: ModulePass | None
        ) -> None:
            if not self.args.disable_verify:
                verify_with_diagnostics(module)
            if previous and next_pass and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n")

        try:
            self.pipeline = PassPipeline.parse_spec(
                self.available_passes, self.args.passes, verify_between
            )
        except (ValueError, ArgSpecParseError) as error:  # bad -p syntax, pass or option
            print(f"tnpu-opt: error: {one_line(error)}", file=sys.stderr)
            raise SystemExit(1) from None

    def run(self) -> None:
        chunks, extension = self.prepare_input()
        output = self.prepare_output()
        failed = False
        try:
            for index, (chunk, line_offset) in enumerate(chunks):
                if index > 0:
                    output.write("// -----\n")
                message = self._process_chunk(chunk, extension, line_offset, output)
                if message is not None:
                    if self.args.verify_diagnostics or self.args.parsing_diagnostics:
                        print(message)
                    else:
                        print(message, file=sys.stderr)
                        failed = True
                        break
        finally:
            if output is not sys.stdout:
                output.close()
        if failed:
            raise SystemExit(1)

    def _process_chunk(
        self, chunk: IO[bytes], extension: str, line_offset: int, output: IO[str]
    ) -> str | None:
        """Parse, transform and print one chunk; return an error line on failure."""
        try:
            module = self.parse_chunk(chunk, extension, line_offset)
            if module is None:
                return None
            if not self.args.disable_verify:
                verify_with_diagnostics(module)
            self.apply_passes(module)
            output.write(self.output_resulting_program(module))
            output.flush()
        except ParseError as error:
            error.span = dataclasses.replace(error.span, line_offset=line_offset)
            return format_parse_error(error)
        except DiagnosticException as error:
            return one_line(error.args[0] if error.args else error)
        finally:
            chunk.close()
        return None


_PASS_LIST = "<tnpu's passes and targets>"
"""The epilog placeholder `_HelpFormatter` replaces by `_pass_summary()`."""


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Writes the pass list into `--help` only: listing a pass imports it."""

    def add_text(self, text: str | None) -> None:
        super().add_text(_pass_summary() if text == _PASS_LIST else text)


def _pass_summary() -> str:
    """tnpu's passes (`-p`) and targets (`-t`), each with its docstring's first line."""
    lines: list[str] = []
    for title, registry in (("passes (-p)", ALL_PASSES), ("targets (-t)", ALL_TARGETS)):
        lines.append(f"tnpu {title}:")
        for name, factory in sorted(registry.items()):
            doc = (factory().__doc__ or "").strip().splitlines()
            lines.append(f"  {name:24} {doc[0] if doc else ''}")
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point; bad input exits 1 with one line, never a traceback."""
    try:
        TnpuOptMain(argv).run()
    except (SystemExit, KeyboardInterrupt):
        raise
    except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
        sys.stderr.close()
        raise SystemExit(0) from None
    except OSError as error:  # an input or output file that cannot be opened
        print(f"tnpu-opt: error: {error.filename}: {error.strerror}", file=sys.stderr)
        raise SystemExit(1) from None
    except Exception as error:  # an internal error: still one line
        if os.environ.get("TNPU_TRACEBACK"):
            raise
        if not isinstance(error, InternalError):
            error = InternalError("tnpu-opt", None, error)
        print(f"tnpu-opt: {one_line(error)[:600]} (set TNPU_TRACEBACK=1 for details)", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
