"""A direct follow-up about one setup of cards after a plan ('would a single h100 do it', 'why not a couple of
h100s', 'what about just one A100', '8张够吗', '换成2张H100呢', '那如果加到4张3090呢'): the answer for exactly that
setup, first, as a verdict code with its figures (review Q1 #7, #13; Q3 C01):

- `direct.yes` / `direct.no`: the setup sized at the same load and targets (tools.recommend's option at that
  count), with what it misses (memory, end-to-end time, first token, speed per user, budget, deadline);
- `direct.fewest`: the fewest of that card that meet it when that is another count (more, or fewer: '4 B200s seems
  like a lot' is answered with the one that does it), or `direct.none` when no count tried does;
- `direct.holds`: serving, how many people one such card carries at once within the targets (tools.capacity).

The figures come from the tools (every call recorded); the writers put them in the user's language. When the
follow-up moved nothing in the plan, the reply is this answer and one line naming the plan, not the plan again."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say, sentence_gap
from gpu_advisor.assistant.writers import gb, hours, seconds, tps
from gpu_advisor.tools.recommend import Option, Recommendation

# The counts tried for the fewest of a card that meet the job, before a layout beyond one server (tools.scale).
COUNTS = (1, 2, 4, 8)


def asked_setup(turn: Any, previous: dict[str, Any]) -> tuple[int, str] | None:
    """The setup a follow-up asks about (count, card id): a card with its count, after a plan; None otherwise
    (a card added beside the user's own is answered by writers.tried_added)."""
    if not previous.get("recommend") or not turn.whatif or turn.ask.get("added"):
        return None
    return int(turn.whatif[0]), str(turn.whatif[1])


def _row(rec: Recommendation, options: list[Option], setup: tuple[int, str]) -> Option | None:
    count, gpu = setup
    best = rec.best
    if best is not None and (best.gpus, best.gpu) == (count, gpu) and not best.owned:
        return best
    return next((o for o in options if (o.gpus, o.gpu) == (count, gpu) and not o.owned), None)


def _missed(o: Option, w: Any) -> str | None:
    """What the setup misses first, as a code; None when it does the job."""
    if o.serves is False or o.trains is False:
        return "memory"
    for key in ("e2e", "latency", "deadline", "budget"):
        if o.meets.get(key) is False and key == "latency":  # the first token late, else a per-token target missed
            late = w.ttft_ms is not None and o.ttft_s is not None and o.ttft_s * 1000 > w.ttft_ms
            return "latency" if late else "speed"
        if o.meets.get(key) is False:
            return key
    if w.spec.serves and not w.spec.trains and o.decode_tokens_per_s is not None \
            and o.decode_tokens_per_s < w.speed_floor:
        return "speed"
    return None if o.ok else "other"


def _figures(o: Option, w: Any, lang: str) -> str:
    """The setup's figures that decide it: memory per GPU; per-user speed, end-to-end time or first token against
    the targets said; a training run's hours."""
    sep = say(lang, "sep")
    used = o.serve_per_gpu_bytes if (w.spec.serves or w.spec.batch) and not w.spec.trains else o.train_per_gpu_bytes
    items = []
    if w.spec.serves and w.spec.trains and o.serve_per_gpu_bytes and o.train_per_gpu_bytes:  # both jobs on the cards
        items.append(say(lang, "direct.fig.memory_both", train=gb(o.train_per_gpu_bytes),
                         serve=gb(o.serve_per_gpu_bytes), capacity=gb(o.capacity_bytes)))
    elif used:
        items.append(say(lang, "direct.fig.memory", used=gb(used), capacity=gb(o.capacity_bytes)))
    if w.spec.serves and o.serves is not False:
        if o.decode_tokens_per_s:
            target = w.target_speed
            items.append(say(lang, "direct.fig.speed_target" if target else "direct.fig.speed",
                             tps=tps(o.decode_tokens_per_s), target=tps(target or 0)))
        if w.e2e_ms is not None and o.e2e_s is not None:
            items.append(say(lang, "direct.fig.e2e", e2e=seconds(o.e2e_s), output=f"{o.e2e_output_tokens or 0:,}",
                             target=seconds(w.e2e_ms / 1000)))
        elif w.ttft_ms is not None and o.ttft_s is not None:
            items.append(say(lang, "direct.fig.ttft", ttft=seconds(o.ttft_s), target=seconds(w.ttft_ms / 1000)))
    if w.spec.trains and o.trains is not False and o.job_hours:
        items.append(say(lang, "direct.fig.hours", hours=hours(o.job_hours)))
    elif w.spec.batch and o.job_hours:  # a batch job: its hours, against the deadline when one was said
        items.append(say(lang, "direct.fig.batch_hours", hours=hours(o.job_hours)))
    return sep.join(items)


def _load(w: Any, lang: str) -> str:
    if w.spec.serves:
        return say(lang, "direct.load.users", users=f"{w.users:,}")
    return say(lang, "direct.load.job")


def _sized(rec: Recommendation) -> Any:
    """The plan's workload in the format it was relaxed to; a relaxation that is no format ('qlora-unsloth', a method
    or a model given up for the plan) leaves the format as it was."""
    from gpu_advisor.knowledge import NotFound, find_precision

    w = rec.workload
    if not rec.relaxed:
        return w
    try:
        find_precision(rec.relaxed)
    except (NotFound, ValueError):
        return w
    return w.model_copy(update={"serve_precision": rec.relaxed})


def _call(recorder: Any, tool: str, args: dict[str, Any], fn: Any) -> Any:
    out = fn()
    if recorder is not None:
        recorder(tool, args, out.model_dump(mode="json") if out is not None else None, 0.0)
    return out


def fewest(rec: Recommendation, gpu_id: str, recorder: Any = None) -> Option | None:
    """The fewest of a card that meet every requirement of the plan's job (1, 2, 4, 8 cards, then a layout beyond
    one server), or None when none tried does."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate, one_machine, scaled_option

    w, gpu = _sized(rec), find_gpu(gpu_id)
    inputs = w.model_dump(mode="json")
    if w.requests_per_s and w.spec.serves and not w.spec.trains:
        # a request rate: sized as the plan was (Little's law and the queueing model, on that card alone), never the
        # requests in flight held in memory alone ('3 x 4090 meet it' at 10 requests/s that need 10: review T1 #14)
        from gpu_advisor.tools.recommend import recommend

        one = w.model_copy(update={"candidates": [gpu_id], "owned": []})
        r = _call(recorder, "recommend", one.model_dump(mode="json"), lambda: recommend(one, with_levers=False))
        return r.best if r.best is not None and r.best.gpu == gpu_id and r.best.ok else None
    counts = (1,) if one_machine(gpu) else COUNTS
    for n in counts:
        o = _call(recorder, "evaluate_option", {"workload": inputs, "gpu": gpu_id, "gpus": n},
                  lambda n=n: evaluate(w, gpu, n))
        if o is not None and o.ok:
            return o
    if one_machine(gpu) or not w.spec.serves or w.spec.trains:
        return None
    o = _call(recorder, "scaled_option", {"workload": inputs, "gpu": gpu_id}, lambda: scaled_option(w, gpu))
    return o if o is not None and o.ok else None


def direct_answer(rec: Recommendation, options: list[Option], setup: tuple[int, str], lang: str,
                  recorder: Any = None, why_not: bool = False) -> tuple[str, dict[str, Any]] | None:
    """The answer for the setup asked: yes or no at the plan's load, the fewest of that card that do it, and (serving)
    the people one such card carries within the targets. None when the setup was not sized. why_not: asked as
    'why not …?', so the verdict says it would work or falls short rather than yes or no."""
    row = _row(rec, options, setup)
    w = rec.workload
    if row is None or w is None:
        return None
    which = f"{row.gpus} × {row.gpu_name}"
    missed = _missed(row, w)
    figures = _figures(row, w, lang)
    # "why not 2 x H100?": it would work (and what it costs against the plan), or what it misses
    flavour = "_why" if why_not else "_train" if w.spec.trains and not w.spec.serves else ""
    key = ("direct.yes" if missed is None else "direct.no") + flavour
    lines = [say(lang, key, setup=which, load=_load(w, lang), why=say(lang, f"direct.why.{missed or 'other'}"),
                 figures=figures)]
    data: dict[str, Any] = {"code": "meets" if missed is None else "short", "gpu": row.gpu, "gpus": row.gpus,
                            "missed": missed, "plan": bool(rec.best is row)}
    low = fewest(rec, row.gpu, recorder)
    if low is not None:
        data["fewest_option"] = low.model_dump(mode="json")
    if low is not None and low.gpus != row.gpus:
        lines.append(say(lang, "direct.fewest", setup=f"{low.gpus} × {low.gpu_name}", figures=_figures(low, w, lang)))
        data["fewest"] = low.gpus
    elif low is not None and row.gpus > 1:  # '4 b200s seems like a lot': none of the fewer counts tried does
        tried = [str(n) for n in COUNTS if n < row.gpus]
        lines.append(say(lang, "direct.no_fewer", setup=which, gpu=row.gpu_name, counts=say(lang, "list_sep").join(tried)))
        data["fewest"] = low.gpus
    elif low is None and missed is not None:
        lines.append(say(lang, "direct.none", gpu=row.gpu_name))
        data["fewest"] = None
    if missed == "memory":  # a full fine-tune just short: ZeRO-3 with the optimizer in CPU memory on those cards
        lines += _offload_line(w, row, lang)
    price = _price_line(rec, row, lang)
    if price:  # "why not a couple of h100s" for a buy plan: 2 H100 SXM come only as a whole 8-card server
        lines.append(price[0])
        data.update(price[1])
    cheaper = _cheaper_kept(rec, row, lang) if missed is None else None
    if cheaper:  # 'why not 4 5090s, aren't they cheaper': what keeps the plan ahead, or that this one is the better buy
        lines.append(cheaper[0])
        data.update(cheaper[1])
    if missed == "budget":  # 'can we do it on H100s and stay under the 15k?': its month against the budget, and a way
        budget = _budget_lines(rec, row, lang, recorder)
        lines += budget[0]
        data.update(budget[1])
    if w.spec.serves and not w.spec.trains and (missed is not None or data["plan"]):  # no, or doubt on the plan
        held = _one_holds(w, rec, row.gpu, recorder)
        if held is not None:
            lines.append(say(lang, "direct.holds" if held[0] else "direct.holds_none", gpu=row.gpu_name,
                             held=f"{held[0]:,}", tps=tps(held[1]), precision=held[2].upper()))
            data["one_card_users"], data["one_card_tokens_per_s"] = held[0], held[1]
    return sentence_gap(lang).join(lines), data


def _price_line(rec: Recommendation, row: Option, lang: str) -> tuple[str, dict[str, Any]] | None:
    """What the setup costs against the plan, the way the plan is paid for: bought (the whole server when the
    card is sold only in servers), else rented by the hour. None for the plan itself or with no price on record."""
    from gpu_advisor.assistant.writers import cash

    best = rec.best
    if best is None or best is row or best.owned or any(row.gpu in c for c in rec.workload.owned):
        return None  # more of a card of their own ('加到4张3090'): what they have, not a rental
    if rec.action == "buy" and row.purchase_usd and best.purchase_usd:
        unit = say(lang, "direct.sold_in", n=row.sold_in) if row.sold_in > row.gpus else ""
        used = [say(lang, "table.used") if o.used_price else "" for o in (row, best)]  # a used card said as used
        return say(lang, "direct.price_buy", price=cash(row.purchase_usd, rec) + used[0], unit=unit,
                   plan_price=cash(best.purchase_usd, rec) + used[1], plan=f"{best.gpus} × {best.gpu_name}"), \
            {"purchase_usd": row.purchase_usd, "plan_purchase_usd": best.purchase_usd}
    if rec.workload.spec.trains and row.job_usd and best.job_usd:  # a training run: what a run costs, not an hour
        return say(lang, "direct.price_run", price=cash(row.job_usd, rec), plan_price=cash(best.job_usd, rec),
                   plan=f"{best.gpus} × {best.gpu_name}"), {"job_usd": row.job_usd, "plan_job_usd": best.job_usd}
    if row.usd_per_hour and best.usd_per_hour:
        return say(lang, "direct.price_rent", price=cash(row.usd_per_hour, rec),
                   plan_price=cash(best.usd_per_hour, rec), plan=f"{best.gpus} × {best.gpu_name}"), \
            {"usd_per_hour": row.usd_per_hour, "plan_usd_per_hour": best.usd_per_hour}
    return None


def _cheaper_kept(rec: Recommendation, row: Option, lang: str) -> tuple[str, dict[str, Any]] | None:
    """A setup that does the job for less than the plan (paid the way the plan is): the real reason the plan stays
    ahead (assistant.cheaper_why: its market, a split over PCIe, little memory to spare), or, with none on record,
    that it is the better buy (review CG #7: 'why not 4 5090s, aren't they cheaper' agreed and kept 8 x 3090)."""
    from gpu_advisor.assistant.cheaper_why import paid_key, why_codes, why_words

    best = rec.best
    if best is None or best is row or best.owned:
        return None
    key = paid_key(rec)
    mine, theirs = getattr(best, key), getattr(row, key)
    if not mine or not theirs or theirs >= mine:
        return None
    codes = why_codes(rec, row)
    if codes:
        return say(lang, "direct.cheaper_kept", why=say(lang, "sep").join(why_words(codes, row, lang))), \
            {"cheaper": True, "kept_because": codes}
    return say(lang, "direct.cheaper_take", setup=f"{row.gpus} × {row.gpu_name}"), {"cheaper": True, "kept_because": []}


# The changes tried, in order, to bring a card over a monthly budget within it (each sized by tools.recommend on that
# card alone): prompts half as long (the first token and the prefill of every request), then 4-bit weights.
BUDGET_WAYS = ("prompt_half", "int4")


def _budget_lines(rec: Recommendation, row: Option, lang: str, recorder: Any = None) -> tuple[list[str], dict[str, Any]]:
    """A setup over a monthly budget: what it costs a month against the budget, then the first change that brings
    that card within it (BUDGET_WAYS, sized by tools.recommend on that card alone), or that none tried does."""
    from gpu_advisor.assistant.writers import cash
    from gpu_advisor.tools.recommend import recommend

    w = rec.workload
    month, budget = row.billed_usd_per_month, w.budget_usd_per_month
    if month is None or budget is None or not w.spec.serves or w.spec.trains:
        return [], {}
    lines = [say(lang, "direct.budget_month", setup=f"{row.gpus} × {row.gpu_name}", month=cash(month, rec),
                 budget=cash(budget, rec))]
    data: dict[str, Any] = {"usd_per_month": month, "budget_usd_per_month": budget, "way": None}
    prompt = rec.traffic.prompt_tokens if rec.traffic is not None else w.prompt_tokens
    for way in BUDGET_WAYS:
        if way == "prompt_half" and not prompt:
            continue
        update = {"prompt_tokens": max(1, (prompt or 0) // 2)} if way == "prompt_half" else {"serve_precision": "int4"}
        one = w.model_copy(update={"candidates": [row.gpu], "owned": [], **update})
        r = _call(recorder, "recommend", one.model_dump(mode="json"), lambda one=one: recommend(one, with_levers=False))
        o = r.best
        if o is None or o.gpu != row.gpu or not o.ok or o.billed_usd_per_month is None:
            continue
        change = say(lang, "direct.budget_way." + way, prompt=f"{update.get('prompt_tokens', 0):,}")
        lines.append(say(lang, "direct.budget_way", change=change, setup=f"{o.gpus} × {o.gpu_name}",
                         month=cash(o.billed_usd_per_month, rec)))
        data["way"] = {"change": way, "gpus": o.gpus, "usd_per_month": o.billed_usd_per_month}
        break
    else:
        lines.append(say(lang, "direct.budget_no_way", gpu=row.gpu_name, prompt=f"{max(1, (prompt or 0) // 2):,}"))
    return lines, data


def _one_holds(w: Any, rec: Recommendation, gpu_id: str, recorder: Any = None) -> tuple[int, float, str] | None:
    """How many people one card of it carries at once within the plan's targets, and their speed each."""
    from gpu_advisor.tools.capacity import capacity

    c = _call(recorder, "capacity", {"workload": w.model_dump(mode="json"), "gpu": gpu_id, "gpus": 1,
                                     "precision": rec.relaxed},
              lambda: capacity(w, gpu_id, 1, precision=rec.relaxed))
    if c is None:
        return None
    at = c.at_limit
    return c.users, (at.decode_tokens_per_s or 0.0) if at else 0.0, str((at.precision if at else None) or "")


def plan_kept(rec: Recommendation, lang: str) -> str:
    """'_The plan is unchanged: 4 × NVIDIA B200 (HGX)._': the one line that stands for the plan after the answer."""
    best = rec.best
    if best is None:
        return ""
    return say(lang, "direct.plan", plan=f"{best.gpus} × {best.gpu_name}")


def _offload_line(w: Any, row: Option, lang: str) -> list[str]:
    """A full fine-tune the cards asked about cannot hold as planned: DeepSpeed ZeRO-3 with the optimizer (FP32 master,
    Adam states, gradients) in CPU memory on the same cards, with the GPU memory it leaves, the system RAM it takes
    and the slower run (tools.zero_offload), instead of a flat no (review BJ #9: 4 x A100 40GB for Llama 3 8B)."""
    from gpu_advisor.tools.zero_offload import zero_offload_plan

    if not (w.spec.trains and not w.spec.pretrains and w.method == "full") or row.trains is not False:
        return []
    plan = zero_offload_plan(w, row)
    if plan is None or not plan.fits or plan.ram_ok is False:
        return []
    return [say(lang, "direct.zero_offload", setup=f"{row.gpus} × {row.gpu_name}", used=gb(plan.per_gpu_bytes),
                capacity=gb(plan.capacity_bytes), ram=f"{plan.host_bytes_per_server / 1e9:,.0f}",
                low=hours(plan.hours_low), high=hours(plan.hours_high), usual=hours(plan.usual_hours))]
