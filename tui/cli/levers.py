"""The serving levers on the command line (`recommend`, `launch`, `size serving`): prefix caching of a shared
prompt (tools.prefix_cache) and speculative decoding (tools.speculative); their flags, the workload fields they
set, and the lines that say what they change."""

from __future__ import annotations

import argparse
from typing import Any

from gpu_advisor.assistant.terminal import quoted
from gpu_advisor.tui.cli.base import UsageError, arg
from gpu_advisor.tui.cli.values import positive_int


def hit_rate(text: str) -> float:
    """A share from 0 to 1, or a percentage with its sign ('90%'); a bare number above 1 is refused, never read as
    a percentage (1.5 is no hit rate)."""
    raw = text.strip()
    try:
        value = float(raw.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a share like 0.9 or 90%, got {quoted(text)}") from None
    if raw.endswith("%"):
        value /= 100
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a hit rate is a share from 0 to 1 (or 0% to 100%), got {quoted(text)}")
    return value


PREFIX_ARGS = (
    arg("--shared-prefix-tokens", type=positive_int, default=None, metavar="N",
        help="tokens at the start of every prompt that are the same for all requests (a system prompt, shared "
             "instructions): prefix caching computes them once; part of --prompt-tokens when that is given"),
    arg("--prefix-hit-rate", type=hit_rate, default=None, metavar="H",
        help="share of requests that find the shared prefix cached, 0-1 or a percentage (default 0.9)"),
)


SPEC_ARGS = (
    arg("--speculative", choices=("draft", "eagle3", "mtp"), default=None,
        help="speculative decoding: draft (a small model of the family), eagle3 (an EAGLE-3 head) or mtp (the "
             "model's own multi-token-prediction layers: DeepSeek-V3/R1, GLM-4.5, Qwen3-Next); the plan says the "
             "decode speed-up at its batch and the draft's memory, the launch command its flags"),
)
LEVER_ARGS = (*PREFIX_ARGS, *SPEC_ARGS)


def lever_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The workload fields of every lever flag given."""
    method = getattr(args, "speculative", None)
    return prefix_fields(args) | ({"speculative": method} if method else {})


def lever_lines(r: Any) -> list[str]:
    return prefix_lines(r) + speculative_lines(r) + disagg_lines(r)


def disagg_lines(r: Any) -> list[str]:
    """Prefill and decode pools beside a request-rate plan, one line where they pay (tools.disagg)."""
    d = r.disaggregation
    if d is None or not d.pays:
        return []
    return [f"  - option beyond one server: prefill/decode disaggregation, prompts take {d.prefill_share:.0%} of each "
            f"copy's time: {d.prefill_copies} prefill + {d.decode_copies} decode copies of {d.copy_gpus} GPU(s) = "
            f"{d.gpus} GPUs (plan: {d.colocated_gpus}), a token every {d.tpot_s * 1000:,.0f} ms (plan: "
            f"{d.tpot_colocated_s * 1000:,.0f} ms), KV hand-over {d.kv_transfer_s * 1000:,.0f} ms added to the first token"]


def speculative_lines(r: Any) -> list[str]:
    """What speculative decoding does on the plan, one line (none when not asked)."""
    from gpu_advisor.tui.format import gb

    s = r.speculative
    if s is None:
        return []
    if s.refused:
        why = {"engine": "the plan's engine is llama.cpp or mlx-lm", "no_mtp": "the model ships no MTP layers: use eagle3",
               "no_draft": "no draft model of its family on record: use eagle3"}.get(s.refused, s.refused)
        return [f"  - speculative decoding: not sized ({why})"]
    x = s.result
    line = (f"  - speculative decoding ({x.method}, {x.draft}): {x.tokens} token(s) drafted, {x.acceptance[0]:.0%}-"
            f"{x.acceptance[1]:.0%} accepted, {x.tokens_per_step[0]:.2f}-{x.tokens_per_step[1]:.2f} tokens per step; "
            f"{x.speedup[0]:.2f}x-{x.speedup[1]:.2f}x at the plan's batch")
    if s.tokens_per_s_with:
        line += f" ({s.tokens_per_s:,.0f} -> {s.tokens_per_s_with[0]:,.0f}-{s.tokens_per_s_with[1]:,.0f} tokens/s per user)"
    by = ", ".join(f"batch {b}: {lo:.2f}-{hi:.2f}x" for b, lo, hi in x.speedup_by_batch)
    line += f"; {by}; draft {gb(x.draft_bytes_per_gpu)} GB per GPU" + ("" if s.fits else " (more than the plan leaves free)")
    return [line]


def prefix_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The workload fields of the prefix flags; a hit rate without a prefix is refused in one line."""
    shared = getattr(args, "shared_prefix_tokens", None)
    rate = getattr(args, "prefix_hit_rate", None)
    if rate is not None and not shared:
        raise UsageError("--prefix-hit-rate needs --shared-prefix-tokens: the hit rate is of a shared prefix")
    prompt = getattr(args, "prompt_tokens", None)
    if shared and prompt and shared > prompt:
        raise UsageError(f"--shared-prefix-tokens {shared:,} is longer than the prompt ({prompt:,} tokens): the "
                         "shared prefix is the start of each prompt")
    return {"shared_prefix_tokens": shared, "prefix_hit_rate": rate} if shared else {}


def prefix_cut(args: argparse.Namespace) -> tuple[int, str | None]:
    """`size serving`: the prompt tokens read from the cache per request (sized off the prompt, the queueing model
    then sees the tokens still computed and held), and the line that says so; (0, None) without a prefix."""
    from gpu_advisor.tools.prefix_cache import PrefixCacheInput, prefix_cache

    fields = prefix_fields(args)
    if not fields:
        return 0, None
    c = prefix_cache(PrefixCacheInput(model=args.model, prompt_tokens=args.prompt, engine=args.engine,
                                      shared_prefix_tokens=fields["shared_prefix_tokens"],
                                      **({"hit_rate": fields["prefix_hit_rate"]} if fields["prefix_hit_rate"] is not None else {})))
    cut = round(c.cached_tokens)
    return cut, (f"Prefix caching: {cut:,} of the {args.prompt:,} prompt tokens per request read from the cache "
                 f"({c.hit_rate:.0%} of a {c.shared_prefix_tokens:,}-token shared prefix): sized on the {args.prompt - cut:,} "
                 f"still computed and held; the prefix's KV held once per replica ({c.prefix_kv_bytes / 1e9:,.1f} GB)")


def prefix_lines(r: Any) -> list[str]:
    """What prefix caching changed in a recommendation, one line (none when no prefix was given)."""
    from gpu_advisor.tui.format import gb

    p = r.prefix_cache
    if p is None:
        return []
    c = p.cache
    if not p.counted:
        return [f"  - prefix caching: {c.switch}"]
    line = (f"  - prefix caching: {c.cached_tokens:,.0f} of {c.prompt_tokens:,} prompt tokens per request read from "
            f"the cache ({c.hit_rate:.0%} of a {c.shared_prefix_tokens:,}-token shared prefix), "
            f"{c.prefill_saved_share:.0%} less prefill")
    if p.ttft_s is not None and p.ttft_without_s is not None:
        line += f"; first token {p.ttft_s * 1000:,.0f} ms ({p.ttft_without_s * 1000:,.0f} ms without)"
    if p.fewer_cards:
        line += f"; {p.gpus} x {p.gpu} ({p.gpus_without} without)"
    line += f"; the prefix's KV held once, {gb(c.prefix_kv_bytes)} GB per copy"
    return [line]
