"""The model suite: PyTorch programs that `torch.compile(..., backend="tnpu")` must run.

* `suite`      `SuiteEntry`, the registry `SUITE` and `entry(spec)` (a name or `file.py:factory`);
* `ops`        single operations (broadcast arithmetic, activations, norms, GEMMs, convolutions,
               pooling, indexing, attention, scans, sorting, an MoE router);
* `networks`   whole models with random weights and no downloads (MLP, ResNet-18, MobileNetV3,
               ConvNeXtV2, ViT, BERT, GPT-2, Llama, Mixtral, CLIP's vision tower);
* `real_size`  ResNet-50, BERT-base, GPT-2 small, a Llama-3-8B layer, a Qwen3 MoE layer, ViT-B/16 and
               T5-base at published sizes, random weights (delivered in the `timing` execution mode);
* `mobilenet_v3`  MobileNetV3-small, written here (torchvision and timm need a CUDA torch);
* `compare`    eager against compiled outputs, judged against a float64 evaluation;
* `run`        one entry compiled, run, compared and timed: a `ModelResult`;
* `capture`    one entry compiled and run once, each kernel launch captured (`tnpu dse`'s model workloads);
* `suite_run`  every entry in a process of its own: the bucketed report and the gate.

docs/torch-compile.md describes the suite.
"""
