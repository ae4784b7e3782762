"""Global memory for the TTIR interpreter: byte-addressed buffers with bounds checks.

Each kernel argument buffer gets its own region of a flat 64-bit address
space, 2**40 bytes apart, so a pointer is a plain int64 byte address
(`tt.addptr` adds `offset * sizeof(pointee)`, and splat, broadcast, select
and friends work on pointer tensors unchanged).  Every access is checked:
the address must fall inside a buffer, on an element boundary, with the
whole element inside the buffer.  An access through a masked-off lane is
never checked nor performed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

REGION_BITS = 40
"""log2 of the address-space region each buffer owns."""


class MemoryFault(Exception):
    """An access outside every buffer, or misaligned; the message names the address."""


@dataclass
class Buffer:
    """A named buffer: its bytes, and where they sit in the address space."""

    name: str
    data: np.ndarray
    """Raw bytes (uint8), at least `size` of them."""
    size: int
    """Bytes that belong to the buffer; the rest of `data` is padding."""
    base: int

    def typed(self, dtype: np.dtype) -> np.ndarray:
        return self.data.view(dtype)

    def describe(self, offset: int, dtype: np.dtype) -> str:
        elements = self.size // dtype.itemsize
        return f"{self.name}[{offset // dtype.itemsize}] (it holds {elements} elements of {dtype})"


@dataclass
class Memory:
    buffers: list[Buffer] = field(default_factory=list)

    def allocate(self, name: str, contents: np.ndarray) -> int:
        """A new buffer holding `contents` (any dtype, flattened); returns its address."""
        raw = np.ascontiguousarray(contents).reshape(-1).view(np.uint8)
        padded = np.zeros(-(-max(len(raw), 1) // 8) * 8, np.uint8)
        padded[: len(raw)] = raw
        base = (len(self.buffers) + 1) << REGION_BITS
        self.buffers.append(Buffer(name, padded, len(raw), base))
        return base

    def contents(self, address: int, dtype: np.dtype) -> np.ndarray:
        """A copy of the buffer at `address`, as `dtype` elements."""
        buffer = self._buffer_at(address)
        return buffer.data[: buffer.size].view(dtype).copy()

    def load(self, addresses: Any, mask: Any, dtype: np.dtype, other: Any) -> np.ndarray:
        """Elements at `addresses` where `mask` is set, `other` elsewhere."""
        shape = np.shape(addresses)
        addresses = np.atleast_1d(np.asarray(addresses, np.int64))
        result = _lanes(other, dtype, addresses.shape).copy()
        for buffer, where, element in self._resolve(addresses, mask, dtype):
            result[where] = buffer.typed(dtype)[element]
        return result.reshape(shape)

    def store(self, addresses: Any, values: Any, mask: Any, dtype: np.dtype) -> None:
        """Write `values` at `addresses` where `mask` is set; a later lane wins a tie."""
        addresses = np.atleast_1d(np.asarray(addresses, np.int64))
        values = _lanes(values, dtype, addresses.shape)
        for buffer, where, element in self._resolve(addresses, mask, dtype):
            buffer.typed(dtype)[element] = values[where]

    def read_modify_write(
        self,
        addresses: Any,
        mask: Any,
        dtype: np.dtype,
        operands: tuple[Any, ...],
        combine: Callable[..., Any],
    ) -> np.ndarray:
        """Replace each addressed element `old` by `combine(old, *operands at its lane)`,
        one lane at a time in row-major order, as a sequence of atomic operations
        would; returns the old values (zero in masked-off lanes)."""
        shape = np.shape(addresses)
        addresses = np.atleast_1d(np.asarray(addresses, np.int64))
        operands = tuple(_lanes(operand, dtype, addresses.shape) for operand in operands)
        old = np.zeros(addresses.shape, dtype)
        for buffer, where, element in self._resolve(addresses, mask, dtype):
            typed = buffer.typed(dtype)
            for lane, index in zip(zip(*where), element):
                old[lane] = typed[index]
                typed[index] = combine(typed[index], *(o[lane] for o in operands))
        return old.reshape(shape)

    def _buffer_at(self, address: int) -> Buffer:
        index = (address >> REGION_BITS) - 1
        if not 0 <= index < len(self.buffers):
            raise MemoryFault(f"address {address:#x} is in no buffer")
        return self.buffers[index]

    def _resolve(self, addresses: np.ndarray, mask: Any, dtype: np.dtype):
        """(buffer, lanes, element indices) for each buffer the active lanes touch."""
        active = _lanes(True if mask is None else mask, np.dtype(bool), addresses.shape)
        if not np.any(active):
            return
        regions = addresses >> REGION_BITS
        for region in np.unique(regions[active]):
            lanes = active & (regions == region)
            where = np.nonzero(lanes)
            targets = addresses[where]
            index = int(region) - 1
            if not 0 <= index < len(self.buffers):
                raise MemoryFault(f"address {int(targets[0]):#x} is in no buffer")
            buffer = self.buffers[index]
            offsets = targets - buffer.base
            bad = (offsets < 0) | (offsets + dtype.itemsize > buffer.size) | (offsets % dtype.itemsize != 0)
            if np.any(bad):
                offset = int(offsets[np.argmax(bad)])
                problem = "misaligned" if 0 <= offset < buffer.size else "out of bounds"
                raise MemoryFault(f"{problem} access to {buffer.describe(offset, dtype)}")
            yield buffer, where, offsets // dtype.itemsize


def _lanes(value: Any, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """`value` (a scalar or an array of the access's shape) as one element per lane."""
    return np.broadcast_to(np.asarray(value, dtype), shape)
