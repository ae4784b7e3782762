"""Triton's own language tests on tnpu, side by side with Triton's interpreter.

    .venv/bin/python bench/triton_suite.py CHECKOUT [--side both|tnpu|interp] [--out DIR]
        [--files test_core.py test_standard.py test_random.py] [-k EXPR]
        [--every N [--offset K]] [--parts P] [--timeout 300] [--rerun-failed]
    .venv/bin/python bench/triton_suite.py --merge DIR [DIR ...] [--out DIR]

CHECKOUT is a Triton source tree (a directory with
`python/test/unit/language/test_core.py`; Triton's files stay there, none
is copied into tnpu).  Each side runs the files with pytest from
`CHECKOUT/python/test` with `--device cpu`: `tnpu` through tnpu's Triton
backend, `interp` under `TRITON_INTERPRET=1`, each writing a JUnit report
to `DIR/<side>.xml` (`--side` reruns one side; the other's report is
read back).  Then every test is printed with its outcome on both sides,
and the totals per file.

The whole of test_core.py is about 9,400 tests, hours on tnpu with a
compile and an ELF per test.  `--every N` runs every Nth collected test
only, a sample spread over the files; `--offset K` starts it at the Kth
(`--every 2 --offset 1` is the other half of `--every 2`).  `--parts P`
runs the tests in P pytest processes, the kth taking every Pth test from
the kth, each a uniform sample of the whole: the side's report grows
after each part, so a run stopped early holds a sample of the finished
parts' size (the totals say how many ran).  `--side tnpu --rerun-failed`
reruns only the tests that side failed in its report and the other side
passed (after a fix) and replaces their entries.  `--merge DIR ...` runs
nothing: it joins the reports of earlier runs (the two halves of a run
split with `--offset`, a rerun of some tests after a fix), a later
directory's entry for a test replacing an earlier one's, writes them to
`--out` and compares them.

`bench/triton_suite_expected_failures.txt` lists every test the
interpreter passes and tnpu fails, one line each with its reason
(`test_id  # reason`; the id may be a glob, `test_core::test_x[*-fp8*]`,
for all the parameters of a test that fail for one reason).  The
comparison names each such test that is not listed (`unexpected`) and each
listed test the interpreter passes that tnpu no longer fails (`stale`); the
exit status is 1 if there is either.  A run over some of the tests (`-k`,
`--every`) checks the listed ones it ran.  test_random.py imports scipy
(`pip install scipy` in the environment that runs this).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECTED_FAILURES = ROOT / "bench" / "triton_suite_expected_failures.txt"
SIDES = ("interp", "tnpu")
DEFAULT_FILES = ("test_core.py", "test_standard.py", "test_random.py")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, nargs="?", help="a Triton source tree")
    parser.add_argument("--merge", type=Path, nargs="+", metavar="DIR",
                        help="run nothing: join these runs' reports (later ones win) and compare them")  # fmt: skip
    parser.add_argument("--side", choices=("both", *SIDES), default="both")
    parser.add_argument("--out", type=Path, default=Path("triton-suite"))
    parser.add_argument("--files", nargs="+", default=list(DEFAULT_FILES))
    parser.add_argument("-k", dest="expression", help="pytest's -k: run the matching tests only")
    parser.add_argument("--every", type=int, default=1, metavar="N", help="run every Nth test only")
    parser.add_argument("--offset", type=int, default=0, metavar="K", help="with --every: from the Kth test on")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per test (pytest-timeout)")
    parser.add_argument("--parts", type=int, default=1, metavar="P",
                        help="run in P pytest processes, each every Pth test: a run cut short keeps its parts")  # fmt: skip
    parser.add_argument("--rerun-failed", action="store_true",
                        help="with --side: rerun the tests that side failed and the other passed, and update DIR's report")  # fmt: skip
    args = parser.parse_args()
    if args.rerun_failed and args.side == "both":
        parser.error("--rerun-failed reruns one side: give --side interp or --side tnpu")
    if args.merge:
        return compare(merge_runs(args.merge, args.out), read_expected_failures())
    if args.checkout is None:
        parser.error("give a Triton checkout (or --merge the reports of earlier runs)")
    tests = args.checkout / "python" / "test"
    if not (tests / "unit" / "language" / "test_core.py").is_file():
        parser.error(f"{args.checkout}: no python/test/unit/language/test_core.py (not a Triton checkout)")
    if "test_random.py" in args.files and importlib.util.find_spec("scipy") is None:
        parser.error("test_random.py imports scipy: pip install scipy, or leave the file out with --files")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.rerun_failed:
        report = args.out / f"{args.side}.xml"
        mine, other = read_junit(report), read_junit(args.out / f"{SIDES[1 - SIDES.index(args.side)]}.xml")
        failed = [node for test, node in node_ids(report).items()
                  if mine[test] == "failed" and other.get(test) == "passed"]  # fmt: skip
        rerun = args.out / f"{args.side}-rerun.xml"
        run_side(args.side, tests, failed, args, rerun, f"{len(failed)} tests that failed")
        merge_junit(report, rerun)
    else:
        selection = [f"unit/language/{name}" for name in args.files]
        what = " ".join(selection)
        if args.every > 1 or args.parts > 1:
            selection = collect(tests, selection, args)[args.offset :: args.every]
            what = f"{len(selection)} tests" + (f" (1 in {args.every} from the {args.offset}th)" if args.every > 1 else "")
        for side in SIDES if args.side == "both" else (args.side,):
            report = args.out / f"{side}.xml"
            if args.parts == 1:
                run_side(side, tests, selection, args, report, what)
                continue
            report.unlink(missing_ok=True)
            part_report = args.out / f"{side}-part.xml"
            for part in range(args.parts):
                run_side(side, tests, selection[part :: args.parts], args, part_report,
                         f"part {part + 1} of {args.parts} of {what}")  # fmt: skip
                merge_junit(report, part_report)
    outcomes = {side: read_junit(args.out / f"{side}.xml") for side in SIDES}
    return compare(outcomes, read_expected_failures())


def collect(tests: Path, selection: list[str], args: argparse.Namespace) -> list[str]:
    """The ids of the tests pytest collects (as the interpreter side does)."""
    command = [sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
               "--device", "cpu", *(["-k", args.expression] if args.expression else []), *selection]  # fmt: skip
    env = dict(os.environ, TRITON_INTERPRET="1")
    listing = subprocess.run(command, cwd=tests, env=env, capture_output=True, text=True).stdout
    # Node ids only: pytest's warnings name tests too ("  Test: unit/...::test_x, ...").
    return [line for line in listing.splitlines() if line.startswith(tuple(f"{path}::" for path in selection))]


def run_side(
    side: str, tests: Path, selection: list[str], args: argparse.Namespace, report: Path, what: str
) -> None:
    env = dict(os.environ, TRITON_INTERPRET="1" if side == "interp" else "0")
    cache = args.out.resolve() / f"cache-{side}"
    env.update(TRITON_CACHE_DIR=str(cache / "triton"), TNPU_CACHE_DIR=str(cache / "tnpu"))
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--device", "cpu",
        f"--timeout={args.timeout}", f"--junitxml={report.resolve()}",
        *(["-k", args.expression] if args.expression and args.every == 1 and not args.rerun_failed else []),
        *selection,
    ]  # fmt: skip
    shown = command[1 : len(command) - len(selection)]
    print(f"[{side}] {' '.join(shown)} {what}", flush=True)
    start = time.monotonic()
    subprocess.run(command, cwd=tests, env=env, stdout=subprocess.DEVNULL)
    print(f"[{side}] {time.monotonic() - start:.0f} s", flush=True)


def node_ids(path: Path) -> dict[str, str]:
    """Test id (as `read_junit` names it) -> pytest node id, for the tests of a report."""
    return {
        f"{case.get('classname', '').rsplit('.', 1)[-1]}::{case.get('name')}":
            f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
        for case in ElementTree.parse(path).iter("testcase")
    }  # fmt: skip


def merge_junit(report: Path, newer: Path) -> None:
    """The report with the entries of the tests `newer` ran replaced by (or added from) its entries."""
    if not report.is_file():
        shutil.copyfile(newer, report)
        return
    tree = ElementTree.parse(report)
    cases = {(case.get("classname"), case.get("name")): case for case in ElementTree.parse(newer).iter("testcase")}
    suites = list(tree.iter("testsuite"))
    for suite in suites:
        for index, case in enumerate(list(suite)):
            key = (case.get("classname"), case.get("name"))
            if case.tag == "testcase" and key in cases:
                suite[index] = cases.pop(key)
    suites[0].extend(cases.values())
    tree.write(report)


def merge_runs(runs: list[Path], out: Path) -> dict[str, dict[str, str]]:
    """Each side's reports of `runs` joined into `out`, in order, and the outcomes read back."""
    out.mkdir(parents=True, exist_ok=True)
    for side in SIDES:
        report = out / f"{side}.xml"
        reports = [run / f"{side}.xml" for run in runs if (run / f"{side}.xml").is_file()]
        if report.resolve() in [r.resolve() for r in reports]:
            raise SystemExit(f"--out {out} is one of the runs merged: give another directory")
        report.unlink(missing_ok=True)
        for newer in reports:
            merge_junit(report, newer)
    return {side: read_junit(out / f"{side}.xml") for side in SIDES}


