"""How tnpu's Triton backend words a kernel it cannot compile, and how to read that back.

A refusal names the kernel, the stage that refused it and the reason, in
one line: `tnpu cannot compile NAME (STAGE): REASON`.  Inductor compiles
kernels in worker processes and re-raises their errors as text, so the
torch.compile route reads the stage back from the message
(`parse_refusal`).  Nothing here imports Triton: importing Triton loads
this package's `compiler` as a backend, which must not be half-imported.
"""

from __future__ import annotations

import re

STAGES = ("TTIR", "tile IR", "RVV code", "ELF")
"""What a refused kernel was being compiled to, in the order the stages run."""

_REFUSAL = re.compile(r"tnpu cannot compile (\S+) \((" + "|".join(map(re.escape, STAGES)) + r")\): (.*)")


def refusal_message(kernel: str, stage: str, reason: str) -> str:
    assert stage in STAGES, stage
    return f"tnpu cannot compile {kernel} ({stage}): {reason}"


def parse_refusal(text: str) -> tuple[str, str, str] | None:
    """(kernel, stage, reason) of the first refusal in `text`, or None."""
    found = _REFUSAL.search(text)
    return None if found is None else (found.group(1), found.group(2), found.group(3).splitlines()[0])
