"""`tnpu`: the main command.  Each subcommand lives in its own module.

    tnpu ttir KERNEL.py:FUNC --signature ...   print the TTIR Triton produces
    tnpu import FILE.ttir                      import, verify, print

Bad input exits 1 with one line on stderr, never a Python traceback (set
TNPU_TRACEBACK=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tnpu import __version__
from tnpu.tools import (
    cmd_dse,
    cmd_import,
    cmd_model,
    cmd_run,
    cmd_schedule,
    cmd_serve,
    cmd_suite,
    cmd_sweep,
    cmd_time,
    cmd_ttir,
)
from tnpu.tools.command_line import UserError

SUBCOMMANDS = {
    "ttir": cmd_ttir,
    "import": cmd_import,
    "run": cmd_run,
    "sweep": cmd_sweep,
    "time": cmd_time,
    "dse": cmd_dse,
    "model": cmd_model,
    "suite": cmd_suite,
    "schedule": cmd_schedule,
    "serve": cmd_serve,
}
"""Subcommand name -> module with `add_arguments(parser)`, `run(args) -> int`, `HELP`."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tnpu",
        description="Compile Triton kernels for a simulated NPU: import, run, check, time.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tnpu {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module in SUBCOMMANDS.items():
        sub = commands.add_parser(
            name,
            help=module.HELP,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        code = args.run(args)
    except UserError as error:
        print(f"tnpu {args.command}: {error}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # the reader went away (`| head`)
        sys.stderr.close()
        code = 0
    except Exception as error:
        if os.environ.get("TNPU_TRACEBACK"):
            raise
        message = " ".join(str(error).split())[:500]
        print(
            f"tnpu {args.command}: internal error: {type(error).__name__}: {message} "
            "(set TNPU_TRACEBACK=1 for details)",
            file=sys.stderr,
        )
        code = 1
    raise SystemExit(code)


if __name__ == "__main__":
    main()
