"""Import speed: tnpu's TTIR import next to Triton's own C++ parser, per kernel.

For every Inductor kernel of the corpus (Triton 3.9 TTIR), on the same text:

* tnpu: `import_ttir` (parse, which includes resolving Triton's trailing
  `#loc` aliases, then verify) and printing the module back;
* Triton: `parse_mlir_module` with Triton's dialects loaded (MLIR parses and
  verifies) and `str()` of the module.

Each figure is the best of `--repeat` runs, in milliseconds of CPU time
(both sides are single-threaded, and CPU time stays put on a shared, busy
machine where wall time does not); the ratio is tnpu's time over Triton's.
The last lines give the medians over the kernels (and the median of tnpu's
parse / verify / print split).

    .venv/bin/python bench/import_speed.py [--repeat 3] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path

from xdsl.printer import Printer

from tnpu.ttir_import import import_ttir
from tnpu.verifier import verify_with_diagnostics

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The shortest of `repeat` runs of `work`, in milliseconds of CPU time."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return 1000 * min(times)


def tnpu_split(text: str, name: str, repeat: int) -> tuple[float, float, float]:
    """Milliseconds to parse, verify and print `text` in tnpu (best of `repeat` each)."""
    parse = best_of(repeat, lambda: import_ttir(text, name, verify=False))
    module = import_ttir(text, name, verify=False)
    verify = best_of(repeat, lambda: verify_with_diagnostics(module))
    print_ = best_of(repeat, lambda: Printer(stream=StringIO()).print_op(module))
    return parse, verify, print_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best counts")
    parser.add_argument("--only", help="only kernels whose folder name contains this")
    args = parser.parse_args()

    from triton._C.libtriton import ir

    context = ir.context()
    ir.load_dialects(context)

    def tnpu(text: str, name: str) -> None:
        Printer(stream=StringIO()).print_op(import_ttir(text, name))

    def triton(path: str) -> None:
        str(ir.parse_mlir_module(path, context))

    cases = sorted(p for p in CORPUS.iterdir() if (p / "kernel.ttir").is_file())
    cases = [case for case in cases if not args.only or args.only in case.name]
    # Warm both up: the first import loads tnpu's dialects, the first parse Triton's.
    tnpu(cases[0].joinpath("kernel.ttir").read_text(), "warm-up")
    triton(str(cases[0] / "kernel.ttir"))

    print(f"{'kernel':<64} {'KiB':>5} {'tnpu ms':>8} {'triton ms':>9} {'ratio':>6}")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for case in cases:
            path = case / "kernel.ttir"
            text = path.read_text()
            copy = Path(scratch) / "kernel.ttir"  # Triton reads from a file
            copy.write_text(text)
            ours = best_of(args.repeat, lambda: tnpu(text, str(path)))
            theirs = best_of(args.repeat, lambda: triton(str(copy)))
            split = tnpu_split(text, str(path), args.repeat)
            rows.append((ours, theirs, split))
            print(
                f"{case.name[:64]:<64} {len(text) / 1024:>5.1f} {ours:>8.1f} {theirs:>9.2f} "
                f"{ours / theirs:>6.0f}"
            )

    ours = [row[0] for row in rows]
    theirs = [row[1] for row in rows]
    ratios = [row[0] / row[1] for row in rows]
    parse, verify, print_ = (statistics.median(row[2][i] for row in rows) for i in range(3))
    print()
    print(f"kernels: {len(rows)}, best of {args.repeat} runs each")
    print(f"median tnpu import+verify+print: {statistics.median(ours):.1f} ms "
          f"(parse {parse:.1f}, verify {verify:.1f}, print {print_:.1f})")
    print(f"median Triton parse+print:       {statistics.median(theirs):.2f} ms")
    print(f"median ratio tnpu/Triton:        {statistics.median(ratios):.0f}x "
          f"(range {min(ratios):.0f}x to {max(ratios):.0f}x)")
    print(f"total: tnpu {sum(ours) / 1000:.2f} s, Triton {sum(theirs) / 1000:.3f} s")


if __name__ == "__main__":
    main()
