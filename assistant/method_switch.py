"""'为什么不用 LoRA？', 'why not just qlora on a single 4090', '不能用 QLoRA 吗', 'what if full fine tune instead, how
much more': a later turn that asks about another fine-tuning method for the SAME job. The job's data (tokens,
examples, epochs, sequence length, deadline) stays; the new plan is sized; this module says what the switch
changes against the plan before it (cards, hours, cost, memory: every figure from the two plans' tool results) and
why, as a typed code the writers turn into a sentence per language (catalog keys `switch.*`):

- lighter_enough: from a full fine-tune to LoRA/QLoRA: the lighter method usually gets close for supervised data;
  a full fine-tune is worth it for a large domain shift or new knowledge.
- no_gain: from LoRA to QLoRA when LoRA already fits the same cards: QLoRA is slower and saves memory not needed.
- fewer_cards: a lighter method that needs fewer cards or costs less: yes, with what it costs in speed and quality.
- smaller_card: a lighter method on another card that the old method does not fit ('what if i just do qlora on the
  5090' after LoRA on an H100): yes, it fits that card, with what it costs in speed and quality.
- heavier: to a full fine-tune: how much more, as differences, and when it is worth it.
- lora_from_qlora: from QLoRA to LoRA: faster and a touch better where the cards hold the 16-bit base.

Also the reading side: a two-method comparison asked right after a fine-tuning plan ('what if i do full fine tune
instead of qlora, how much more') is that switch on the plan, not the generic comparison that drops the job."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash, gb, gpu_words, hours

# How heavy each method is: memory and time grow with it.
WEIGHT = {"qlora": 0, "lora": 1, "full": 2}
NAMES = {"lora": "LoRA", "qlora": "QLoRA"}
# Below this share of the old cost or count, the new plan "needs fewer cards / costs less".
FEWER = 0.9


def _name(lang: str, method: str) -> str:
    return NAMES.get(method) or say(lang, f"mcmp.name.{method}")


def as_switch(methods: list[str], current: str | None, has_plan: bool) -> str | None:
    """The method a two-method comparison asks to switch to when a fine-tuning plan is on screen and one of the
    methods is the plan's own ('full instead of qlora'): the other one; None when it is a comparison of its own."""
    if not has_plan or not current or current not in methods:
        return None
    others = [m for m in methods if m != current]
    return others[0] if len(others) == 1 else None


def _same_cards(answer: Any, old: Any) -> Any:
    """The new method on the old plan's cards (same card, same count), when the new plan sized them."""
    rec = answer.recommend
    for o in [*answer.options, *rec.options]:
        if o.gpu == old.gpu and o.gpus == old.gpus:
            return o
    return None


def code_for(old_method: str, new_method: str, old: Any, new: Any, on_old: Any) -> str:
    """The reason code of a method switch (see the module's docstring)."""
    if new_method == "full":
        return "heavier"
    if WEIGHT[new_method] > WEIGHT[old_method]:
        return "lora_from_qlora"
    fewer = new.gpus < old.gpus or (new.job_usd is not None and old.job_usd is not None
                                     and new.job_usd < FEWER * old.job_usd and not old.owned)
    if old_method == "full":
        return "lighter_enough"
    if new.gpu != old.gpu and new.capacity_bytes and old.train_per_gpu_bytes \
            and old.train_per_gpu_bytes * old.gpus > new.capacity_bytes * new.gpus:
        return "smaller_card"  # the old method would not fit the card the user moved to
    if fewer:
        return "fewer_cards"
    return "no_gain"


