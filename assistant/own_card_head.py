"""'Can I run X on my card?' answered on that card first (review s27: 'got a 4070 ti super 16gb, can i run gemma 3
27b at q4?? want like 20 tok/s min' was headed 'Rent 1 × RTX 4090 for serving'; 'could i lora finetune it on the
same card?' was headed 'Rent 1 × B200' with no word of QLoRA).

One person's own cards at home (one kind, one or two consumer or workstation cards, or a Mac), renting or buying
not asked, and the plan goes to other cards because theirs do not hold the job as asked: the heading is the verdict
on their cards, as a code, and the rented or bought plan below follows as the step up.

Codes (serving, the model as asked does not fit the card): 'lower_offload' (a smaller format fits whole, and the
format asked runs with part of it in system RAM), 'lower', 'offload', 'none'. Training: 'train' (the job asked
does not fit), 'train_qlora' (a LoRA or full fine-tune that does not fit, and QLoRA, sized beside it, does not
either), 'train_qlora_fits' (a full fine-tune that does not fit, and QLoRA does: said first). Every figure
comes from the recommend result (tools.recommend); nothing is sized here."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option, Recommendation

# The cards a person has at home: how many of one kind, and which segments.
HOME_CARDS_MAX = 2
HOME_SEGMENTS = ("consumer", "workstation", "apple")
# Below this many bits a weight, a smaller format is said with its quality cost; below the second, a marked one
# (2-bit files and the smallest 3-bit ones lose clearly more than Q3_K_M does).
FULL_QUALITY_BITS = 4.0
SMALL_COST_BITS = 3.5


def home_card(rec: Recommendation | None) -> Option | None:
    """The user's own card(s) at home that do not hold the job the plan puts on other cards; None otherwise."""
    if rec is None or rec.workload is None or len(rec.owned_options) != 1 or rec.pool is not None:
        return None
    w, best, mine = rec.workload, rec.best, rec.owned_options[0]
    if best is None or best.owned or best.owned_gpus or rec.action not in ("rent", "buy") or rec.offload_leads \
            or rec.pool_leads or rec.owned_share is not None or mine.gpus > HOME_CARDS_MAX \
            or not (w.preference == "either" or "preference" in w.flexible):  # renting or buying said: the plan's
        return None
    from gpu_advisor.knowledge.resolve import find_gpu

    try:
        if find_gpu(mine.gpu).segment not in HOME_SEGMENTS:
            return None
    except (LookupError, ValueError):
        return None
    if rec.offload is not None and rec.offload.ram_ok is False:
        return None  # the system RAM said is short of the part offloaded: the plan's 'No' line names what it takes
    spec = w.spec
    if spec.serves and not spec.trains and not spec.batch and w.users <= 2 and not w.requests_per_s:
        return mine if mine.serves is False else None
    if spec.trains and not spec.serves and not spec.pretrains and not w.reinforces:
        return mine if mine.trains is False else None
    return None


def _lower(rec: Recommendation) -> Option | None:
    """A smaller format that puts the whole model on the card owned (a lever the tool found)."""
    asked = rec.owned_options[0].precision
    for lever in rec.levers:
        o = lever.option
        if "=" in lever.change or lever.change in ("as_asked", "buy", "has_host", "qlora"):
            continue  # another model ('model=…': a distill in Q8_0), context or load: no smaller format of this one
        if o is not None and o.owned and not o.owned_gpus and o.ok and o.precision and o.precision != asked:
            return o
    return None


def own_card_code(rec: Recommendation | None) -> str | None:
    """The verdict code on the home card (see the module), or None when the heading is the plan's own."""
    mine = home_card(rec)
    if mine is None or rec is None:
        return None
    if rec.workload.spec.trains:
        q = rec.qlora_short
        if q is None or not q.owned_options:
            return "train"
        return "train_qlora" if not q.owned_options[0].trains else "train_qlora_fits"
    off = rec.offload if rec.offload is not None and rec.offload.fits else None
    lower = _lower(rec)
    return ("lower_offload" if off else "lower") if lower else "offload" if off else "none"


def _speed(value: float, target: float | None, lang: str) -> str:
    """', below your 20' or ', meets your 20' beside a speed, when a speed was asked for."""
    from gpu_advisor.assistant.writers import tps

    if not target:
        return ""
    return say(lang, "own_card.below" if value < target else "own_card.meets", target=tps(target))


def _method(method: str, lang: str) -> str:
    from gpu_advisor.assistant.method_switch import NAMES

    return NAMES.get(method) or say(lang, f"mcmp.name.{method}")


