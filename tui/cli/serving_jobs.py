"""`size embedding`, `size lora` and `size offload`: an encoder served at a rate (tools.encoder_serving), many LoRA
adapters on one base (tools.multi_lora), and part of a model or of the KV cache in system memory (tools.offload for
llama.cpp, tools.vllm_offload for vLLM). Each prints its figures and the flags that start it, or --json."""

from __future__ import annotations

import argparse
import shlex

from gpu_advisor.tui.cli.base import MODEL, REVISION, SIZING_OUTPUT, Commands, UsageError, arg, emit
from gpu_advisor.tui.cli.sizing import size
from gpu_advisor.tui.cli.values import fraction, positive_float, positive_int

commands = Commands()  # (the commands below are `size` subcommands, declared on sizing's group)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds < 10 else f"{seconds:,.1f} s"


@size.command(
    "embedding", "GPUs to serve an embedding or reranking model at a rate (prefill only: nothing generated)",
    MODEL, REVISION,
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--rps", type=positive_float, default=None, metavar="R", help="requests per second (a reranker: queries)"),
    arg("--documents", type=positive_int, default=None, metavar="N", help="a corpus to embed once, with --within-hours"),
    arg("--within-hours", type=positive_float, default=None, metavar="H", help="hours to embed --documents in"),
    arg("--tokens", type=positive_int, default=512, metavar="N", help="tokens per text (a reranker: per candidate)"),
    arg("--inputs", type=positive_int, default=1, metavar="N", help="texts per request (a reranker: candidates)"),
    arg("--query-tokens", type=positive_int, default=None, metavar="N", help="a reranker's query tokens (default 32)"),
    arg("--max-utilisation", type=fraction, default=0.7, metavar="F", help="most of a GPU's prefill speed used"),
    *SIZING_OUTPUT,
    examples=("gpu-advisor size embedding -m bge-m3 --gpu l4 --rps 300 --tokens 400",
              "gpu-advisor size embedding -m bge-reranker-v2-m3 --gpu l40s --rps 200 --inputs 50 --tokens 256",
              "gpu-advisor size embedding -m qwen3-embedding-8b --gpu h100 --documents 10000000 --within-hours 96 "
              "--tokens 500"))
