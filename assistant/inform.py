"""Replies to questions that size no workload: two cards side by side, serving engines, prices and
stock, forecasts, a model's quality, jobs the tools do not size, rent or buy at prices the user gave.

Each reply is built from an intent code (assistant/reading/intents.py QUESTIONS) and what the question
is about (the turn's cards, engines, model, kind of job): the facts come from the knowledge data and the
tools (card records, price quotes, `evaluate` for a workload already sized, `rent_vs_buy`), the words
from the language catalogs. Every figure in the text is in the payload returned beside it. Nothing is
sized that the user did not describe: a comparison is sized for a job only when the conversation has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.catalog import localise, say
from gpu_advisor.assistant.like_for_like import same_count, speed_line
from gpu_advisor.assistant.lower_fit import fitting_precision
from gpu_advisor.assistant.server_price import in_currency
from gpu_advisor.assistant.user_price import price_said, user_price
from gpu_advisor.assistant.verdict import even
from gpu_advisor.assistant.writers import APP_NAMES, _break_even, hours, money, pct, seconds, tps
from gpu_advisor.knowledge import engines, find_gpu, find_model, rules
from gpu_advisor.knowledge.schema import Engine, Gpu
from gpu_advisor.tools.cost import price_quote
from gpu_advisor.tools.recommend import Option, Recommendation, Workload, evaluate, one_machine

Recorder = Callable[[str, dict[str, Any], dict[str, Any], float], None]

# Engines an engine question is answered about when it names none: the ones people choose between.
USUAL_ENGINES = ("vllm", "sglang", "tensorrt-llm", "llama.cpp")
# Links between cards, by name; the others are described in the catalogs (info.spec.link.*).
LINK_NAMES = {"nvlink": "NVLink", "infinity-fabric": "Infinity Fabric", "hccs": "HCCS"}
# A ratio closer to 1 than this is "about the same".
SAME = 1.1


class Context:
    """What a question's reply may use: the language, the turn, the profile, the last answer."""

    def __init__(self, lang: str, turn: Any, profile: dict[str, Any], results: dict[str, Any],
                 region: str, recorder: Recorder | None = None, local: Callable[[], Any] | None = None) -> None:
        self.lang, self.turn, self.profile, self.results = lang, turn, profile, results
        self.region, self.recorder = region, recorder
        self.local = local  # reads the user's own machine (tools.detect) in a local front-end; None elsewhere
        self.data: dict[str, Any] = {}  # the facts the text shows, for the payload

    def say(self, key: str, **values: Any) -> str:
        return say(self.lang, key, **values)

    @property
    def rec(self) -> Recommendation | None:
        raw = (self.results or {}).get("recommend")
        return Recommendation.model_validate(raw) if raw else None

    def usd(self, amount: float) -> str:
        """Dollars; in China yuan first, the dollars beside them."""
        if self.region != "china":
            return money(amount)
        self.data["usd_per_cny"] = rules().usd_per_cny  # the rate behind the yuan shown
        cny = amount / rules().usd_per_cny
        return (f"¥{cny:,.0f}" if cny >= 100 else f"¥{cny:,.2f}") + f" ({money(amount)})"

    def plan_card(self) -> str | None:
        rec = self.rec
        return rec.best.gpu if rec and rec.best else None


def reply(code: str, ctx: Context) -> str:
    """The reply for one intent code."""
    from gpu_advisor.assistant import (
        asks,
        budget_largest,
        capacity,
        followups,
        framework_choice,
        framework_why,
        largest,
        machine,
        memory_types,
        method_compare,
        moe,
        precisions,
        slow_decode,
        weigh,
    )
    from gpu_advisor.assistant.kv_part import kv_first
    from gpu_advisor.assistant.launch_reply import launch_reply
    from gpu_advisor.assistant.licence import licence_reply
    from gpu_advisor.assistant.prefix_saving import prefix_reply
    from gpu_advisor.assistant.server_rent_buy import server_price

    writer = {"metric": followups.metric, "gpu_hours": followups.gpu_hours, "kv_cache": followups.kv_cache,
              "data_enough": followups.data_enough, "offload": followups.offload, "card_support": followups.card_support, "compare_cards": compare_cards, "engine_choice": engine_choice, "availability": availability,
              "forecast": forecast, "quality": quality, "out_of_scope": out_of_scope, "rent_buy": rent_or_buy,
              "reserve": reserve, "interconnect": asks.interconnect, "formats": asks.formats,
              "parallelism": asks.parallelism, "precision_compare": precisions.precision_compare,
              "framework_why": framework_why.framework_why, "weigh": weigh.weigh,
              "moe_memory": moe.moe_memory, "memory_types": memory_types.memory_types, "slow_decode": slow_decode.slow_decode, "framework_choice": framework_choice.framework_choice,
              "this_machine": machine.this_machine, "capacity": capacity.capacity_reply, "largest": largest.largest_reply,
              "budget_largest": budget_largest.budget_largest_reply,
              "method_compare": method_compare.method_compare, "licence": licence_reply,
              "server_price": server_price, "launch": launch_reply, "prefix_saving": prefix_reply}[code]
    return kv_first(ctx, code, writer(ctx))  # '1) kv cache at 128k? 2) how many users at 32k': the KV part first


# ---------------------------------------------------------------- cards


def _quote(ctx: Context, gpu: Gpu) -> dict[str, Any] | None:
    """The rental quote on record for a card in the conversation's region, as data (None: no offers)."""
    from gpu_advisor.tools.common import ToolError

    try:
        q = price_quote(gpu.id, ctx.region)
    except ToolError:
        return None
    return q.model_dump(mode="json")


def _card_facts(ctx: Context, gpu: Gpu) -> dict[str, Any]:
    facts = {"id": gpu.id, "name": gpu.name, "memory_gb": gpu.memory_gb, "memory_type": gpu.memory_type,
             "memory_bandwidth_gbps": gpu.memory_bandwidth_gbps, "bf16_tflops": gpu.bf16_tflops,
             "fp8_tflops": gpu.fp8_tflops, "interconnect": gpu.interconnect, "nvlink_gbps": gpu.nvlink_gbps,
             "tdp_w": gpu.tdp_w, "buy_price_usd": gpu.buy_price_usd, "sold_in": gpu.sold_in,
             "export_limited": gpu.export_limited, "china_specific": gpu.china_specific, "rent": _quote(ctx, gpu),
             "geforce": gpu.vendor == "nvidia" and gpu.segment == "consumer"}  # FP32-accumulate tensor rate halved
    facts.update(user_price(ctx, gpu))  # the price this user pays: used where said used and on record (h-used)
    ctx.data.setdefault("cards", []).append(facts)
    return facts


def _rent_words(ctx: Context, quote: dict[str, Any] | None) -> str:
    if not quote:
        return ctx.say("info.spec.no_price")
    return ctx.say("info.spec.rent", typical=ctx.usd(quote["usd_per_gpu_hour_typical"]),
                   low=ctx.usd(quote["usd_per_gpu_hour_low"]), high=ctx.usd(quote["usd_per_gpu_hour_high"]),
                   n=quote["samples"], date=quote["as_of"])


def _buy_words(ctx: Context, f: dict[str, Any]) -> str:
    if not f["buy_price_usd"]:
        return ctx.say("info.spec.no_price")
    board = ctx.say("info.spec.board", n=f["sold_in"]) if f["sold_in"] > 1 else ""
    return ctx.usd(f["buy_price_usd"]) + board + price_said(ctx, f)


def _link_words(ctx: Context, f: dict[str, Any]) -> str:
    kind = f["interconnect"]
    name = LINK_NAMES.get(kind) or ctx.say(f"info.spec.link.{kind}")
    return ctx.say("info.spec.link_fast", kind=name, gbps=f"{f['nvlink_gbps']:,.0f}") if f["nvlink_gbps"] else name