def method_switch(answer: Any, previous: dict[str, Any], lang: str,
                  head: str = "switch.head", verdict: str | None = None) -> tuple[str, dict[str, Any]] | None:
    """The reasoned comparison of a method switch: (text, data) or None when the turn switched no method. `verdict`:
    the verdict's code when the plan's method was chosen otherwise (assistant.method_fallback), else the switch's."""
    from gpu_advisor.tools.recommend import Option

    old_rec = previous.get("recommend") or {}
    old_method = (old_rec.get("workload") or {}).get("method")
    rec = answer.recommend
    new_method = rec.workload.method
    if old_method not in WEIGHT or new_method not in WEIGHT or old_method == new_method or not old_rec.get("best"):
        return None
    old, new = Option.model_validate(old_rec["best"]), rec.best
    if new is None or not (old.train_per_gpu_bytes and new.train_per_gpu_bytes):
        return None
    on_old = _same_cards(answer, old)
    code = code_for(old_method, new_method, old, new, on_old)
    values = {"new": _name(lang, new_method), "old": _name(lang, old_method), "was": gpu_words(old),
              "this": gpu_words(new), "new_gb": gb(new.train_per_gpu_bytes), "old_gb": gb(old.train_per_gpu_bytes),
              "cap": gb(old.capacity_bytes)}
    data: dict[str, Any] = {"code": code, "from": old_method, "to": new_method, "old_gpus": old.gpus,
                            "new_gpus": new.gpus, "old_gpu": old.gpu, "new_gpu": new.gpu,
                            "old_hours": old.job_hours, "new_hours": new.job_hours}
    memory = _memory(rec.workload, old_method, new_method, old, new)
    data["memory"] = memory
    values.update(mem_x=f"{memory['times']:.1f}", new_total=gb(memory["new_bytes"]), old_total=gb(memory["old_bytes"]))
    if code in MEMORY_CODES:  # like with like: per GPU on the same cards, else each method's total for one run
        side = "same" if round(memory["times"], 1) <= 1.0 else "more" if memory["new_bytes"] > memory["old_bytes"] \
            else "less"
        code_text = say(lang, f"switch.memory.{memory['basis']}.{side}", **values)
    else:
        code_text = say(lang, f"switch.{code}", **values)
    cards_differ = (new.gpu, new.gpus) != (old.gpu, old.gpus)
    figures = []
    compare_on = new  # the new plan, whose own figures stand above it (writers.against_before)
    if code == "no_gain" and on_old is not None and (on_old.gpu, on_old.gpus) != (new.gpu, new.gpus):
        compare_on = on_old  # "why not qlora?": on the cards LoRA already fits
    if compare_on.job_hours is not None and old.job_hours:
        ratio = compare_on.job_hours / old.job_hours
        data["hours_ratio"] = round(ratio, 2)
        key = "switch.hours.more" if ratio > 1.05 else "switch.hours.less" if ratio < 0.95 else "switch.hours.same"
        key += ".abs" if compare_on is not new else ""  # the new plan's own figures stand above (against_before)
        on = say(lang, "switch.on_cards", this=gpu_words(compare_on), was=gpu_words(old)) \
            if compare_on is new and cards_differ else ""  # 8 cards against 1: the hours are the plans', not the method's
        figures.append(say(lang, key, this=hours(compare_on.job_hours), was=hours(old.job_hours),
                           diff=hours(abs(compare_on.job_hours - old.job_hours)), x=f"{max(ratio, 1 / ratio):.1f}") + on)
    if compare_on.job_usd is not None and old.job_usd is not None and not old.owned and not compare_on.owned:
        diff = compare_on.job_usd - old.job_usd
        data["usd_diff"] = round(diff, 2)
        key = "switch.cost.same" if abs(diff) < 0.05 * max(old.job_usd, 0.01) else \
            "switch.cost.more" if diff > 0 else "switch.cost.less"
        key += ".abs" if compare_on is not new else ""
        figures.append(say(lang, key,
                           this=cash(compare_on.job_usd, rec), was=cash(old.job_usd, rec), diff=cash(abs(diff), rec)))
    first = say(lang, head, new=values["new"], old=values["old"]) + code_text
    lines = [say(lang, "sep").join([first, *figures]) + say(lang, "fig.end"), say(lang, f"switch.why.{code}", **values),
             say(lang, f"switch.verdict.{verdict or code}", **values)]
    return "\n\n".join(lines), {**data, **({"verdict": verdict} if verdict else {})}


# The codes whose sentence is the memory of the two methods (the others name cards and per-GPU figures themselves).
MEMORY_CODES = ("lighter_enough", "heavier", "lora_from_qlora")


def _memory(w: Any, old_method: str, new_method: str, old: Any, new: Any) -> dict[str, Any]:
    """The two methods' memory on the same basis: per GPU when both plans use the same cards (same card, same
    count); otherwise each method's total for one run of the same model at the same sequence length, on one card
    before sharding (tools.training_memory), so 8 cards' share never stands against one card's whole."""
    from gpu_advisor.tools.recommend import training_setup
    from gpu_advisor.tools.training import training_memory

    if (old.gpu, old.gpus) == (new.gpu, new.gpus):
        a, b, basis = old.train_per_gpu_bytes, new.train_per_gpu_bytes, "per_gpu"
    else:
        a = training_memory(training_setup(w.model_copy(update={"method": old_method}), 1, new.gpu)).per_gpu_total_bytes
        b = training_memory(training_setup(w.model_copy(update={"method": new_method}), 1, new.gpu)).per_gpu_total_bytes
        basis = "total"
    return {"basis": basis, "old_bytes": a, "new_bytes": b, "times": max(a, b) / min(a, b)}


