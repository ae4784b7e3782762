"""The suite's modeled times, as the table in docs/model-times.md.

    .venv/bin/tnpu suite --jobs 2 --out suite-report --config tpuv3 --config tpuv6e
    .venv/bin/python bench/model_times.py suite-report/report.json > docs/model-times.md

Per model entry and NPU: kernel launches, the graph's cycles and µs (every
launch back to back), the share of that time spent in templates (GEMM and
convolution), pointwise and reduction kernels, and the ratio of the time
to the launches' own rooflines.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

KINDS = ("template", "pointwise", "reduction", "other")


def rows(results: dict, npu: str) -> list[str]:
    lines = []
    for name, result in sorted(results.items()):
        if result.get("stage") != "timed" or not result.get("launches"):
            continue
        share: dict[str, float] = defaultdict(float)
        cycles = time_us = roofline_us = 0.0
        for launch in result["launches"]:
            timing = launch["times"].get(npu, {})
            if not timing.get("cycles"):
                continue
            cycles += timing["cycles"]
            time_us += timing["time_us"]
            roofline_us += timing["time_us"] / timing["roofline_ratio"]
            share[launch["kind"]] += timing["time_us"]
        shares = " / ".join(f"{100 * share[kind] / time_us:.0f}" for kind in KINDS)
        lines.append(f"| {name} | {len(result['launches'])} | {cycles:,.0f} | {time_us:,.1f} | {shares} | "
                     f"{time_us / roofline_us:.1f} |")  # fmt: skip
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="a tnpu suite report.json")
    args = parser.parse_args()
    results = json.loads(args.report.read_text())
    npus = sorted({npu for result in results.values() for launch in result.get("launches", []) for npu in launch["times"]})
    print("# Modeled times of the model suite\n")
    print("Made by `bench/model_times.py` from a `tnpu suite` report (docs/torch-compile.md).  Each graph's")
    print("launches back to back; share of time in % for template (GEMM, convolution) / pointwise /")
    print("reduction / other kernels; × roofline is the graph's time over the sum of its launches' rooflines.\n")
    for npu in npus:
        print(f"## {npu}\n")
        print("| entry | launches | cycles | µs | % template / pointwise / reduction / other | × roofline |")
        print("| --- | ---: | ---: | ---: | --- | ---: |")
        print("\n".join(rows(results, npu)) + "\n")


if __name__ == "__main__":
    main()
