"""Mutation fuzzing of the compile pipeline: broken TTIR gets a diagnostic, never an internal error.

    for outcome in fuzz(sources, seed=7, mutants=5000):
        outcome.stage      # where the mutant was rejected, or "accepted"
        outcome.problem    # None, or what is wrong: an internal error, a hang, a bad diagnostic

Each mutant is a corpus kernel with one to `MAX_STACK` token-level
mutations stacked on it (`MUTATIONS`): operands swapped or replaced by
other values of the kernel (often defined later: a use before its
definition), a comparison predicate, a type, a shape or a constant
changed, a line moved, duplicated or deleted, an op replaced by a sibling
of its family, an attribute deleted, a byte overwritten, the file cut
short.  Mutant `i` of seed `s` is drawn from `random.Random(f"{s}-{i}")`
alone, so a failure is rebuilt from the two numbers (`mutant(sources, s, i)`).

Every mutant goes, in this process, through each stage of the compile API
(`STAGES`): import (parse), verify, `tnpu-to-tile`, the RISC-V target's
compile step (its assembly) and the NPU target's (its TOG, for tpuv3).
The outcome is the first stage that refuses it, with its diagnostic, or
`accepted`.  A mutant has a problem when a stage raises anything but a
diagnostic (an internal error), when a diagnostic is not one line of the
form `file:line:col: error: ...`, or when it runs longer than the hang
limit (`HANG_LIMIT_S`, by SIGALRM).

`test/test_fuzz_pipeline.py` runs 5,000 mutants with a fresh seed each
time (printed, so a failure can be rebuilt); `bench/fuzz_pipeline.py`
runs any number (2,000 of every corpus size took 37 s on a quiet core) and prints the
counts by stage.
"""

from __future__ import annotations

import random
import re
import signal
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.compiler.kernel import Kernel
from tnpu.diagnostics import InternalError, format_parse_error, one_line
from tnpu.timing.npu_config import load_npu_config
from tnpu.ttir_import import decode_ttir, import_ttir
from tnpu.verifier import verify_with_diagnostics

HANG_LIMIT_S = 20
"""Seconds one mutant may take through every stage before it counts as a hang."""

MAX_STACK = 4
"""At most this many mutations are stacked on one kernel."""

STAGES = ("parse", "verify", "tnpu-to-tile", "rvv", "tog")
"""The stages a mutant goes through, in order; `accepted` when none refuses it."""

DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: error: \S")
"""The one form a diagnostic takes."""

Mutation = Callable[[str, random.Random], str | None]
"""A mutation of a kernel's text, or None where it finds nothing to change."""

_OP_LINE = re.compile(r"^\s+(?:%[\w#:, %]+ = )?\"?[a-z_]+\.[a-z_.]+")
_VALUE = re.compile(r"%[\w.$-]+(?:#\d+)?")
_DEFINED = re.compile(r"^\s+(%[\w.$-]+)(?:[:,]| =)")
_PREDICATE = re.compile(r"(arith\.cmp[if]) (\w+),")
_TYPE = re.compile(r"\b(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index)\b")
_DIMENSION = re.compile(r"(?<=[<x])\d+(?=x)")
_TENSOR = re.compile(r"tensor<[^<>]*(?:<[^<>]*>)?>")
_NUMBER = re.compile(r"(?<![\w#.%])-?(?:0x[0-9A-Fa-f]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)(?![\w.])")
_OP_NAME = re.compile(r"\b([a-z_]+)\.([a-z_]+)\b")
_ATTRIBUTE_DICT = re.compile(r" ?\{[^{}\n]*=[^{}\n]*\}")
_ATTRIBUTE_ENTRY = re.compile(r"(?<=[{,] )[\w.]+ = [^,{}]+(?:, )?|, [\w.]+ = [^,{}]+(?=\})")

