"""LLM serving on the NPU: a decoder's step times per bucket, a continuous-batching loop, its figures (docs/serving.md)."""