def _quality(precision: str, lang: str) -> str:
    from gpu_advisor.knowledge.resolve import weight_bits

    bits = weight_bits(precision)
    return "" if bits >= FULL_QUALITY_BITS else say(lang, "own_card.quality_cost" if bits >= SMALL_COST_BITS
                                                    else "own_card.quality_cost_marked")


def own_card_lines(rec: Recommendation, lang: str) -> list[str]:
    """The heading on the home card and the step-up line under it, each followed by a blank line; [] when the
    plan's own heading stands."""
    from gpu_advisor.assistant.writers import _model_name, cash, gb, gpu_words, hours, tps

    code = own_card_code(rec)
    best = rec.best
    if code is None or best is None:
        return []
    w, mine = rec.workload, rec.owned_options[0]
    own, model = gpu_words(mine, lang), _model_name(rec, lang)
    if w.spec.trains:
        used = mine.train_per_gpu_bytes or 0.0
        figures: dict[str, Any] = {"own": own, "model": model, "used": gb(used), "capacity": gb(mine.capacity_bytes),
                                   "method": _method(str(w.method), lang)}
        q = rec.qlora_short
        if code.startswith("train_qlora") and q is not None:
            qo = q.owned_options[0]
            head = say(lang, f"own_card.head.{code}", q_used=gb(qo.train_per_gpu_bytes or 0.0),
                       q_hours=hours(qo.job_hours or 0.0), **figures)
        else:
            head = say(lang, "own_card.head.train", **figures)
        step = _train_step(rec, lang, cash, gpu_words, hours) if code != "train_qlora_fits" else \
            [say(lang, "own_card.step.train_asked", plan=_run_words(rec, best, lang, cash, gpu_words, hours))]
        return ["## " + head, "", *step, ""]
    precision = str(mine.precision or best.precision or "").upper()
    figures = {"own": own, "model": model, "precision": precision, "used": gb(mine.serve_per_gpu_bytes or 0.0),
               "capacity": gb(mine.capacity_bytes)}
    target = w.min_tokens_per_s
    lower, off = _lower(rec), rec.offload
    if lower is not None and lower.decode_tokens_per_s:
        figures |= {"lower": str(lower.precision).upper(), "lower_tps": tps(lower.decode_tokens_per_s),
                    "lower_note": _quality(str(lower.precision), lang) + _speed(lower.decode_tokens_per_s, target, lang)}
    if off is not None and code in ("lower_offload", "offload"):
        figures |= {"off_tps": tps(off.decode_tokens_per_s), "off_note": _speed(off.decode_tokens_per_s, target, lang)}
    if code in ("lower_offload", "lower") and "lower_tps" not in figures:
        code = "offload" if code == "lower_offload" else "none"
    head = say(lang, f"own_card.head.{code}", **figures)
    price = say(lang, "own_card.price.rent", usd=cash(best.usd_per_hour, rec)) if rec.action == "rent" and \
        best.usd_per_hour else say(lang, "own_card.price.buy", usd=cash(best.purchase_usd, rec)) \
        if rec.action == "buy" and best.purchase_usd else ""
    up = say(lang, f"own_card.step.serve_{rec.action}", option=gpu_words(best, lang), price=price,
             precision=str(best.precision or "").upper(), tps=tps(best.decode_tokens_per_s or 0.0))
    return ["## " + head, "", up, ""]


def _run_words(rec: Recommendation, o: Option, lang: str, cash: Any, gpu_words: Any, hours: Any) -> str:
    """'1 × B200, about 1.1 h a run ($7.18)', or the cards alone where the run has no time or price."""
    if o.job_hours and o.job_usd:
        return say(lang, "own_card.run", option=gpu_words(o, lang), hours=hours(o.job_hours), usd=cash(o.job_usd, rec))
    return gpu_words(o, lang)


def _train_step(rec: Recommendation, lang: str, cash: Any, gpu_words: Any, hours: Any) -> list[str]:
    """The step up for a training job: QLoRA's cards first where it was sized, then the plan asked (below)."""
    best = rec.best
    assert best is not None
    plan = _run_words(rec, best, lang, cash, gpu_words, hours)
    q = rec.qlora_short
    qb = q.best if q is not None else None
    if qb is not None and qb.ok and not qb.owned and qb.job_hours and qb.job_usd and \
            (best.job_usd is None or qb.gpu != best.gpu or qb.gpus != best.gpus):
        qlora = say(lang, "own_card.run", option=gpu_words(qb, lang), hours=hours(qb.job_hours), usd=cash(qb.job_usd, rec))
        return [say(lang, "own_card.step.train_qlora", qlora=qlora, plan=plan)]
    return [say(lang, "own_card.step.train", plan=plan)]
