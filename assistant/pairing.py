"""A second job or model on the plan's cards (the profile's `also` slot): sized with tools.pair, said in words.

The plan is sized for the first job (the service, when one of the two is a batch job); the second is
then checked on the same cards: both loaded at once (memory adds) or each in its own window (the second
must fit and finish there). What does not fit is said with the count of the same card that holds both.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.slots import SLOTS
from gpu_advisor.tools.pair import PairInput, PairResult, Share, pair
from gpu_advisor.tools.recommend import Recommendation, Workload


def second_workload(w: Workload, also: dict[str, Any]) -> Workload:
    """The second job as the tools see it: the first job's settings (its weight format too), with its own kind,
    model and load."""
    phase = also.get("phase") or ("serve" if w.spec.serves else "batch")
    # the weight format said once for both ('both q8', 'llama 70b and mistral large at q8', '都用q8') is each one's
    update: dict[str, Any] = {"phase": phase, "model": also.get("model") or w.model, "deadline_hours": None,
                              "serve_precision": also.get("precision") or w.serve_precision}
    if phase == "batch":
        update["batch_items"] = also.get("batch_items") or SLOTS["batch_items"].default
    else:
        update["users"] = also.get("users") or (w.users if w.spec.serves else SLOTS["users"].default)
    return Workload.model_validate({**w.model_dump(), **update})


def size_pair(also: dict[str, Any] | None, rec: Recommendation, call: Any) -> PairResult | None:
    """tools.pair for the plan's cards; `call(tool, arguments, fn)` records the tool call."""
    best = rec.best
    if not also or also.get("running") or also.get("phase") not in (None, "serve", "batch") or best is None or not (rec.workload.spec.serves or rec.workload.spec.batch):
        return None
    first = rec.workload.model_copy(update={"serve_precision": best.precision}) if rec.relaxed else rec.workload
    second = second_workload(rec.workload, also)
    inp = PairInput(first=first, second=second, gpu=best.gpu, gpus=best.gpus,
                    together=bool(also.get("together")), first_per_gpu_bytes=best.serve_per_gpu_bytes or None,
                    owned=best.owned)
    for fmt in _formats_unsaid(inp, best.precision):  # none said: the format the plan took, then 4-bit
        tried = inp.model_copy(update={"second": second.model_copy(update={"serve_precision": fmt})})
        if pair(tried).fits:
            inp = tried
            break
    return call("pair", inp.model_dump(mode="json"), lambda: pair(inp))


def _formats_unsaid(inp: PairInput, taken: str | None) -> list[str]:
    """One person's two models on their own machine, in turns, no format said for the second ('can i run qwen2.5
    32b and llama 3.1 70b on my m3 max'): the formats tried for the second model when its default does not fit
    alone: the one the plan took for the first, then the usual 4-bit file (llama.cpp's Q4_K_M for a GGUF plan,
    else INT4), as the plan would pick for it alone. Nothing to try when it fits as it is, or runs at once."""
    if inp.together or not inp.owned or inp.second.serve_precision is not None or not inp.second.spec.serves \
            or pair(inp).fits:
        return []
    four = "q4_k_m" if taken and taken.startswith(("q", "iq")) else "int4"
    return [fmt for fmt in dict.fromkeys([taken, four]) if fmt]


def _kind(phase: str | None) -> str | None:
    """The kind of job a phase is, as the `also` slot says it: serve, batch or fine-tune."""
    if phase in ("fine-tune", "pretrain", "continued-pretrain"):
        return "fine-tune"
    return "batch" if phase == "batch" else "serve" if phase in ("serve", "production") else None


def swapped_job(also: dict[str, Any] | None, current: dict[str, Any], updates: dict[str, Any]) -> dict[str, Any] | None:
    """'fine-tune llama 3 8b with qlora on 20k examples' when that training run was the second job: it is now the
    plan, and the job sized before becomes the second one (kept, never dropped); and back again."""
    if not also or not updates.get("model") or updates.get("model") != also.get("model"):
        return None
    before = _kind(current.get("phase"))
    if _kind(updates.get("phase") or current.get("phase")) != also.get("phase") or before is None \
            or not current.get("model") or current["model"] == also["model"]:
        return None
    return {"phase": before, "model": current["model"], "users": current.get("users"),
            "batch_items": current.get("batch_items"), "together": False, "together_said": False}


