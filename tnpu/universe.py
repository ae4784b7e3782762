"""tnpu's xDSL universe: how a stock `xdsl-opt` (or any xDSL tool) finds tnpu.

Declared as the `xdsl.universe` entry point `tnpu`, so installing tnpu makes
its dialects, passes, targets and the `.ttir` frontend visible to every xDSL
driver in the environment.  The extended `arith`/`llvm`/`gpu` dialects are not
listed (their names belong to xDSL); the `ttir` frontend parses with tnpu's
context, which holds them, so `xdsl-opt kernel.ttir` works unchanged.
"""

from __future__ import annotations

from xdsl.universe import Universe

from tnpu.registry import ALL_DIALECTS, ALL_FRONTENDS, ALL_PASSES, ALL_TARGETS

TNPU_UNIVERSE = Universe(
    all_dialects=ALL_DIALECTS,
    all_passes=ALL_PASSES,
    all_targets=ALL_TARGETS,
    all_frontends=ALL_FRONTENDS,
)
