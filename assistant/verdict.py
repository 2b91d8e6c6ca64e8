"""The verdict that ends a comparison of two cards: which one for the job and why, as typed codes that the writers
turn into a sentence per language (catalog keys verdict.*).

The job is the one the question states (u.ask["job"]: local, train or serve, read by reading/compare_job.py), else the
conversation's phase, else the usual one (running a model: memory first). Each job weighs the card figures in its own
order (JOB_ORDER): the first figure on which the cards differ decides. Where the conversation has a sized workload the
sized options decide instead: the one that does the job, else the cheaper for it, else the faster. What fits on one card
of each comes from the fit tool (tools.fit) on a ladder of model sizes, so "memory decides" is said with the models it
decides. A card said used has its new-card buy price flagged: no used price is on record."""

from __future__ import annotations

from typing import Any

# Card figures by the names the catalogs use for them.
FIGURES = {"memory": "memory_gb", "bandwidth": "memory_bandwidth_gbps", "compute": "bf16_tflops"}
# The order in which a job weighs the figures: running a model wants memory (what fits) then bandwidth (speed of
# each token); training wants memory then compute; serving many users wants bandwidth then memory; a long prompt
# (prefill, the first token) wants compute.
JOB_ORDER = {"local": ("memory", "bandwidth", "compute"), "usual": ("memory", "bandwidth", "compute"),
             "train": ("memory", "compute", "bandwidth"), "serve": ("bandwidth", "memory", "compute"),
             "prefill": ("compute", "bandwidth", "memory"),  # reading a long prompt: the time to first token
             "decode": ("bandwidth", "memory", "compute")}  # writing one user's tokens (assistant/why_slower.py)
# The conversation's phase as a comparison's job.
PHASE_JOB = {"fine-tune": "train", "train": "train", "serve": "serve", "batch": "serve"}
# A ratio closer to 1 than this is "about the same" (as in assistant.inform).
SAME = 1.1
# Two speeds of one job closer than this (or equal as printed) are a tie: "about the same", never "faster: 31 against 31".
SAME_SPEED = 1.05


def even(a: float, b: float, shown: Any = None) -> bool:
    """Whether two speeds (tokens/s, hours) of the same job are about the same: within SAME_SPEED, or equal as
    `shown` prints them."""
    lo, hi = sorted((a, b))
    return (shown is not None and shown(a) == shown(b)) or (lo > 0 and hi / lo < SAME_SPEED) or hi == lo
# Models of rising size the fit tool tries on one card of each: what each card holds, by job.
LADDER = ("qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.3-70b")
# The context a serving fit is tried at, and the sequence length the training tool takes by default (its label says it).
FIT_CONTEXT = 8192
FIT_SEQ_LEN = 2048
# The fits tried per job: (fit tool phase, method or precision); local and usual: 4-bit weights on llama.cpp.
JOB_FITS = {"local": (("serve", "q4_k_m"),), "usual": (("serve", "q4_k_m"),), "serve": (("serve", "int8"),),
            "train": (("train", "full"), ("train", "lora"), ("train", "qlora")), "prefill": (("serve", "int8"),),
            "decode": (("serve", "int8"),)}


def job_of(ctx: Any) -> str:
    """The job the comparison is for: the question's words, else the conversation's phase, else the usual one."""
    said = (getattr(ctx.turn, "ask", None) or {}).get("job")
    return str(said or PHASE_JOB.get(str(ctx.profile.get("phase") or ""), "usual"))


def local_purchase(ctx: Any) -> bool:
    """Cards compared to buy for one's own machine: the question's words say local use, and buying (reading
    compare_job: '4090 和 5090 选哪个，本地跑大模型')."""
    ask = getattr(ctx.turn, "ask", None) or {}
    return ask.get("job") == "local" and ctx.profile.get("preference") == "buy"


