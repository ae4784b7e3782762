"""Broken TTIR never gets a traceback, an internal error or a hang from tnpu-opt.

1,000 mutants of corpus kernels — a line deleted, duplicated or swapped
with another, a byte overwritten, the file cut short — go through tnpu-opt's
`main` in this process (a subprocess each would cost a second of start-up).
Each must exit 0 with output and nothing on stderr, or exit 1 with exactly
one stderr line `file:line:col: error: ...`, within `TIMEOUT_S` seconds.

The mutants are fixed by `SEED`: mutant `i` of a kind is drawn from its own
`random.Random(f"{SEED}-{kind}-{i}")`, so a failure names a mutant that the
same code rebuilds.  Kernels over `MAX_BYTES` are left out to keep the run
near a minute; the sizes kept span the corpus's kinds.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ALL_TTIR
from tnpu.tools.tnpu_opt import main

SEED = 20240601
MUTANTS_PER_KIND = 200
TIMEOUT_S = 10
MAX_BYTES = 13_000

SOURCES = [path for path in ALL_TTIR if path.stat().st_size <= MAX_BYTES]
DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: error: \S")


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def delete_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def duplicate_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    index = rng.randrange(len(lines))
    lines.insert(index, lines[index])
    return b"\n".join(lines)


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def flip_byte(data: bytes, rng: random.Random) -> bytes:
    mutant = bytearray(data)
    mutant[rng.randrange(len(mutant))] = rng.randrange(256)
    return bytes(mutant)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "delete": delete_line,
    "duplicate": duplicate_line,
    "swap": swap_lines,
    "flip": flip_byte,
    "truncate": truncate,
}


class _Timeout(BaseException):
    """Raised by SIGALRM; a BaseException so tnpu-opt's handlers let it through."""


def _on_alarm(signum, frame):
    raise _Timeout


def run_tnpu_opt(path: Path) -> tuple[int | str, str, str]:
    """(exit code or 'timeout', stdout, stderr) of `tnpu-opt path`, in-process."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main([str(path)])
        code: int | str = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    except _Timeout:
        code = "timeout"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


def problem_with(code: int | str, stdout: str, stderr: str) -> str | None:
    """What is wrong with one run, or None."""
    if code == 0:
        return None if stdout and not stderr else "exit 0 without output, or with stderr"
    if code != 1:
        return f"exit {code}"
    lines = stderr.splitlines()
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr"
    if "internal error" in stderr or "Traceback" in stderr:
        return "internal error"
    if not DIAGNOSTIC.match(lines[0]):
        return "not a file:line:col: error: line"
    return None


def test_mutants_come_from_the_corpus():
    assert len(SOURCES) >= 100
    assert len(MUTATIONS) * MUTANTS_PER_KIND >= 1000


def test_checks_catch_what_they_should():
    assert problem_with(1, "", "k.ttir:3:4: error: bad\n") is None
    assert problem_with(0, "builtin.module {}\n", "") is None
    assert problem_with(1, "", "tnpu-opt: internal error: KeyError: 'x'\n") == "internal error"
    assert problem_with(1, "", "k.ttir:3:4: error: bad\nmore\n") == "2 lines on stderr"
    assert problem_with("timeout", "", "") == "exit timeout"


@pytest.mark.parametrize("kind", MUTATIONS)
def test_mutants_fail_cleanly(kind: str, tmp_path: Path):
    failures = []
    for index in range(MUTANTS_PER_KIND):
        rng = random.Random(f"{SEED}-{kind}-{index}")
        source = rng.choice(SOURCES)
        mutant = tmp_path / f"{kind}_{index}.ttir"
        mutant.write_bytes(MUTATIONS[kind](source.read_bytes(), rng))
        code, stdout, stderr = run_tnpu_opt(mutant)
        if (problem := problem_with(code, stdout, stderr)) is not None:
            failures.append(f"{mutant.name} (of {source.parent.name}): {problem}: {stderr[:300]!r}")
        else:
            mutant.unlink()
    assert not failures, f"{len(failures)} bad runs, mutants kept in {tmp_path}:\n" + "\n".join(
        failures[:20]
    )
