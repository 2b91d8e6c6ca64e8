"""The first token of a prompt that fills a long context ('qwen2.5-7b 想开128k上下文'): the plan's first-token time is
timed at a shorter prompt (Workload.prompt_length: the context up to 4,096 when no prompt was said), so the reply says
which prompt that is and what a prompt as long as the context takes, from the same evaluation with that prompt
(tools.recommend.evaluate); review BK #18: '232 ms' beside a 131,072-token context read as that prompt's."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import evaluate

# From this context a prompt filling it is worth its own first-token figure (seconds, where the plan's shorter
# prompt takes a fraction of one).
LONG_CONTEXT = 65_536


def full_prompt_ttft(w: Any, best: Any) -> float | None:
    """Seconds to the first token of a prompt as long as the context on the plan's cards, when the context is long, no
    prompt length was said and the plan's own first token is timed at a shorter one; else None."""
    if w.prompt_tokens or w.context < LONG_CONTEXT or w.prompt_length() >= w.context or best.ttft_s is None \
            or w.requests_per_s or best.owned_gpus:
        return None
    try:
        full = evaluate(w.model_copy(update={"prompt_tokens": w.context, "users": 1}), find_gpu(best.gpu), best.gpus)
    except (LookupError, ValueError):
        return None
    return full.ttft_s if full is not None else None
