"""tnpu: Triton kernels to a simulated NPU, as an xDSL pass pipeline."""

__version__ = "0.1.0"
