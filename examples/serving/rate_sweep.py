"""Offered load against throughput and latency: the example's lengths at several arrival rates, on tpuv3 and tpuv6e.

    python examples/serving/rate_sweep.py [OUT_DIR]

Prints a Markdown table and writes `rate-sweep.png` (throughput and TPOT p99
against the arrival rate).  Every run reads the step tables `tnpu serve`
cached (or builds them first).
"""

import sys
from pathlib import Path

from tnpu.serving.serve import MODELS, serve
from tnpu.serving.trace import parse_generator
from tnpu.timing.npu_config import load_npu_config

RATES = (2, 4, 8, 16, 32, 64)
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
rows = []
print("| NPU | rate req/s | tokens/s | TTFT p50 / p99 ms | TPOT p50 / p99 ms | mean batch |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for name in ("tpuv3", "tpuv6e"):
    npu = load_npu_config(name)
    for rate in RATES:
        requests = parse_generator(f"poisson:rate={rate},requests=300,prompt=64-512,output=32-384,seed=0")
        m = serve(MODELS["llama3_8b_4l"], npu, requests).metrics
        rows.append((name, rate, m))
        print(f"| {name} | {rate} | {m.tokens_per_s:,.0f} | {m.ttft_s[50] * 1e3:,.1f} / {m.ttft_s[99] * 1e3:,.1f} | "
              f"{m.tpot_s[50] * 1e3:,.2f} / {m.tpot_s[99] * 1e3:,.2f} | {m.mean_batch:.1f} |")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

figure, axes = plt.subplots(1, 2, figsize=(9, 3.5))
for name in ("tpuv3", "tpuv6e"):
    mine = [(rate, m) for npu, rate, m in rows if npu == name]
    axes[0].plot([r for r, _ in mine], [m.tokens_per_s for _, m in mine], marker="o", label=name)
    axes[1].plot([r for r, _ in mine], [m.tpot_s[99] * 1e3 for _, m in mine], marker="o", label=name)
for axis, label in zip(axes, ("throughput (output tokens/s)", "TPOT p99 (ms)")):
    axis.set_xscale("log", base=2)
    axis.set_xlabel("arrival rate (requests/s)")
    axis.set_ylabel(label)
    axis.grid(alpha=0.3)
    axis.legend()
figure.suptitle("llama3_8b_4l: 300 requests, prompts 64-512, outputs 32-384 tokens")
figure.tight_layout()
figure.savefig(out / "rate-sweep.png", dpi=120)
