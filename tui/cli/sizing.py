"""The sizing commands: `size inference|training`, `speed`, `fit`, `cost`, `train-time`, `recommend`.
Each prints a table and its caveats, or with --json the tool's result; none imports langgraph or
textual, and each may look a model up on the Hugging Face Hub."""

from __future__ import annotations

import argparse
import json

from pydantic import BaseModel

from gpu_advisor.tools.native_default import DefaultFormat, default_format, default_note
from gpu_advisor.tools.phases import (
    DEFAULT_COMPLETION_TOKENS,
    DEFAULT_SAMPLES,
    DEFAULT_USERS,
    PHASES,
    RL_PROMPTS,
)
from gpu_advisor.tui.cli.base import (
    ENGINES,
    MODEL,
    REGION,
    REVISION,
    SIZING_OUTPUT,
    Commands,
    Setting,
    UsageError,
    arg,
    emit,
)
from gpu_advisor.tui.cli.levers import LEVER_ARGS, PREFIX_ARGS, lever_fields, lever_lines, prefix_cut
from gpu_advisor.tui.cli.values import (
    duration_ms,
    fraction,
    framework_id,
    non_negative_float,
    positive_float,
    positive_int,
    tokens_amount,
)
from gpu_advisor.tui.settings import CURRENCIES

# the share of the hours a card is busy when renting and buying are compared and none is given
RENT_BUY_UTILISATION = 0.5

commands = Commands()
size = commands.group("size", "memory needed for inference or training; GPUs to serve a request rate",
                      metavar="inference|training|serving|embedding|lora|offload", dest="what",
                      examples=("gpu-advisor size inference -m llama-3.1-8b",
                                "gpu-advisor size training -m 27B --method lora",
                                "gpu-advisor size serving -m llama-3.1-8b --rps 20 --prompt 1000 --output 200 "
                                "--ttft-p99 2s --tpot 50ms --gpu h100"))
FRAMEWORK = arg("--framework", type=framework_id, default=None, metavar="F", complete="framework",
                help="fine-tuning framework whose defaults size the run, e.g. unsloth or torchtune (default: "
                "hf-trainer; the presets are knowledge/data/frameworks.yaml, and a wrong name lists them)")
NATIVE_HELP = "weight format (default: the checkpoint's own, e.g. MXFP4 for gpt-oss, FP8 for DeepSeek-V3; else bf16)"
CURRENCY = arg("--currency", type=str.upper, choices=CURRENCIES, default=Setting("currency"),
               help="currency of the printed prices (amounts given in flags stay in USD)")


def weight_format(args: argparse.Namespace, gpu: str | None = None) -> DefaultFormat:
    """--precision when given, else the checkpoint's own format (gpt-oss: MXFP4), else BF16."""
    if args.precision is not None:
        return DefaultFormat(args.precision, False)
    return default_format(args.model, gpu)


def with_note(result: BaseModel, choice: DefaultFormat) -> None:
    """Put first among the result's assumptions that the checkpoint's own format was sized unasked."""
    note = default_note(choice)
    assumptions = getattr(result, "assumptions", None)
    if note and isinstance(assumptions, list):
        assumptions.insert(0, note)


def own_format(choice: DefaultFormat, inside: bool = False) -> str:
    """The words a headline adds after the weight format sized by default (`inside`: within brackets)."""
    if not choice.native:
        return ""
    words = (f"converted from the checkpoint's own {choice.converted_from}" if choice.converted_from
             else "the checkpoint's own format")
    return f", {words}" if inside else f" ({words})"


def thin_price(offers: int | None) -> str:
    """The mark after a rental price that rests on too few offers to stand for a market, as the chat's table
    marks it ('2.59 (price from 1 offer)')."""
    from gpu_advisor.tools.cost import few_offers

    if not few_offers(offers):
        return ""
    return f" (price from {offers} offer{'s' if offers != 1 else ''})"


def in_currency(usd: float, currency: str, digits: int = 2) -> str:
    """A dollar amount as a number in the chosen currency: yuan at the rules' exchange rate."""
    if currency == "CNY":
        from gpu_advisor.knowledge import rules

        usd /= rules().usd_per_cny
    return f"{usd:,.{digits}f}"


def exchange_note(currency: str) -> list[str]:
    """The line that says where the yuan figures came from; nothing for dollars."""
    if currency != "CNY":
        return []
    from gpu_advisor.knowledge import rules

    r = rules()
    return ["", f"CNY at {r.usd_per_cny} USD per CNY as of {r.usd_per_cny_as_of}: {r.usd_per_cny_source}."]


