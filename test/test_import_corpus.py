"""Every corpus TTIR file imports, verifies and round-trips in tnpu."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.printer import Printer

from conftest import ALL_TTIR, case_id
from tnpu.ttir_import import import_ttir


def print_module(module, **options) -> str:
    out = StringIO()
    Printer(stream=out, **options).print_op(module)
    return out.getvalue()


def test_corpus_is_complete():
    assert len(ALL_TTIR) == 162


@pytest.mark.parametrize("path", ALL_TTIR, ids=case_id)
@pytest.mark.parametrize(
    "options",
    [{}, {"print_generic_format": True}, {"print_debuginfo": True}],
    ids=["custom", "generic", "debuginfo"],
)
def test_roundtrip(path, options):
    first = print_module(import_ttir(path.read_text(), str(path)), **options)
    second = print_module(import_ttir(first, "printed"), **options)
    assert first == second
