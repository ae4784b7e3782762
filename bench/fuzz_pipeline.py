"""Mutation fuzzing of the whole compile pipeline, at any length (`tnpu.execution.fuzz`).

Runs `--mutants` mutants of the corpus kernels (every size, unless
`--max-bytes`) through import, verify, tnpu-to-tile, the RISC-V assembly
and the NPU's TOG, in this process, and prints how many each stage
rejected, how many were accepted, and every problem (an internal error, a
hang, a diagnostic without a position) with the seed and index that
rebuild its mutant.  Exit code 1 if there was any problem.

    nice -n 19 .venv/bin/python bench/fuzz_pipeline.py --mutants 100000 --seed 1 --json fuzz.json
    .venv/bin/python bench/fuzz_pipeline.py --seed 1 --show 4711 > mutant.ttir   # one mutant's text

2,000 mutants took 37 s on a quiet core, so 100,000 take about half an
hour (most are rejected by the parser in milliseconds; those that compile
take up to a second); at `nice -n 19` on two cores shared with test
suites, about 8 mutants a second.
`--start` resumes a run at an index; runs of disjoint ranges add up.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from tnpu.execution.fuzz import HANG_LIMIT_S, STAGES, fuzz, mutant

CORPUS = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "corpus"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mutants", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=time.time_ns() % 10**9)
    parser.add_argument("--start", type=int, default=0, help="the first mutant's index")
    parser.add_argument("--max-bytes", type=int, help="leave out kernels larger than this")
    parser.add_argument("--hang-limit", type=float, default=HANG_LIMIT_S, help="seconds per mutant")
    parser.add_argument("--show", type=int, metavar="INDEX", help="print mutant INDEX and stop")
    parser.add_argument("--json", type=Path, help="write the counts and problems here")
    args = parser.parse_args()
    sources = sorted(
        path for path in CORPUS.rglob("kernel.ttir")
        if args.max_bytes is None or path.stat().st_size <= args.max_bytes
    )
    if args.show is not None:
        sys.stdout.buffer.write(mutant(sources, args.seed, args.show).data)
        return 0
    print(f"seed {args.seed}, mutants {args.start} to {args.start + args.mutants - 1} "
          f"of {len(sources)} kernels", file=sys.stderr)
    stages: Counter[str] = Counter()
    problems: list[dict] = []
    start = time.perf_counter()
    for candidate, outcome in fuzz(sources, args.seed, args.mutants, start=args.start, hang_limit=args.hang_limit):
        stages[outcome.stage] += 1
        if outcome.problem is not None:
            problems.append({
                "index": candidate.index, "kernel": candidate.source.parent.name,
                "mutations": candidate.mutations, "problem": outcome.problem, "message": outcome.message,
            })
            print(f"mutant {candidate.index}: {outcome.problem}: {outcome.message}", file=sys.stderr)
        done = candidate.index - args.start + 1
        if done % 1000 == 0:
            print(f"{done} mutants, {time.perf_counter() - start:.0f} s: {dict(stages)}", file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"seed {args.seed}: {args.mutants} mutants in {seconds:.0f} s")
    for stage in (*STAGES, "accepted", "internal error", "hang"):
        print(f"  {stage:15} {stages[stage]:7}")
    print(f"  problems        {len(problems):7}")
    if args.json:
        args.json.write_text(json.dumps({
            "seed": args.seed, "start": args.start, "mutants": args.mutants, "seconds": round(seconds),
            "stages": dict(stages), "problems": problems,
        }, indent=1) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
