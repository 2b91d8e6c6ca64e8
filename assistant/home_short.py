"""One person at home whose own card cannot hold the model asked (tools.home_card; review CG #9 and its D note):
the headline is that model on that card with part of it in system RAM, said slow where it is slower than reading;
then the smallest change that runs it all on cards (more cards like theirs beside it) and a smaller model of its
family on their card, marked as the fallback. Every figure is a tool result in the recommendation; the words are the
catalogs'."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.home_card import home_short
from gpu_advisor.tools.recommend import Option, Recommendation, parse_owned


def slow_at_home(rec: Recommendation) -> bool:
    """The split on the user's own card leads and runs slower than reading speed."""
    o, w = rec.offload, rec.workload
    return rec.offload_leads and o is not None and w is not None and o.decode_tokens_per_s < w.speed_floor \
        and home_short(w, rec)


def fallback(rec: Recommendation) -> tuple[str, Option] | None:
    """(model id, its option on the user's card) of the smaller model that runs there (the owned lever), or None."""
    for lever in rec.levers:
        key, _, value = lever.change.partition("=")
        o = lever.option
        if key == "model" and o is not None and o.owned and o.ok and o.decode_tokens_per_s:
            return value, o
    return None


def home_lines(rec: Recommendation, lang: str) -> list[str]:
    """The smallest change beside the split, and the fallback model; [] unless the user is short at home."""
    from gpu_advisor.assistant.writers import gb, gpu_words, model_words, tps
    from gpu_advisor.tools.models import resolve_model

    w = rec.workload
    if w is None or not rec.offload_leads or not home_short(w, rec):
        return []
    lines: list[str] = []
    more = rec.home_more
    if more is not None and more.decode_tokens_per_s and more.serve_per_gpu_bytes and more.precision:
        mine = parse_owned(w.owned[0])[1]
        added = more.gpus - parse_owned(w.owned[0])[0]
        kv = say(lang, "fig.kv", kv=more.kv_precision.upper()) if more.kv_precision else ""
        key = "home.more.laptop" if mine.laptop else "home.more.one" if added == 1 else "home.more.many"
        lines += [say(lang, key, added=added, option=gpu_words(more),
                      precision=more.precision.upper(), kv=kv, used=gb(more.serve_per_gpu_bytes),
                      cap=gb(more.capacity_bytes), tps=tps(more.decode_tokens_per_s)), ""]
    smaller = fallback(rec)
    if smaller is not None:
        model, o = smaller
        change = say(lang, "lever.model", value=model_words(resolve_model(model).name, lang))
        lines += [say(lang, "home.fallback", change=change, option=gpu_words(o), precision=(o.precision or "").upper(),
                      tps=tps(o.decode_tokens_per_s or 0)), ""]
    return lines
