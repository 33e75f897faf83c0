"""Question-generation throughput of a t5-base-sized model (random weights: speed does
not depend on them), on the CPU in fp32 and, when there is one, on CUDA in bf16.

    .venv/bin/python benchmarks/bench_seq2seq.py [--batch 8] [--cuda-batch 64] [--repeats 3]

Each "question" is one prompt of --source-tokens tokens (a 150-word section with control
codes is about 220 T5 tokens) decoded greedily to exactly --new-tokens tokens (a
FairytaleQA question averages ~12 words, ~16 tokens). Prints the median questions/s per
device and the GPU/CPU ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time


def t5_base_config():
    from transformers import T5Config

    # google-t5/t5-base's published dimensions, built locally (nothing is downloaded).
    return T5Config(
        vocab_size=32128,
        d_model=768,
        d_kv=64,
        d_ff=3072,
        num_layers=12,
        num_decoder_layers=12,
        num_heads=12,
        relative_attention_num_buckets=32,
        dropout_rate=0.1,
        feed_forward_proj="relu",
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
    )


def measure(
    model, device, dtype, batch: int, source_tokens: int, new_tokens: int, repeats: int, beams: int
) -> list[float]:
    import torch

    model = model.to(device=device, dtype=dtype).eval()
    gen = torch.Generator().manual_seed(0)
    ids = torch.randint(2, 32000, (batch, source_tokens), generator=gen).to(device)
    mask = torch.ones_like(ids)
    rates = []
    with torch.inference_mode():
        for run in range(repeats + 1):  # the first run warms up (allocations, kernels)
            if device.type == "cuda":
                torch.cuda.synchronize()
            start = time.perf_counter()
            out = model.generate(
                input_ids=ids,
                attention_mask=mask,
                num_beams=beams,
                do_sample=False,
                max_new_tokens=new_tokens,
                min_new_tokens=new_tokens,
            )
            if device.type == "cuda":
                torch.cuda.synchronize()
            seconds = time.perf_counter() - start
            assert out.shape[0] == batch
            if run:
                rates.append(batch / seconds)
    return rates


def main() -> None:
    import torch
    from transformers import T5ForConditionalGeneration

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=8, help="questions per batch on the CPU")
    parser.add_argument("--cuda-batch", type=int, default=64, help="questions per batch on CUDA")
    parser.add_argument("--source-tokens", type=int, default=220)
    parser.add_argument("--new-tokens", type=int, default=16)
    parser.add_argument("--beams", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, help="torch CPU threads (default: torch's)")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    torch.manual_seed(0)
    started = time.perf_counter()
    model = T5ForConditionalGeneration(t5_base_config())
    params = sum(p.numel() for p in model.parameters()) / 1e6
    print(
        f"t5-base-sized model: {params:.0f}M parameters, built in "
        f"{time.perf_counter() - started:.1f} s; {args.source_tokens} source tokens, "
        f"{args.new_tokens} new tokens, {args.beams} beam(s)"
    )

    cpu = measure(
        model,
        torch.device("cpu"),
        torch.float32,
        args.batch,
        args.source_tokens,
        args.new_tokens,
        args.repeats,
        args.beams,
    )
    cpu_rate = statistics.median(cpu)
    print(
        f"cpu  fp32  batch {args.batch:>3}: median {cpu_rate:8.2f} questions/s "
        f"(runs: {', '.join(f'{r:.2f}' for r in cpu)}; {torch.get_num_threads()} threads)"
    )
    if torch.cuda.is_available():
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        gpu = measure(
            model,
            torch.device("cuda"),
            dtype,
            args.cuda_batch,
            args.source_tokens,
            args.new_tokens,
            args.repeats,
            args.beams,
        )
        gpu_rate = statistics.median(gpu)
        name = torch.cuda.get_device_name(0)
        print(
            f"cuda {str(dtype).replace('torch.', ''):<5} batch {args.cuda_batch:>3}: median "
            f"{gpu_rate:8.2f} questions/s on {name} (runs: "
            f"{', '.join(f'{r:.2f}' for r in gpu)})"
        )
        print(f"GPU/CPU ratio: {gpu_rate / cpu_rate:.1f}x")
    else:
        print("cuda: not available on this machine (no GPU figure, no ratio)")


if __name__ == "__main__":
    main()
