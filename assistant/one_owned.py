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
    edge = one_edge(opt, values, lang) or one_tight(w, gpu, opt, used, values, lang)
    if edge is not None:  # fits on paper with less than a run's margin free: the same warning as the plan's (CUB #6)
        return edge, {**data, "edge": True}
    if opt.job_hours is not None:
        return say(lang, "one_owned.yes_hours", hours=hours(opt.job_hours), **values), data
    if opt.decode_tokens_per_s:
        return say(lang, "one_owned.yes_speed", tps=tps(opt.decode_tokens_per_s), **values), data
    return say(lang, "one_owned.yes", **values), data


def one_edge(opt: Any, values: dict[str, str], lang: str) -> str | None:
    """One card that holds a training run on paper but leaves less than the margin a run keeps free (tools.train_margin,
    the rule every plan's 'will it fit?' follows: assistant.train_edge): only just, likely out of memory, with what
    gives it room; None when the card leaves the margin."""
    from gpu_advisor.assistant.train_edge import edge_of, lever_list

    f = edge_of(opt)
    if f is None:
        return None
    levers = lever_list(f.values, lang)
    line = say(lang, "one_owned.edge", margin=f"{float(f.values['margin_bytes']) / 1e9:,.1f}", **values)
    return line + (say(lang, "edge.levers", list=levers) if levers else say(lang, "edge.no_levers"))


def one_tight(w: Any, gpu: Any, opt: Any, used: float, values: dict[str, str], lang: str) -> str | None:
    """A LoRA run on one card that leaves its own margin (no NCCL buffers on one card) but less than the plan on
    several cards keeps: yes, tightly, the two margins said so the turns agree (review CUB #6: 80.3 of 85.0 GB was
    'likely OOM' on 8 cards and a plain yes on one), and QLoRA on the one card with its figure. None otherwise."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import evaluate
    from gpu_advisor.tools.train_margin import margin_bytes

    cap = opt.capacity_bytes
    if not w.spec.trains or w.method != "lora" or cap - used >= margin_bytes(cap, 2):
        return None
    try:
        q = evaluate(w.model_copy(update={"method": "qlora"}), gpu, 1, owned=True)
    except (ToolError, LookupError, ValueError):
        q = None
    q_used = None if q is None or not q.trains else q.train_per_gpu_bytes
    line = say(lang, "one_owned.tight", free=gb(cap - used), margin=gb(margin_bytes(cap, 1)),
               multi=gb(margin_bytes(cap, 2)), **values)
    return line + (say(lang, "one_owned.tight_qlora", qlora=gb(q_used)) if q_used else "")
