"""Issue 44's trace of big compiles: an inference server's warm-up, written by a real job under ``TORCH_TRACE``.

    python benchmarks/server_trace.py OUT_DIR [--layers 12] [--buckets 40] [--entries 8] [--backend aot_eager]

A transformer encoder (``torch.nn.TransformerEncoder``: ``--layers`` layers of d_model 128, 4 heads, random weights,
eval mode) served through ``--entries`` entry points (the plain forward, a padding mask, mean and first-token pooling,
a normalized embedding, a scored pair, ...), each compiled as a server compiles it (``torch.compile(fn,
dynamic=False)``, the recompile limit raised to the bucket count) and warmed up for ``--buckets`` static sequence
lengths (8, 16, ...): ``entries x buckets`` compiles, each guarding every parameter (a guard tree of about 0.5 MB)
with its AOT graphs and metadata. With the defaults: 320 compiles, about 1 MB a compile, as the 324 MB trace the
issue measured (12 layers, 40 buckets, 8 entry points, 323 compiles). The log is ``OUT_DIR/*.log``; the script
prints its size and how long the warm-up took.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path


def warm_up(layers: int, buckets: int, entries: int, backend: str) -> None:
    """The job itself (run in a child process with TORCH_TRACE set)."""
    import torch

    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=256, batch_first=True)
    encoder = torch.nn.TransformerEncoder(layer, num_layers=layers, enable_nested_tensor=False).eval()
    head = torch.nn.Linear(128, 1).eval()
    torch._dynamo.config.recompile_limit = max(8, buckets)
    torch._dynamo.config.accumulated_recompile_limit = max(256, buckets * entries * 2)

    def encode(x):
        return encoder(x)

    def encode_masked(x, pad):
        return encoder(x, src_key_padding_mask=pad)

    def pooled_mean(x):
        return encoder(x).mean(1)

    def pooled_first(x):
        return encoder(x)[:, 0]

    def normalized(x):
        return torch.nn.functional.normalize(encoder(x).mean(1), dim=-1)

    def scored(x):
        return head(encoder(x)).squeeze(-1)

    def pair(x, y):
        return (encoder(x).mean(1) * encoder(y).mean(1)).sum(-1)

    def causal(x):
        mask = torch.nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        return encoder(x, mask=mask, is_causal=True)

    points = [encode, encode_masked, pooled_mean, pooled_first, normalized, scored, pair, causal][:entries]
    compiled = [torch.compile(fn, backend=backend, dynamic=False) for fn in points]
    with torch.inference_mode():
        for b in range(buckets):
            seq = 8 * (b + 1)
            x = torch.randn(2, seq, 128)
            for fn, c in zip(points, compiled, strict=True):
                if fn is encode_masked:
                    c(x, torch.zeros(2, seq, dtype=torch.bool))
                elif fn is pair:
                    c(x, x + 1)
                else:
                    c(x)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--buckets", type=int, default=40)
    ap.add_argument("--entries", type=int, default=8)
    ap.add_argument("--backend", default="aot_eager")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        warm_up(args.layers, args.buckets, args.entries, args.backend)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TORCH_TRACE": str(args.out)}
    started = time.perf_counter()
    cmd = [sys.executable, __file__, str(args.out), "--child"]
    cmd += ["--layers", str(args.layers), "--buckets", str(args.buckets), "--entries", str(args.entries)]
    subprocess.run([*cmd, "--backend", args.backend], env=env, check=True)
    logs = sorted(args.out.glob("*.log"))
    size = sum(p.stat().st_size for p in logs)
    print(f"{len(logs)} log(s), {size / 1e6:.1f} MB, warm-up {time.perf_counter() - started:.0f} s: {args.out}")


if __name__ == "__main__":
    main()
