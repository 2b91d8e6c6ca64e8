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
            say(lang, "physics.prefix_cache"), ""]