def _spec_table(ctx: Context, facts: list[dict[str, Any]]) -> list[str]:
    def row(label: str, cells: list[str]) -> str:
        return "| " + " | ".join([ctx.say(f"info.spec.row.{label}"), *cells]) + " |"

    head = "| | " + " | ".join(f["name"] for f in facts) + " |"
    lines = [head, "|---" * (len(facts) + 1) + "|",
             row("memory", [f"{f['memory_gb']:g} GB {f['memory_type'].upper()}" for f in facts]),
             row("bandwidth", [f"{f['memory_bandwidth_gbps']:,.0f} GB/s" for f in facts]),
             row("bf16", [f"{f['bf16_tflops']:,.0f} TFLOPS" for f in facts]),
             row("fp8", [f"{f['fp8_tflops']:,.0f} TFLOPS" if f["fp8_tflops"] else ctx.say("info.spec.no_fp8")
                         for f in facts]),
             row("link", [_link_words(ctx, f) for f in facts]),
             row("power", [f"{f['tdp_w']:,.0f} W" for f in facts])]
    if (getattr(ctx.turn, "ask", None) or {}).get("why"):  # 'why is X slower … just curious': the figures alone
        return lines
    if (getattr(ctx.turn, "ask", None) or {}).get("difference"):  # 'X和Y有啥区别': where each may be sold, no prices
        from gpu_advisor.assistant.card_diff import market_cell

        return [*lines, row("market", [market_cell(ctx, f["id"]) for f in facts])]
    return [*lines, row("buy", [_buy_words(ctx, f) for f in facts]),
            row("rent", [_rent_words(ctx, f["rent"]) for f in facts])]


def _ratio(a: float, b: float) -> float:
    return round(a / b, 1)


def _what_differs(ctx: Context, facts: list[dict[str, Any]]) -> list[str]:
    """What the figures mean for two cards: bandwidth for one user's decoding speed, compute for training
    and long prompts, memory for what fits."""
    a, b = facts[0], facts[1]
    ratios: dict[str, float] = {}
    lines = []
    for key, label in (("memory_bandwidth_gbps", "decode"), ("bf16_tflops", "compute"), ("memory_gb", "memory")):
        hi, lo = (a, b) if a[key] >= b[key] else (b, a)
        x = _ratio(hi[key], lo[key])
        ratios[label] = x
        if x < SAME:
            lines.append(ctx.say(f"info.compare.{label}_same"))
        else:
            lines.append(ctx.say(f"info.compare.{label}", fast=hi["name"], slow=lo["name"], x=f"{x:g}"))
        if label == "compute" and x >= SAME and lo["geforce"] and not hi["geforce"]:  # '4090 similar TFLOPS on paper?'
            lines.append(ctx.say("info.compare.geforce_rate", card=lo["name"], dense=f"{lo[key]:,.0f}",
                                 printed=f"{2 * lo[key]:,.0f}", sparse=f"{4 * lo[key]:,.0f}"))
    ctx.data["ratios"] = ratios
    return lines


def _workload(ctx: Context) -> tuple[Workload, str | None] | None:
    """The workload of the last answer and the 4-bit format it had to move to, if any."""
    rec = ctx.rec
    inputs = (ctx.results or {}).get("inputs")
    if rec is None or not inputs:
        return None
    return Workload.model_validate(inputs), rec.relaxed


def _sized(ctx: Any, w: Workload, relaxed: str | None, gpu: Gpu, count: int | None,
           owned: bool = False) -> Option | None:
    """One card for the workload: the count said, else the fewest of 1, 2, 4, 8 that do the job; each try recorded
    as a tool call when the context records them."""
    import time

    from gpu_advisor.assistant.advice import only_over_budget

    sized = w.model_copy(update={"serve_precision": relaxed}) if relaxed else w
    found, over = None, None
    for n in ([count] if count else [1] if one_machine(gpu) else [1, 2, 4, 8]):  # a Mac is one machine
        start = time.perf_counter()
        found = evaluate(sized, gpu, n, owned=owned)
        if ctx.recorder is not None:
            args = {"workload": w.model_dump(mode="json"), "gpu": gpu.id, "gpus": n}
            ctx.recorder("evaluate_option", args, found.model_dump(mode="json") if found else {},
                         (time.perf_counter() - start) * 1000)
        if found and found.ok:
            break
        over = over or (found if found and only_over_budget(found) else None)
    if not count and not (found and found.ok) and not over and w.spec.serves and not w.spec.trains:
        # '910B 和 H20 哪个…': none of 1, 2, 4, 8 holds it: the count beyond one server it takes (tools.scale),
        # so a comparison never says only one card can do the job when the other can at more cards
        from gpu_advisor.tools.recommend import scaled_option

        start = time.perf_counter()
        wider = scaled_option(sized, gpu, owned=owned)
        if ctx.recorder is not None:
            ctx.recorder("scaled_option", {"workload": w.model_dump(mode="json"), "gpu": gpu.id},
                         wider.model_dump(mode="json") if wider else {}, (time.perf_counter() - start) * 1000)
        if wider is not None and wider.ok:
            return wider
    # none meets everything: the fewest that do the job but for the budget (2 × H100 over $5k a month, not 8)
    return found if found and found.ok else (over or found)


def said_count(turn: Any, gpu_id: str) -> int | None:
    """The count the user said with a card this turn ('2x 3090': 2, 'one 5090': 1), None when none was said."""
    return turn.counts.get(gpu_id) or (1 if gpu_id in (turn.ask.get("said_one") or []) else None)


def _answered(ctx: Context, gpu_id: str, count: int | None) -> Option | None:
    """The row the answer already sized for a card asked about (assistant.advice: on a rate plan sized for the rate
    and the first-token target, as the plan is), of the count said if one was; None when the answer has none."""
    from gpu_advisor.assistant.choice_rows import rated_plan

    rated = rated_plan(ctx.results)  # a rate plan's row is the card's one sizing, even one that falls short (ZA E9)
    for raw in (ctx.results or {}).get("options") or []:
        if raw.get("gpu") == gpu_id and not raw.get("owned") and (count is None or raw.get("gpus") == count) \
                and (count is not None or ctx.turn.counts or rated or raw.get("serves") is not False) \
                and (count is not None or rated or raw.get("ok")):  # no count said: the count that does the job
            return Option.model_validate(raw)  # (a row that holds no copy of the model: sized at the count it needs)
    return None