def _largest(ctx: Any, gpu_id: str, phase: str, how: str) -> dict[str, Any] | None:
    """The largest ladder model that fits on one card (fit tool), with its figures; None when none does."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.fit import FitInput, fit

    best = None
    for model in LADDER:
        args: dict[str, Any] = {"model": model, "gpu": gpu_id, "phase": phase, "counts": [1]}
        if phase == "train":
            args |= {"method": how, "seq_len": FIT_SEQ_LEN}
        else:  # 4-bit GGUF runs on llama.cpp; 8-bit on the engine the fit tool picks
            args |= {"precision": how, "engine": "llama.cpp" if how == "q4_k_m" else None, "context": FIT_CONTEXT}
        try:
            r = fit(FitInput(**args))
        except (ToolError, LookupError, ValueError):
            continue
        if ctx.recorder is not None:
            ctx.recorder("fit", FitInput(**args).model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
        o = r.options[0]
        if not o.fits:
            break
        best = {"model": r.model, "per_gpu_bytes": o.per_gpu_bytes}
    return best


def fit_lines(ctx: Any, facts: list[dict[str, Any]], job: str) -> tuple[list[str], bool]:
    """What one card of each holds for the job (the fit tool on LADDER), and whether the two differ."""
    lines, differ = [], False
    for phase, how in JOB_FITS[job]:
        held = [_largest(ctx, f["id"], phase, how) for f in facts]
        setting = {"context": FIT_CONTEXT} if phase == "serve" else {"seq_len": FIT_SEQ_LEN}
        ctx.data.setdefault("holds", []).append({"phase": phase, "how": how, **setting,
                                                 "largest": {f["id"]: h for f, h in zip(facts, held, strict=True)}})
        cells = [ctx.say("verdict.holds_up_to", card=f["name"], model=h["model"]) if h else
                 ctx.say("verdict.holds_none", card=f["name"]) for f, h in zip(facts, held, strict=True)]
        differ |= (held[0] or {}).get("model") != (held[1] or {}).get("model")
        lines.append("- " + ctx.say("verdict.fit_line", how=ctx.say(f"verdict.fit.{phase}.{how}"),
                                    cards=ctx.say("verdict.sep").join(cells)))
    return ([ctx.say("verdict.fit_head"), *lines] if lines else []), differ


def _ahead(a: dict[str, Any], b: dict[str, Any], figure: str) -> float:
    key = FIGURES[figure]
    return a[key] / b[key] if b[key] else float("inf")


def card_verdict(facts: list[dict[str, Any]], job: str, memory_decides: bool = True) -> dict[str, Any]:
    """The verdict code for two cards on their figures: the first figure of the job's order on which they differ
    decides; 'same' when none does (then the cheaper to buy or rent). memory_decides False: the fit tool found the
    same largest models on both, so memory is passed over (H20 96 GB against H800 80 GB for training: both hold
    the same models, and the H800's 6.7 times the compute decides)."""
    a, b = facts[0], facts[1]
    for figure in JOB_ORDER[job]:
        if figure == "memory" and not memory_decides:
            continue
        x = _ahead(a, b, figure)
        if x >= SAME or 1 / x >= SAME:
            pick, other = (a, b) if x > 1 else (b, a)
            behind = [f for f in FIGURES if _ahead(other, pick, f) >= SAME]
            return {"code": "figure", "job": job, "pick": pick["id"], "other": other["id"], "figure": figure,
                    "behind": behind}
    return {"code": "same", "job": job, "pick": None, "other": None, "figure": None, "behind": []}


def _price(f: dict[str, Any], kind: str) -> float | None:
    if kind == "buy":
        return f["buy_price_usd"] or None
    return (f["rent"] or {}).get("usd_per_gpu_hour_typical")


def _cheaper(facts: list[dict[str, Any]], job: str) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    """The kind of price (buy for a local job, else rent; the other when one is missing) and the cheaper and dearer
    card on it, or None when neither price is on record for both or they cost about the same; a card priced in
    China at its US list price only (no street price on record) has no buy price to weigh."""
    kinds = ("buy", "rent") if job == "local" else ("rent", "buy")
    for kind in kinds:
        prices = [_price(f, kind) for f in facts]
        if kind == "buy" and any(f.get("list_only") for f in facts):
            continue  # a US list price beside a China street price is no comparison (China price unknown)
        if all(prices):
            lo, hi = sorted(zip(prices, facts, strict=True), key=lambda p: p[0] or 0)
            return (kind, lo[1], hi[1]) if (hi[0] or 0) > SAME * (lo[0] or 0) else None
    return None


def _figure_words(ctx: Any, figure: str, pick: dict[str, Any], other: dict[str, Any]) -> str:
    key = FIGURES[figure]
    return ctx.say(f"verdict.why.{figure}", a=f"{pick[key]:,.0f}", b=f"{other[key]:,.0f}")


def verdict_line(ctx: Any, facts: list[dict[str, Any]], job: str, held_differ: bool, priced: str | None = None) -> str:
    """The verdict on the figures (no sized workload): which card, the figure that decides, and what it gives up;
    the prices weighed are the job's, or `priced`'s ('local': to buy) when given."""
    by_id = {f["id"]: f for f in facts}
    v = card_verdict(facts, job, memory_decides=held_differ or job != "train")
    cheap = _cheaper(facts, priced or job)
    ctx.data["verdict"] = {**v, "cheaper": cheap[1]["id"] if cheap else None, "price_kind": cheap[0] if cheap else None}
    head = ctx.say("verdict.head", job=ctx.say(f"verdict.job.{job}"))
    gap = "" if ctx.lang == "zh" else " "  # between sentences
    if v["code"] == "same":
        if cheap:
            return head + gap + ctx.say("verdict.same_cheaper", card=cheap[1]["name"])
        return head + gap + ctx.say("verdict.same")
    pick, other = by_id[v["pick"]], by_id[v["other"]]
    why = _figure_words(ctx, v["figure"], pick, other)
    if v["figure"] == "memory" and held_differ:
        why += ctx.say("verdict.why.holds_more")
    parts = [head + gap + ctx.say("verdict.pick", card=pick["name"], why=why)]
    if not v["behind"]:
        parts.append(ctx.say("verdict.ahead_all"))
    else:
        parts.append(ctx.say("verdict.gives_up", other=other["name"],
                             figures=ctx.say("verdict.and").join(ctx.say(f"verdict.figure.{f}") for f in v["behind"])))
    if cheap and cheap[1]["id"] == other["id"]:
        lo, hi = _price(cheap[1], cheap[0]) or 0, _price(cheap[2], cheap[0]) or 0
        used = cheap[0] == "buy" and pick["id"] in ((getattr(ctx.turn, "ask", None) or {}).get("used") or []) and not (
            pick.get("used_price"))  # priced used already (h-used): no 'its new price' remark
        key = "verdict.unless_price.used" if used else f"verdict.unless_price.{cheap[0]}"  # '二手3090': its new price
        if (getattr(ctx.turn, "ask", None) or {}).get("why"):  # 'why is X slower … just curious': nothing bought
            return gap.join(parts)
        if (getattr(ctx.turn, "ask", None) or {}).get("difference"):  # 'X和Y有啥区别': no prices unless asked
            key = "verdict.unless_price.unpriced"
        parts.append(ctx.say(key, other=other["name"], card=pick["name"], a=ctx.usd(lo), b=ctx.usd(hi)))
    return gap.join(parts)


def pick_among(options: list[dict[str, Any]], costs: dict[str, float], basis: str = "token_full",
               official_first: bool = False) -> dict[str, Any]:
    """Which of the options sized for a workload the verdict picks (the one rule: the plan is put on it too,
    assistant.advice): the only one that does the job; else the cheapest on the basis of what the user pays
    (assistant.value: per run, per month at their load, per token at full load; `costs` by card) by more than SAME,
    a price from few offers counted dearer by the well-sourced spread (never winning by less), and always the lower
    figure as printed (value.clearly_cheaper); else the fastest.
    An option with no price is never weighed on cost. `official_first`, a purchase in China: a card sold there
    through official channels that does the job is picked before one only grey channels sell (the rule the plan
    follows, tools.recommend.china_official_first), whatever the prices. The code: neither, only, official (the one
    officially sold of those that do the job), cheaper, faster (with the unpriced ones), or none; with the basis."""
    from gpu_advisor.assistant.value import clearly_cheaper

    working = [o for o in options if o.get("ok")]
    if not working:
        return {"code": "neither", "pick": None}
    if official_first and len(working) > 1:
        official = [o for o in working if _officially_sold(o["gpu"])]
        if official and len(official) < len(working):
            grey = [o["gpu"] for o in working if o not in official]
            if len(official) == 1:
                return {"code": "official", "pick": official[0]["gpu"], "grey": grey}
            working = official
    clean = [o for o in working if not o.get("avoid")]  # never pick a card the answer warns against (rules.yaml)
    if clean and len(clean) < len(working):
        avoided = [o["gpu"] for o in working if o.get("avoid")]
        if len(clean) == 1:
            return {"code": "clean", "pick": clean[0]["gpu"], "avoided": avoided}
        working = clean
    if len(working) == 1:
        return {"code": "only", "pick": working[0]["gpu"]}
    unpriced = [o["gpu"] for o in working if not o.get("usd_per_hour") and not o.get("job_usd")
                and not (basis == "buy" and o.get("purchase_usd"))]  # bought: the purchase price weighs it
    if not unpriced and all(o["gpu"] in costs for o in working):
        offers = (lambda o: None) if basis == "buy" else (lambda o: o.get("price_offers"))  # rent offers: rent only
        ranked = sorted((costs[o["gpu"]], offers(o), o["gpu"]) for o in working)  # as printed
        met = targets_met(working, basis)  # every latency target said is met by each: speed beyond it is not paid for
        if clearly_cheaper(ranked[0][0], ranked[0][1], ranked[1][0], ranked[1][1], 1.0 if met else SAME):
            return {"code": "cheaper", "basis": basis, "pick": ranked[0][2], "ranked": [g for *_v, g in ranked],
                    "targets": met}
    if len(working) == 2 and (sharper := _sharper(working)):  # '2×3090 or one 4090' at one price: 8-bit over 4-bit
        return {"code": "precision", "basis": basis, "pick": sharper[0]["gpu"], "precision": sharper[0]["precision"],
                "other_precision": sharper[1]["precision"]}
    if all(o.get("decode_tokens_per_s") for o in working) and not _training_apart(working):
        by = sorted(working, key=lambda o: -o["decode_tokens_per_s"])
        figure = "decode_tokens_per_s"
    elif all(o.get("job_hours") for o in working):
        by = sorted(working, key=lambda o: o["job_hours"])
        figure = "job_hours"
    else:
        return {"code": "none", "pick": None}
    fast = by[0]
    speed = "same" if even(by[0][figure], by[1][figure], round) else "faster"  # 31 against 31 tokens/s: a tie
    return {"code": "faster", "pick": fast["gpu"], "unpriced": unpriced, "basis": basis, "speed": speed,
            "figure": figure, "figures": [by[0][figure], by[1][figure]]}


def targets_met(working: list[dict[str, Any]], basis: str) -> bool:
    """A service at a known load (basis month) with a latency target said, which every option weighed meets: the
    user pays for the targets, not for speed beyond them, so any cost difference as printed decides (20 x H200 at
    $64,970 a month over 24 x H100 at $69,905 for p99 first token under 800 ms at 40 requests/s, review CK #3),
    never 'about the same cost, and faster'."""
    meets = [o.get("meets") or {} for o in working]
    return basis == "month" and bool(meets) and all(m.get("latency") and all(m.values()) for m in meets)


def _sharper(working: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Two options at about the same cost serving the model at different widths (two used 3090s run a 32B model in
    8-bit, one 4090 only in 4-bit): the wider one and the other, since the answers are better whatever the speed (a
    speed target the narrower one alone meets has already made the other not ok)."""
    from gpu_advisor.knowledge.resolve import weight_bits as _bits

    if not all(o.get("precision") for o in working):
        return None
    wide, narrow = sorted(working, key=lambda o: -_bits(o["precision"]))
    return (wide, narrow) if _bits(wide["precision"]) >= 1.5 * _bits(narrow["precision"]) else None


def _officially_sold(gpu_id: str) -> bool:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.china_channel import officially_sold

    return officially_sold(find_gpu(gpu_id))


def _training_apart(working: list[dict[str, Any]]) -> bool:
    """Fine-tune, then serve: the cards' training times set further apart than their decoding speeds (2.6 h against
    6.1 h a run, 46 against 48 tokens/s: the 4090 is the faster one for the job, review WB C7)."""
    if not all(o.get("job_hours") for o in working):
        return False
    tps = sorted(o["decode_tokens_per_s"] for o in working)
    hours = sorted(o["job_hours"] for o in working)
    return hours[-1] / hours[0] > tps[-1] / tps[0]


def sized_verdict(ctx: Any) -> str | None:
    """The verdict on the cards sized for the conversation's workload (ctx.data["options"], from
    assistant.inform._job_lines), among those named only (pick_among); an option with no price on record is said to
    be unweighed on cost, never 'about the same cost'. Two options keep their 'both' wording; three or more say
    'of the N'."""
    options = ctx.data.get("options") or []
    if len(options) < 2:
        return None
    value = ctx.data.get("value") or {}
    v = pick_among(options, value.get("costs") or {}, value.get("basis") or "token_full",
                   official_first=ctx.profile.get("region") == "china" and value.get("basis") == "buy")
    if v["code"] == "none":
        return None
    ctx.data["verdict"] = v
    gap = "" if ctx.lang == "zh" else " "  # between sentences
    head = ctx.say("verdict.head", job=ctx.say("verdict.job.yours")) + gap
    names = {o["gpu"]: o["gpu_name"] for o in options}
    n = len([o for o in options if o.get("ok")])
    many = "_many" if n > 2 else ""
    if v["code"] == "neither":
        return head + ctx.say("verdict.neither")
    if v["code"] == "official":  # a purchase in China: the card sold officially, the grey one said as such
        grey = ctx.say("verdict.and").join(names[g] for g in v["grey"])
        return head + ctx.say("verdict.official", card=names[v["pick"]], grey=grey)
    if v["code"] == "clean":  # '300并发的API，H20还是4090': the consumer card does it too, but is warned against
        return head + ctx.say("zh1pick.clean", card=names[v["pick"]],
                              avoided=ctx.say("verdict.and").join(names[g] for g in v["avoided"]))
    if v["code"] == "only":
        o = next(o for o in options if o["gpu"] == v["pick"])
        if ctx.profile.get("preference") == "buy" and o.get("purchase_usd") and len(options) == 2:
            # '预算10万买机器…买4090还是L20好': the cards that do it, how many, and what buying them costs
            return head + ctx.say("verdict.only_buy", card=names[v["pick"]], count=o["gpus"],
                                  price=ctx.usd(o["purchase_usd"]))
        return head + ctx.say("verdict.only" + ("_many" if len(options) > 2 else ""), card=names[v["pick"]],
                              n=len(options))
    basis = ctx.say(f"verdict.basis.{v['basis']}")
    if v["code"] == "cheaper":  # the basis is named: per run, a month at your load, per token at full load
        key = "verdict.cheaper_targets" if v.get("targets") else "verdict.cheaper"  # 'at the same targets'
        return head + ctx.say(key + many, card=names[v["pick"]], n=n, basis=basis)
    if v["code"] == "precision":
        return head + ctx.say("verdict.precision", card=names[v["pick"]], basis=basis, fmt=v["precision"],
                              other=v["other_precision"])
    from gpu_advisor.assistant.even_unpriced import even_unpriced

    if v["unpriced"] and (even := even_unpriced(ctx, v, options)):  # the same speed, no price: it is the quote
        return head + even
    if v["unpriced"]:  # '昇腾910B和H20哪个划算' with no 910B price on record: the cost is not weighed, and that is said
        cards = ctx.say("verdict.and").join(names[g] for g in v["unpriced"])
        return head + ctx.say("verdict.faster_unpriced", card=names[v["pick"]], unpriced=cards)
    if v.get("speed") == "same":  # the same cost and the same speed: either does, said as a tie (the plan's card named)
        return head + ctx.say("verdict.even" + many, card=names[v["pick"]], n=n, basis=basis)
    return head + ctx.say("verdict.faster" + many, card=names[v["pick"]], n=n, basis=basis)


def used_note(ctx: Any, facts: list[dict[str, Any]]) -> list[str]:
    """A card said used ('used 3090', '二手3090') whose buy price is shown: that price is a new card's."""
    used = set((getattr(ctx.turn, "ask", None) or {}).get("used") or [])
    named = [f for f in facts if f["id"] in used and f["buy_price_usd"] and not f.get("used_price")]
    ctx.data["used"] = [f["id"] for f in named]
    return [ctx.say("verdict.used_price", card=f["name"], price=ctx.usd(f["buy_price_usd"])) for f in named]
