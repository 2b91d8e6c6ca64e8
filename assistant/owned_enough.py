"""Whether the cards a user owns are enough, answered first ('is it enough?', '够不够', 'do we need to buy more
GPUs?', '要买新卡吗'): a verdict code from the sizing result (tools.recommend) and its line per language.

The codes: 'enough' (your cards hold the job and meet every target as asked), 'changed' (they do with one change
the plan below makes or a lever names: 4-bit weights, an 8-bit KV cache, fewer at once, a shorter context),
'more_cards' (more of the same card beside yours, how many), 'short' (your cards fall short and the plan below
does the job on other cards). Every figure comes from the recommend result; nothing here is sized anew."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option, Recommendation


def _used(rec: Recommendation, o: Option) -> float | None:
    return o.train_per_gpu_bytes if rec.workload.spec.trains else o.serve_per_gpu_bytes


def _holds(rec: Recommendation, o: Option) -> bool:
    return bool(o.trains if rec.workload.spec.trains else o.serves)


def _owned_lever(rec: Recommendation) -> tuple[str, Option] | None:
    """The first change the tool found that makes the cards you own do the job (rec.levers, cheapest first)."""
    for lever in rec.levers:
        o = lever.option
        if o is not None and o.owned and not o.owned_gpus and o.ok and lever.change not in ("as_asked", "buy"):
            return lever.change, o
    return None


def owned_verdict(rec: Recommendation | None) -> dict[str, Any] | None:
    """The verdict on the one kind of card the user owns, as a code with the cards it is about; None when the
    user owns none (or several kinds: the pool's own line answers) or nothing was sized. 'instead': a change that
    makes the cards owned enough without buying, when the plan adds cards or goes elsewhere."""
    if rec is None or len(rec.owned_options) != 1 or rec.pool is not None or rec.workload is None:
        return None
    mine, best = rec.owned_options[0], rec.best
    base: dict[str, Any] = {"gpu": mine.gpu, "gpus": mine.gpus, "holds": _holds(rec, mine)}
    if best is not None and best.owned and not best.owned_gpus and best.ok and _holds(rec, best):
        changed = rec.relaxed or rec.taken_lever
        return {**base, "code": "changed" if changed else "enough", "gpus": best.gpus,
                **({"change": changed} if changed else {})}
    lever = _owned_lever(rec)
    instead = {"instead": lever[0]} if lever else {}
    if best is not None and best.owned_gpus and best.gpu == mine.gpu:  # more of your card beside yours
        return {**base, "code": "more_cards", "added": best.gpus - best.owned_gpus, "total": best.gpus, **instead}
    if best is not None and not best.owned and rec.beside_yours == "copies" and best.gpu == mine.gpu:
        # more of your card rented beside yours, whole copies of the model there and on yours: as many more
        return {**base, "code": "more_cards", "added": best.gpus, "total": mine.gpus + best.gpus, **instead}
    from gpu_advisor.assistant.rate_owned import rate_more

    return {**base, **(rate_more(rec, mine) or {"code": "short"}), **instead}


def _change_words(change: str, lang: str) -> str:
    key, _, value = change.partition("=")
    if key == "model":
        from gpu_advisor.tools.models import resolve_model

        value = resolve_model(value).name
    from gpu_advisor.assistant.no_fp8 import lever_key

    return say(lang, lever_key(key, None), value=value)


def owned_line(rec: Recommendation | None, kind: str, lang: str) -> str | None:
    """The first line for 'enough?' (kind 'fits') or 'do we need to buy more?' (kind 'more') on the user's own
    cards; None where the usual yes/no line (writers.literal_answer) answers it as well."""
    from gpu_advisor.assistant.offload_verdict import offload_verdict
    from gpu_advisor.assistant.writers import gb, gpu_words, pct, tps  # (writers imports this module)

    said = offload_verdict(rec, lang)  # CPU offload asked and planned: that plan's yes, never 'No' beside its speed
    if said is not None:
        return said
    v = owned_verdict(rec)
    if v is None or rec is None or (rec.traffic is not None and v["code"] == "enough"):
        return None  # at a request rate, the usual line says what the cards sustain against the rate
    mine, best, w = rec.owned_options[0], rec.best, rec.workload
    lead = "owned.more" if kind == "more" else "owned.fits"
    if v["code"] == "enough" and best is not None:
        used = _used(rec, best)
        if used is None:
            return None
        figures = {"option": gpu_words(best, lang), "used": gb(used), "capacity": gb(best.capacity_bytes),
                   "spare": pct(best.headroom_fraction), "model": rec.model_name}
        if w.spec.serves and not w.spec.trains and best.decode_tokens_per_s and (w.users or 0) > 1:
            return say(lang, f"{lead}.enough", users=f"{w.users:,}", tps=tps(best.decode_tokens_per_s), **figures)
        return say(lang, f"{lead}.enough_job", **figures) if kind == "more" else None
    if v["code"] == "changed":
        used = None if best is None else _used(rec, best)
        if best is None or used is None:
            return None
        return say(lang, f"{lead}.changed", option=gpu_words(best, lang), change=_change_words(v["change"], lang),
                   used=gb(used), capacity=gb(best.capacity_bytes))
    used = _used(rec, mine)
    if used is None or best is None:
        return None
    why = say(lang, "owned.why.targets") if _holds(rec, mine) else \
        say(lang, "owned.why.memory", used=gb(used), capacity=gb(mine.capacity_bytes))
    if v["code"] == "more_cards":
        line = say(lang, f"{lead}.more_cards", added=f"{v['added']:,}", total=f"{v['total']:,}", gpu=best.gpu_name,
                   precision=best.precision or "", owned=f"{mine.gpus:,}", option=gpu_words(mine, lang), why=why)
        from gpu_advisor.assistant.rate_owned import fp8_line

        line += _servers_words(rec, v, lang) + fp8_line(rec, lang)  # a rate missed in 16 bits: FP8 on yours first
    elif kind == "more":
        line = say(lang, "owned.more.short", option=gpu_words(mine, lang), why=why, plan=gpu_words(best, lang))
    else:  # 'enough?' and they are not: the usual no line, with the plan that does it
        from gpu_advisor.assistant.writers import literal_fits

        line = literal_fits(rec, mine, lang) or ""
        if not line:
            return None
    lever = _owned_lever(rec)
    used = None if lever is None else _used(rec, lever[1])
    if lever is not None and used is not None:  # without buying: the change the tool found that makes yours enough
        line += say(lang, "owned.instead", option=gpu_words(lever[1], lang), change=_change_words(lever[0], lang),
                    used=gb(used), capacity=gb(lever[1].capacity_bytes))
    return line


def _servers_words(rec: Recommendation, v: dict[str, Any], lang: str) -> str:
    """The cards added said as servers when yours were said as servers ('两台910B的机器（每台8卡）', 'how many more
    servers'): 'that is 3 more 8-card servers, 5 in all' (review CI #12 asked '不够还得加几台'); nothing when the
    added cards are no whole servers."""
    per = rec.workload.server_gpus
    added, total = v.get("added", 0), v.get("total", 0)
    if not per or per < 2 or added % per or total % per:
        return ""
    return say(lang, "owned.more_servers", servers=f"{added // per:,}", per=per, total=f"{total // per:,}")