def _job_lines(ctx: Context, facts: list[dict[str, Any]]) -> list[str]:
    """Both cards sized for the workload of the last answer, and which is faster for it."""
    from gpu_advisor.assistant.rated_rows import plan_line, rated_row
    from gpu_advisor.assistant.writers import _model_name

    sized = _workload(ctx)
    if sized is None:
        return []
    w, relaxed = sized
    rec = ctx.rec
    assert rec is not None
    options, moved = [], False
    for f in facts:
        n = said_count(ctx.turn, f["id"])  # the counts said with the cards are the options ('or one 5090': one)
        o = _answered(ctx, f["id"], n) or rated_row(ctx.results, w, f["id"], n) \
            or _sized(ctx, w, relaxed, find_gpu(f["id"]), n)
        if o is not None:
            fitted = fitting_precision(w, find_gpu(f["id"]), n, o)
            moved = moved or fitted is not o
            options.append(fitted)
    if not options:
        return []
    ctx.data["options"] = [o.model_dump(mode="json") for o in options]
    ctx.data["model"] = rec.model_name
    job = ctx.say("info.compare.job", phase=say(ctx.lang, f"phase.{w.phase}"), model=_model_name(rec, ctx.lang))
    lines = ["", ctx.say("info.compare.job_head", job=job)]
    serves = w.spec.serves
    for o in options:
        option = f"{o.gpus} × {o.gpu_name}"
        if moved and o.precision:  # a setup said that holds the model at 4-bit only: each at the format that fits it
            option = ctx.say("buy.compare.at", option=option, precision=o.precision)
        fits = ctx.say("info.compare.fits") if o.ok else ctx.say(
            "info.compare.not_fits", why=localise(ctx.lang, o.reasons[0]) if o.reasons else ctx.say("owned.short"))
        price = ctx.say("info.compare.per_hour", usd=ctx.usd(o.usd_per_hour)) if o.usd_per_hour else \
            ctx.say("info.compare.no_price")
        if serves and o.decode_tokens_per_s and (o.ok or o.ttft_s):  # a row that holds no copy: no speeds
            run = ctx.say("info.compare.run_part", hours=hours(o.training_hours)) if o.training_hours else ""
            lines.append("- " + ctx.say("info.compare.job_serve", option=option, fits=fits, tps=tps(o.decode_tokens_per_s),
                                        ttft=seconds(o.ttft_s or 0), price=price) + run)
        elif o.job_hours:
            usd = ctx.usd(o.job_usd) if o.job_usd else ctx.say("info.compare.no_price")
            lines.append("- " + ctx.say("info.compare.job_run", option=option, fits=fits, hours=hours(o.job_hours), usd=usd))
        else:
            lines.append("- " + ctx.say("info.compare.job_other", option=option, fits=fits, price=price))
    working = [o for o in options if o.ok]
    like = same_count(working, lambda g, n: next((o for o in [rec.best, *rec.options] if o is not None and o.gpu == g
                                                  and o.gpus == n and o.ok and not o.owned), None)
                      or _sized(ctx, w, relaxed, find_gpu(g), n)) if serves and len(working) == 2 else None
    if like is not None:  # different counts: the speed like for like, the counts apart (assistant.like_for_like)
        lines.append(speed_line(ctx, like, tps, even))
    elif len(working) >= 2 and serves and all(o.decode_tokens_per_s for o in working):
        fast, slow = sorted(working, key=lambda o: -(o.decode_tokens_per_s or 0))[:2]
        a, b = fast.decode_tokens_per_s or 0, slow.decode_tokens_per_s or 0
        tie = even(a, b, tps)  # "H20 更快：31 对比 31" was a tie said as a win
        ctx.data["speed"] = {"code": "same" if tie else "faster", "figure": "tokens_per_s", "a": a, "b": b,
                             "pick": None if tie else fast.gpu}
        lines.append(ctx.say("info.compare.same_serve" if tie else "info.compare.faster_serve", gpu=fast.gpu_name,
                             other=slow.gpu_name, a=tps(a), b=tps(b)))
    elif len(working) >= 2 and all(o.job_hours for o in working):
        fast, slow = sorted(working, key=lambda o: o.job_hours or 0)[:2]
        a, b = fast.job_hours or 0, slow.job_hours or 0
        tie = even(a, b, hours)
        ctx.data["speed"] = {"code": "same" if tie else "faster", "figure": "hours", "a": a, "b": b,
                             "pick": None if tie else fast.gpu}
        lines.append(ctx.say("info.compare.same_run" if tie else "info.compare.faster_run", gpu=fast.gpu_name,
                             other=slow.gpu_name, a=hours(a), b=hours(b)))
    lines += _cheaper_line(ctx, working, serves, w)
    if not serves:  # "worth ~2x the hourly price?": the cost per run at the ratio said, beside the market's
        from gpu_advisor.assistant.price_ratio import ratio_lines

        lines += ratio_lines(ctx, working)
    stays = plan_line(ctx, working, w)
    if stays is not None:
        lines.append(stays)
    elif rec.best is not None and not (ctx.results or {}).get("rent_buy_said"):  # (the rent-or-buy verdict says it)
        lines.append(ctx.say("info.compare.plan", option=f"{rec.best.gpus} × {rec.best.gpu_name}"))
    return lines


def _cheaper_line(ctx: Context, working: list[Option], serves: bool, w: Any = None) -> list[str]:
    """Which of the cards that do the job costs less for it, on the basis of what the user pays (assistant.value):
    per run for a job that ends; a month at the load said, each at the count that serves it; per million tokens
    at full load when no load was said (and then that is said). A price from few offers ranks dearer by the
    well-sourced spread (assistant.value.marked), as the verdict weighs it."""
    from gpu_advisor.assistant.value import clearly_cheaper, value_costs

    if len(working) < 2 or w is None:
        return []
    value = value_costs(working, w, ctx.recorder)
    ctx.data["value"] = value
    costs, basis = value["costs"], value["basis"]
    if any(o.gpu not in costs for o in working):
        return []
    if basis == "token_full":
        ctx.data["usd_per_million_tokens"] = dict(costs)
    ranked = sorted(working, key=lambda o: costs[o.gpu])  # as printed: the lower figure is the cheaper one
    cheap, dear = ranked[0], ranked[1]
    a, b = costs[cheap.gpu], costs[dear.gpu]
    same = not clearly_cheaper(a, cheap.price_offers, b, dear.price_offers, SAME)
    held = value.get("held") or {}
    if basis == "buy":
        return [ctx.say("buy.compare.same" if same else "buy.compare.cheaper", gpu=cheap.gpu_name, a=ctx.usd(a),
                        b=ctx.usd(b), card_a=f"{cheap.gpus} × {cheap.gpu_name}", card_b=f"{dear.gpus} × {dear.gpu_name}")]
    if basis == "run":
        return [] if same else [ctx.say("info.compare.cheaper_run", gpu=cheap.gpu_name, a=ctx.usd(a), b=ctx.usd(b))]
    if basis == "month":
        key = "info.compare.same_month" if same else "info.compare.cheaper_month"
        return [ctx.say(key, gpu=cheap.gpu_name, a=ctx.usd(a), b=ctx.usd(b))]
    key = "info.compare.same_full" if same else "info.compare.cheaper_full"
    ga, na = held.get(cheap.gpu) or (0, 0)
    gb_, nb = held.get(dear.gpu) or (0, 0)
    return [ctx.say(key, gpu=cheap.gpu_name, a=ctx.usd(a), b=ctx.usd(b), ga=ga, na=f"{na:,}", card_a=cheap.gpu_name,
                    gb=gb_, nb=f"{nb:,}", card_b=dear.gpu_name)]


