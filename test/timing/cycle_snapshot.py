"""The cycles of every Inductor corpus kernel on each preset: measure them, or write the snapshot.

    .venv/bin/python test/timing/cycle_snapshot.py

writes `test/timing/cycle_snapshot.json`, which `test_cycle_snapshot.py`
compares the model against.  Regenerate it in the commit that changes the
timing model on purpose; the diff is the change's effect, kernel by kernel.
A kernel the lowering refuses is recorded as null.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from xdsl.utils.exceptions import DiagnosticException

from tnpu.compiler.kernel import Kernel
from tnpu.execution.case import case_launch, load_case
from tnpu.timing.npu_config import load_npu_config
from tnpu.ttir_import import import_ttir

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "fixtures" / "corpus" / "inductor"
SNAPSHOT = HERE / "cycle_snapshot.json"
PRESETS = ("tpuv3", "tpuv6e")


def measure_cycles(directory: Path) -> dict[str, float | None]:
    """The case's cycles on each preset, None for every preset if it is refused."""
    case = load_case(directory)
    module = import_ttir(case.ttir_path.read_text(), f"{directory.name}/kernel.ttir")  # type: ignore[union-attr]
    kernel = Kernel(module, case.kernel_name)
    cycles: dict[str, float | None] = {}
    for preset in PRESETS:
        try:
            timer = kernel.timer(load_npu_config(preset))
        except DiagnosticException:
            cycles[preset] = None
            continue
        cycles[preset] = timer.time(case_launch(case)).cycles
    return cycles


def corpus_cases() -> list[Path]:
    return sorted(path for path in CORPUS.iterdir() if (path / "meta.json").is_file())


def main() -> None:
    lines = [
        f"  {json.dumps(directory.name)}: {json.dumps(measure_cycles(directory))}"
        for directory in corpus_cases()
    ]
    SNAPSHOT.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{SNAPSHOT}: {len(lines)} kernels", file=sys.stderr)


if __name__ == "__main__":
    main()
