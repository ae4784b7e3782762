"""Truth 1: Triton's own interpreter running the Python kernel on the same inputs.

`TRITON_INTERPRET=1` must be set before a kernel module is imported, and
tnpu's own process compiles kernels for real; so the interpreter lives in a
worker process (`tnpu.execution.oracle_worker`), started on first use and
kept for the next request.  Each request imports the kernel afresh, so
results do not depend on what ran before.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

DEFAULT_TIMEOUT = 600.0
"""Seconds one oracle run may take; the Triton interpreter is slow on big grids."""


@dataclass
class TensorData:
    """A tensor argument: its whole storage and the view the kernel gets."""

    storage: np.ndarray
    shape: tuple[int, ...]
    stride: tuple[int, ...]


@dataclass
class OracleRequest:
    kernel_py: str
    kernel_name: str
    args: list[Any]
    """Positional arguments: `TensorData` or numbers."""
    constexprs: dict[str, Any]
    """Keyword arguments: the constexprs not passed positionally."""
    grid: tuple[int, int, int]


@dataclass
class OracleResponse:
    buffers: dict[int, np.ndarray]
    """Final storage of each tensor argument, by position."""
    libdevice_symbols: list[str]
    error: str | None


class OracleError(Exception):
    """The oracle could not run the kernel; one line."""


class Oracle:
    """A client of one worker process (started lazily, restarted after a crash)."""

    def __init__(self, cache_dir: Path | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.cache_dir = cache_dir
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        """The worker's stderr: kernel prints, and its last words if it dies."""

    def run(self, request: OracleRequest) -> OracleResponse:
        process = self._ensure_started()
        stdin, stdout = process.stdin, process.stdout
        assert stdin is not None and stdout is not None
        outcome: list[Any] = []

        def exchange() -> None:
            try:
                pickle.dump(request, stdin)
                stdin.flush()
                outcome.append(pickle.load(stdout))
            except (EOFError, OSError, ValueError) as error:  # ValueError: a pipe closed under it
                outcome.append(error)

        thread = threading.Thread(target=exchange, daemon=True)
        thread.start()
        thread.join(self.timeout)
        timed_out = thread.is_alive()
        if timed_out:
            process.kill()  # ends the exchange with EOF
            thread.join()
        if timed_out or isinstance(outcome[0], Exception):
            last_words = self._log_tail()
            self.close()
            if timed_out:
                raise OracleError(f"the Triton interpreter took more than {self.timeout:.0f} s")
            raise OracleError(f"the Triton interpreter's process died: {last_words}")
        return outcome[0]

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            with self._process:  # waits, and closes the pipes
                pass
            self._process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def _ensure_started(self) -> subprocess.Popen[bytes]:
        if self._process is not None and self._process.poll() is not None:
            self.close()
        if self._process is None:
            env = dict(os.environ, TRITON_INTERPRET="1")
            if self.cache_dir is not None:
                env["TRITON_CACHE_DIR"] = str(self.cache_dir / "triton")
                env["TORCHINDUCTOR_CACHE_DIR"] = str(self.cache_dir / "inductor")
            self._log = tempfile.TemporaryFile()
            self._process = subprocess.Popen(
                [sys.executable, "-m", "tnpu.execution.oracle_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env=env,
            )
        return self._process

    def _log_tail(self) -> str:
        assert self._log is not None
        self._log.seek(0)
        lines = [line for line in self._log.read().decode(errors="replace").splitlines() if line.strip()]
        return lines[-1][:300] if lines else "no output"

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
