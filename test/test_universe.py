"""A stock `xdsl-opt` finds tnpu through its `xdsl.universe` entry point.

Installing tnpu makes its dialects, passes, targets and the `ttir` frontend
part of every xDSL driver's multiverse: `xdsl-opt kernel.ttir` imports a
Triton kernel exactly as `tnpu-opt` does, and `xdsl-opt --help` offers
tnpu's passes and targets by name.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.universe import Universe

from conftest import CORPUS
from tnpu import registry

BIN = Path(sys.executable).parent
CASE = "adam_step__triton_poi_fused_add_copy__div_fma_mul_sqrt_0"
KERNEL = CORPUS / "inductor" / CASE / "kernel.ttir"


def run(tool: str, *args: str) -> str:
    done = subprocess.run([str(BIN / tool), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def help_choices(help_text: str, label: str) -> set[str]:
    """The comma-separated names after `label` in argparse's wrapped help."""
    match = re.search(re.escape(label) + r"(.*?)(?:\n\s*-|\Z)", help_text, re.DOTALL)
    assert match, f"no {label!r} in help"
    return set(re.sub(r"\s+", "", match.group(1)).split(","))


@pytest.fixture(scope="module")
def xdsl_opt_help() -> str:
    return run("xdsl-opt", "--help")


def test_multiverse_holds_tnpu():
    multiverse = Universe.get_multiverse()
    for kind in ("dialects", "passes", "targets", "frontends"):
        ours = getattr(registry, f"ALL_{kind.upper()}")
        theirs = getattr(multiverse, f"all_{kind}")
        assert ours, f"tnpu registers no {kind}"
        for name, factory in ours.items():
            assert theirs.get(name) is factory, f"{kind[:-1]} {name} is not tnpu's"


def test_xdsl_opt_imports_ttir_like_tnpu_opt():
    printed = run("xdsl-opt", str(KERNEL))
    assert "tt.func public @triton_poi_fused_add_copy__div_fma_mul_sqrt_0" in printed
    assert printed == run("tnpu-opt", str(KERNEL))


def test_xdsl_opt_lists_tnpu_passes_and_targets(xdsl_opt_help: str):
    assert set(registry.ALL_PASSES) <= help_choices(xdsl_opt_help, "Available passes are:")
    assert set(registry.ALL_TARGETS) <= help_choices(xdsl_opt_help, "Available targets are:")
    assert "ttir" in help_choices(xdsl_opt_help, "Available frontends are:")


def test_help_choices_reads_wrapped_lists():
    text = "  -t TARGET  Available targets are: tnpu-\n     riscv-asm,mlir\n  -o FILE  out"
    assert help_choices(text, "Available targets are:") == {"tnpu-riscv-asm", "mlir"}


def test_tnpu_opt_help_describes_every_pass_and_target():
    help_text = run("tnpu-opt", "--help")
    for registry_of_kind in (registry.ALL_PASSES, registry.ALL_TARGETS):
        for name, factory in registry_of_kind.items():
            first_line = (factory().__doc__ or "").strip().splitlines()[0]
            assert re.search(rf"^  {re.escape(name)} +{re.escape(first_line)}$", help_text, re.M)
