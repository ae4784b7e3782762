"""bench/triton_suite.py reads, joins and judges the reports of Triton's suite.

The closing figures of a run split over sessions are the joined reports of
its halves and reruns (`--merge`); these tests hold the joining (a later
run's entry wins, nothing is dropped) and the verdict (an unlisted
interpreter-only pass is unexpected, a listed test that passes is stale)
to what the script's docstring says, on small JUnit files written here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT, bench_script

suite = bench_script("triton_suite")

OUTCOME_XML = {"passed": "", "failed": "<failure message='off'/>", "skipped": "<skipped/>", "error": "<error/>"}


def write_report(path: Path, outcomes: dict[str, str]) -> None:
    """A JUnit report as pytest writes it: test_core.py's tests, one entry per outcome given."""
    cases = "".join(
        f"<testcase classname='unit.language.test_core' name='{name}'>{OUTCOME_XML[outcome]}</testcase>"
        for name, outcome in outcomes.items()
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<testsuites><testsuite name='pytest'>{cases}</testsuite></testsuites>")


def test_an_error_counts_as_a_failure_and_a_teardown_error_is_not_lost(tmp_path):
    report = tmp_path / "tnpu.xml"
    report.write_text(
        "<testsuites><testsuite>"
        "<testcase classname='unit.language.test_core' name='test_a'><error/></testcase>"
        "<testcase classname='unit.language.test_core' name='test_b'/>"
        "<testcase classname='unit.language.test_core' name='test_b'><error message='teardown'/></testcase>"
        "</testsuite></testsuites>"
    )
    assert suite.read_junit(report) == {"test_core::test_a": "failed", "test_core::test_b": "failed"}


def test_merged_runs_keep_every_test_and_a_later_run_wins(tmp_path):
    write_report(tmp_path / "half0" / "tnpu.xml", {"test_a": "failed", "test_b": "passed"})
    write_report(tmp_path / "half1" / "tnpu.xml", {"test_c": "skipped"})
    write_report(tmp_path / "rerun" / "tnpu.xml", {"test_a": "passed"})
    write_report(tmp_path / "half0" / "interp.xml", {"test_a": "passed", "test_b": "passed", "test_c": "passed"})
    merged = suite.merge_runs([tmp_path / "half0", tmp_path / "half1", tmp_path / "rerun"], tmp_path / "all")
    assert merged["tnpu"] == {
        "test_core::test_a": "passed", "test_core::test_b": "passed", "test_core::test_c": "skipped"
    }  # fmt: skip
    assert merged["interp"] == {f"test_core::test_{x}": "passed" for x in "abc"}
    assert suite.read_junit(tmp_path / "all" / "tnpu.xml") == merged["tnpu"]


def test_only_an_unlisted_interpreter_only_pass_or_a_stale_entry_fails_the_comparison(capsys):
    interp = {"test_core::test_dot[fp8e4b15-1]": "passed", "test_core::test_add": "passed"}
    expected = {"test_core::test_dot[fp8e4b15-*]": "fp8e4b15 MMA is a GPU format"}
    dot_fails = {**interp, "test_core::test_dot[fp8e4b15-1]": "failed"}
    assert suite.compare({"interp": interp, "tnpu": dot_fails}, expected) == 0
    assert "expected" in capsys.readouterr().out

    assert suite.compare({"interp": interp, "tnpu": {**interp, "test_core::test_add": "failed"}}, {}) == 1
    assert "test_core::test_add" in capsys.readouterr().out.split("UNEXPECTED")[0].splitlines()[-1]

    assert suite.compare({"interp": interp, "tnpu": interp}, expected) == 1
    assert "unexpected failures: 0; stale expected failures: 1" in capsys.readouterr().out


def test_merge_refuses_to_write_over_a_run_it_reads(tmp_path):
    write_report(tmp_path / "half0" / "tnpu.xml", {"test_a": "passed"})
    script = [sys.executable, str(ROOT / "bench" / "triton_suite.py"), "--merge", str(tmp_path / "half0")]
    refused = subprocess.run([*script, "--out", str(tmp_path / "half0")], capture_output=True, text=True)
    assert refused.returncode == 1 and "is one of the runs merged" in refused.stderr
    assert suite.read_junit(tmp_path / "half0" / "tnpu.xml") == {"test_core::test_a": "passed"}
