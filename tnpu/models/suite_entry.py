"""What a suite entry is: a name, how to build the program and its inputs, what it is named for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ModelCall:
    """A program and the inputs it is called with: `program(*inputs)`."""

    program: Callable[..., Any]
    """A `torch.nn.Module` (or a function of tensors)."""
    inputs: tuple[Any, ...]
    loss: Callable[[Any], Any] | None = None
    """For a training step: the scalar loss of the program's output (default: its sum)."""


@dataclass(frozen=True)
class SuiteEntry:
    name: str
    build: Callable[[], ModelCall]
    """Builds the program with its random weights and inputs (the caller seeds torch)."""
    ops: tuple[str, ...]
    """The aten operations it is named for (`aten.mm`, `aten.convolution`, ...)."""
    kind: str
    """`op` (one operation) or `model`."""
    train: bool = False
    """Run a training step (forward, backward, optimizer step) rather than inference."""
    description: str = ""


def collector(
    entries: list[SuiteEntry],
) -> Callable[..., Callable[[Callable[[], ModelCall]], Callable[[], ModelCall]]]:
    """A decorator adding builders to `entries`: `@entry("name", ops=(...), kind="op")`."""

    def entry(
        name: str, ops: tuple[str, ...], kind: str, train: bool = False
    ) -> Callable[[Callable[[], ModelCall]], Callable[[], ModelCall]]:
        def add(build: Callable[[], ModelCall]) -> Callable[[], ModelCall]:
            entries.append(SuiteEntry(name, build, ops, kind, train, (build.__doc__ or "").strip()))
            return build

        return add

    return entry
