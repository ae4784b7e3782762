"""The command line's value parsing: what a user types becomes the launch's value."""

import pytest

from tnpu.tools.command_line import literal


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("False", False),
        ("True", True),
        ("None", None),
        ("false", False),
        ("1024", 1024),
        ("1.5", 1.5),
        ("[1, 2]", [1, 2]),
        ("fp32", "fp32"),
    ],
)
def test_literal_reads_python_and_json_spellings(text: str, value: object) -> None:
    parsed = literal(text)
    assert parsed == value and type(parsed) is type(value)
