"""Vector addition, written as for a GPU, run on tnpu: `python examples/triton/vector_add.py`.

With tnpu installed, Triton's `cpu` backend is tnpu: the kernel compiles to
RVV code that runs under qemu on the CPU tensors, and is timed on the
modeled NPU (`TNPU_CONFIG`, default tpuv3).
"""

import torch
import triton
import triton.language as tl

import tnpu


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.rand(98432), torch.rand(98432)
    with tnpu.profile() as prof:
        output = add(x, y)
    torch.testing.assert_close(output, x + y)
    print("matches torch: max difference", (output - (x + y)).abs().max().item())
    print(prof.table())
