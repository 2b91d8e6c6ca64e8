"""Fine-tuning plans an expert would sign (review X E1/E5, review Y 7):

- cards you own that are too small for a full fine-tune as planned: DeepSpeed ZeRO-3 with the optimizer in CPU
  memory keeps it on them, slower, with the system RAM it needs per server (tools.zero_offload);
- a LoRA/QLoRA run on the fewest cards that hold it: more of the same card only finish sooner at about the same
  cost per run, said with their time (taken only for a deadline).

Every figure comes from the recommend result or tools.zero_offload."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.count_bought import count_weighed
from gpu_advisor.tools.owned_offload import ZERO_OFFLOAD
from gpu_advisor.tools.recommend import NODE_GPUS as ONE_SERVER
from gpu_advisor.tools.recommend import SAME_COST, Option, Recommendation
from gpu_advisor.tools.zero_offload import zero_offload_plan


def train_offload_lines(rec: Recommendation, lang: str) -> list[str]:
    """The offload plan on the one kind of card the user owns, when those cards cannot hold the full fine-tune as
    planned and the plan does not already keep the run on them."""
    from gpu_advisor.assistant.writers import gb, gpu_words, hours  # (writers imports this module)

    w, best = rec.workload, rec.best
    if w is None or len(rec.owned_options) != 1 or (best is not None and best.owned and rec.relaxed != ZERO_OFFLOAD):
        return []  # (the offload plan taken on your cards: its figures said here, tools.owned_offload)
    mine = rec.owned_as_planned if rec.relaxed == ZERO_OFFLOAD and rec.owned_as_planned else rec.owned_options[0]
    if mine.trains is not False or mine.owned_gpus:
        return []
    plan = zero_offload_plan(w, mine)
    if plan is None or not plan.fits:
        return []
    figures = {"option": gpu_words(mine, lang), "used": gb(plan.per_gpu_bytes), "capacity": gb(plan.capacity_bytes),
               "ram": f"{plan.host_bytes_per_server / 1e9:,.0f}"}
    if plan.ram_ok is False:
        return [say(lang, "train_offload.ram_short", said=f"{w.system_ram_gb:g}", **figures), ""]
    total = say(lang, "train_offload.total", total=f"{plan.host_bytes / 1e9:,.0f}", servers=plan.servers) \
        if plan.servers > 1 else ""
    return [say(lang, "train_offload.owned", total=total,
                low=hours(plan.hours_low), high=hours(plan.hours_high), usual=hours(plan.usual_hours), **figures), ""]


def _sooner(rec: Recommendation, best: Option) -> Option | None:
    """The fastest row of the plan's card with more cards at about the plan's cost per run."""
    rows = [o for o in rec.options if o.ok and not o.owned and o.gpu == best.gpu and o.gpus > best.gpus
            and o.job_hours is not None and o.job_usd is not None and best.job_usd is not None
            and o.job_usd <= (1 + SAME_COST) * best.job_usd and o.gpus <= max(ONE_SERVER, best.gpus)]
    return min(rows, key=lambda o: o.job_hours or 0, default=None)


def train_count_lines(rec: Recommendation, lang: str) -> list[str]:
    """For a LoRA/QLoRA run planned on the fewest cards of its kind: the larger count of that card that finishes
    sooner at about the same cost, said once."""
    from gpu_advisor.assistant.writers import cash, gpu_words, hours

    w, best = rec.workload, rec.best
    if w is None or best is None or best.owned or not w.spec.trains or w.spec.pretrains or w.method == "full" \
            or count_weighed(w) is not None:
        return []  # (the count weighed for buying is the plan: no more of the card named beside it)
    run = rec.training_run if w.spec.serves else best
    if run is None or run.job_hours is None:
        return []
    faster = _sooner(rec, run) if not w.spec.serves else None
    if faster is None or faster.job_usd is None or faster.job_hours is None:
        return []
    key = "train_count.sooner" if run.gpus == 1 else "train_count.sooner_many"
    return [say(lang, key, option=gpu_words(faster, lang), hours=hours(faster.job_hours),
                cost=cash(faster.job_usd, rec), fewest=gpu_words(run, lang)), ""]


def one_verdict(kinds: list[str]) -> list[str]:
    """'is that enough or do we need to buy more?' asks one thing twice: one verdict line answers it (the first
    asked), never a 'No' and a 'Yes' about the same cards (review X E1)."""
    both = [k for k in kinds if k in ("fits", "more")]
    return [k for k in kinds if k not in both[1:]] if len(both) > 1 else kinds
