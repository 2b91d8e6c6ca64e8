"""The first line owed to 'would that fit on a single 4090?', '一张卡行吗' when the plan needs more of that card than
the count asked about: yes or no on the count asked (tools.recommend's option at that count), and what that
many cards serve at once (tools.capacity) against the people the plan is for."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import localise, say
from gpu_advisor.assistant.count_grew import grew_lower
from gpu_advisor.assistant.pinned_batch import batch_deadline_line
from gpu_advisor.assistant.pinned_both import both_jobs_line
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge.purchase import whole_boards
from gpu_advisor.tools.capacity import capacity
from gpu_advisor.tools.fit import FitResult
from gpu_advisor.tools.lower_format import lower_fits
from gpu_advisor.tools.recommend import Option, Recommendation, pinned_cards


def pinned_option(rec: Recommendation) -> Option | None:
    """The option at the count of cards the user asked about, when the plan's best is another count or card."""
    best = rec.best
    pins = pinned_cards(rec.workload)
    if best is None or not pins or rec.owned_options or rec.pool is not None:
        return None
    if f"{best.gpus}x {best.gpu}" in pins:
        return best if not best.owned and best.ok and rec.workload.spec.serves and not rec.workload.spec.trains \
            else None  # 'one card enough?' when the plan is one card: still a yes first
    matches = [o for o in rec.options if f"{o.gpus}x {o.gpu}" in pins and not o.owned]
    # several pinned ('a single card?' of any kind): the one that holds the most, so a "no" is no for them all
    return max(matches, key=lambda o: o.capacity_bytes * o.gpus, default=None)