def compare_cards(ctx: Context) -> str:
    from gpu_advisor.assistant import card_job, verdict, why_slower
    from gpu_advisor.assistant.rb_tradeoff import one_verdict
    from gpu_advisor.assistant.replace_count import replace_lines, replace_verdict
    from gpu_advisor.assistant.verdict_agree import agree

    facts = [_card_facts(ctx, find_gpu(g)) for g in ctx.turn.cards[:4]]
    lines = [*replace_lines(ctx), ctx.say("info.compare.head", cards=say(ctx.lang, "info.and").join(f["name"] for f in facts)), "",
             *_spec_table(ctx, facts), ""]
    if len(facts) >= 2:
        lines += _what_differs(ctx, facts[:2])
    if (getattr(ctx.turn, "ask", None) or {}).get("value") and len(facts) >= 2 and not ctx.profile.get("model"):
        # '哪个跑推理划算' with no model to size on them: the prices divided into bandwidth and compute
        from gpu_advisor.assistant.card_value import value_lines

        return "\n".join([*lines, "", *value_lines(ctx, facts)])
    if (getattr(ctx.turn, "ask", None) or {}).get("export"):  # '…为啥国内买不到H100': the export rules behind them
        from gpu_advisor.assistant.card_diff import export_lines

        lines += ["", *export_lines(ctx, list(ctx.turn.ask["export"]))]
    job = _job_lines(ctx, facts)
    used = verdict.used_note(ctx, facts)
    if job:
        lines += job
        sized = replace_verdict(ctx) or verdict.sized_verdict(ctx)
        options = ctx.data.get("options") or []
        models = card_job.job_models(ctx) if len(facts) >= 2 else []
        held_models, missing = card_job.fit_lines(ctx, facts[:2], models) if models else ([], {})
        if held_models:  # 'used 3090 or new 4070 ti super? llama 3.1 8b and maybe some 30b': each model on one card
            lines += ["", *held_models]
            sized = card_job.verdict(ctx, facts[:2], missing)
        elif verdict.local_purchase(ctx) and len(facts) >= 2 and len(options) >= 2 \
                and all(o.get("ok") and o.get("gpus") == 1 for o in options):
            # cards bought for one's own machine that both do the job sized ('4090 和 5090 选哪个，本地跑大模型+偶尔
            # 微调 7B'): the models each runs at home decide, not a rented run's price (review O2 C15)
            held, differ = verdict.fit_lines(ctx, facts[:2], "local")
            lines += ["", *held]
            sized = ctx.say("verdict.both_do_job") + ("" if ctx.lang == "zh" else " ") + \
                verdict.verdict_line(ctx, facts[:2], "local", differ)
        sized = agree(ctx, sized)  # in line with the headline: all short, or 'neither' beside a plan on one of them
        sized = one_verdict(ctx, sized)  # 'rent A or buy B?': the rent-or-buy verdict above is the one answer
        return "\n".join([*lines, *([""] + used if used else []), *(["", sized] if sized else [])])
    final: list[str] = []
    jobs = (getattr(ctx.turn, "ask", None) or {}).get("jobs")
    why = bool((getattr(ctx.turn, "ask", None) or {}).get("why"))
    if len(facts) >= 2 and jobs:  # 'running models + small finetunes': each part weighed, then one pick for the mix
        from gpu_advisor.assistant import mixed_job

        held, last = mixed_job.lines(ctx, facts[:2], list(jobs))
        lines += ["", *held]
        final = ["", last]
    elif len(facts) >= 2:  # no workload sized: the job said (or the usual one) weighs the figures; the last line says which
        kind = verdict.job_of(ctx)
        said = why_slower.model_lines(ctx, facts[:2]) if why else []  # '… at serving a 70b model': that model on each
        held, differ = (said, True) if said else verdict.fit_lines(ctx, facts[:2], kind)
        lines += ["", *held]
        final = ["", verdict.verdict_line(ctx, facts[:2], kind, differ)]
    lines += [""] + used if used else []
    if why and len(facts) >= 2 and (first := why_slower.lead(ctx, facts[:2])):
        lines = [first, "", *lines]  # 'why is the l40s slower … just curious': the answer first
    elif (ctx.profile.get("phase") or ctx.profile.get("model")) and not why:
        lines += ["", ctx.say("info.compare.later")]
    return "\n".join(lines + final)  # no job yet: the invitation to describe one follows (engine)


# ---------------------------------------------------------------- engines


def _engine(engine_id: str) -> Engine:
    return next(e for e in engines() if e.id == engine_id)


def engine_choice(ctx: Context) -> str:
    """What each engine asked about is for, whether it runs on the card in question (the one named, else
    the plan's), and which of them the sizing models; no engine is ranked on figures it was not measured
    for."""
    named = list(ctx.turn.engines) or list(USUAL_ENGINES)
    card_id = (ctx.turn.cards or [None])[0] or ctx.plan_card() or _one(ctx.profile.get("only")) \
        or _one(ctx.profile.get("owned"))
    gpu = find_gpu(card_id) if card_id else None
    on = ctx.say("info.engine.on", gpu=gpu.name) if gpu else ""
    lines = [ctx.say("info.engine.head", on=on), ""]
    data = []
    for engine_id in named:
        e = _engine(engine_id)
        what = e.for_zh if ctx.lang == "zh" else e.for_en
        runs = ""
        if gpu is not None:
            shown = e.name_on(gpu)
            runs = (ctx.say("info.engine.runs", gpu=gpu.name,
                            shown=ctx.say("info.engine.runs_as", name=shown) if shown and shown != e.name else "")
                    if shown else ctx.say("info.engine.not_runs", gpu=gpu.name))
        if e.sized_as != e.id:
            sized = ctx.say("info.engine.sized_as", other=_engine(e.sized_as).name)
        elif e.speed_as:
            sized = ctx.say("info.engine.speed_as", other=_engine(e.speed_as).name)
        else:
            sized = ctx.say("info.engine.sized_own")
        lines.append(ctx.say("info.engine.line", name=e.name, what=what.strip().rstrip("."), runs=runs, sized=sized))
        data.append({"id": e.id, "runs_on_card": bool(gpu and e.name_on(gpu)) if gpu else None, "sized_as": e.sized_as})
    ctx.data["engines"] = data
    nvidia = gpu is None or gpu.vendor == "nvidia"  # TensorRT-LLM is named only where it runs
    lines += ["", ctx.say("info.engine.choose" if nvidia else "info.engine.choose_other")]
    precision = (ctx.rec.best.precision or "") if ctx.rec and ctx.rec.best else ""  # the plan's weights
    pick = _engine_pick(named, gpu, ctx, precision)
    if len(named) == 1 and (pick is None or pick[0] != named[0]):
        # "is llama.cpp ok for production?": whether the one engine asked about suits this plan, and what does
        better = _engine_pick(list(USUAL_ENGINES), gpu, ctx, precision)
        if better is not None and better[0] != named[0]:
            many = (ctx.profile.get("users") or 0) > 2
            lines.append(ctx.say("info.engine.not_here" if many else "info.engine.not_first", engine=_engine(named[0]).name))
            pick = better
    if pick is not None:
        why = pick[1] if nvidia or pick[1] != "default" else "default_other"
        lines.append(ctx.say("info.engine.pick", engine=_engine(pick[0]).name,
                             why=ctx.say(f"info.engine.why.{why}", precision=precision.upper())))
        if pick[1] == "ascend":  # both run there: which for what (review AF C5)
            lines.append(ctx.say("info.engine.ascend_both"))
        ctx.data["pick"] = {"engine": pick[0], "because": pick[1]}
    rec = ctx.rec
    if rec and rec.best and rec.best.engine:
        app = ctx.profile.get("engine_app") if rec.best.engine == "llama.cpp" else None
        app_words = ctx.say("engine_app.name", app=APP_NAMES.get(app, app)) if app else None
        lead = rec.offload if rec.offload_leads and rec.offload is not None else None  # the headline's own card
        lines.append(ctx.say("info.engine.plan", engine=app_words or rec.best.runtime or _engine(rec.best.engine).name,
                             option=f"{lead.gpus} × {lead.gpu}" if lead else f"{rec.best.gpus} × {rec.best.gpu_name}"))
    return "\n".join(lines)


