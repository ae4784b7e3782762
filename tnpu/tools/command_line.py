"""What `tnpu`'s subcommands share: the one-line error, NAME=VALUE options, a Triton target,
`-` for the standard streams.

A subcommand raises `UserError` for bad input or a refused kernel;
`tnpu_main` prints it as one line and exits with code 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from tnpu.frontend import DEFAULT_TARGET

STANDARD_STREAM = "-"
"""The file name of standard input or output, as for every Unix filter and mlir-opt."""


class UserError(Exception):
    """Bad input or a refused kernel: printed as one line, exit code 1."""


def parse_assignment(item: str, what: str) -> tuple[str, str]:
    """`NAME=VALUE` as (NAME, VALUE), stripped; `what` names the option in the error."""
    name, sep, value = item.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise UserError(f"{what} '{item}' is not NAME=VALUE")
    return name.strip(), value.strip()


def parse_assignments(items: list[str], what: str) -> dict[str, str]:
    """Comma-separated `NAME=VALUE` lists, merged in order."""
    return dict(
        parse_assignment(part, what)
        for item in items
        for part in filter(None, (p.strip() for p in item.split(",")))
    )


_PYTHON_CONSTANTS = {"True": True, "False": False, "None": None}


def literal(value: str) -> object:
    """A JSON value (number, boolean, list, ...) as Python, else the text itself.

    Python's spellings of the constants count too: a Triton user writes
    `--constexpr EVEN=False` as they would write the launch."""
    if value in _PYTHON_CONSTANTS:
        return _PYTHON_CONSTANTS[value]
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def parse_target(text: str | None) -> tuple[str, int, int]:
    """A `--target BACKEND:ARCH` (None: cuda:80, what Inductor's corpus used)."""
    if text is None:
        return DEFAULT_TARGET
    backend, _, arch = text.partition(":")
    if not backend or not arch.isdigit():
        raise UserError(f"--target '{text}' is not BACKEND:ARCH, e.g. cuda:80")
    return (backend, int(arch), DEFAULT_TARGET[2])


@contextmanager
def output_file(name: str | None) -> Iterator[IO[str]]:
    """The text file `-o NAME` names: standard output for none or `-`."""
    if name is None or name == STANDARD_STREAM:
        yield sys.stdout
    else:
        with open(name, "w") as stream:
            yield stream


def read_input(name: str) -> tuple[bytes, str]:
    """The bytes of the file `name` (standard input for `-`) and the name diagnostics give it."""
    if name == STANDARD_STREAM:
        return sys.stdin.buffer.read(), "<stdin>"
    path = Path(name)
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    return path.read_bytes(), str(path)
