"""The bytes of tnpu's last Triton stage: everything a launch needs, self-contained.

Triton caches the output of every stage and, on a cache hit, runs none of
them: the driver is handed these bytes and nothing else.  They are a zip
archive (members stored uncompressed, with fixed timestamps, so that one
kernel always gives the same bytes; `unzip -l` lists them) of

* `kernel.json`: the format, tnpu's version, the kernel's name and symbol,
  the C type of each of its arguments and the buffers it writes;
* `kernel.s`:    the RV64GCV assembly;
* `kernel.elf`:  the ELF qemu runs (that assembly, linked with the launch runtime);
* `tile.mlir`:   the tile IR after `tnpu-to-tile`, with locations, which the
  tile interpreter runs and the NPU's timer is rebuilt from.

A binary of another format, or written by another tnpu version, is refused
by `KernelBinary.read` with one line; Triton's cache key holds tnpu's
version (`TnpuBackend.hash`), so it never hands over such bytes itself.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import version
from typing import Any

from tnpu.backend_riscv.codegen import CompiledKernel

FORMAT = "tnpu-kernel/1"
TNPU_VERSION = version("tnpu")
_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


class BinaryError(Exception):
    """Bytes that are not a kernel this tnpu wrote; one line."""


@dataclass(frozen=True)
class KernelBinary:
    code: CompiledKernel
    """The assembly and what a launch must know: argument C types, written buffers."""
    elf: bytes
    tile: str
    """The tile IR after tnpu-to-tile, printed with locations."""

    @property
    def name(self) -> str:
        return self.code.name

    def write(self) -> bytes:
        header = {
            "format": FORMAT,
            "tnpu_version": TNPU_VERSION,
            "name": self.code.name,
            "symbol": self.code.symbol,
            "argument_types": list(self.code.argument_types),
            "written_buffers": sorted(self.code.written_buffers),
        }
        members = {
            "kernel.json": json.dumps(header, indent=1).encode(),
            "kernel.s": self.code.assembly.encode(),
            "kernel.elf": self.elf,
            "tile.mlir": self.tile.encode(),
        }
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
            for name, data in members.items():
                archive.writestr(zipfile.ZipInfo(name, _TIMESTAMP), data)
        return out.getvalue()

    @staticmethod
    def read(data: bytes) -> KernelBinary:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                header = json.loads(archive.read("kernel.json"))
                if header.get("format") != FORMAT or header.get("tnpu_version") != TNPU_VERSION:
                    raise BinaryError(
                        f"a {header.get('format')} kernel of tnpu {header.get('tnpu_version')}, "
                        f"not a {FORMAT} kernel of tnpu {TNPU_VERSION}: recompile it"
                    )
                code = CompiledKernel(
                    name=header["name"],
                    symbol=header["symbol"],
                    assembly=archive.read("kernel.s").decode(),
                    argument_types=tuple(header["argument_types"]),
                    written_buffers=frozenset(header["written_buffers"]),
                )
                return KernelBinary(code, archive.read("kernel.elf"), archive.read("tile.mlir").decode())
        except (zipfile.BadZipFile, KeyError, ValueError) as error:
            raise BinaryError(f"not a tnpu kernel binary: {error}") from None


@functools.cache
def source_digest() -> str:
    """A digest of tnpu's sources (Python, runtime C, NPU presets): a change of
    tnpu invalidates what Triton cached for it, as Triton's own key does for Triton."""
    digest = hashlib.sha256()
    root = resources.files("tnpu")
    for path in sorted(_files(root), key=str):
        digest.update(str(path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _files(directory: Any) -> list[Any]:
    found = []
    for entry in directory.iterdir():
        if entry.is_dir():
            if entry.name != "__pycache__":
                found += _files(entry)
        elif entry.name.endswith((".py", ".c", ".h", ".yaml")):
            found.append(entry)
    return found