def _name(model: str) -> str:
    from gpu_advisor.knowledge import find_model

    try:
        return find_model(model).name
    except (LookupError, ValueError):
        return model


def also_words(also: dict[str, Any], lang: str) -> str:
    """The second job in words, for 'from what you said'."""
    job = say(lang, f"pair.job.{also.get('phase') or 'serve'}")
    from gpu_advisor.assistant.side_job import checked

    when = say(lang, "pair.when.checked" if checked(also) else "pair.when.unsized" if also.get("phase") not in (
               None, "serve", "batch") else "pair.when.together" if also.get("together") else "pair.when.apart")
    return say(lang, "ack.also", job=job, model=_name(also["model"]) if also.get("model") else say(lang, "pair.same_model"),
               when=when)


def _layout(share: Share, lang: str) -> str:
    if share.replicas > 1:
        return say(lang, "pair.layout.copies", replicas=share.replicas, tp=share.tp)
    return say(lang, "pair.layout.tp", tp=share.tp) if share.tp > 1 else say(lang, "pair.layout.one")


def split_words(r: PairResult, lang: str) -> str:
    """'**Each model on its own cards:** Llama 3.3 70B on 4 of the 8 × H100 (tensor parallel over 4): …'."""
    from gpu_advisor.assistant.writers import gb, tps

    shares = []
    for i, share in enumerate(r.split):
        shares.append(say(lang, "pair.share_rest" if i else "pair.share", model=_name(share.model), gpus=share.gpus,
                          n=r.gpus_planned, card=r.gpu_name, layout=_layout(share, lang), gb=gb(share.per_gpu_bytes),
                          cap=gb(share.capacity_bytes), tps=tps(share.tokens_per_s or 0), users=f"{share.users:,}",
                          meets=say(lang, "pair.meets" if share.ok else "pair.short")))
    return say(lang, "pair.split", shares=say(lang, "pair.share_sep").join(shares))


def pair_verdict(result: dict[str, Any] | None, also: dict[str, Any] | None, lang: str,
                 model: str = "") -> tuple[str, dict[str, Any]] | None:
    """The yes or no for the whole machine when both models were asked to fit on it ('does it fit?', '放得下吗'),
    with its code: split_yes / split_short (each on its own cards), together_yes (side by side on every card),
    no (more of the card hold both) or none. None: not two services together."""
    if not result:
        return None
    r = PairResult.model_validate(result)
    if not r.together or not also:
        return None
    values: dict[str, Any] = {"n": r.gpus_planned, "card": r.gpu_name, "need": r.gpus_needed or 0,
                              "first": _name(model), "second": _name(also.get("model") or model)}
    if r.split:
        a, b = r.split
        slow = [_name(x.model) for x in r.split if not x.ok]
        code = "split_short" if slow else "copies_yes" if a.model == b.model else "split_yes"
        values |= {"first": _name(a.model), "second": _name(b.model), "a": a.gpus, "b": b.gpus,
                   "slow": say(lang, "verdict.and").join(slow)}
    elif r.fits and r.second_per_gpu_bytes is not None:
        from gpu_advisor.assistant.writers import gb
        from gpu_advisor.tools.inference import VLLM_DEFAULT_UTILISATION

        code = "together_yes"
        values |= {"sum": gb(r.first_per_gpu_bytes + r.second_per_gpu_bytes),
                   "usable": gb(r.capacity_bytes * VLLM_DEFAULT_UTILISATION)}
    else:
        code = "no" if r.gpus_needed else "none"
    return say(lang, f"pair.verdict.{code}", **values), {"code": code, "gpu": r.gpu, "gpus": r.gpus_planned,
                                                         "fits": code not in ("no", "none"),
                                                         "split": [x.gpus for x in r.split]}


def pair_headline(result: dict[str, Any] | None, lang: str, also: dict[str, Any] | None = None,
                  model: str = "") -> str | None:
    """The headline when both jobs need more of the plan's card than the first one alone: both models at once,
    or a second job in its own window that is the larger of the two (it sizes the cards)."""
    if not result:
        return None
    r = PairResult.model_validate(result)
    if r.together and not r.split and not r.fits and r.gpus_needed is None and also:
        # neither side by side nor split do the plan's cards hold both: the first here, the second on its own cards
        return say(lang, "pair.headline_none", first=_name(model), second=_name(also.get("model") or model),
                   n=r.gpus_planned, card=r.gpu_name)
    if r.split or not (r.gpus_needed and r.gpus_needed > r.gpus_planned):
        return None
    return say(lang, "pair.headline" if r.together else "pair.headline_apart", need=r.gpus_needed, card=r.gpu_name,
               n=r.gpus_planned)


