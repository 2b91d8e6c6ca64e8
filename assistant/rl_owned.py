"""A full-parameter RL run the cluster you own cannot hold (review BU #5: GRPO on Qwen3-235B, 'full fine-tune, not
lora', on the lab's H100s): the fewest of the same card that hold it, in whole servers beside yours (bought for your
cluster, or rented for the run), and LoRA on the cards you have, each with a pass's and a step's time (and the time of
the steps asked about). Every figure is tools.rl's."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import NODE_GPUS, Recommendation, parse_owned
from gpu_advisor.tools.rl import RlLayouts, RlResult, fewest_rl_gpus, rl_layouts

# The most cards the full run is sized for, as a multiple of those you own (and never past tools.rl's 1,024).
MOST_TIMES, MOST_GPUS = 16, 1024
# The cheaper adapters tried on your own cards, in order, when every weight does not fit them.
ADAPTERS = ("lora", "qlora")


def _run(lay: RlLayouts) -> RlResult | None:
    """The layout that fits and pays (tools.rl.rl_layouts' pick), or None."""
    r = lay.split if lay.pays == "split" and lay.split is not None else lay.colocate
    return r if r.fits else None


def _times(r: RlResult, steps: int | None, lang: str) -> dict[str, str]:
    from gpu_advisor.assistant.rl_layout import _h, _s, per_words, steps_words

    return {"h": _h(r.hours), "s": _s(r.step_seconds), "steps": steps_words(r, steps, lang), "per": per_words(r, lang)}


def owned_full_lines(rec: Recommendation, lang: str) -> list[str]:
    """The two ways on from a full RL fine-tune your one kind of card cannot hold (asked, or the framework's default
    the plan had to leave: then the plan already is the adapters on your cards, and only the full run's cards are
    said); nothing otherwise."""
    w = rec.workload
    stated = "method" not in w.flexible if w is not None else False
    if w is None or not w.reinforces or len(w.owned) != 1 or (stated and w.method != "full"):
        return []
    n, gpu = parse_owned(w.owned[0])
    mine = rl_layouts(w.rl_input(gpu.id, n).model_copy(update={"method": "full"}))
    if _run(mine) is not None:
        return []
    need = min(x.per_gpu_bytes for x in (mine.colocate, mine.split) if x is not None)
    step = NODE_GPUS if n >= NODE_GPUS else max(1, gpu.sold_in)
    full = fewest_rl_gpus(w.rl_input(gpu.id, n).model_copy(update={"method": "full"}), step,
                          min(MOST_GPUS, n * MOST_TIMES))
    common = {"n": n, "card": gpu.name, "need": f"{need / 1e9:,.1f}", "cap": f"{mine.colocate.capacity_bytes / 1e9:,.1f}"}
    if full is not None and (r := _run(full)) is not None:
        m = r.rollout_gpus + r.train_gpus if r.layout == "split" else r.train_gpus
        from gpu_advisor.assistant.writers import cash  # (writers imports this module when it writes)

        usd = say(lang, "rl_owned.rented", usd=cash(r.usd, rec), per=_times(r, None, lang)["per"]) \
            if r.usd is not None else ""
        lines = [say(lang, "rl_owned.full", m=m, servers=-(-m // NODE_GPUS), more=m - n, usd=usd,
                     **common, **_times(r, w.rl_steps, lang))]
    else:
        lines = [say(lang, "rl_owned.full_none", most=min(MOST_GPUS, n * MOST_TIMES), **common)]
    for method in ADAPTERS if w.method == "full" else ():
        r = _run(rl_layouts(w.rl_input(gpu.id, n).model_copy(update={"method": method})))
        if r is not None:
            lines.append(say(lang, "rl_owned.adapters", method=say(lang, f"method.{method}"), n=n, card=gpu.name,
                             used=f"{r.per_gpu_bytes / 1e9:,.1f}", cap=f"{r.capacity_bytes / 1e9:,.1f}",
                             **_times(r, w.rl_steps, lang)))
            break
    return [*lines, ""]
