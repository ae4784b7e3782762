"""LLM serving on the NPU: a decoder's prefill and decode steps timed per bucket, a trace served with
continuous batching under the KV budget the NPU's DRAM leaves (docs/serving.md).

  tnpu serve 'poisson:rate=2,requests=200,prompt=64-512,output=32-256,seed=0' --config tpuv6e
  tnpu serve trace.csv --model llama3_8b_4l --config tpuv3 --config tpuv6e --plots plots --json run.json
  tnpu serve trace.json --model tiny --prefill-buckets 16,32 --batch-buckets 1,2,4 --context-buckets 64

TRACE is a JSON or CSV file of requests (arrival_s, prompt_tokens,
output_tokens), or a generator: poisson:rate=R,requests=N,prompt=LO-HI,
output=LO-HI,seed=S (Poisson arrivals, uniform lengths).  --model is a
Llama-style decoder (llama3_8b_4l: Llama-3-8B's widths, 4 layers; llama3_8b:
all 32; tiny) and --layers changes its depth.  Each bucket's program is
compiled once in the timing mode, its GEMMs mapped for the NPU, and timed;
the table is cached (TNPU_CACHE_DIR), so serving another trace compiles and
times nothing.  A step between buckets takes the next bucket up's time.
The KV budget is the NPU's dram_capacity_gib less the weights; a request
is admitted when its prompt and output fit.  --policy fcfs (first come,
prefill first) or spf (shortest prompt first).

Bad input (a trace with a negative time, a model whose weights fill the
DRAM, a request longer than the largest bucket or the budget) is one line
and exit code 1.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from tnpu.serving.scheduler import POLICIES, ServingError
from tnpu.serving.serve import MODELS, model, serve
from tnpu.serving.steps import DEFAULT_BATCHES, DEFAULT_CONTEXTS, DEFAULT_PREFILL, BucketError, Buckets
from tnpu.serving.trace import TraceError, parse_generator, read_trace, write_trace
from tnpu.timing.npu_config import NPUConfigError, load_npu_config
from tnpu.tools.command_line import UserError

HELP = "serve an LLM request trace on the NPU (continuous batching, KV budget): throughput, TTFT, TPOT"


def _sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(item) for item in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, got '{text}'") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("trace", metavar="TRACE", help="a JSON or CSV file of requests, or poisson:...")
    parser.add_argument("--model", default="llama3_8b_4l", choices=MODELS, help="the decoder (default llama3_8b_4l)")
    parser.add_argument("--layers", type=int, help="the decoder's depth (default the model's)")
    parser.add_argument("--config", action="append", metavar="NPU",
                        help="a preset or NPU YAML file (repeatable; default tpuv3)")
    parser.add_argument("--policy", default="fcfs", choices=POLICIES, help="the scheduler policy (default fcfs)")
    parser.add_argument("--max-batch", type=int, help="most requests a decode step serves (default the largest batch bucket)")
    parser.add_argument("--prefill-buckets", type=_sizes, default=DEFAULT_PREFILL, metavar="T1,T2,...",
                        help=f"prompt lengths compiled (default {','.join(map(str, DEFAULT_PREFILL))})")
    parser.add_argument("--batch-buckets", type=_sizes, default=DEFAULT_BATCHES, metavar="B1,B2,...",
                        help=f"decode batches compiled (default {','.join(map(str, DEFAULT_BATCHES))})")
    parser.add_argument("--context-buckets", type=_sizes, default=DEFAULT_CONTEXTS, metavar="C1,C2,...",
                        help=f"decode contexts compiled (default {','.join(map(str, DEFAULT_CONTEXTS))})")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="write every run's figures, and its decode batch over time, as JSON")
    parser.add_argument("--plots", type=Path, metavar="DIR", help="write the batch and latency plots into DIR")
    parser.add_argument("--write-trace", type=Path, metavar="FILE.csv", help="write the requests served as CSV")


def run(args: argparse.Namespace) -> int:
    from tnpu.serving.metrics import summary

    try:
        spec = model(args.model, args.layers)
        buckets = Buckets(args.prefill_buckets, args.batch_buckets, args.context_buckets)
        path = Path(args.trace)
        requests = read_trace(path) if path.suffix in (".json", ".csv") or path.exists() else parse_generator(args.trace)
        npus = [(name, load_npu_config(name)) for name in (args.config or ["tpuv3"])]
    except (ServingError, BucketError, TraceError, NPUConfigError) as error:
        raise UserError(str(error).splitlines()[0]) from None
    if args.max_batch is not None and args.max_batch < 1:
        raise UserError("--max-batch must be at least 1")
    if args.write_trace is not None:
        write_trace(requests, args.write_trace)
    logging.getLogger("torch._inductor.runtime.triton_heuristics").setLevel(logging.CRITICAL)
    results = []
    for name, npu in npus:
        try:
            results.append(serve(spec, npu, requests, mapping=name, buckets=buckets, policy=args.policy,
                                 max_batch=args.max_batch, where=args.trace,
                                 progress=lambda line: print(f"tnpu serve: {line}", file=sys.stderr)))  # fmt: skip
        except (ServingError, BucketError) as error:
            raise UserError(str(error)) from None
        result = results[-1]
        print(summary(result.metrics, f"{spec.name} on {npu.name} ({result.policy}, KV budget "
                                      f"{result.budget.tokens:,} tokens, batch <= {result.max_batch})"))  # fmt: skip
    if args.json is not None:
        args.json.write_text(json.dumps([{
            "model": r.model.key(), "npu": r.npu.name, "policy": r.policy, "kv_budget_tokens": r.budget.tokens,
            "weight_bytes": r.budget.weight_bytes, "max_batch": r.max_batch, "metrics": r.metrics.to_json(),
            "decode_batches": [[round(step.start_s, 6), step.batch] for step in r.simulation.steps
                               if step.kind == "decode"],
        } for r in results]) + "\n")  # fmt: skip
        print(f"wrote {args.json}")
    if args.plots is not None:
        from tnpu.serving.plots import write_plots

        for written in write_plots(args.plots, results):
            print(f"wrote {written}")
    return 0
