"""The prompt load a plan for users at once implies, said before the rate it was sized for (tools.prefill_load)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Recommendation


def prefill_load_lines(rec: Recommendation, lang: str) -> list[str]:
    """Users at once whose prompts bind: the request rate their streams imply, the prompt work it brings, the share
    of the memory-sized plan's time it would take, and that repeated prompts (prefix caching) would lower it."""
    p = rec.prefill_load
    if p is None:
        return []
    best = rec.best
    same = best is not None and not p.unsustained and best.gpus == p.sized_gpus and best.gpu_name == p.sized_gpu
    key = "physics.prefill_unsustained" if p.unsustained else "advice.prefill_same" if same else "physics.prefill_binds"
    return [say(lang, key, users=f"{p.users:,}", output=f"{p.output_tokens:,}",
                tps=f"{p.tokens_per_s:,.0f}", rate=f"{p.requests_per_s:,.3g}", prompt=f"{p.prompt_tokens:,}",
                prefill_tps=f"{p.prefill_tokens_per_s:,.0f}", pflops=f"{p.prefill_pflops:,.1f}",
                gpus=f"{p.sized_gpus:,}", gpu=p.sized_gpu, share=f"{p.share:.0%}"), "",
            *_fewer_held(rec, lang), *([] if rec.prefix_cache is not None else [say(lang, "physics.prefix_cache")]), ""]


def _fewer_held(rec: Recommendation, lang: str) -> list[str]:
    """The streams said at once sized as a rate whose plan holds fewer in flight ('三百并发' -> 195 at the 99th
    percentile): why (each request ends sooner at the plan's speed), as an assumption the user can change by giving
    the rate."""
    p, t, best = rec.prefill_load, rec.traffic, rec.best
    if p is None or p.unsustained or t is None or best is None or t.users_sized >= p.users:
        return []
    return [say(lang, "zh1held.fewer", users=f"{p.users:,}", tps=f"{p.tokens_per_s:,.0f}", rate=f"{p.requests_per_s:,.3g}",
                plan_tps=f"{best.decode_tokens_per_s or 0:,.0f}", held=f"{t.users_sized:,}"), ""]