@size.command(
    "inference", "memory to serve a model",
    MODEL, REVISION,
    arg("--precision", "-p", default=None, metavar="P", complete="precision", help=NATIVE_HELP),
    arg("--kv-precision", default=None, metavar="P", complete="precision"),
    arg("--context", type=positive_int, default=4096, metavar="N", help="tokens per sequence"),
    arg("--output-tokens", type=positive_int, default=None, metavar="N",
        help="of the context, tokens generated after the prompt (transformers' prefill peak covers the prompt only)"),
    arg("--batch", type=positive_int, default=1, metavar="N", help="concurrent sequences"),
    arg("--gpus", type=positive_int, default=1, metavar="N", help="tensor-parallel GPUs"),
    arg("--pp", type=positive_int, default=1, metavar="N", help="pipeline stages"),
    arg("--gpu", default=None, metavar="G", complete="gpu", help="check the fit on this GPU"),
    arg("--engine", choices=ENGINES, default=None),
    arg("--engine-version", choices=("v1", "v1-before-0.21", "v0"), default="v1",
        help="vLLM's memory accounting: v1 (the current release), v1-before-0.21 (CUDA graphs in the headroom), "
        "v0 (the V0 engine)"),
    arg("--gpu-memory-utilization", type=fraction, default=None, metavar="F", help="vLLM (default 0.90)"),
    arg("--mem-fraction-static", type=fraction, default=None, metavar="F",
        help="SGLang's share for weights and KV pool (default: SGLang's own rule)"),
    arg("--dp-attention", type=positive_int, default=1, metavar="N",
        help="data-parallel attention ranks (SGLang --enable-dp-attention --dp-size N): each keeps its own "
        "sequences' KV cache (MLA models: the latent is no longer copied to every GPU)"),
    arg("--disable-hybrid-kv-cache-manager", action="store_true",
        help="vLLM: sliding-window layers keep every token, as with that flag"),
    *SIZING_OUTPUT,
    examples=("gpu-advisor size inference -m qwen2.5-14b -p fp8 --context 8192 --batch 10 --gpu l40s",
              "gpu-advisor size inference -m ./config.json --gpus 2 --json"))
