"""'Which is more cost effective per token?', 'cheapest per token', '每百万token成本哪个低': every option's cost per
million generated tokens (tools.cost: the option's rent per hour over the tokens it generates in an hour at the
plan's load), ranked by it, before the plan.

The load is the plan's: for a request rate, the tokens the rate asks for (requests/s x output tokens, the same for
every option that sustains it); people at once said, each option's aggregate tokens/s with them all generating; no
load said, each card at full load (assistant.value.full_load: as many people as it serves, up to a server of it)."""

from __future__ import annotations

from functools import partial
from typing import Any

from gpu_advisor.assistant.advice import Answer, Recorder, _call
from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash, gpu_words, tps
from gpu_advisor.tools.cost import CostInput, cost
from gpu_advisor.tools.recommend import Option


def _rows(answer: Answer) -> list[Option]:
    """The options priced: the cards asked about (with the plan's row when it is one of them) when two or more were
    named, else the plan and its table's other options that do the job."""
    rec = answer.recommend
    best = [rec.best] if rec.best is not None else []
    asked = {o.gpu for o in answer.options}
    rows = [*best, *answer.options] if len(asked) >= 2 else [*best, *answer.options, *rec.options]
    seen: set[tuple[int, str]] = set()
    out = []
    for o in rows:
        if (o.gpus, o.gpu) in seen or not o.ok or o.owned or not o.usd_per_hour:
            continue
        if len(asked) >= 2 and o.gpu not in asked:
            continue
        seen.add((o.gpus, o.gpu))
        out.append(o)
    return out


def per_token_block(answer: Answer, lang: str, recorder: Recorder | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The ranked lines and their data; ("", []) when fewer than one option has a price and a speed."""
    from gpu_advisor.assistant.value import full_load, load_known

    rec = answer.recommend
    traffic = rec.traffic if rec.traffic is not None and rec.traffic.requests_per_s else None
    priced: list[tuple[float, Option, float]] = []
    full = traffic is None and not load_known(rec.workload)
    for o in _rows(answer):
        if full:  # no load said: each card at full load (assistant.value), and the head says so
            top = full_load(o, rec.workload, recorder)
            if top is not None and o.usd_per_hour:
                n = top[2]
                priced.append((top[0], o.model_copy(update={"gpus": n, "usd_per_hour": o.usd_per_hour / o.gpus * n}), top[3]))
            continue
        load = traffic.requests_per_s * traffic.output_tokens if traffic else o.aggregate_tokens_per_s
        if not load or not o.usd_per_hour:
            continue
        inp = CostInput(gpu=o.gpu, gpus=o.gpus, tokens_per_s=load, usd_per_gpu_hour=o.usd_per_hour / o.gpus)
        r = _call(recorder, "cost", inp.model_dump(mode="json"), partial(cost, inp))
        if r.usd_per_million_tokens:
            priced.append((r.usd_per_million_tokens, o, load))
    if not priced:
        return "", []
    priced.sort(key=lambda x: (x[0], x[1].gpus))
    head = say(lang, "per_token.head_rate" if traffic else "per_token.head_full" if full else "per_token.head")
    lines = [head]
    for i, (v, o, load) in enumerate(priced, start=1):
        lines.append(say(lang, "per_token.row", i=i, option=gpu_words(o, lang), cost=cash(v, rec),
                         hour=cash(o.usd_per_hour or 0, rec), tps=tps(load)))
    best = priced[0]
    if len(priced) > 1:
        lines.append(say(lang, "per_token.verdict", option=gpu_words(best[1], lang), cost=cash(best[0], rec),
                         times=f"{priced[-1][0] / best[0]:.1f}", last=gpu_words(priced[-1][1], lang)))
    data = [{"gpu": o.gpu, "gpus": o.gpus, "usd_per_million_tokens": v, "tokens_per_s": load,
             "times_cheapest": round(v / best[0], 1)} for v, o, load in priced]  # (the verdict's 'N× as much')
    return "\n".join(lines), data