def _engine_pick(named: list[str], gpu: Gpu | None, ctx: Context, precision: str) -> tuple[str, str] | None:
    """The engine an expert would start with among those asked about, and why (a code): llama.cpp or MLX
    for one person on a desktop card or a Mac, the vendor's engine on Ascend, SGLang for DeepSeek-style
    MoE models with latent attention, SGLang when the requests share a long prefix (its radix-tree prefix cache),
    vLLM otherwise (the widest model support, and the one sized)."""
    runs = [e for e in named if gpu is None or _engine(e).name_on(gpu)]
    users = ctx.profile.get("users") or 0
    model = None
    if ctx.profile.get("model"):
        try:
            model = find_model(ctx.profile["model"])
        except (LookupError, ValueError):
            model = None
    # llama.cpp's i-quants and 2-bit files have no MLX counterpart; its 3-, 4-, 6- and 8-bit ones do (MLX quantises
    # to those widths itself), so a Q4_K_M plan on a Mac may as well run MLX's own 4-bit weights
    gguf_only = precision.startswith(("iq", "q2"))
    rules = (
        ("llama.cpp", gpu is not None and gpu.vendor == "apple" and gguf_only, "gguf_only"),
        ("mlx", gpu is not None and gpu.vendor == "apple", "mac"),
        ("llama.cpp", gpu is not None and (gpu.segment in ("consumer", "apple")) and users <= 2, "one_person"),
        ("mindie", gpu is not None and gpu.vendor == "huawei", "ascend"),
        ("vllm", gpu is not None and gpu.vendor == "huawei", "ascend"),
        ("sglang", model is not None and model.attention == "mla" and (model.num_experts or 0) > 0, "mla_moe"),
        ("sglang", bool(ctx.turn.ask.get("shared_prefix") or ctx.profile.get("shared_prefix_tokens")), "shared_prefix"),
        ("vllm", True, "default"),
        ("sglang", True, "default_sglang"),
    )
    return next(((e, why) for e, cond, why in rules if cond and e in runs), None)


def _one(values: list[str] | None) -> str | None:
    """The card of an 'only' or 'owned' entry ('2x rtx-4090' -> 'rtx-4090')."""
    if not values:
        return None
    value = values[0].split("x ", 1)[-1] if "x " in values[0] else values[0]
    try:
        return find_gpu(value).id
    except (LookupError, ValueError):
        return None


# ---------------------------------------------------------------- prices, stock, forecasts


def _cards_asked(ctx: Context) -> list[Gpu]:
    ids = list(ctx.turn.cards) or [g for g in (ctx.plan_card(),) if g]
    return [find_gpu(g) for g in ids[:4]]



def stock_origin(gpu: Any) -> str:
    """The catalog key that says where a card may be sold: a Chinese vendor's own (昇腾 910B: domestic, no US rule
    involved), a card made for China and barred later (A800, H800: never both 'made for China' and 'cannot be
    shipped there' as if unrelated), made for China, or barred; '' for none of these."""
    if gpu.domestic_china:
        return "info.stock.domestic"
    if gpu.china_specific and gpu.export_limited:
        return "info.stock.china_barred"
    return "info.stock.china" if gpu.china_specific else "info.stock.export" if gpu.export_limited else ""


def _market_lines(ctx: Context, gpus: list[Gpu]) -> list[str]:
    """What the data has on each card: rental offers with their date and count, the list price."""
    lines = []
    for gpu in gpus:
        f = _card_facts(ctx, gpu)
        q = f["rent"]
        one = q and q["usd_per_gpu_hour_low"] == q["usd_per_gpu_hour_high"]  # one price: no range to show
        rent = ctx.say("info.stock.rent_one" if one else "info.stock.rent", n=q["samples"],
                       providers=ctx.say("list_sep").join(q["providers"]), low=ctx.usd(q["usd_per_gpu_hour_low"]),
                       high=ctx.usd(q["usd_per_gpu_hour_high"]), typical=ctx.usd(q["usd_per_gpu_hour_typical"]),
                       date=q["as_of"]) if q else ctx.say("info.stock.no_rent")
        buy = ctx.say("info.stock.no_buy") if not f["buy_price_usd"] else (
            ctx.say("info.stock.buy_board", usd=ctx.usd(f["buy_price_usd"]), n=f["sold_in"]) if f["sold_in"] > 1
            else ctx.say("info.stock.buy", usd=ctx.usd(f["buy_price_usd"])))
        line = "- " + ctx.say("info.stock.card", gpu=gpu.name, rent=rent, buy=buy)
        sep = "" if ctx.lang == "zh" else " "
        line += sep + ctx.say(stock_origin(gpu)) if stock_origin(gpu) else ""  # domestic, made for China, barred
        lines.append(line)
    return lines


def availability(ctx: Context) -> str:
    from gpu_advisor.assistant.asks import provider_lines
    from gpu_advisor.assistant.china_market import procurement
    from gpu_advisor.assistant.rent_cost import counted_card, rent_cost_lines

    if (getattr(ctx.turn, "ask", None) or {}).get("export"):  # '为什么国内买不到H100': the rules, not the stock
        from gpu_advisor.assistant.card_diff import export_answer

        return export_answer(ctx)

    gpus = _cards_asked(ctx)
    if (counted := counted_card(ctx)) and (bill := rent_cost_lines(ctx, *counted)):  # '租两张a100一个月多少钱'
        return "\n".join([*bill, "", ctx.say("info.stock.known"), *_market_lines(ctx, [find_gpu(counted[0])])])
    if ctx.turn.ask.get("procure") and (bought := procurement(ctx, gpus)):  # 'H20和4090在国内哪个更好买': per channel
        return bought
    if ctx.turn.ask.get("vendor") and not ctx.turn.cards:  # "昇腾卡": every card of that vendor
        from gpu_advisor.knowledge import gpus as all_gpus

        gpus = [g for g in all_gpus() if g.vendor == ctx.turn.ask["vendor"]]
    lines = [ctx.say("info.stock.head")]
    if gpus and ctx.turn.ask.get("per_provider"):  # "the hourly price per provider": each offer, with its date
        lines += ["", *provider_lines(ctx, gpus)]
    elif gpus:
        lines += ["", ctx.say("info.stock.known"), *_market_lines(ctx, gpus), "", ctx.say("info.stock.ask")]
    else:
        lines += ["", ctx.say("info.stock.which")]
    return "\n".join(lines)


def forecast(ctx: Context) -> str:
    gpus = _cards_asked(ctx)
    lines = [ctx.say("info.forecast.head")]
    if gpus:
        lines += ["", ctx.say("info.stock.known"), *_market_lines(ctx, gpus)]
    else:
        lines += ["", ctx.say("info.forecast.which")]
    if gpus and "reserved_usd_per_hour" in ctx.turn.prices:  # "should I lock in a year at $2.10?": computed instead
        from gpu_advisor.assistant.forecast_reply import reserve_against_typical

        return "\n".join([*lines, "", *reserve_against_typical(ctx, gpus[0])])
    lines += ["", ctx.say("info.forecast.advice")]
    return "\n".join(lines)


# ---------------------------------------------------------------- model quality, other jobs


def quality(ctx: Context) -> str:
    from gpu_advisor.assistant.engine import describe

    subject = ctx.turn.subject or ctx.profile.get("model")
    if subject and "|" in subject:  # two models weighed against each other
        a, b = (describe("model", x, ctx.lang) for x in subject.split("|")[:2])
        head = ctx.say("info.quality.head_pair", a=a, b=b)
    else:
        model = describe("model", subject, ctx.lang) if subject else ctx.say("info.quality.model_any")
        head = ctx.say("info.quality.head", model=model)
    precisions = list(ctx.turn.ask.get("precisions") or [])
    if len(precisions) >= 2:  # "will eval scores differ between fp8 and bf16?": what is known, and how to measure it

        ctx.data["precisions"] = precisions[:2]
        rec = ctx.rec
        from gpu_advisor.assistant.format_counts import format_counts
        from gpu_advisor.assistant.precision_verdict import verdict_block

        parts = [format_counts(ctx),  # 'how many L40S for each?': the count in each format, first
                 format_quality(ctx, precisions[:2]), verdict_block(ctx) if ctx.turn.ask.get("widths") else ""]
        parts = [p for p in parts if p]
        if rec is not None and rec.best is not None and rec.best.precision:
            parts.append(ctx.say("asks.quality.plan", precision=rec.best.precision.upper()))
        return "\n\n".join(parts)
    return "\n\n".join([head, ctx.say("info.quality.how"),
                        ctx.say("info.quality.offer")])