PREDICATES = {
    "arith.cmpi": "eq ne slt sle sgt sge ult ule ugt uge".split(),
    "arith.cmpf": "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true".split(),
}
TYPES = "i1 i8 i16 i32 i64 f16 bf16 f32 f64 index".split()
DIMENSIONS = (0, 1, 2, 3, 4, 7, 16, 64, 128, 256, 1024, 65536, 2**31)
CONSTANTS = (
    "0", "1", "-1", "2", "3", "-7", "127", "255", "65535", "2147483647", "2147483648",
    "-2147483649", "4294967296", "9223372036854775807", "-9223372036854775808",
    "18446744073709551616", "0.5", "-0.0", "1.0e+39", "-1.0e+39", "1.0e+400", "7.0e+04",
    "1.0e-50", "0x7F800000", "0xFF800000", "0x7FC00000", "0xFFFFFFFFFFFFFFFFFF",
)
SIBLINGS: tuple[tuple[str, ...], ...] = (
    ("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.maximumf",
     "arith.minimumf", "arith.maxnumf", "arith.minnumf"),
    ("arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi",
     "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi",
     "arith.shrui", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
     "arith.ceildivsi", "arith.floordivsi"),
    ("arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui",
     "arith.extsi", "arith.extui", "arith.trunci", "arith.bitcast", "arith.index_cast",
     "tt.bitcast", "tt.fp_to_fp", "tt.int_to_ptr", "tt.ptr_to_int"),
    ("arith.cmpi", "arith.cmpf"),
    ("math.exp", "math.exp2", "math.log", "math.log2", "math.sqrt", "math.rsqrt", "math.absf",
     "math.floor", "math.ceil", "math.sin", "math.cos", "math.tanh", "math.erf", "arith.negf",
     "tt.precise_sqrt"),
    ("tt.splat", "tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.unsplat"),
    ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"),
    ("tt.reduce", "tt.scan"),
    ("tt.reduce.return", "tt.scan.return", "scf.yield", "tt.return"),
    ("scf.for", "scf.if", "scf.while"),
    ("tt.get_program_id", "tt.get_num_programs"),
    ("tt.addptr", "arith.addi", "tt.dot"),
)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _op_lines(lines: Sequence[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if _OP_LINE.match(line)]


def _edit_line(text: str, rng: random.Random, edit: Callable[[str, random.Random], str | None]) -> str | None:
    """`text` with `edit` applied to one op line it changes, tried in random order."""
    lines = _lines(text)
    candidates = _op_lines(lines)
    rng.shuffle(candidates)
    for index in candidates[:20]:
        changed = edit(lines[index], rng)
        if changed is not None and changed != lines[index]:
            lines[index] = changed
            return "\n".join(lines)
    return None


def _replace_match(line: str, matches: list[re.Match[str]], rng: random.Random, choices: Sequence[str]) -> str | None:
    if not matches:
        return None
    match = rng.choice(matches)
    return line[: match.start()] + rng.choice(choices) + line[match.end() :]


def _operands(line: str) -> list[re.Match[str]]:
    """The uses of values on an op line (after `=`, or all on a line defining nothing)."""
    start = line.find(" = ") + 3 if " = " in line.split("{")[0] else 0
    return [m for m in _VALUE.finditer(line, start) if not line.startswith("(", m.end())]


def swap_operands(text: str, rng: random.Random) -> str | None:
    def edit(line: str, rng: random.Random) -> str | None:
        uses = _operands(line)
        if len(uses) < 2:
            return None
        first, second = sorted(rng.sample(uses, 2), key=lambda m: m.start())
        return (
            line[: first.start()] + second.group() + line[first.end() : second.start()]
            + first.group() + line[second.end() :]
        )

    return _edit_line(text, rng, edit)


def replace_operand(text: str, rng: random.Random) -> str | None:
    """An operand replaced by another value of the kernel, defined before or after it."""
    names = sorted({m.group(1) for line in _lines(text) if (m := _DEFINED.match(line))})
    if not names:
        return None
    return _edit_line(text, rng, lambda line, rng: _replace_match(line, _operands(line), rng, names))


def change_predicate(text: str, rng: random.Random) -> str | None:
    def edit(line: str, rng: random.Random) -> str | None:
        match = _PREDICATE.search(line)
        if match is None:
            return None
        predicate = rng.choice(PREDICATES[match.group(1)] + ["bogus"])
        return line[: match.start(2)] + predicate + line[match.end(2) :]

    return _edit_line(text, rng, edit)


def change_type(text: str, rng: random.Random) -> str | None:
    """A type on one line, or (half the time) a whole type spelling everywhere it occurs."""
    if rng.random() < 0.5:
        return _edit_line(text, rng, lambda line, rng: _replace_match(line, list(_TYPE.finditer(line)), rng, TYPES))
    return _everywhere(text, rng, _TYPE, TYPES)


def change_shape(text: str, rng: random.Random) -> str | None:
    """A dimension on one line, or (half the time) a tensor shape everywhere it occurs."""
    dimensions = [str(d) for d in DIMENSIONS]
    if rng.random() < 0.5:
        return _edit_line(
            text, rng, lambda line, rng: _replace_match(line, list(_DIMENSION.finditer(line)), rng, dimensions)
        )
    return _everywhere(text, rng, _DIMENSION, dimensions)


def _everywhere(text: str, rng: random.Random, token: re.Pattern[str], choices: Sequence[str]) -> str | None:
    """Every tensor type spelt as one chosen on an op line, with one of its `token`s replaced
    (a type changed consistently, so that more mutants parse)."""
    lines = _lines(text)
    types = sorted({m.group() for i in _op_lines(lines) for m in _TENSOR.finditer(lines[i])})
    if not types:
        return None
    old = rng.choice(types)
    new = _replace_match(old, list(token.finditer(old)), rng, choices)
    return None if new is None else text.replace(old, new)


def change_constant(text: str, rng: random.Random) -> str | None:
    def edit(line: str, rng: random.Random) -> str | None:
        body = line.split(" loc(")[0]  # not the location's line and column
        return _replace_match(line, list(_NUMBER.finditer(body)), rng, CONSTANTS)

    return _edit_line(text, rng, edit)


def replace_op(text: str, rng: random.Random) -> str | None:
    families = {name: family for family in SIBLINGS for name in family}

    def edit(line: str, rng: random.Random) -> str | None:
        matches = [m for m in _OP_NAME.finditer(line.split(" loc(")[0]) if m.group() in families]
        if not matches:
            return None
        match = rng.choice(matches)
        return line[: match.start()] + rng.choice(families[match.group()]) + line[match.end() :]

    return _edit_line(text, rng, edit)


def delete_attribute(text: str, rng: random.Random) -> str | None:
    def edit(line: str, rng: random.Random) -> str | None:
        matches = list(_ATTRIBUTE_ENTRY.finditer(line)) + list(_ATTRIBUTE_DICT.finditer(line))
        return _replace_match(line, matches, rng, [""])

    return _edit_line(text, rng, edit)


def move_line(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    candidates = _op_lines(lines)
    if len(candidates) < 2:
        return None
    source, target = rng.sample(candidates, 2)
    lines.insert(target, lines.pop(source))
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str | None:
    """An op line copied to another place, the values it defines renamed (`%x` -> `%x_copy`)."""
    lines = _lines(text)
    candidates = _op_lines(lines)
    if not candidates:
        return None
    source, target = rng.choice(candidates), rng.choice(candidates)
    line = lines[source]
    if " = " in line:
        defined, used = line.split(" = ", 1)
        line = _VALUE.sub(lambda m: m.group() + "_copy", defined) + " = " + used
    lines.insert(target, line)
    return "\n".join(lines)


def delete_line(text: str, rng: random.Random) -> str | None:
    """An op line (or, one time in four, any line) deleted."""
    lines = _lines(text)
    candidates = _op_lines(lines) if rng.random() < 0.75 else range(len(lines))
    if not candidates:
        return None
    del lines[rng.choice(candidates)]
    return "\n".join(lines)


def overwrite_byte(text: str, rng: random.Random) -> str | None:
    """A character overwritten by a printable one, a control character or a byte that is
    not UTF-8 (a surrogate escape, which `encoded` turns back into the byte)."""
    if not text:
        return None
    index = rng.randrange(len(text))
    character = rng.choice([chr(rng.randrange(32, 127)), chr(rng.randrange(32)), chr(0xDC80 + rng.randrange(128))])
    return text[:index] + character + text[index + 1 :]


def truncate(text: str, rng: random.Random) -> str | None:
    return text[: rng.randrange(len(text))] if text else None


MUTATIONS: dict[str, Mutation] = {
    "swap operands": swap_operands,
    "replace operand": replace_operand,
    "change predicate": change_predicate,
    "change type": change_type,
    "change shape": change_shape,
    "change constant": change_constant,
    "replace op": replace_op,
    "delete attribute": delete_attribute,
    "move line": move_line,
    "duplicate line": duplicate_line,
    "delete line": delete_line,
    "overwrite byte": overwrite_byte,
    "truncate": truncate,
}
"""Every mutation, by name; byte-level ones last and drawn less often (`_WEIGHTS`)."""

_WEIGHTS = [4] * (len(MUTATIONS) - 3) + [1, 1, 1]


@dataclass(frozen=True)
class Mutant:
    index: int
    source: Path
    mutations: tuple[str, ...]
    text: str

    @property
    def data(self) -> bytes:
        """The mutant as the bytes of a file (a surrogate escape is a byte that is not UTF-8)."""
        return self.text.encode(errors="surrogateescape")


def mutant(sources: Sequence[Path], seed: int, index: int) -> Mutant:
    """Mutant `index` of `seed`: a source kernel with up to `MAX_STACK` mutations."""
    rng = random.Random(f"{seed}-{index}")
    source = rng.choice(sources)
    text = source.read_text()
    applied: list[str] = []
    for _ in range(rng.randint(1, MAX_STACK)):
        name = rng.choices(list(MUTATIONS), _WEIGHTS)[0]
        changed = MUTATIONS[name](text, rng)
        if changed is not None:
            text = changed
            applied.append(name)
    return Mutant(index, source, tuple(applied), text)


@dataclass(frozen=True)
class Outcome:
    stage: str
    """The stage that refused the mutant (`STAGES`), `accepted`, `internal error` or `hang`."""
    message: str = ""
    problem: str | None = None
    """What is wrong (an internal error, a hang, a malformed diagnostic), or None."""
    seconds: float = 0.0


class _Hang(BaseException):
    """Raised by SIGALRM; a BaseException so that no `except Exception` swallows it."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Hang


def compile_mutant(data: bytes, name: str, hang_limit: float = HANG_LIMIT_S) -> Outcome:
    """The outcome of one kernel file's bytes through every stage (see the module docstring)."""
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, hang_limit)
    start = time.perf_counter()
    stage = STAGES[0]
    try:
        stage, outcome = _through_stages(data, name)
    except _Hang:
        outcome = Outcome("hang", problem=f"no answer within {hang_limit:g} s in {stage}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return Outcome(outcome.stage, outcome.message, outcome.problem, time.perf_counter() - start)


def _through_stages(data: bytes, name: str) -> tuple[str, Outcome]:
    stage = "parse"
    try:
        module = import_ttir(decode_ttir(data, name), name, verify=False)
        stage = "verify"
        verify_with_diagnostics(module)
        stage = "tnpu-to-tile"
        kernel = Kernel(module)
        kernel.tile
        stage = "rvv"
        kernel.rvv.assembly
        stage = "tog"
        kernel.timer(_TPUV3)
    except ParseError as error:
        return stage, _diagnosed(stage, format_parse_error(error))
    except DiagnosticException as error:
        return stage, _diagnosed(stage, one_line(error))
    except InternalError as error:  # names its stage and op already
        return stage, Outcome("internal error", one_line(error), problem=f"internal error in {stage}")
    except Exception as error:  # what the fuzzer is looking for
        where = traceback.extract_tb(error.__traceback__)[-1]
        message = f"{type(error).__name__}: {one_line(error)[:300]} ({where.filename}:{where.lineno})"
        return stage, Outcome("internal error", message, problem=f"internal error in {stage}")
    return stage, Outcome("accepted")


def _diagnosed(stage: str, message: str) -> Outcome:
    problem = None if DIAGNOSTIC.match(message) else "a diagnostic without file:line:col"
    return Outcome(stage, message, problem)


_TPUV3 = load_npu_config("tpuv3")


def fuzz(
    sources: Sequence[Path], seed: int, mutants: int, *, start: int = 0, hang_limit: float = HANG_LIMIT_S
) -> Iterator[tuple[Mutant, Outcome]]:
    """Mutants `start` to `start + mutants` of `seed`, each with its outcome."""
    for index in range(start, start + mutants):
        candidate = mutant(sources, seed, index)
        yield candidate, compile_mutant(candidate.data, f"mutant-{seed}-{index}.ttir", hang_limit)
