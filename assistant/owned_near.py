"""'Can my cards do it?' answered on the cards owned first, when they almost hold a service (review s28: 'i already
have 2x rtx 3090 … llama 3.1 70b at like 4bit for 10 concurrent users?? or do i need more cards' opened '**Yes**:
your 2×3090 are not enough' and a rented A100; the two cards hold it at ~2k tokens a user, twice that with an FP8
KV cache).

The verdict is a code, and the heading and every line under it say that one verdict:
- 'yes': the cards owned hold the job as asked (the plan is on them: its own heading says so);
- 'yes_if': they hold it with a limit (tools.owned_limit): a shorter context per user, the KV cache in 8 bits,
  fewer at once; said first, with the limit, then the smallest addition of the same card and the rented plan;
- 'no': no limit makes them hold it: the smallest addition of the same card, then the plan below.
A card that holds the model below the speed asked (review CQ E1: an RX 7900 XTX at 27 tokens/s against 'like 30' was
headed 'Rent 1 × RTX 4090' under '**Yes**: it fits' and 'cannot do this as planned') is 'yes_if' with the format of
the model that meets the speed on it, or at the speed it gives when that is near the one asked; 'no' when far.
Every figure comes from the recommend result; nothing is sized here."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import CONTEXT_STEP, Option, Recommendation


def near_code(rec: Recommendation | None) -> str | None:
    """'yes', 'yes_if' or 'no' on the one kind of card owned for a service (see the module); None otherwise."""
    if rec is None or rec.workload is None or len(rec.owned_options) != 1:
        return None
    best, limit = rec.best, rec.owned_limit
    if limit is not None:
        return "yes_if" if limit.holds else "no"
    w = rec.workload
    if speed_short(rec):
        return "yes_if" if _near_speed(rec) else "no"
    if w.spec.serves and not w.spec.trains and best is not None and best.owned and not best.owned_gpus and best.ok \
            and not (rec.relaxed or rec.taken_lever):
        return "yes"
    return None


# The cards a speed target's 'Yes, if' is about: a desktop's, a workstation's or a Mac.
SPEED_SEGMENTS = ("consumer", "workstation", "apple")


def speed_short(rec: Recommendation) -> bool:
    """The one kind of card owned holds the model and misses only the speed asked ('rx 7900 xtx … qwen3 32b at q4 and
    get like 30 tok/s?': 27), and the plan goes to other cards: yes, at that speed, or with the change that meets it."""
    from gpu_advisor.knowledge import find_gpu

    w, mine, best = rec.workload, rec.owned_options[0], rec.best
    if not (w.spec.serves and not w.spec.trains and not w.spec.batch and w.min_tokens_per_s and len(w.owned) == 1
            and mine.serves and not mine.ok and mine.decode_tokens_per_s
            and not (best is not None and (best.owned or best.owned_gpus)) and rec.pool is None and not rec.offload_leads
            and (w.preference == "either" or "preference" in w.flexible)):
        return False
    if mine.decode_tokens_per_s >= w.min_tokens_per_s or not all(v for k, v in mine.meets.items() if k != "latency"):
        return False  # (another target missed: the plan's own line says which)
    try:
        return find_gpu(mine.gpu).segment in SPEED_SEGMENTS
    except (LookupError, ValueError):
        return False


# A speed at least this share of the one asked is near it: 'yes, if that will do'; below it, 'no' at that speed
# (a format of the model on the same card that meets it is a 'yes, if' at any distance).
SPEED_NEAR = 0.75


def _near_speed(rec: Recommendation) -> bool:
    w, mine = rec.workload, rec.owned_options[0]
    return _format_lever(rec, w.min_tokens_per_s or 0.0) is not None \
        or (mine.decode_tokens_per_s or 0.0) >= SPEED_NEAR * (w.min_tokens_per_s or 0.0)


def _format_lever(rec: Recommendation, target: float) -> tuple[str, Option] | None:
    """The change the tool found on the card owned that meets the speed: a format of this model (another model,
    context or load is no yes for the model asked)."""
    from gpu_advisor.assistant.owned_enough import _owned_lever

    lever = _owned_lever(rec)
    if lever is None or "=" in lever[0] or (lever[1].decode_tokens_per_s or 0.0) < target:
        return None
    return lever


def leads(rec: Recommendation | None) -> bool:
    """Whether the verdict on the cards owned is the reply's heading (the plan below is the second option)."""
    return near_code(rec) in ("yes_if", "no")


def _limit_key(rec: Recommendation) -> str | None:
    """The limit said in the heading: the context per user, else it with an 8-bit KV cache, else fewer at once."""
    limit = rec.owned_limit
    assert limit is not None
    for key in ("context", "context_kv8", "users", "users_kv8"):
        if getattr(limit, key):
            return key
    return None


def near_lines(rec: Recommendation, lang: str) -> list[str]:
    """The heading on the cards owned, what they hold, and the smallest addition, each followed by a blank line;
    [] when the plan's own heading stands."""
    from gpu_advisor.assistant.writers import _kv_flag, _model_name, gb, gpu_words, tps

    code, limit, best = near_code(rec), rec.owned_limit, rec.best
    if code in ("yes_if", "no") and limit is None:
        return _speed_lines(rec, lang)
    if code not in ("yes_if", "no") or limit is None:
        return []
    mine = rec.owned_options[0]
    at = limit.at_limit
    kv_said = at is not None and at.kv_precision is not None and (limit.context_kv8 or limit.users_kv8)
    kv = str(at.kv_precision if kv_said and at is not None else limit.kv8 or "fp8").upper()
    figures: dict[str, Any] = {
        "own": gpu_words(mine, lang), "model": _model_name(rec, lang), "precision": str(mine.precision or "").upper(),
        "users": f"{limit.users_asked:,}", "asked": f"{limit.context_asked:,}", "used": gb(mine.serve_per_gpu_bytes or 0.0),
        "capacity": gb(mine.capacity_bytes), "kv": kv, "step": f"{min(CONTEXT_STEP, limit.context_asked):,}", "flag": _kv_flag(at) if kv_said and at is not None else f"--kv-cache-dtype {limit.kv8 or 'fp8'}"}
    lines: list[str] = []
    if code == "yes_if":
        key = _limit_key(rec)
        value = getattr(limit, str(key))
        head = say(lang, f"owned_near.head.{key}", n=f"{value:,}", **figures)
        lines += ["## " + head, "", _held(rec, lang, figures, gb, tps), ""]
    else:
        lines += ["## " + say(lang, "owned_near.head.no", **figures), ""]
    more = limit.more
    step = ""
    if more is not None and more.ok:
        added = more.gpus - (more.owned_gpus or mine.gpus)
        step = say(lang, "owned_near.more", added=f"{added:,}", total=f"{more.gpus:,}", gpu=more.gpu_name,
                   tps=tps(more.decode_tokens_per_s or 0.0), **figures)
    plan = _plan_words(rec, best, lang, gpu_words) if best is not None and not (more is not None and best is more) \
        else ""
    if step or plan:
        lead = say(lang, "owned_near.step_lead" if code == "yes_if" else "owned_near.step_lead_no", **figures)
        lines += [lead + say(lang, "owned_near.or").join(x for x in (step, plan) if x) + say(lang, "owned_near.end"), ""]
    return lines


def _held(rec: Recommendation, lang: str, figures: dict[str, Any], gb: Any, tps: Any) -> str:
    """'What fits on your cards': every limit found, with the memory and speed at the first."""
    limit = rec.owned_limit
    assert limit is not None
    parts = []
    at = limit.at_limit
    speed = say(lang, "owned_near.at_speed", used=gb(at.serve_per_gpu_bytes or 0.0), capacity=gb(at.capacity_bytes),
                tps=tps(at.decode_tokens_per_s or 0.0)) if at is not None and at.decode_tokens_per_s else ""
    if limit.context:
        parts.append(say(lang, "owned_near.part.context", n=f"{limit.context:,}", speed=speed, **figures))
    if limit.context_kv8:
        inner = say(lang, "owned_near.at_speed_inner", used=gb(at.serve_per_gpu_bytes or 0.0),
                    capacity=gb(at.capacity_bytes), tps=tps(at.decode_tokens_per_s or 0.0)) \
            if at is not None and at.decode_tokens_per_s and not limit.context else ""
        parts.append(say(lang, "owned_near.part.context_kv8", n=f"{limit.context_kv8:,}", speed=inner, **figures))
    if limit.users:
        parts.append(say(lang, "owned_near.part.users", n=f"{limit.users:,}", **figures))
    if limit.users_kv8 and limit.users_kv8 != limit.users:
        parts.append(say(lang, "owned_near.part.users_kv8", n=f"{limit.users_kv8:,}", **figures))
    return say(lang, "owned_near.held", **figures) + say(lang, "sep").join(parts) + \
        say(lang, "owned_near.as_asked", **figures)


def _plan_words(rec: Recommendation, best: Option, lang: str, gpu_words: Any) -> str:
    """The plan below as the second option: rented or bought."""
    if best.owned and not best.owned_gpus:
        return ""
    verb = "buy" if rec.action == "buy" else "rent"
    if rec.owned_share is not None and rec.owned_users and rec.owned_limit is not None:  # the gap served elsewhere
        return say(lang, f"owned_near.plan.{verb}_rest", option=gpu_words(best, lang), n=f"{rec.owned_users:,}",
                   rest=f"{rec.owned_limit.users_asked - rec.owned_users:,}")
    return say(lang, f"owned_near.plan.{verb}", option=gpu_words(best, lang))


def beside_key(rec: Recommendation, key: str) -> str:
    """The beside-yours line's key: the rented service as the second option when your cards hold it with a limit."""
    return f"{key}_near" if key == "answer.beside.whole" and near_code(rec) == "yes_if" else key


def _speed_lines(rec: Recommendation, lang: str) -> list[str]:
    """Your card holds the model below the speed asked: yes at that speed, or with the change the tool found that
    meets it on the same card (rec.levers), then the plan's cards for the speed in the format asked."""
    from gpu_advisor.assistant.owned_enough import _change_words
    from gpu_advisor.assistant.writers import _model_name, gb, gpu_words, tps

    w, mine, best = rec.workload, rec.owned_options[0], rec.best
    assert w.min_tokens_per_s
    figures: dict[str, Any] = {"own": gpu_words(mine, lang), "model": _model_name(rec, lang),
                               "precision": str(mine.precision or "").upper(), "target": tps(w.min_tokens_per_s),
                               "tps": tps(mine.decode_tokens_per_s or 0.0), "used": gb(mine.serve_per_gpu_bytes or 0.0),
                               "capacity": gb(mine.capacity_bytes)}
    lever = _format_lever(rec, w.min_tokens_per_s)
    if lever is not None:
        head = say(lang, "owned_near.head.speed_lever", change=_change_words(lever[0], lang),
                   lever_tps=tps(lever[1].decode_tokens_per_s or 0.0), **figures)
    else:
        head = say(lang, "owned_near.head.speed" if near_code(rec) == "yes_if" else "owned_near.head.speed_no",
                   **figures)
    plan = _plan_words(rec, best, lang, gpu_words) if best is not None else ""  # (none meets it: the table says why)
    step = say(lang, "owned_near.step_speed", plan=plan, plan_tps=tps(best.decode_tokens_per_s or 0.0), **figures) \
        if plan and best is not None and best.decode_tokens_per_s else ""
    return ["## " + head, "", *([step, ""] if step else [])]