def read_junit(path: Path) -> dict[str, str]:
    """Test id -> passed, failed or skipped (errors count as failed)."""
    if not path.is_file():
        return {}
    outcomes = {}
    for case in ElementTree.parse(path).iter("testcase"):
        name = f"{case.get('classname', '').rsplit('.', 1)[-1]}::{case.get('name')}"
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            outcome = "failed"
        elif "skipped" in kinds:
            outcome = "skipped"
        else:
            outcome = "passed"
        # A teardown error is reported as a second entry of the same test.
        if outcomes.get(name) != "failed":
            outcomes[name] = outcome
    return outcomes


def read_expected_failures() -> dict[str, str]:
    expected = {}
    for line in EXPECTED_FAILURES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            test, _, reason = line.partition("#")
            expected[test.strip()] = reason.strip()
    return expected


def compare(outcomes: dict[str, dict[str, str]], expected: dict[str, str]) -> int:
    interp, tnpu = outcomes["interp"], outcomes["tnpu"]
    tests = sorted(set(interp) | set(tnpu))
    width = max((len(t) for t in tests), default=10)
    print(f"{'test'.ljust(width)}  interp   tnpu")
    unexpected, stale = [], []
    # `*` stands for any text; everything else, brackets included, for itself.
    patterns = [re.compile(".*".join(map(re.escape, entry.split("*")))) for entry in expected]
    for test in tests:
        a, b = interp.get(test, "-"), tnpu.get(test, "-")
        mark = ""
        listed = any(pattern.fullmatch(test) for pattern in patterns)
        if a == "passed" and b == "failed":
            mark = "expected" if listed else "UNEXPECTED"
            if not listed:
                unexpected.append(test)
        elif listed and a == "passed" and b in ("passed", "skipped"):
            mark, _ = "STALE", stale.append(test)
        print(f"{test.ljust(width)}  {a:<7}  {b:<7}  {mark}".rstrip())
    print()
    files = sorted({t.split("::")[0] for t in tests})
    for side in SIDES:
        for file in [*files, "all"] if len(files) > 1 else files:
            counts = Counter(o for t, o in outcomes[side].items() if file in ("all", t.split("::")[0]))
            print(f"{side:>6} {file:<14} {counts['passed']:>5} passed, {counts['failed']:>5} failed,"
                  f" {counts['skipped']:>5} skipped of {counts.total()}")  # fmt: skip
    common = set(interp) & set(tnpu)
    if len(common) < len(tests):  # a sample on one side: the other's outcomes on the same tests
        for side in SIDES:
            counts = Counter(outcomes[side][t] for t in common)
            print(f"{side:>6} {'both ran':<14} {counts['passed']:>5} passed, {counts['failed']:>5} failed,"
                  f" {counts['skipped']:>5} skipped of {len(common)}")  # fmt: skip
    both = sum(1 for t in tests if interp.get(t) == "passed" and tnpu.get(t) == "passed")
    only_interp = sum(1 for t in tests if interp.get(t) == "passed" and tnpu.get(t) == "failed")
    only_tnpu = sum(1 for t in tests if tnpu.get(t) == "passed" and interp.get(t) != "passed")
    print(f"passed on both: {both}; interpreter only: {only_interp} ({only_interp - len(unexpected)} listed); "
          f"tnpu only: {only_tnpu}")  # fmt: skip
    print(f"unexpected failures: {len(unexpected)}; stale expected failures: {len(stale)}")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main())