def pinned_line(rec: Recommendation, lang: str, recorder: Any = None, one_card: FitResult | None = None,
                load_said: bool = False) -> tuple[str, dict[str, Any]] | None:
    """'**Yes**: gpt-oss-20b runs on 1 × RTX 4090: it holds 12 people at once …; for your 66 it takes 2 × …', or
    '**No** …'; with the data behind it. None when no count was asked about or the plan is on that count."""
    option = pinned_option(rec)
    best = rec.best
    if option is None or best is None:
        return None
    w = rec.workload
    which = f"{option.gpus} × {option.gpu_name}"
    if w.spec.trains or not w.spec.serves:
        used = option.train_per_gpu_bytes if w.spec.trains else option.serve_per_gpu_bytes
        if used is None:
            return None
        if not w.spec.trains and (batch := batch_deadline_line(rec, option, lang)):
            return batch  # a batch job with a deadline: yes or no by its hours on those cards
        both = both_jobs_line(rec, option, lang, recorder) if w.spec.serves else None
        if both is not None:  # trains, then serves on the cards named: each job said apart (review CT E2)
            return both
        way = _same_job_way(rec, one_card, option, recorder) if w.spec.trains else None
        if way is not None:  # the job as asked fits that card done another way (Unsloth, a shorter sequence): yes
            return say(lang, "pinned.yes_train_with", option=which, change=localise(lang, way.change),
                       fits=gb(way.per_gpu_bytes), used=gb(used), capacity=gb(option.capacity_bytes),
                       plan=f"{best.gpus} × {best.gpu_name}"), {"gpu": option.gpu, "gpus": option.gpus, "fits": True,
                                                               "change": way.change}
        return say(lang, "pinned.no_train", option=which, used=gb(used), capacity=gb(option.capacity_bytes),
                   plan=f"{best.gpus} × {best.gpu_name}"), {"gpu": option.gpu, "gpus": option.gpus, "fits": False}
    # the format said, else the one the tool finds holds someone on that card (4-bit when 8-bit holds nobody)
    # on the plan's own cards, the plan's format and engine ('那换成 4 张呢' answered by a q8_0 llama.cpp plan is
    # said in q8_0 on llama.cpp, never in a vLLM FP8 the body does not use)
    own = option is best and best.precision and not w.serve_precision
    if own:
        w = w.model_copy(update={"engine": w.engine or best.engine})
    precision = best.precision if own else w.serve_precision
    c = capacity(w, option.gpu, option.gpus, precision=precision, plan=option)
    if recorder is not None:
        recorder("capacity", {"workload": w.model_dump(mode="json"), "gpu": option.gpu, "gpus": option.gpus,
                              "precision": precision}, c.model_dump(mode="json"), 0.0)
    data = {"gpu": option.gpu, "gpus": option.gpus, "fits": c.users > 0, "users_held": c.users, "users": w.users}
    if c.users == 0 or c.at_limit is None:
        lower = lower_fits(w, option.gpu, option.gpus) if precision else None  # 'fp8 能行吗' and Q4_K_M fits: said
        below = grew_lower(rec)
        if lower is not None and below is not None and (below.gpu, below.gpus) == (lower.gpu, lower.gpus):
            return say(lang, "pinned.no_lower_below", option=which, model=rec.model_name, said=str(precision).upper(),
                       lower=(lower.precision or "").upper()), {**data, "lower": lower.precision, "lower_fits": True}
        if lower is not None and lower.serve_per_gpu_bytes is not None:
            return say(lang, "pinned.no_lower", option=which, model=rec.model_name, said=str(precision).upper(),
                       lower=(lower.precision or "").upper(), used=gb(lower.serve_per_gpu_bytes),
                       capacity=gb(lower.capacity_bytes), tps=tps(lower.decode_tokens_per_s or 0),
                       engine=lower.engine or "", plan=f"{best.gpus} × {best.gpu_name}"), \
                {**data, "lower": lower.precision, "lower_fits": True}
        return say(lang, "pinned.no", option=which, model=rec.model_name, plan=f"{best.gpus} × {best.gpu_name}"), data
    at = c.at_limit
    if option is best and c.users >= w.users:  # the plan is on the count asked: yes, and it holds them all
        return say(lang, "pinned.yes_plan", option=which, model=rec.model_name, held=f"{c.users:,}",
                   precision=at.precision or "", tps=tps(at.decode_tokens_per_s or 0), users=f"{w.users:,}"), data
    if option is best:
        return None
    key = "pinned.short" if load_said and c.users < w.users else "pinned.yes"  # 'enough?' then '50 people': not for 50
    if c.users >= w.users and best.gpu == option.gpu and best.sold_in > 1 and best.gpus % best.sold_in == 0 \
            and best.gpus == whole_boards(option.gpus, best.sold_in):
        key = "pinned.whole_server"  # 'what about 4 H100?' bought: enough, and H100 SXM comes in servers of 8
    return say(lang, key, option=which, model=rec.model_name, held=f"{c.users:,}",
               precision=at.precision or "", tps=tps(at.decode_tokens_per_s or 0), users=f"{w.users:,}",
               plan=f"{best.gpus} × {best.gpu_name}", sold_in=best.sold_in), data


def _same_job_way(rec: Recommendation, one_card: FitResult | None, option: Option, recorder: Any = None):
    """The first change that keeps the job as asked (method, model) and fits one card (tools.fit's remedies), when
    the count asked about is one card: 'QLoRA on one 4090?' is yes with Unsloth (review N3 #15). The plan's own
    one-card check when it is on that card, else that card's, computed here."""
    from gpu_advisor.tools.fit import FitInput, fit

    w = rec.workload
    if option.gpus != 1 or w.spec.pretrains:
        return None
    if one_card is None or one_card.gpu != option.gpu:
        inp = FitInput(model=w.model, gpu=option.gpu, phase="train", counts=[1], method=w.method, seq_len=w.seq_len,
                       framework=w.framework, mixed_precision=w.mixed_precision)
        one_card = fit(inp)
        if recorder is not None:
            recorder("fit", inp.model_dump(mode="json"), one_card.model_dump(mode="json"), 0.0)
    return next((r for r in one_card.remedies if r.fits and r.keeps_job), None)