def cmd_size_embedding(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.encoder_serving import EncoderServingInput, corpus_rate, encoder_serving

    if (args.rps is None) == (args.documents is None):
        raise UsageError("give --rps, or --documents with --within-hours (one of them)")
    if args.documents is not None and args.within_hours is None:
        raise UsageError("--documents needs --within-hours: the hours to embed them in")
    if args.max_utilisation >= 1:
        raise UsageError("--max-utilisation must be below 1: a GPU run at full speed queues without bound")
    rps = args.rps if args.rps is not None else corpus_rate(args.documents, args.within_hours, args.inputs)
    r = encoder_serving(EncoderServingInput(
        model=args.model, gpu=args.gpu, requests_per_s=rps, tokens_per_input=args.tokens,
        inputs_per_request=args.inputs, query_tokens=args.query_tokens, max_utilisation=args.max_utilisation))
    if args.documents is not None:
        r.assumptions.append(f"{args.documents:,} documents spread evenly over {args.within_hours:g} h")

    def human() -> str:
        what = "query-candidate pairs" if r.reranker else "texts"
        slow, fast = r.per_gpu_tokens_per_s_range
        return "\n".join([
            f"{r.model} on {r.gpu}: {r.requests_per_s:,.4g} requests/s x {r.pairs_per_s / r.requests_per_s:,.0f} "
            f"{what} x {r.tokens_per_input:,} tokens = {r.tokens_per_s_needed:,.0f} tokens/s read (nothing generated)",
            f"One GPU reads {r.per_gpu_tokens_per_s:,.0f} tokens/s ({slow:,.0f}-{fast:,.0f})",
            f"Plan: {r.gpus} GPU(s) in {r.servers} server(s) ({r.gpus_range[0]}-{r.gpus_range[1]} across the speed band), "
            f"{r.utilisation:.0%} busy",
            f"A request alone: {_ms(r.request_s)}; mean queueing wait {_ms(r.mean_wait_s)}",
            f"Memory per GPU: {r.per_gpu_bytes / 1e9:,.1f} GB" + ("" if r.fits else " (does not fit)"),
            "", "Start it (vLLM):", "  " + shlex.join(r.vllm_argv),
            "or (Text Embeddings Inference):", "  " + shlex.join(r.tei_argv)])

    emit(args, r, human)


@size.command(
    "lora", "many LoRA adapters on one base model: memory per adapter, GPU slots, system memory, throughput cost",
    MODEL, REVISION,
    arg("--loras", type=positive_int, required=True, metavar="N", help="adapters served on the base model"),
    arg("--lora-rank", type=positive_int, default=16, metavar="R", help="the adapters' rank (the largest)"),
    arg("--targets", choices=("all-linear", "attention"), default=None,
        help="modules the adapters adapt (default: all-linear; attention on a mixture-of-experts model)"),
    arg("--concurrency", type=positive_int, default=16, metavar="N", help="requests in flight on one copy"),
    arg("--gpu", default=None, metavar="G", complete="gpu", help="say the slots' share of this GPU's memory"),
    arg("--tp", type=positive_int, default=1, metavar="N", help="tensor-parallel GPUs per copy"),
    *SIZING_OUTPUT,
    examples=("gpu-advisor size lora -m llama-3.1-8b --loras 50 --lora-rank 16 --gpu l40s",
              "gpu-advisor size lora -m qwen2.5-32b --loras 20 --lora-rank 64 --concurrency 32 --json"))
def cmd_size_lora(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.multi_lora import MultiLoraInput, multi_lora

    r = multi_lora(MultiLoraInput(model=args.model, loras=args.loras, lora_rank=args.lora_rank, targets=args.targets,
                                  concurrency=args.concurrency, gpu=args.gpu, tp=args.tp))

    def human() -> str:
        low, high = r.throughput_cost
        share = f" ({r.gpu_share:.1%} of the GPU)" if r.gpu_share is not None else ""
        return "\n".join([
            f"{r.loras} LoRA adapters of rank {r.lora_rank} on {r.model} ({r.targets})",
            f"One adapter: {r.params_per_adapter / 1e6:,.1f}M parameters, {r.bytes_per_adapter / 1e6:,.1f} MB",
            f"In one batch of {args.concurrency}: {r.distinct_per_batch:,.1f} distinct adapters -> --max-loras {r.max_loras}",
            f"GPU slots: {r.gpu_slot_bytes / 1e9:,.2f} GB per GPU{share}, at --max-lora-rank {r.max_lora_rank}",
            f"System memory: {r.cpu_bytes / 1e9:,.2f} GB for all {r.max_cpu_loras} (--max-cpu-loras)",
            f"Throughput: {low:.0%}-{high:.0%} fewer tokens/s than the base model alone at the same batch",
            "", "vLLM flags: " + shlex.join(r.flags)])

    emit(args, r, human)


@size.command(
    "offload", "part of a model (or of idle conversations' KV cache) in system memory: its speed and RAM",
    MODEL, REVISION,
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--engine", choices=("llama.cpp", "vllm"), default="llama.cpp",
        help="llama.cpp: layers (-ngl) or a MoE model's experts (--n-cpu-moe) read by the CPU; vLLM: "
        "--cpu-offload-gb weights copied over PCIe every step"),
    arg("--precision", "-p", default=None, metavar="P", complete="precision",
        help="weight format (default: q4_k_m for llama.cpp, bf16 for vLLM)"),
    arg("--ram-gb", type=positive_float, default=None, metavar="GB", help="the computer's system memory"),
    arg("--context", type=positive_int, default=8192, metavar="N"),
    arg("--mode", choices=("layers", "experts"), default=None, help="llama.cpp: default experts for a MoE model"),
    arg("--gpus", type=positive_int, default=1, metavar="N",
        help="how many of the card (up to 8): vLLM tensor-parallel GPUs; llama.cpp splits the card-side layers over "
        "them (-ts)"),
    arg("--users", type=positive_int, default=1, metavar="N", help="vLLM: conversations decoded at once"),
    arg("--kv-offload", type=positive_int, default=0, metavar="N",
        help="vLLM: idle conversations whose KV cache is kept in system memory (KV offloading, LMCache)"),
    *SIZING_OUTPUT,
    examples=("gpu-advisor size offload -m qwen3-235b-a22b --gpu rtx-4090 --ram-gb 128",
              "gpu-advisor size offload -m qwen3-235b-a22b --gpu rtx-3090 --gpus 2 --ram-gb 128",
              "gpu-advisor size offload -m llama-3.1-70b --gpu l40s --engine vllm -p fp8 --users 4 --kv-offload 200"))
def cmd_size_offload(args: argparse.Namespace) -> None:
    if args.engine == "vllm":
        _vllm_offload(args)
        return
    from gpu_advisor.tools.offload import MAX_OFFLOAD_GPUS, OffloadInput, offload

    if args.gpus > MAX_OFFLOAD_GPUS:
        raise UsageError(f"--gpus: llama.cpp's offload is sized on one computer of up to {MAX_OFFLOAD_GPUS} equal cards")
    r = offload(OffloadInput(model=args.model, gpu=args.gpu, gpus=args.gpus, precision=args.precision or "q4_k_m",
                             context=args.context, system_ram_gb=args.ram_gb, mode=args.mode))

    def human() -> str:
        low, high = r.decode_tokens_per_s_range
        ram = ("" if r.ram_ok is None else " (the RAM said holds it)" if r.ram_ok else " (more than the RAM said)")
        where = (f"routed experts of {r.cpu_moe_layers} of {r.layers} layers in RAM" if r.mode == "experts"
                 else f"{r.gpu_layers} of {r.layers} layers on the card" + ("s" if r.gpus > 1 else ""))
        cards = "" if r.gpus == 1 else f" ({r.gpu_gb_per_card:,.1f} GB on the fullest of {r.gpus})"
        return "\n".join([
            f"{r.model} ({r.precision}) on {r.gpu if r.gpus == 1 else f'{r.gpus} x {r.gpu}'} with llama.cpp: {where}",
            f"On the card{'s' if r.gpus > 1 else ''}: {r.gpu_gb:,.1f} GB{cards}; in system RAM: {r.ram_gb:,.1f} GB; RAM needed: {r.ram_needed_gb:,.0f} GB{ram}",
            f"Decode: {r.decode_tokens_per_s:,.1f} tokens/s ({low:,.1f}-{high:,.1f} by the RAM's bandwidth), "
            f"{r.all_on_card_tokens_per_s:,.0f} if it all fit a card",
            f"Prompt reading: {r.prefill_tokens_per_s_range[0]:,.0f}-{r.prefill_tokens_per_s_range[1]:,.0f} tokens/s",
            "", f"llama-server flags: {r.flags}" + ("" if r.fits else " (does not fit even so)")])

    emit(args, r, human)


def _vllm_offload(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.vllm_offload import VllmOffloadInput, vllm_offload

    if args.gpus > 8:
        raise UsageError("--gpus: vLLM's CPU offload is sized on one server of up to 8 GPUs")
    r = vllm_offload(VllmOffloadInput(model=args.model, gpu=args.gpu, gpus=args.gpus, precision=args.precision or "bf16",
                                      context=args.context, users=args.users, system_ram_gb=args.ram_gb,
                                      kv_offload_conversations=args.kv_offload))

    def human() -> str:
        low, high = r.tokens_per_s_range
        lines = [f"{r.model} ({r.precision}) on {r.gpus} x {r.gpu} with vLLM"]
        if r.fits_without:
            lines.append("Fits the GPUs: no weights offloaded")
        else:
            lines.append(f"--cpu-offload-gb {r.cpu_offload_gb}: every decode step copies {r.cpu_offload_gb} GB per GPU "
                         f"over {r.link}")
        lines.append(f"Decode per conversation: {r.tokens_per_s:,.1f} tokens/s ({low:,.1f}-{high:,.1f}), "
                     f"{r.all_on_card_tokens_per_s:,.1f} with it all on the GPUs")
        if args.kv_offload:
            lines.append(f"KV offload: {r.kv_offload_gb:,.1f} GB for {args.kv_offload} idle conversations; one comes "
                         f"back in {_ms(r.kv_reload_s)} over PCIe against {_ms(r.kv_recompute_s)} to recompute")
        lines.append(f"System memory needed: {r.ram_needed_gb:,.0f} GB"
                     + ("" if r.ram_ok is None else " (the RAM said holds it)" if r.ram_ok else " (more than the RAM said)"))
        if r.flags:
            lines += ["", "vLLM flags: " + shlex.join(r.flags)]
        return "\n".join(lines)

    emit(args, r, human)
