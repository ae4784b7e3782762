"""Tables keyed by op class, for code that lowers or costs each kind of op its own way.

tnpu's extended ops subclass xDSL's of the same name (`tnpu.dialects.arith`),
so a table keyed by xDSL's class holds for both, whichever built the op;
`entry_for` looks an op up by its class and then its base classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from xdsl.ir import Operation

_Entry = TypeVar("_Entry")


def entry_for(table: Mapping[type[Operation], _Entry], op: Operation | type[Operation]) -> _Entry | None:
    """`table`'s entry for `op`'s class (`op` itself, given a class), or for the nearest of its
    base classes there."""
    kind = op if isinstance(op, type) else type(op)
    return next((table[cls] for cls in kind.__mro__ if cls in table), None)