def cmd_size_inference(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
    from gpu_advisor.tools.models import name_only, resolve_model
    from gpu_advisor.tui.format import gb, table

    fmt = weight_format(args, args.gpu)
    r = inference_memory(InferenceMemoryInput(
        model=args.model, precision=fmt.precision, kv_precision=args.kv_precision, context=args.context,
        output_tokens=args.output_tokens or 0,
        batch=args.batch, gpus=args.gpus, pp=args.pp, gpu=args.gpu, engine=args.engine,
        engine_version=args.engine_version, gpu_memory_utilization=args.gpu_memory_utilization,
        mem_fraction_static=args.mem_fraction_static, dp_attention=args.dp_attention,
        disable_hybrid_kv_cache_manager=args.disable_hybrid_kv_cache_manager))
    with_note(r, fmt)

    def human() -> str:
        n = r.gpus * r.pp
        named = " (sized from its name alone: see the warnings)" if name_only(resolve_model(args.model)) else ""
        lines = [f"{r.model}{named}: {r.precision} weights{own_format(fmt)}, {r.engine}, {r.batch} x {r.context:,} tokens"
                 + (f", {r.gpus} TP x {r.pp} PP GPUs" if n > 1 else ""),
                 "Memory in GB (10^9 bytes)", ""]
        rows = [("Weights", gb(r.weights_bytes), gb(r.per_gpu_weights_bytes)),
                ("KV cache", gb(r.kv_cache_bytes), gb(r.per_gpu_kv_cache_bytes)),
                ("Activations", gb(r.activation_bytes), gb(r.per_gpu_activation_bytes)),
                ("Engine overhead", gb(r.overhead_bytes), gb(r.per_gpu_overhead_bytes)),
                ("Total", gb(r.total_bytes), gb(r.per_gpu_total_bytes)),
                ("Range", f"{gb(r.total_range_bytes[0])}-{gb(r.total_range_bytes[1])}",
                 f"{gb(r.per_gpu_total_range_bytes[0])}-{gb(r.per_gpu_total_range_bytes[1])}")]
        lines.append(table(rows, ["", "all GPUs", "per GPU"]))
        if r.gpu:
            verdict = "fits" if r.fits else "does NOT fit"
            lines += ["", f"On {r.gpu} ({gb(r.gpu_capacity_bytes or 0)} GB usable): {verdict}, "
                          f"headroom {gb(r.headroom_bytes or 0)} GB per GPU"]
            if r.kv_cache_capacity_tokens is not None:
                lines.append(f"vLLM KV cache capacity: {r.kv_cache_capacity_tokens:,} tokens "
                             f"= {r.max_concurrent_sequences:,.1f} sequences of {r.context:,} tokens")
        return "\n".join(lines)

    emit(args, r, human)


@size.command(
    "training", "memory to fine-tune a model",
    MODEL, REVISION,
    arg("--method", choices=("full", "lora", "qlora"), required=True),
    arg("--precision", default="bf16", metavar="P", complete="precision", help="compute precision (bf16 or fp16)"),
    arg("--base-precision", default=None, metavar="P", help="QLoRA base format: nf4 (default), int8, or a "
        "2-bit format such as hqq-int2"),
    FRAMEWORK,
    arg("--fp32-master", action="store_true", help="full fine-tuning with FP32 master weights, gradients and "
        "optimizer states (mixed precision); default: the framework's (HF Trainer: all in bf16)"),
    arg("--pure-bf16", action="store_true", help="everything in the precision asked, no FP32 master weights"),
    arg("--optimizer", choices=("adamw", "adamw-8bit", "paged-adamw-8bit", "sgd"), default=None,
        help="default: the framework's"),
    arg("--seq-len", type=positive_int, default=2048, metavar="N"),
    arg("--batch", type=positive_int, default=1, metavar="N", help="micro-batch per GPU"),
    arg("--gradient-checkpointing", action=argparse.BooleanOptionalAction, default=None,
        help="recompute activations in backward; default: the framework's (on)"),
    arg("--checkpoint-offload", action=argparse.BooleanOptionalAction, default=None,
        help="keep checkpointed activations in CPU memory; default: the framework's (Unsloth: on)"),
    arg("--loss", choices=("full", "chunked", "fused"), default=None,
        help="cross-entropy over full logits, in chunks, or fused; default: the framework's"),
    arg("--gpus", type=positive_int, default=1, metavar="N"),
    arg("--zero", type=int, choices=(0, 1, 2, 3), default=None,
        help="ZeRO stage / FSDP sharding; default: the framework's on several GPUs"),
    arg("--cpu-offload", action="store_true"),
    arg("--lora-rank", type=positive_int, default=16, metavar="R"),
    *SIZING_OUTPUT,
    examples=("gpu-advisor size training -m 27B --method qlora --seq-len 4096",
              "gpu-advisor size training -m llama-3.1-8b --method full --framework torchtune",
              "gpu-advisor size training -m llama-3.1-8b --method full --gpus 8 --zero 3 --json"))
def cmd_size_training(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
    from gpu_advisor.tui.format import gb, table

    if args.fp32_master and args.pure_bf16:
        raise UsageError("--fp32-master and --pure-bf16 contradict each other: give one")
    r = training_memory(TrainingMemoryInput(
        model=args.model, method=args.method, precision=args.precision, base_precision=args.base_precision,
        framework=args.framework, mixed_precision=True if args.fp32_master else (False if args.pure_bf16 else None),
        optimizer=args.optimizer, seq_len=args.seq_len, batch=args.batch,
        gradient_checkpointing=args.gradient_checkpointing, checkpoint_offload=args.checkpoint_offload,
        loss=args.loss, gpus=args.gpus, zero=args.zero, cpu_offload=args.cpu_offload, lora_rank=args.lora_rank))

    def human() -> str:
        rows = [("Weights", gb(r.weights_bytes)), ("Gradients", gb(r.gradient_bytes)),
                ("Optimizer states", gb(r.optimizer_bytes)), ("Activations", gb(r.activation_bytes)),
                ("CUDA context and allocator", gb(r.overhead_bytes)), ("Total per GPU", gb(r.per_gpu_total_bytes)),
                ("Range per GPU", f"{gb(r.per_gpu_total_range_bytes[0])}-{gb(r.per_gpu_total_range_bytes[1])}")]
        lines = [f"{r.model}: {r.method} fine-tuning on {r.gpus} GPU(s) with {r.framework}"
                 + (f", ZeRO-{r.zero}" if r.zero else ""),
                 f"Trainable parameters: {r.trainable_params / 1e9:,.3f}B", "Memory in GB (10^9 bytes)", "",
                 table(rows, ["", "per GPU"])]
        if r.cpu_bytes:
            lines.append(f"CPU memory for offloaded state: {gb(r.cpu_bytes)} GB per GPU")
        if r.managed_bytes:
            lines.append(f"Paged optimizer states (CUDA managed memory, not in the total): {gb(r.managed_bytes)} GB")
        return "\n".join(lines)

    emit(args, r, human)


@size.command(
    "serving", "GPUs and replicas to serve a request rate within latency targets",
    MODEL, REVISION,
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--rps", type=positive_float, default=None, metavar="R", help="requests per second at the busiest time"),
    arg("--rpm", type=positive_float, default=None, metavar="R", help="requests per minute"),
    arg("--rph", type=positive_float, default=None, metavar="R", help="requests per hour (spread evenly)"),
    arg("--rpd", type=positive_float, default=None, metavar="R", help="requests per day (spread evenly over 24 h)"),
    arg("--prompt", type=positive_int, required=True, metavar="N", help="mean prompt tokens per request"),
    arg("--output", type=positive_int, required=True, metavar="N", help="mean output tokens per request"),
    arg("--prompt-p99", type=positive_int, default=None, metavar="N",
        help="99th-percentile prompt tokens (default: lengths vary like an exponential distribution)"),
    arg("--output-p99", type=positive_int, default=None, metavar="N", help="99th-percentile output tokens"),
    arg("--ttft-p50", type=duration_ms, default=None, metavar="T", help="median time to first token, e.g. 500ms"),
    arg("--ttft-p99", type=duration_ms, default=None, metavar="T", help="p99 time to first token, e.g. 2s"),
    arg("--ttft", type=duration_ms, default=None, metavar="T",
        help="time to first token at --ttft-percentile (p90 TTFT under 1 s: --ttft 1s --ttft-percentile 90)"),
    arg("--ttft-percentile", type=positive_float, default=99.0, metavar="Q", help="the percentile --ttft is held at"),
    arg("--tpot", type=duration_ms, default=None, metavar="T", help="median time per output token, e.g. 50ms"),
    arg("--tpot-p99", type=duration_ms, default=None, metavar="T", help="p99 time per output token"),
    arg("--e2e-p99", type=duration_ms, default=None, metavar="T", help="p99 end-to-end latency"),
    arg("--precision", "-p", default=None, metavar="P", complete="precision", help=NATIVE_HELP),
    arg("--kv-precision", default=None, metavar="P", complete="precision"),
    arg("--engine", choices=("vllm", "sglang"), default="vllm"),
    arg("--arrival-cv2", type=non_negative_float, default=1.0, metavar="X",
        help="burstiness: squared coefficient of variation of the gaps between requests (1 Poisson, above 1 bursty)"),
    arg("--routing", choices=("per-replica", "shared"), default="per-replica",
        help="per-replica: each replica queues its own requests; shared: one queue, least-loaded routing"),
    arg("--max-utilisation", type=fraction, default=0.8, metavar="F", help="most of a replica's capacity used"),
    arg("--tp", type=positive_int, default=None, metavar="N", help="tensor-parallel GPUs per replica (default: searched)"),
    arg("--max-gpus", type=positive_int, default=128, metavar="N"),
    arg("--server-gpus", type=positive_int, default=8, metavar="N"),
    *PREFIX_ARGS,
    *SIZING_OUTPUT,
    examples=("gpu-advisor size serving -m llama-3.1-8b --rps 20 --prompt 1000 --output 200 --ttft-p99 2s "
              "--tpot 50ms --gpu h100",
              "gpu-advisor size serving -m llama-3.1-70b -p fp8 --rpm 1200 --prompt 2000 --output 300 --gpu h100 --json"))
def cmd_size_serving(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.queueing import PerUnit, RateInput, per_second, size_by_rate
    from gpu_advisor.tui.format import table

    rates: tuple[tuple[float | None, PerUnit], ...] = ((args.rps, "second"), (args.rpm, "minute"),
                                                       (args.rph, "hour"), (args.rpd, "day"))
    given = [(v, per) for v, per in rates if v is not None]
    if len(given) != 1:
        raise UsageError("give the request rate once: --rps, --rpm, --rph or --rpd")
    value, per = given[0]
    if args.max_utilisation >= 1:
        raise UsageError("--max-utilisation must be below 1: a replica run at full capacity queues without bound")
    if not 50 <= args.ttft_percentile <= 99.9:
        raise UsageError("--ttft-percentile is a percentile from 50 to 99.9 (90 for p90)")
    fmt = weight_format(args, args.gpu)
    args.prompt_tokens = args.prompt
    cached, cache_line = prefix_cut(args)  # prefix caching: the prompt tokens still computed and held
    r = size_by_rate(RateInput(
        model=args.model, gpu=args.gpu, precision=fmt.precision, kv_precision=args.kv_precision, engine=args.engine,
        requests_per_s=per_second(value, per), prompt_tokens=args.prompt - cached, output_tokens=args.output,
        prompt_tokens_p99=args.prompt_p99 - cached if args.prompt_p99 else None, output_tokens_p99=args.output_p99, arrival_cv2=args.arrival_cv2,
        ttft_p50_ms=args.ttft_p50, ttft_p99_ms=args.ttft_p99, ttft_target_ms=args.ttft,
        ttft_percentile=args.ttft_percentile / 100, tpot_ms=args.tpot, tpot_p99_ms=args.tpot_p99,
        e2e_p99_ms=args.e2e_p99, routing=args.routing, max_utilisation=args.max_utilisation, tp=args.tp,
        max_gpus=args.max_gpus, server_gpus=args.server_gpus))
    with_note(r, fmt)
    if cache_line:  # the queueing model's own caveat says the cache is not counted: here it is, as the cut prompt
        r.assumptions = [a.replace("prefix caching is not counted", "prefix caching counted (the prompt sized is "
                                   "the part still computed)") for a in r.assumptions]

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:,.0f} ms" if seconds < 10 else f"{seconds:,.1f} s"

    def human() -> str:
        unit = f"{r.tp} GPU" + ("s" if r.tp > 1 else "") + (f" x {r.pp} servers" if r.pp > 1 else "")
        lines = [f"{r.model} on {r.gpu} ({r.engine}, {r.precision}{own_format(fmt, True)}): {r.requests_per_s:,.3g} requests/s, "
                 f"{r.prompt_tokens:,} tokens in, {r.output_tokens:,} out",
                 f"Plan: {r.replicas} replica(s) of {unit} = {r.gpus} GPUs in {r.servers} server(s); "
                 f"set by: {r.binding}",
                 f"In flight: {r.concurrency:,.1f} requests (Little's law), {r.concurrency_per_replica:,.1f} per replica "
                 f"(p99 {r.concurrency_p99_per_replica:,}; a replica holds {r.max_sequences_per_replica:,})",
                 f"Utilisation: {r.utilisation:.0%} of a replica's {r.replica_capacity_rps:,.3g} requests/s", ""]
        rows = [("time to first token", ms(r.ttft_p50_s), ms(r.ttft_p99_s)),
                ("time per output token", ms(r.tpot_p50_s), ms(r.tpot_p99_s)),
                ("end to end", ms(r.e2e_p50_s), ms(r.e2e_p99_s))]
        lines.append(table(rows, ["at this load", "p50", "p99"]))
        if r.ttft_percentile != 0.99:
            lines.append(f"time to first token at p{r.ttft_percentile * 100:.10g}: {ms(r.ttft_q_s)}")
        if per == "day":
            lines += ["", "A daily count is spread evenly over 24 hours; the busiest hour runs higher: give its rate."]
        if cache_line:
            lines += ["", cache_line]
        return "\n".join(lines)

    emit(args, r, human)


@commands.command(
    "speed", "decode and prefill tokens/s",
    MODEL, REVISION,
    arg("--precision", "-p", default=None, metavar="P", complete="precision", help=NATIVE_HELP),
    arg("--kv-precision", default=None, metavar="P", complete="precision"),
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--gpus", type=positive_int, default=1, metavar="N", help="tensor-parallel GPUs (within one server)"),
    arg("--pp", type=positive_int, default=1, metavar="N", help="pipeline stages, one per server (vLLM, SGLang)"),
    arg("--batch", type=positive_int, default=1, metavar="N"),
    arg("--context", type=positive_int, default=2048, metavar="N"),
    arg("--engine", choices=ENGINES, default=None),
    *SIZING_OUTPUT,
    examples=("gpu-advisor speed -m llama-3.1-8b --gpu rtx-4090 --batch 4",
              "gpu-advisor speed -m llama-3.1-405b --gpu h100-sxm --gpus 8 --pp 2 --batch 20 --engine vllm"))
def cmd_speed(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.throughput import SpeedInput, speed
    from gpu_advisor.tui.format import tokens

    fmt = weight_format(args, args.gpu)
    r = speed(SpeedInput(model=args.model, precision=fmt.precision, gpu=args.gpu, gpus=args.gpus, pp=args.pp,
                         batch=args.batch,
                         context=args.context, engine=args.engine, kv_precision=args.kv_precision))
    with_note(r, fmt)

    def human() -> str:
        lo, hi = r.decode_tokens_per_s_range
        plo, phi = r.prefill_tokens_per_s_range
        return "\n".join([
            f"{r.model} on {r.gpus} x {r.gpu}" + (f" x {r.pp} pipeline stages ({r.gpus * r.pp} GPUs)" if r.pp > 1 else "")
            + f" ({r.engine}, {fmt.precision}{own_format(fmt, True)}), batch {r.batch}, context {r.context:,}",
            f"Decode:  {tokens(r.decode_tokens_per_s)} tokens/s per sequence (range {tokens(lo)}-{tokens(hi)}), "
            f"{tokens(r.aggregate_decode_tokens_per_s)} tokens/s in all; {r.bound}-bound",
            f"Prefill: {tokens(r.prefill_tokens_per_s)} tokens/s (range {tokens(plo)}-{tokens(phi)}); "
            f"first token after {r.time_to_first_token_s:.2f} s for a {r.context:,}-token prompt",
        ])

    emit(args, r, human)


@commands.command(
    "fit", "on how many of a GPU does it fit, and what would make it fit",
    MODEL, REVISION,
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--phase", choices=("serve", "train"), default="serve"),
    arg("--precision", "-p", default=None, metavar="P", complete="precision", help=NATIVE_HELP),
    arg("--context", type=positive_int, default=4096, metavar="N"),
    arg("--batch", type=positive_int, default=1, metavar="N"),
    arg("--engine", choices=ENGINES, default=None),
    arg("--method", choices=("full", "lora", "qlora"), default="lora"),
    arg("--optimizer", choices=("adamw", "adamw-8bit", "sgd"), default="adamw"),
    arg("--seq-len", type=positive_int, default=2048, metavar="N"),
    arg("--gradient-checkpointing", action=argparse.BooleanOptionalAction, default=True),
    *SIZING_OUTPUT,
    examples=("gpu-advisor fit -m llama-3.1-70b --gpu a100-80gb", "gpu-advisor fit -m 27B --gpu l40s --phase train"))
def cmd_fit(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.fit import FitInput, fit
    from gpu_advisor.tui.format import gb, table

    fmt = weight_format(args, args.gpu) if args.phase == "serve" else DefaultFormat(args.precision or "bf16", False)
    r = fit(FitInput(model=args.model, gpu=args.gpu, phase=args.phase, precision=fmt.precision, context=args.context,
                     batch=args.batch, engine=args.engine, method=args.method, optimizer=args.optimizer,
                     seq_len=args.seq_len, gradient_checkpointing=args.gradient_checkpointing))
    with_note(r, fmt)

    def human() -> str:
        rows = [(o.gpus, "yes" if o.fits else "no", gb(o.per_gpu_bytes), gb(o.capacity_bytes),
                 f"{o.headroom_fraction:.0%}", o.setup) for o in r.options]
        shown = f", {fmt.precision} weights{own_format(fmt)}" if fmt.native else ""
        lines = [f"{r.model} on {r.gpu}: {r.phase}{shown}",
                 "Memory in GB (10^9 bytes)", "",
                 table(rows, ["GPUs", "fits", "need/GPU", "have/GPU", "headroom", "setup"]), "",
                 f"Smallest fit: {r.smallest_fit or 'none of ' + ', '.join(str(o.gpus) for o in r.options)} GPU(s); "
                 f"valid tensor-parallel degrees: {', '.join(map(str, r.valid_tensor_parallel))}"]
        if r.remedies:
            lines += ["", "What would make it fit on one card:"]
            lines += [f"  {'yes' if x.fits else 'no '}  {x.change}: {gb(x.per_gpu_bytes)} GB" for x in r.remedies]
        return "\n".join(lines)

    emit(args, r, human)


@commands.command(
    "cost", "rental cost, cost per run or per million tokens, rent vs buy",
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--gpus", type=positive_int, default=1, metavar="N"),
    REGION,
    arg("--hours", type=positive_float, default=None, metavar="H", help="length of a run"),
    arg("--tokens-per-s", type=positive_float, default=None, metavar="T"),
    arg("--utilisation", "--utilization", type=fraction, default=None, metavar="U",
        help=f"share of the hours the cards are busy, 0-1 or a percentage (default: 100%% for the cost of a run, "
             f"{RENT_BUY_UTILISATION * 100:.0f}%% with --rent-vs-buy)"),
    arg("--usd-per-gpu-hour", type=positive_float, default=None, metavar="USD"),
    arg("--rent-vs-buy", action="store_true"),
    arg("--purchase-usd", type=positive_float, default=None, metavar="USD", help="price of one card"),
    arg("--horizon-months", type=positive_int, default=36, metavar="M"),
    arg("--hosting-usd-per-month", type=non_negative_float, default=100.0, metavar="USD"),
    arg("--electricity-usd-per-kwh", type=non_negative_float, default=None, metavar="USD"),
    CURRENCY,
    *SIZING_OUTPUT,
    examples=("gpu-advisor cost --gpu h100 --gpus 8 --hours 12",
              "gpu-advisor cost --gpu l40s --rent-vs-buy --utilisation 60%"))
def cmd_cost(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.cost import CostInput, RentBuyInput, cost, rent_vs_buy

    r = cost(CostInput(gpu=args.gpu, gpus=args.gpus, region=args.region, hours=args.hours,
                       tokens_per_s=args.tokens_per_s, utilisation=args.utilisation or 1.0,
                       usd_per_gpu_hour=args.usd_per_gpu_hour))
    rb = None
    if args.rent_vs_buy:
        rb = rent_vs_buy(RentBuyInput(gpu=args.gpu, gpus=args.gpus, utilisation=args.utilisation or RENT_BUY_UTILISATION,
                                      region=args.region, rent_usd_per_gpu_hour=args.usd_per_gpu_hour,
                                      purchase_usd_per_gpu=args.purchase_usd, horizon_months=args.horizon_months,
                                      hosting_usd_per_gpu_month=args.hosting_usd_per_month,
                                      electricity_usd_per_kwh=args.electricity_usd_per_kwh))
    if args.json:
        print(json.dumps({"cost": r.model_dump(mode="json"),
                          "rent_vs_buy": rb.model_dump(mode="json") if rb else None}, indent=2))
        return

    def human() -> str:
        lo, hi = r.usd_per_hour_range
        cur = args.currency
        lines = [f"{r.gpus} x {r.gpu}: {in_currency(r.usd_per_hour, cur)} {cur}/hour typical "
                 f"(range {in_currency(lo, cur)}-{in_currency(hi, cur)})"]
        if r.run_usd is not None:
            lines.append(f"Run of {args.hours:g} h: {in_currency(r.run_usd, cur)} {cur}")
        if r.usd_per_million_tokens is not None:
            lines.append(f"Generated tokens: {in_currency(r.usd_per_million_tokens, cur)} {cur} per million")
        if rb:
            be = (f"Buying never pays off within the {rb.horizon_months}-month horizon"
                  if rb.break_even_utilisation is None
                  else f"Buying pays off above {rb.break_even_utilisation:.0%} utilisation")
            lines += ["", f"Rent or buy over {rb.horizon_months} months at {rb.utilisation:.0%} utilisation: "
                          f"rent {in_currency(rb.rent_total_usd, cur, 0)} {cur}, "
                          f"buy {in_currency(rb.buy_total_usd, cur, 0)} {cur} -> {rb.cheaper}",
                      f"{be} (the guide's rule of thumb: {rb.rule_of_thumb[0]:.0%}-{rb.rule_of_thumb[1]:.0%})"]
            r.assumptions.extend(rb.assumptions)
            r.warnings.extend(rb.warnings)
            r.terms.extend(rb.terms)
        return "\n".join(lines + exchange_note(cur))

    emit(args, r, human)


@commands.command(
    "train-time", "hours and cost of a fine-tuning run",
    MODEL, REVISION,
    arg("--gpu", required=True, metavar="G", complete="gpu"),
    arg("--gpus", type=positive_int, default=1, metavar="N"),
    arg("--method", choices=("full", "lora", "qlora"), default="lora"),
    arg("--tokens", type=tokens_amount, required=True, metavar="T", help="tokens per epoch, e.g. 20M"),
    arg("--epochs", type=positive_float, default=1.0, metavar="E"),
    arg("--mfu", type=fraction, default=None, metavar="F", help="default: measured per GPU class"),
    FRAMEWORK,
    arg("--gradient-checkpointing", action=argparse.BooleanOptionalAction, default=None,
        help="recompute in backward (more FLOPs); default: the framework's, as memory assumes"),
    REGION,
    CURRENCY,
    *SIZING_OUTPUT,
    examples=("gpu-advisor train-time -m 27B --gpu h100 --tokens 20M --epochs 2",))
def cmd_train_time(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

    r = training_time(TrainingTimeInput(model=args.model, gpu=args.gpu, gpus=args.gpus, method=args.method,
                                        tokens=args.tokens, epochs=args.epochs, mfu=args.mfu, region=args.region,
                                        framework=args.framework, gradient_checkpointing=args.gradient_checkpointing))

    def human() -> str:
        lo, hi = r.hours_range
        lines = [f"{r.model}: {args.method} on {r.gpus} x {r.gpu}, {args.tokens:,.0f} tokens x {args.epochs:g} epoch(s)",
                 f"Time: {r.hours:,.1f} h (range {lo:,.1f}-{hi:,.1f} h) at {r.mfu:.0%} effective MFU"]
        if r.usd is not None and r.usd_range:
            cur = args.currency
            lines.append(f"Rented: {in_currency(r.usd, cur, 0)} {cur} "
                         f"(range {in_currency(r.usd_range[0], cur, 0)}-{in_currency(r.usd_range[1], cur, 0)})")
            lines += exchange_note(cur)
        return "\n".join(lines)

    emit(args, r, human)


@commands.command(
    "recommend", "rank GPU options for a workload",
    MODEL, REVISION,
    arg("--phase", choices=tuple(PHASES), default="train-and-serve"),
    arg("--precision", "-p", default=None, metavar="P", complete="precision", help="serving weight format (default: the checkpoint's own, else int8)"),
    arg("--method", choices=("full", "lora", "qlora"), default="qlora"),
    arg("--objective", choices=("sft", "dpo", "rl"), default="sft",
        help="dpo: preference pairs; rl: online RL (GRPO/PPO): rollouts generated, then a policy update on them"),
    arg("--rl-algorithm", choices=("grpo", "ppo"), default="grpo", help="with --objective rl: ppo trains a value model too"),
    arg("--rl-prompts", type=positive_int, default=RL_PROMPTS, metavar="N", help="with --objective rl: prompts per pass"),
    arg("--rl-samples", type=positive_int, default=DEFAULT_SAMPLES, metavar="N",
        help="with --objective rl: completions generated per prompt (the group)"),
    arg("--rl-completion-tokens", type=positive_int, default=DEFAULT_COMPLETION_TOKENS, metavar="N",
        help="with --objective rl: tokens generated per completion"),
    arg("--rl-layout", choices=("colocate", "split"), default=None,
        help="with --objective rl: colocate (engine and trainer share every card: TRL colocate, verl hybrid engine) or "
             "split (rollout cards and training cards: OpenRLHF, verl, TRL vllm_mode=server); default: whichever pays"),
    arg("--rl-rollout-gpus", type=positive_int, default=None, metavar="N",
        help="with --rl-layout split: cards for the rollout engine (default: the count that makes a step fastest)"),
    arg("--rl-pipelined", action="store_true",
        help="with --rl-layout split: the next step's rollouts run during the update (one step stale); default synchronous"),
    arg("--context", type=positive_int, default=None, metavar="N",
        help="tokens per conversation (default 8192; with --requests-per-second: prompt + output)"),
    arg("--users", type=positive_int, default=DEFAULT_USERS, metavar="N",
        help="people generating at the same time (default: %(default)s, as the conversation assumes)"),
    arg("--utilisation", "--utilization", type=fraction, default=None, metavar="U",
        help=f"share of the week's hours the cards are busy, 0-1 or a percentage "
             f"(default: {RENT_BUY_UTILISATION * 100:.0f}%%, where renting and buying are compared)"),
    REGION,
    arg("--budget", type=positive_float, default=None, metavar="USD", help="per month"),
    arg("--owned", action="append", metavar="'2x rtx-3090'", help="cards you already have ('16x h100-sxm': "
        "two servers of 8 with --server-gpus 8)"),
    arg("--server-gpus", type=positive_int, default=None, metavar="N",
        help="GPUs in each server (default 8): tensor parallel stays inside one, pipeline stages cross them"),
    arg("--max-gpus", type=positive_int, default=None, metavar="N",
        help="most GPUs a serving plan may use in all, replicas x servers (default 128)"),
    arg("--prefer", choices=("rent", "buy", "either"), default="either"),
    arg("--budget-once", type=positive_float, default=None, metavar="USD", help="one-off: to buy cards, or for one job"),
    arg("--train-tokens", type=tokens_amount, default=None, metavar="T",
        help="tokens per epoch (default 20M; pretraining 20 per parameter)"),
    arg("--epochs", type=positive_float, default=1.0, metavar="N"),
    arg("--items", type=positive_int, default=None, metavar="N", help="batch job: items to process"),
    arg("--tokens-in", type=positive_int, default=1000, metavar="N", help="batch job: tokens per item"),
    arg("--tokens-out", type=positive_int, default=200, metavar="N", help="batch job: tokens written"),
    arg("--deadline-hours", type=positive_float, default=None, metavar="H"),
    arg("--ttft-ms", type=positive_float, default=None, metavar="MS", help="time-to-first-token target"),
    arg("--prompt-tokens", type=positive_int, default=None, metavar="N", help="prompt length for --ttft-ms"),
    arg("--requests-per-second", type=positive_float, default=None, metavar="R",
        help="serving a request rate: the users at once become the requests in flight (Little's law) and the cards "
        "are sized by the queueing model (see `size serving`); --ttft-ms is then a p99 target"),
    arg("--output-tokens", type=positive_int, default=None, metavar="N",
        help="with --requests-per-second: mean tokens generated per request (default 256)"),
    arg("--ttft-p99-ms", type=positive_float, default=None, metavar="MS", help="p99 time-to-first-token target "
        "(with --requests-per-second; the same as --ttft-ms there)"),
    arg("--tpot-p99-ms", type=positive_float, default=None, metavar="MS",
        help="time-per-output-token target per user (read as the slowest per-user speed allowed)"),
    arg("--loras", type=positive_int, default=None, metavar="N",
        help="serving: LoRA adapters on the one base model (vLLM --enable-lora; see `size lora`)"),
    arg("--lora-rank", type=positive_int, default=None, metavar="R", help="with --loras: the adapters' rank (default 16)"),
    *LEVER_ARGS,
    arg("--top", type=positive_int, default=8, metavar="N", help="options to show"),
    CURRENCY,
    *SIZING_OUTPUT,
    arg("--launch", action="store_true", help="print the command that starts the plan after it (see `launch`)"),
    examples=("gpu-advisor recommend -m 27B --phase train-and-serve --users 15",
              "gpu-advisor recommend -m llama-3.1-8b --phase serve --users 50 --region china --json",
              "gpu-advisor recommend -m llama-3.1-8b --phase serve --users 5000 --max-gpus 64",
              "gpu-advisor recommend -m llama-3.1-405b --phase serve -p bf16 --users 20 --owned '16x h100-sxm' "
              "--server-gpus 8"))
def cmd_recommend(args: argparse.Namespace) -> None:
    r = recommendation(args)

    emit(args, r, lambda: recommend_text(args, r))
    if args.launch and not args.json:  # the command that starts the plan, after it (tui/cli/launch.py)
        from gpu_advisor.tui.cli.launch import command_text

        try:
            text = command_text(r, None)
        except UsageError as e:  # a training plan, no option that holds the model: the plan stands, said so
            text = f"No command to start it: {e}"
        print()
        print(text)


def recommendation(args: argparse.Namespace):
    """The recommendation `recommend` and `launch` size from the same arguments."""
    from gpu_advisor.tools.recommend import Workload, recommend

    if args.ttft_ms and args.ttft_p99_ms and args.ttft_ms != args.ttft_p99_ms:
        raise UsageError("--ttft-ms and --ttft-p99-ms disagree: give one first-token target")
    rated = {"requests_per_s": args.requests_per_second, "output_tokens": args.output_tokens,
             "min_tokens_per_s": 1000 / args.tpot_p99_ms if args.tpot_p99_ms else None,
             "flexible": [] if args.context else ["context"]} \
        if args.requests_per_second else {"min_tokens_per_s": 1000 / args.tpot_p99_ms if args.tpot_p99_ms else None}
    w = Workload(**rated, model=args.model, phase=args.phase, serve_precision=args.precision, method=args.method,
                 objective=args.objective, rl_algorithm=args.rl_algorithm, rl_prompts=args.rl_prompts,
                 rl_samples=args.rl_samples, rl_completion_tokens=args.rl_completion_tokens,
                 rl_layout=args.rl_layout, rl_rollout_gpus=args.rl_rollout_gpus, rl_pipelined=args.rl_pipelined or None,
                 context=args.context or 8192, users=args.users,
                 utilisation=args.utilisation or RENT_BUY_UTILISATION, region=args.region, budget_usd_per_month=args.budget,
                 budget_usd=args.budget_once, owned=args.owned or [], preference=args.prefer,
                 train_tokens=args.train_tokens, epochs=args.epochs, batch_items=args.items,
                 batch_input_tokens=args.tokens_in, batch_output_tokens=args.tokens_out,
                 deadline_hours=args.deadline_hours, ttft_ms=args.ttft_ms or args.ttft_p99_ms,
                 prompt_tokens=args.prompt_tokens,
                 server_gpus=args.server_gpus, max_gpus=args.max_gpus, loras=args.loras, lora_rank=args.lora_rank,
                 **lever_fields(args))
    r = recommend(w)
    if w.ttft_ms is not None:  # a first-token target below the physics: one line with the fastest there is
        from gpu_advisor.tools.ttft_floor import below_physics

        floor = below_physics(w, r)
        if floor:
            raise UsageError(floor)
    return r


def recommend_text(args: argparse.Namespace, r) -> str:
    from gpu_advisor.tui.format import gb, table, tokens

    cur = args.currency
    rows = []
    for o in r.options[: args.top]:
        layout = f" ({o.replicas}xTP{o.tp}" + (f"xPP{o.pp}" if o.pp > 1 else "") + ")" if o.tp else ""
        rows.append((f"{o.gpus} x {o.gpu}" + layout + (" (owned)" if o.owned else ""), "yes" if o.ok else "no",
                     f"{o.headroom_fraction:.0%}",
                     tokens(o.decode_tokens_per_s) if o.decode_tokens_per_s else "-",
                     in_currency(o.usd_per_hour, cur) + thin_price(o.price_offers) if o.usd_per_hour else "-",
                     in_currency(o.purchase_usd, cur, 0) if o.purchase_usd else "-",
                     f"{o.job_hours:,.1f}" if o.job_hours else "-",
                     in_currency(o.job_usd, cur, 0) if o.job_usd else "-"))
    best = r.best
    head = (f"Recommendation: {r.action} {best.gpus} x {best.gpu_name}" if best
            else "No option meets every requirement")
    lines = [head]
    if best:
        lines += [f"  - {x}" for x in best.reasons]
        if best.serve_per_gpu_bytes:
            lines.append(f"  - serving needs {gb(best.serve_per_gpu_bytes)} GB per GPU of {gb(best.capacity_bytes)} GB")
        if best.tp is not None:
            between = ", InfiniBand or RoCE between servers" if best.link_between else ""
            lines.append(f"  - layout: {best.replicas} replica(s) x TP {best.tp} x PP {best.pp} on {best.servers} "
                         f"server(s) of {best.server_gpus}, {best.users_per_replica} users per replica; "
                         f"{best.link_within} inside a server{between}")
        if best.train_per_gpu_bytes:
            lines.append(f"  - fine-tuning needs {gb(best.train_per_gpu_bytes)} GB per GPU")
    lines += lever_lines(r)
    if r.traffic is not None:
        t = r.traffic
        lines.append(f"  - traffic: {t.requests_per_s:g} requests/s x {t.time_in_system_s:.2f} s in the system = "
                     f"{t.in_flight:,.1f} in flight (Little's law), sized for {t.users_sized:,} (p99)"
                     + (f"; first token p50 {t.ttft_p50_s * 1000:,.0f} ms, p99 {t.ttft_p99_s * 1000:,.0f} ms"
                        if t.ttft_p99_s is not None and t.ttft_p50_s is not None else ""))
    lines += ["", table(rows, ["option", "fits", "headroom", "tok/s/user", f"{cur}/h", f"buy {cur}", "job h",
                               f"job {cur}"])]
    if r.multi_lora is not None:
        a = r.multi_lora
        lines.append(f"  - {a.loras} LoRA adapters (rank {a.lora_rank}): {a.gpu_slot_bytes / 1e9:,.2f} GB of slots per GPU "
                     f"(--max-loras {a.max_loras}), {a.cpu_bytes / 1e9:,.2f} GB in system memory; "
                     f"{a.throughput_cost[0]:.0%}-{a.throughput_cost[1]:.0%} fewer tokens/s than the base alone")
    for lever in r.levers:
        if lever.option:
            lines.append(f"  would work with {lever.change}: {lever.option.gpus} x {lever.option.gpu}")
    if r.rent_or_buy:
        rb = r.rent_or_buy
        be = ("buying never pays off within the horizon" if rb.break_even_utilisation is None
              else f"buying pays off above {rb.break_even_utilisation:.0%}")
        lines += ["", f"Rent or buy: at {rb.utilisation:.0%} utilisation {rb.cheaper} is cheaper over "
                      f"{rb.horizon_months} months; {be}."]
    return "\n".join(lines + exchange_note(cur))
