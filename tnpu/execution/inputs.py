"""Inputs for a case: every tensor's whole storage, seeded, suited to its dtype.

* a tensor gets the storage its shape and strides span, in storage order,
  so a non-contiguous view stays non-contiguous (the gaps hold values too);
* floats are standard normal, rounded to the dtype; booleans are fair coins;
* an integer tensor used as an index (see `dataflow.index_parameters`) takes
  values in the range the case gives (`input_ranges`) or else the range the
  kernel's asserts and clamps declare; one with no known range is refused
  rather than read out of bounds;
* other integers are small, [-8, 8) (unsigned: [0, 8)), so that shifts,
  divisions and products stay meaningful;
* Inductor's workspace argument (`ws_ptr`) starts zeroed, as Inductor
  allocates it (its split scans keep their lookback flags there);
* each tensor draws from its own stream, `default_rng([seed, position])`, so
  its values do not depend on the other arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tnpu.dialects import tt
from tnpu.execution.case import Case, ScalarArg, TensorArg
from tnpu.execution.dataflow import index_parameters

WORKSPACE_PARAMETERS = frozenset({"ws_ptr"})
"""Inductor's name for the zero-initialised workspace of split scans (scratch, not a result)."""

SMALL_INTEGERS = (-8, 8)


class InputError(Exception):
    """No safe inputs exist for the case as described; one line."""


@dataclass
class KernelInputs:
    storages: dict[str, np.ndarray]
    """Each tensor parameter's storage (1-D, its dtype), by name."""
    scalars: dict[str, int | float]
    seed: int

    def kernel_arguments(self, case: Case) -> list[object]:
        """The TTIR kernel's arguments, in order: storages and scalars."""
        return [
            self.storages[name] if isinstance(arg, TensorArg) else self.scalars[name]
            for name, arg in case.args.items()
        ]


def generate_inputs(case: Case, function: tt.FuncOp, seed: int = 0) -> KernelInputs:
    indices = index_parameters(function)
    storages = {}
    for position, (name, arg) in enumerate(case.args.items()):
        if not isinstance(arg, TensorArg):
            continue
        rng = np.random.default_rng([seed, position])
        dtype = arg.numpy_dtype
        size = arg.storage_size
        if name in WORKSPACE_PARAMETERS:
            storages[name] = np.zeros(size, dtype)
        elif dtype == np.bool_:
            storages[name] = rng.integers(0, 2, size).astype(np.bool_)
        elif dtype.kind in "iu":
            low, high = _integer_range(case, name, dtype, indices)
            storages[name] = rng.integers(low, high, size).astype(dtype)
        else:
            storages[name] = rng.standard_normal(size).astype(dtype)
    scalars = {n: a.value for n, a in case.args.items() if isinstance(a, ScalarArg)}
    return KernelInputs(storages, scalars, seed)


def _integer_range(case: Case, name: str, dtype: np.dtype, indices: dict) -> tuple[int, int]:
    if name in case.input_ranges:
        return case.input_ranges[name]
    if name in indices:
        bounds = indices[name]
        if bounds.high is None:
            raise InputError(
                f"'{name}' is used as an index and nothing bounds its values: "
                "give its range as input_ranges in meta.json"
            )
        return (0 if bounds.low is None else bounds.low, bounds.high)
    low, high = SMALL_INTEGERS
    return (max(low, 0) if dtype.kind == "u" else low, high)
