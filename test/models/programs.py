"""Programs for `tnpu model FILE.py:FACTORY` and the suite runner's tests: good, refused, broken."""

from __future__ import annotations

import os
import signal
import time

import torch


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.linspace(0.5, 2.0, 48))

    def forward(self, x):
        return torch.tanh(x * self.scale) + 1


def good():
    return Scaled(), (torch.randn(8, 48),)


class ErfInv(torch.nn.Module):
    def forward(self, x):
        return torch.erfinv(x * 0.5) + 1


def refused():
    """libdevice's erfinv, which tnpu has no substitution for."""
    return ErfInv(), (torch.rand(64),)


class HostCompute(torch.nn.Module):
    def forward(self, x):
        y = x.sin()
        return _on_the_host(y) * 2


@torch.compiler.disable
def _on_the_host(y):
    return y.exp() + y.cos()


def host_compute():
    """Part of the program dynamo leaves to eager mode: it runs on the host."""
    return HostCompute(), (torch.randn(32),)


def broken():
    """A program that fails in eager mode already."""
    return torch.nn.Linear(4, 4), (torch.randn(3, 5),)


def crashes():
    os.kill(os.getpid(), signal.SIGSEGV)


def hangs():
    time.sleep(3600)
