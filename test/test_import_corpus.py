"""Every corpus TTIR file imports, verifies and round-trips in tnpu."""

from __future__ import annotations

import pytest

from conftest import ALL_TTIR, case_id, print_module
from tnpu.ttir_import import import_ttir


def test_corpus_is_complete():
    assert len(ALL_TTIR) == 162


FORMS = {
    "custom": {},
    "generic": {"print_generic_format": True},
    "debuginfo": {"print_debuginfo": True},
}


@pytest.mark.parametrize("path", ALL_TTIR, ids=case_id)
def test_roundtrip(path, subtests):
    module = import_ttir(path.read_text(), str(path))
    for form, options in FORMS.items():
        with subtests.test(form=form):
            first = print_module(module, **options)
            second = print_module(import_ttir(first, "printed"), **options)
            assert first == second
