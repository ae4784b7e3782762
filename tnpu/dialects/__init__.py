"""tnpu's dialects: `tt` (Triton), `ttg` barriers, tensor-capable `arith`, and `tile`."""
