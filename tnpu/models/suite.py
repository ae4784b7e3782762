"""The suite: every entry by name, and an entry of the user's from `file.py:factory`."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tnpu.models import networks, ops, real_size
from tnpu.models.suite_entry import ModelCall, SuiteEntry


class SuiteError(ValueError):
    """An entry that does not exist or cannot be built; one line."""


def entries() -> dict[str, SuiteEntry]:
    """Every entry of the suite, by name: the operations, then the models, then the real-size models."""
    named: dict[str, SuiteEntry] = {}
    for suite_entry in [*ops.ENTRIES, *networks.ENTRIES, *real_size.ENTRIES]:
        assert suite_entry.name not in named, f"two suite entries are named {suite_entry.name}"
        named[suite_entry.name] = suite_entry
    return named


def entry(spec: str) -> SuiteEntry:
    """A suite entry by name, or `path/to/file.py:factory` (a function returning a
    `ModelCall`, or a `(module, inputs)` pair)."""
    path = factory_file(spec)
    if path is not None:
        return _from_file(spec, path)
    known = entries()
    if spec not in known:
        raise SuiteError(f"no suite entry {spec!r}: `tnpu model --list` names them, or give FILE.py:FACTORY")
    return known[spec]


def factory_file(spec: str) -> Path | None:
    """The file of a `path/to/file.py:factory` spec; None for an entry's name."""
    if ":" in spec and spec.split(":", 1)[0].endswith(".py"):
        return Path(spec.rsplit(":", 1)[0])
    return None


def _from_file(spec: str, path: Path) -> SuiteEntry:
    factory_name = spec.rsplit(":", 1)[1]
    if not path.is_file():
        raise SuiteError(f"{path}: no such file")
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:  # the user's file: any error is theirs, reported in one line
        raise SuiteError(f"{path}: {type(error).__name__}: {error}") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise SuiteError(f"{path}: no function {factory_name!r}")

    def build() -> ModelCall:
        made = factory()
        if isinstance(made, ModelCall):
            return made
        if isinstance(made, tuple) and len(made) == 2:
            program, inputs = made
            return ModelCall(program, tuple(inputs) if isinstance(inputs, list | tuple) else (inputs,))
        raise SuiteError(f"{spec} returned {type(made).__name__}: give a ModelCall or a (module, inputs) pair")

    return SuiteEntry(spec, build, (), "model", description=f"{factory_name} from {path}")