def _other_caveats(w: Any, best: Any, lang: str) -> list[str]:
    """What the other method's plan asks beyond its cards (review s29: a full fine-tune on 16 A6000 at 49.3 of 51.0 GB
    each, beside a LoRA run on one server's 8): at the edge of memory (tools.train_margin: no room for what a run uses
    beyond its estimate, so CPU offload or more cards in practice), and on your cards across servers, the fast network
    it needs between them (the plan's own run stays on one server without it)."""
    from gpu_advisor.tools.recommend import NODE_GPUS
    from gpu_advisor.tools.train_margin import roomy

    said: list[str] = []
    used, cap = best.train_per_gpu_bytes or 0, best.capacity_bytes or 0
    if used and cap and not roomy(used, cap, best.gpus):
        said.append(say(lang, "switch.other_edge", share=f"{used / cap:.0%}", cap=gb(cap)))
    per = (w.server_gpus if w is not None else None) or NODE_GPUS
    if best.owned and best.gpus > per and (w is None or w.network != "fast"):
        said.append(say(lang, "switch.other_servers", servers=str(-(-best.gpus // per))))
    return said


def weighed(answer: Any, filled: Any, other: str, lang: str, recorder: Any = None,
            verdict: str | None = None) -> tuple[str, dict[str, Any]] | None:
    """Two methods weighed in one message ('full finetune vs lora …, which one and what hardware'): the other
    method's plan for the same job (advice.compute), its cards, then the switch's reason and verdict from the
    other method to the planned one."""
    from gpu_advisor.assistant import advice
    from gpu_advisor.tools.common import ToolError

    try:
        alt = advice.compute(filled.model_copy(update={"method": other}), None, [], None, recorder=recorder)
    except (ToolError, LookupError, ValueError):
        return None
    best = alt.recommend.best
    if best is None:
        return None
    said = method_switch(answer, {"recommend": alt.recommend.model_dump(mode="json")}, lang, "switch.head_weighed",
                         verdict)
    if said is None:
        return None
    used = best.train_per_gpu_bytes or 0
    line = say(lang, "switch.other_plan", name=_name(lang, other), cards=gpu_words(best), gb=gb(used),
               hours=hours(best.job_hours or 0)) + (say(lang, "switch.other_cost", cost=cash(best.job_usd, alt.recommend))
                                                    if best.job_usd is not None and not best.owned else "")
    line += "".join(_other_caveats(alt.recommend.workload, best, lang))
    return line + say(lang, "fig.end") + "\n\n" + said[0], {**said[1], "weighed": True}


def model_moved(answer: Any, previous: dict[str, Any], lang: str, filled: Any,
                recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """The method and the model changed in one turn ('ok what about qlora on 70b then' after a full fine-tune of
    8B): what moved, said first, then the old method sized for the new model beside the new plan (weighed), so no
    figure compares one model's run with another's. None when the model did not move or no method switched."""
    from gpu_advisor.assistant.writers import model_words
    from gpu_advisor.tools.models import resolve_model

    old_w = (previous.get("recommend") or {}).get("workload") or {}
    new_w = answer.recommend.workload
    old_method, old_model = old_w.get("method"), old_w.get("model")
    if not old_model or old_model == new_w.model or old_method not in WEIGHT or new_w.method not in WEIGHT \
            or old_method == new_w.method:
        return None
    head = say(lang, "switch.model_moved", old_model=model_words(resolve_model(str(old_model)).name, lang),
               new_model=model_words(resolve_model(new_w.model).name, lang), old=_name(lang, old_method), new=_name(lang, new_w.method))
    both = weighed(answer, filled, old_method, lang, recorder)
    data = {"code": "model_moved", "from": old_method, "to": new_w.method, "old_model": old_model,
            "new_model": new_w.model}
    if both is None:
        return head, data
    return head + "\n\n" + both[0], {**both[1], **data}