def format_quality(ctx: Context, ids: list[str]) -> str:
    """Two weight formats' quality against BF16, each from knowledge (precisions.yaml 'quality'), then how to
    measure it on one's own data ('fp8 vs int4 awq for quality?', 'fp8 和 awq 质量差别大吗')."""
    from gpu_advisor.knowledge import find_precision

    formats = [find_precision(x) for x in ids]
    a, b = (p.name.split(" (")[0] for p in formats[:2])
    ctx.data["quality"] = {p.id: p.quality for p in formats}
    return "\n\n".join(["\n".join([ctx.say("asks.quality.precisions", a=a, b=b), *(
        ctx.say("asks.quality.format", name=p.name.split(" (")[0],
                quality=ctx.say(f"asks.quality.code.{p.quality or 'none'}")) for p in formats)]),
        ctx.say("asks.quality.measure")])


def out_of_scope(ctx: Context) -> str:
    kind = ctx.turn.scope or "other_ml"
    ctx.data["scope"] = kind
    return "\n\n".join([ctx.say(f"info.scope.{kind}"), ctx.say("info.scope.head"), ctx.say(f"info.scope.near.{kind}")])


# ---------------------------------------------------------------- rent or buy at stated prices


def rent_or_buy(ctx: Context) -> str:
    """Rent or buy at the prices the user gave: the user's two options when they are different cards, else one
    card's."""
    two = _two_options(ctx)
    return _rent_one_buy_another(ctx, *two) if two is not None else _rent_or_buy_card(ctx)


