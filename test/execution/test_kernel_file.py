"""A kernel file with its grid and arguments makes the case its folder's meta.json describes."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

from tnpu.execution.case import CaseError, load_case
from tnpu.execution.kernel_file import case_from_kernel_file

VECTOR_ADD = ROOT / "examples" / "vector_add"


def _meta_arguments():
    meta = json.loads((VECTOR_ADD / "meta.json").read_text())
    runtime = [name for name, type_ in meta["signature"].items() if type_ != "constexpr"]
    return dict(zip(runtime, meta["launches"][0]["args"]))


def test_a_ttir_file_makes_the_case_of_its_folder():
    from_folder = load_case(VECTOR_ADD)
    from_file = case_from_kernel_file(VECTOR_ADD / "kernel.ttir", [4], _meta_arguments())
    assert from_file.kernel_name == from_folder.kernel_name
    assert from_file.grid == from_folder.grid == (4, 1, 1)
    assert from_file.args == from_folder.args
    # The TTIR kernel knows no constexprs: its signature is the runtime parameters'.
    assert from_file.signature == {n: t for n, t in from_folder.signature.items() if t != "constexpr"}


@pytest.mark.parametrize(
    ("grid", "arguments", "message"),
    [
        ([0], _meta_arguments(), "grid: expected 1 to 3 positive integers"),
        ([4], {**_meta_arguments(), "z_ptr": 1}, "argument 'z_ptr' is not a parameter"),
        ([4], {n: v for n, v in _meta_arguments().items() if n != "n_elements"}, "no value for parameter 'n_elements'"),
    ],
)
def test_a_bad_description_names_what_is_wrong(grid, arguments, message):
    with pytest.raises(CaseError, match=message):
        case_from_kernel_file(VECTOR_ADD / "kernel.ttir", grid, arguments)


def test_a_python_kernel_needs_its_function_and_signature():
    with pytest.raises(CaseError, match="needs FILE.py:FUNCTION and a signature"):
        case_from_kernel_file(VECTOR_ADD / "kernel.py", [4], _meta_arguments())
