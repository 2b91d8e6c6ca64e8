"""'那如果改成LoRA呢，单卡能跑不', 'LoRA on one card?', 'would a single card do?' with several cards of their own:
yes or no on ONE of those cards first (tools.recommend.evaluate at one card, owned), with its figures, before the
plan on all of them. The cards owned stay as said (asking about one is not owning one)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gb, hours, tps


def one_owned(answer: Any, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The line for one of the user's cards, and its data; None unless they own several cards of one kind."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import evaluate, parse_owned

    w = answer.recommend.workload
    try:
        owned = [parse_owned(o) for o in w.owned or []]
    except (LookupError, ValueError):
        return None
    if len({gpu.id for _n, gpu in owned}) != 1 or sum(n for n, _g in owned) < 2:
        return None
    gpu = owned[0][1]
    try:
        opt = evaluate(w, gpu, 1, owned=True)
    except (ToolError, LookupError, ValueError):
        return None
    if opt is None:
        return None
    used = opt.train_per_gpu_bytes if w.spec.trains else opt.serve_per_gpu_bytes
    if used is None:
        return None
    fits = bool(opt.trains if w.spec.trains else opt.serves)
    data = {"gpu": gpu.id, "gpus": 1, "fits": fits, "per_gpu_bytes": used, "hours": opt.job_hours,
            "tokens_per_s": opt.decode_tokens_per_s}
    values = {"option": f"1 × {gpu.name}", "used": gb(used), "capacity": gb(opt.capacity_bytes)}
    if not fits:  # (under the card's size but over what the engine takes of it: said so, not 'needs less than it has')
        return say(lang, "one_owned.no_engine" if used <= opt.capacity_bytes else "one_owned.no", **values), data
    if opt.job_hours is not None:
        return say(lang, "one_owned.yes_hours", hours=hours(opt.job_hours), **values), data
    if opt.decode_tokens_per_s:
        return say(lang, "one_owned.yes_speed", tps=tps(opt.decode_tokens_per_s), **values), data
    return say(lang, "one_owned.yes", **values), data
