"""The `ttir` frontend: xDSL drivers read `.ttir` files through tnpu's importer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.frontend import Frontend

from tnpu.ttir_import import decode_ttir, import_ttir


@dataclass(frozen=True)
class TTIRFrontend(Frontend):
    """Parse TTIR as Triton prints it (`#loc` aliases after the module)."""

    name: ClassVar[str] = "ttir"

    no_implicit_module: bool = False
    """Require the input to be a single `builtin.module` (as `xdsl-opt` does)."""

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        return import_ttir(
            decode_ttir(input.read(), input_name),
            input_name,
            ctx,
            verify=False,
            allow_implicit_module=not self.no_implicit_module,
        )