def pair_words(result: dict[str, Any] | None, also: dict[str, Any] | None, lang: str, model: str = "") -> str:
    """The paragraph that says how the second job sits on the plan's cards (`model`: the first job's)."""
    if also and also.get("phase") not in (None, "serve", "batch"):  # a training run: said, not sized here
        return say(lang, "pair.train_unsized", second=_name(also.get("model") or model), first=_name(model))
    if also and not result:  # the plan is a training run: the inference job beside it is said, sized on its own
        return say(lang, "pair.inference_unsized", second=_name(also.get("model") or model), first=_name(model),
                   job=say(lang, f"pair.job.{also.get('phase') or 'serve'}"))
    if not result or not also:
        return ""
    from gpu_advisor.assistant.writers import gb, hours

    r = PairResult.model_validate(result)
    values = {"second": _name(also.get("model") or model), "first": _name(model), "card": r.gpu_name, "n": r.gpus_planned,
              "need": r.gpus_needed or 0, "job": say(lang, f"pair.job.{also.get('phase') or 'serve'}")}
    if r.together and r.split:  # two services, each on its own share of the cards
        text = split_words(r, lang)
    elif r.together:
        if r.second_per_gpu_bytes is None:
            key = "pair.together_more" if r.gpus_needed else "pair.together_none"
            text = say(lang, key + "_alone", **values)
        else:
            total = r.first_per_gpu_bytes + r.second_per_gpu_bytes
            key = "pair.together_fits" if r.fits else "pair.together_more" if r.gpus_needed else "pair.together_none"
            from gpu_advisor.tools.inference import VLLM_DEFAULT_UTILISATION

            text = say(lang, key, **values, a=gb(r.first_per_gpu_bytes), b=gb(r.second_per_gpu_bytes), sum=gb(total),
                       usable=gb(r.capacity_bytes * VLLM_DEFAULT_UTILISATION))
    elif not r.fits:
        text = say(lang, "pair.apart_more" if r.gpus_needed else "pair.apart_none", **values)
        if r.gpus_needed and r.second_hours is not None:
            items = also.get("batch_items") or SLOTS["batch_items"].default
            text += say(lang, "pair.apart_more_hours", need=r.gpus_needed, items=f"{items:,}", hours=hours(r.second_hours))
    elif r.second_hours is not None:
        items = also.get("batch_items") or SLOTS["batch_items"].default
        text = say(lang, "pair.apart_batch", **values, items=f"{items:,}", hours=hours(r.second_hours))
        if not also.get("batch_items"):
            text += say(lang, "pair.items_assumed", items=f"{items:,}")
    elif r.second_tokens_per_s and r.second_precision:  # its own speed and format, as the plan says the first's
        from gpu_advisor.assistant.writers import tps

        text = say(lang, "pair.apart_serve_speed", **values, gb=gb(r.second_per_gpu_bytes or 0),
                   precision=r.second_precision, tps=tps(r.second_tokens_per_s))
    else:
        text = say(lang, "pair.apart_serve", **values, gb=gb(r.second_per_gpu_bytes or 0))
    if not also.get("together_said"):
        text += say(lang, "pair.assumed_together" if r.together else "pair.assumed_apart")
    return text


def place_pair(text: str, both: str, verdict: tuple[str, dict[str, Any]] | None, pinned: str | None,
               more: str | None) -> str:
    """The reply with the second job's paragraph right under the plan's headline (`more`: the headline for both
    jobs), and the whole machine's yes or no (`verdict`) first, in place of the first model's alone (`pinned`)."""
    if verdict is not None:
        text = text.replace(pinned, verdict[0], 1) if pinned and pinned in text else verdict[0] + "\n\n" + text
    parts = text.split("\n\n")
    at = next((i for i, p in enumerate(parts) if p.startswith("## ")), None)
    if at is None:
        return text + "\n\n" + both
    if more:
        parts[at] = f"## {more}"
    return "\n\n".join([*parts[:at + 1], both, *parts[at + 1:]])