def _rent_or_buy_card(ctx: Context) -> str:
    """Rent or buy one card at the prices the user gave (the catalog's for the one not given), at the
    utilisation said, else the stated default."""
    from gpu_advisor.assistant.server_price import line as server_line
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.knowledge.purchase import server_usd_per_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import RentBuyInput, rent_vs_buy

    card = (ctx.turn.cards or [None])[0] or ctx.plan_card()
    if card is None:
        return ctx.say("info.rb.which")
    gpu = find_gpu(card)
    use = ctx.profile.get("utilisation")
    assumed = [] if use else [SLOTS["utilisation"].default_words(ctx.lang, ctx.profile)]
    prices = ctx.turn.prices
    rec = ctx.rec
    planned = rec.best.gpus if rec and rec.best and rec.best.gpu == gpu.id else None
    whole = any(k.endswith("_machine") for k in prices)  # a machine's price: as many cards as it holds
    sized = int(prices.get("machine_gpus", 0))  # '280k per 8-GPU server' for 16 cards: 8 a machine, 16 used
    machine = sized or ctx.turn.counts.get(gpu.id) or (max(ctx.turn.counts.values()) if whole and ctx.turn.counts else None) \
        or (gpu.sold_in if whole and gpu.sold_in > 1 else None) or planned or 1  # the cards in the machine priced
    said = None if whole and not sized else ctx.turn.counts.get(gpu.id)  # "自己买两张4090": the count said
    n = said or planned or machine  # the cards the job uses: rented one by one, while a machine is bought whole
    machines = -(-n // machine)  # a 16-card plan on 8-card machines takes two of them, rented or bought
    per_card = {key: prices[key + "_machine"] * machines / n if key + "_machine" in prices else prices.get(key)
                for key in ("rent_usd_per_hour", "rent_usd_per_month", "buy_usd")}  # the machines' prices over the cards used
    quoted = _turn_rent(ctx.turn.quotes, gpu.id, per_card)  # '云上租 H20 大概 15 块钱一卡一小时': the rent said now
    _quoted_rent(rec, gpu.id, per_card)
    two_rents = per_card["rent_usd_per_hour"] is not None and per_card["rent_usd_per_month"] is not None
    if two_rents:  # on demand and reserved both quoted: the cheaper at this use is the rent buying must beat
        from gpu_advisor.tools.cost import HOURS_PER_MONTH

        on_demand = per_card["rent_usd_per_hour"] * HOURS_PER_MONTH * (use or SLOTS["utilisation"].default)
        dropped = "rent_usd_per_month" if on_demand <= per_card["rent_usd_per_month"] else "rent_usd_per_hour"
        kept_words = ctx.say("info.rb.on_demand" if dropped == "rent_usd_per_month" else "info.rb.reserved")
        two_rents_line = ctx.say("info.rb.two_rents", kept=kept_words, od=ctx.usd(on_demand),
                                 res=ctx.usd(per_card["rent_usd_per_month"]),
                                 use=pct(use or SLOTS["utilisation"].default))
        per_card[dropped] = None
    inp = RentBuyInput(gpu=gpu.id, gpus=n, utilisation=use or SLOTS["utilisation"].default, region=ctx.region,
                       rent_usd_per_gpu_hour=per_card["rent_usd_per_hour"],
                       rent_usd_per_gpu_month=per_card["rent_usd_per_month"],
                       purchase_usd_per_gpu=per_card["buy_usd"] or server_usd_per_gpu(gpu, n),  # the whole server
                       electricity_usd_per_kwh=0.0 if prices.get("hosting_with_power")  # 'colo+power': in the hosting
                       else ctx.profile.get("electricity_usd_per_kwh"),  # the user's power price
                       **({"hosting_usd_per_gpu_month": prices["hosting_usd_per_month_machine"] * machines / max(n, machine)}
                          if "hosting_usd_per_month_machine" in prices else
                          {"hosting_usd_per_gpu_month": ctx.profile["hosting_usd_per_month"] / n}
                          if ctx.profile.get("hosting_usd_per_month") else  # the hosting bill said, for all the cards
                          {"hosting_usd_per_gpu_month": 0.0} if gpu.at_home else {}),  # a card in your own computer
                       **({"horizon_months": int(prices["horizon_months"])} if "horizon_months" in prices else {}))
    planned_rb = (rec.rent_or_buy if rec and rec.best and rec.best.gpu == gpu.id and not rec.best.owned
                  and said in (None, planned) else None)
    if planned_rb is not None and not set(prices) - {"horizon_months"}:
        # "如果只用两年呢": the plan's own comparison (its cards, prices, power and hosting) over the span said
        inp = _plan_rent_buy(planned_rb, ctx.region, int(prices.get("horizon_months") or planned_rb.horizon_months))
    try:
        rb = rent_vs_buy(inp)
    except ToolError:  # a purchase quoted ('8卡整机120万一台') for a card with no rent on record: renting is what is missing
        return ctx.say("rb.no_rent_price" if per_card["buy_usd"] else "info.rb.no_prices", gpu=gpu.name)
    if ctx.recorder is not None:
        ctx.recorder("rent_vs_buy", inp.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
    ctx.data["rent_or_buy"] = rb.model_dump(mode="json")
    given = _given(ctx, prices, machine, quoted)
    lines = ["## " + ctx.say("info.rb.title", gpu=f"{inp.gpus} × {gpu.name}" if inp.gpus > 1 else gpu.name), ""]
    if per_card["buy_usd"] is None and planned_rb is None:  # '整机大概多少钱': the server priced, said first
        lines += [x for x in [server_line(gpu, inp.gpus, ctx.lang, ctx.usd)] if x]
    if given:
        lines.append(ctx.say("info.rb.given", given=say(ctx.lang, "sep").join(given)))
    if whole:
        lines += _machines_line(ctx, n, machine, machines) + _like_for_like(ctx, inp, prices, n, machine)
    if two_rents:
        lines.append(two_rents_line)
    if ctx.turn.has("payback"):
        from gpu_advisor.assistant.writers import payback_line

        lines.append(payback_line(rb, ctx.lang, ctx.usd))
    lines.append(ctx.say("rb.body", use=pct(rb.utilisation), months=rb.horizon_months, rent=ctx.usd(rb.rent_total_usd),
                         buy=ctx.usd(rb.buy_total_usd), breakeven=_break_even(rb, ctx.lang))
                 + ("" if ctx.lang == "zh" else " ") + _verdict(ctx, rb))
    lines += ["", ctx.say("rb.assumed")] + [f"- {a}" for a in assumed] + [
        f"- {in_currency(localise(ctx.lang, a), ctx.lang, ctx.usd)}" for a in rb.assumptions]
    lines += ["", ctx.say("rb.footer")]
    return "\n".join(lines)


def _like_for_like(ctx: Context, inp: Any, prices: dict[str, float], n: int, machine: int) -> list[str]:
    """A plan that needs part of the machine priced ('an 8x H200 server ... reserved 2.30/gpu-hr'): the machine's
    cards all rented at the rent per card given, against owning that machine (what the user compares), beside the
    plan's own comparison of the cards it needs."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import rent_vs_buy

    if n >= machine or "buy_usd_machine" not in prices or any(k in prices for k in ("rent_usd_per_hour_machine",
                                                                                      "rent_usd_per_month_machine")):
        return []
    hosting = inp.hosting_usd_per_gpu_month * n / machine if "hosting_usd_per_month_machine" in prices \
        or ctx.profile.get("hosting_usd_per_month") else inp.hosting_usd_per_gpu_month  # the machine's fee, over its cards
    try:
        full = rent_vs_buy(inp.model_copy(update={"gpus": machine, "purchase_usd_per_gpu": prices["buy_usd_machine"] / machine,
                                                  "hosting_usd_per_gpu_month": hosting}))
    except ToolError:
        return []
    ctx.data["rent_or_buy_machine"] = full.model_dump(mode="json")
    return [ctx.say("info.rb.like_for_like", machine=machine, rent=ctx.usd(full.rent_total_usd),
                    buy=ctx.usd(full.buy_total_usd), months=full.horizon_months,
                    verdict=ctx.say("info.rb.like_rent" if full.cheaper == "rent" else "info.rb.like_buy"))]


def _two_options(ctx: Context) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The user's two options when they are different cards: one card's rent and another card's purchase ('阿里云L20
    每月4800，或买两张4090 一共三万二'), as (the rent quoted, the purchase quoted); else None."""
    quotes = getattr(ctx.turn, "quotes", None) or []
    rents = [q for q in quotes if q.get("usd_per_gpu_hour") is not None]
    buys = [q for q in quotes if q.get("buy_usd_per_gpu") is not None]
    if len(rents) != 1 or len(buys) != 1 or rents[0]["gpu"] == buys[0]["gpu"]:
        return None
    return rents[0], buys[0]


def _rent_one_buy_another(ctx: Context, rent: dict[str, Any], buy: dict[str, Any]) -> str:
    """Rent or buy when the two options are different cards: the cards rented at their rent (every hour of a
    monthly or reserved one), against the cards bought at their price, power and hosting; as many of each as said."""
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import HOURS_PER_MONTH, RentBuyInput, rent_vs_buy

    rented, bought = find_gpu(rent["gpu"]), find_gpu(buy["gpu"])
    n, m = ctx.turn.counts.get(rented.id, 1), ctx.turn.counts.get(bought.id, 1)
    use = ctx.profile.get("utilisation")
    assumed = [] if use else [SLOTS["utilisation"].default_words(ctx.lang, ctx.profile)]
    prices = ctx.turn.prices
    monthly = prices.get("rent_usd_per_month") or (rent["usd_per_gpu_hour"] * HOURS_PER_MONTH if rent.get("reserved") else None)
    hourly = None if monthly else prices.get("rent_usd_per_hour") or rent["usd_per_gpu_hour"]
    hosting = ({"hosting_usd_per_gpu_month": ctx.profile["hosting_usd_per_month"] / m} if ctx.profile.get("hosting_usd_per_month")
               else {"hosting_usd_per_gpu_month": 0.0} if bought.at_home else {})
    try:
        inp = RentBuyInput(gpu=rented.id, gpus=n, utilisation=use or SLOTS["utilisation"].default, region=ctx.region,
                           rent_usd_per_gpu_hour=hourly, rent_usd_per_gpu_month=monthly,
                           purchase_usd_per_gpu=buy["buy_usd_per_gpu"], buy_gpu=bought.id, buy_gpus=m,
                           electricity_usd_per_kwh=ctx.profile.get("electricity_usd_per_kwh"), **hosting,
                           **({"horizon_months": int(prices["horizon_months"])} if "horizon_months" in prices else {}))
        rb = rent_vs_buy(inp)
    except ToolError:
        return ctx.say("info.rb.no_prices", gpu=bought.name)
    if ctx.recorder is not None:
        ctx.recorder("rent_vs_buy", inp.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
    ctx.data["rent_or_buy"] = rb.model_dump(mode="json")
    rent_said = ctx.say("info.rb.given_rent_month", usd=ctx.usd(monthly)) if monthly else \
        ctx.say("info.rb.given_rent", usd=ctx.usd(float(hourly or 0.0)))
    given = [ctx.say("info.rb.given_rent_cards", n=n, gpu=rented.name, rent=rent_said),
             ctx.say("info.rb.given_buy_cards", usd=ctx.usd(buy["buy_usd_per_gpu"] * m), m=m, gpu=bought.name,
                     per=ctx.usd(buy["buy_usd_per_gpu"]))]
    if "horizon_months" in prices:
        given.append(ctx.say("info.rb.given_months", months=int(prices["horizon_months"])))
    lines = ["## " + ctx.say("info.rb.title_two", rent=f"{n} × {rented.name}", buy=f"{m} × {bought.name}"), "",
             ctx.say("info.rb.given", given=say(ctx.lang, "sep").join(given)),
             ctx.say("rb.body", use=pct(rb.utilisation), months=rb.horizon_months, rent=ctx.usd(rb.rent_total_usd),
                     buy=ctx.usd(rb.buy_total_usd), breakeven=_break_even(rb, ctx.lang))
             + ("" if ctx.lang == "zh" else " ") + _verdict(ctx, rb)]
    lines += ["", ctx.say("rb.assumed")] + [f"- {a}" for a in assumed] + [
        f"- {in_currency(localise(ctx.lang, a), ctx.lang, ctx.usd)}" for a in rb.assumptions]
    lines += ["", ctx.say("rb.footer")]
    return "\n".join(lines)


def _machines_line(ctx: Context, n: int, machine: int, machines: int) -> list[str]:
    """What a machine's price buys for the plan: part of one machine, or as many machines as its cards fill."""
    if n < machine:
        return [ctx.say("info.rb.part_of_machine", n=n, machine=machine)]
    if machines > 1:
        return [ctx.say("info.rb.machines", n=n, machines=machines, machine=machine)]
    return []


def _given(ctx: Context, prices: dict[str, float], machine: int, quoted: tuple[str, float] | None) -> list[str]:
    """The prices the user gave, said back: rents, purchases (a machine's over its cards), hosting, months."""
    given = []
    for key, label in (("rent_usd_per_hour", "given_rent"), ("rent_usd_per_month", "given_rent_month"),
                       ("buy_usd", "given_buy")):
        if key in prices:
            given.append(ctx.say(f"info.rb.{label}", usd=ctx.usd(prices[key])))
        elif key + "_machine" in prices:
            given.append(ctx.say(f"info.rb.{label}_machine", usd=ctx.usd(prices[key + "_machine"]), n=machine,
                                 per=ctx.usd(prices[key + "_machine"] / machine)))
    if quoted is not None:
        given.append(ctx.say(f"info.rb.{quoted[0]}", usd=ctx.usd(quoted[1])))
    if "hosting_usd_per_month_machine" in prices:
        given.append(ctx.say("info.rb.given_hosting_power" if prices.get("hosting_with_power") else "info.rb.given_hosting",
                             usd=ctx.usd(prices["hosting_usd_per_month_machine"])))
    if "horizon_months" in prices:
        given.append(ctx.say("info.rb.given_months", months=int(prices["horizon_months"])))
    return given


def _turn_rent(quotes: list[dict[str, Any]], gpu_id: str, per_card: dict[str, float | None]) -> tuple[str, float] | None:
    """No rent among the prices: the rent per card quoted in this message for this card ('租 H20 大概 15 块钱一卡一小时',
    a reserved rate billed every hour), used as the user's price. Returns (catalog label, price said) to say back."""
    from gpu_advisor.tools.cost import HOURS_PER_MONTH

    if per_card["rent_usd_per_hour"] is not None or per_card["rent_usd_per_month"] is not None:
        return None
    theirs = next((q for q in quotes if q.get("gpu") == gpu_id and q.get("usd_per_gpu_hour")), None)
    if theirs is None:
        return None
    hourly = float(theirs["usd_per_gpu_hour"])
    if theirs.get("reserved"):
        per_card["rent_usd_per_month"] = hourly * HOURS_PER_MONTH
        return "given_rent_month", hourly * HOURS_PER_MONTH
    per_card["rent_usd_per_hour"] = hourly
    return "given_rent", hourly


def _quoted_rent(rec: Recommendation | None, gpu_id: str, per_card: dict[str, float | None]) -> None:
    """No rent given now: the rental price the user was quoted for this card before, if any (by the hour, or
    every hour of a reservation)."""
    from gpu_advisor.tools.cost import HOURS_PER_MONTH

    theirs = next((q for q in (rec.workload.quotes if rec else []) if q.gpu == gpu_id), None)
    if theirs is not None and theirs.buy_usd_per_gpu is not None and per_card["buy_usd"] is None:
        per_card["buy_usd"] = theirs.buy_usd_per_gpu  # the purchase price said before ('two 3090s for $1400 total')
    if theirs is not None and theirs.usd_per_gpu_hour is not None and per_card["rent_usd_per_hour"] is None \
            and per_card["rent_usd_per_month"] is None:
        per_card["rent_usd_per_month" if theirs.reserved else "rent_usd_per_hour"] = \
            theirs.usd_per_gpu_hour * (HOURS_PER_MONTH if theirs.reserved else 1.0)


def _plan_rent_buy(rb: Any, region: str, months: int) -> Any:
    """The plan's rent-or-buy input, read back from its result's terms, over another horizon."""
    from gpu_advisor.tools.cost import RentBuyInput

    rent = rb.term("rent_total_usd").inputs
    buy = rb.term("buy_total_usd").inputs
    return RentBuyInput(gpu=rb.gpu, gpus=rb.gpus, utilisation=rb.utilisation, region=region,
                        rent_usd_per_gpu_hour=rent.get("usd_per_gpu_hour"),
                        rent_usd_per_gpu_month=rb.rent_usd_per_gpu_month,
                        purchase_usd_per_gpu=buy["purchase_usd_per_gpu"], power_w=float(buy["power_kw"]) * 1000,
                        electricity_usd_per_kwh=buy["usd_per_kwh"],
                        hosting_usd_per_gpu_month=buy["hosting_usd_per_gpu_month"],
                        resale_fraction=buy["resale_fraction"], horizon_months=months)


def reserve(ctx: Context) -> str:
    """On demand against a reservation at the user's two hourly prices, for the plan's cards when they are the
    card priced (else the count said, or one): which costs less at the utilisation said (else its default)."""
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import ReservedInput, reserved_vs_on_demand

    card = (ctx.turn.cards or [None])[0] or ctx.plan_card()
    prices = ctx.turn.prices
    if card is None or "rent_usd_per_hour" not in prices or "reserved_usd_per_hour" not in prices:
        return ctx.say("info.rb.which")
    gpu = find_gpu(card)
    rec = ctx.rec
    n = (rec.best.gpus if rec and rec.best and rec.best.gpu == gpu.id and not rec.best.owned else None) \
        or ctx.turn.counts.get(gpu.id) or 1
    use = ctx.profile.get("utilisation")
    assumed = [] if use else [SLOTS["utilisation"].default_words(ctx.lang, ctx.profile)]
    try:
        inp = ReservedInput(gpu=gpu.id, gpus=n, on_demand_usd_per_gpu_hour=prices["rent_usd_per_hour"],
                            reserved_usd_per_gpu_hour=prices["reserved_usd_per_hour"],
                            utilisation=use or SLOTS["utilisation"].default,
                            **({"term_months": int(prices["horizon_months"])} if "horizon_months" in prices else {}))
        r = reserved_vs_on_demand(inp)
    except (ToolError, ValueError):
        return ctx.say("info.rb.no_prices", gpu=gpu.name)
    if ctx.recorder is not None:
        ctx.recorder("reserved_vs_on_demand", inp.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
    ctx.data["reserved"] = r.model_dump(mode="json")
    option = f"{n} × {gpu.name}" if n > 1 else gpu.name
    saved = abs(r.on_demand_term_usd - r.reserved_term_usd)
    verdict = ctx.say("info.reserve.take" if r.cheaper == "reserved" else "info.reserve.stay",
                      pct=pct(r.saving_fraction), usd=ctx.usd(saved), months=r.term_months)
    lines = ["## " + ctx.say("info.reserve.title", option=option), "",
             ctx.say("info.reserve.body", use=pct(r.utilisation), od=ctx.usd(r.on_demand_usd_per_month),
                     res=ctx.usd(r.reserved_usd_per_month), be=pct(r.break_even_utilisation),
                     od_hour=ctx.usd(inp.on_demand_usd_per_gpu_hour), res_hour=ctx.usd(inp.reserved_usd_per_gpu_hour))
             + ("" if ctx.lang == "zh" else " ") + verdict]
    lines += ["", ctx.say("rb.assumed")] + [f"- {a}" for a in assumed] + [f"- {localise(ctx.lang, a)}" for a in r.assumptions]
    return "\n".join(lines)


def _verdict(ctx: Context, rb: Any) -> str:
    """Rent or buy in one sentence; owning that saves less than the margin the plan asks of it is no
    reason to buy (the same rule as the plan's headline)."""
    from gpu_advisor.tools.recommend import owning_pays

    if rb.cheaper == "rent":
        return ctx.say("rb.cheaper_rent")
    if ctx.profile.get("preference") == "rent":
        return ctx.say("rb.renting_only")  # cloud-only: the comparison is shown, buying is not advised
    if not owning_pays(rb.rent_total_usd, rb.buy_total_usd):
        return ctx.say("rb.small_saving", pct=pct(1 - rb.buy_total_usd / rb.rent_total_usd))
    return ctx.say("rb.cheaper_buy_month" if rb.rent_usd_per_gpu_month is not None else "rb.cheaper_buy")


__all__ = ["QUESTION_REPLIES", "Context", "reply"]
QUESTION_REPLIES = ("prefix_saving", "launch", "server_price", "largest", "budget_largest", "licence", "this_machine", "capacity", "method_compare", "weigh", "moe_memory", "memory_types", "slow_decode", "framework_choice", "metric", "gpu_hours", "kv_cache", "data_enough", "offload",
                    "card_support", "interconnect", "parallelism", "formats", "compare_cards", "engine_choice",
                    "availability", "forecast", "quality", "out_of_scope", "rent_buy", "reserve", "precision_compare",
                    "framework_why")
