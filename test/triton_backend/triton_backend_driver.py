"""tnpu's Triton driver active in a test, whatever an earlier test of the session installed.

The harness installs a compile-only driver to import Inductor's kernels
(`tnpu.inductor_support`); a test that launches kernels needs tnpu's own.
A test module imports `tnpu_driver` (an autouse fixture) to have it.
"""

from __future__ import annotations

import pytest
from triton.runtime.driver import driver

from tnpu.triton_backend.driver import TnpuDriver


@pytest.fixture(autouse=True)
def tnpu_driver():
    previous = driver.active
    if not isinstance(previous, TnpuDriver):
        driver.set_active(TnpuDriver())
    yield
    driver.set_active(previous)
