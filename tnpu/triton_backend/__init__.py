"""tnpu as a Triton backend: `kernel[grid](...)` on CPU tensors compiles through tnpu,
runs as RVV code under qemu (or in the tile interpreter) and is timed on the modeled NPU.

Registered as Triton's `cpu` backend (`[project.entry-points."triton.backends"]`):

* `compiler`  `TnpuBackend`: Triton's TTIR passes, then tnpu's compile API, to a
  self-contained `KernelBinary` (`binary`);
* `driver`    `TnpuDriver`: the modeled NPU as Triton's device; its launcher
  (`launcher`) runs the binary on the tensors' storages and times every launch;
* `profile`   `tnpu.profile(...)`: the launches and their modeled times;
* `settings`  execution mode, NPU, benchmark clock, VLEN (and their environment variables).

docs/triton-backend.md describes it.  Nothing is imported here: Triton imports
`compiler` and `driver` itself.
"""
