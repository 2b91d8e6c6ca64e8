"""Markdown writers: an Answer (or another tool result) in words of the user's language.

Figures are formatted here, the same way in every language; the words around them come from the
catalogs (assistant/catalog/*.yaml). The options table is also returned as data, so that rich
front-ends draw it without parsing the Markdown.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.advice import Answer, Recorder, _call, serving_setup
from gpu_advisor.assistant.asked_format import stated_format_memory
from gpu_advisor.assistant.budget_holds import budget_holds_line, held_block
from gpu_advisor.assistant.budget_horizon import horizon_rent
from gpu_advisor.assistant.budget_room import budget_room_lines
from gpu_advisor.assistant.catalog import formula_words, localise, say
from gpu_advisor.assistant.cheaper_why import cheaper_why_lines
from gpu_advisor.assistant.cluster_words import more_servers
from gpu_advisor.assistant.deadline_fit import late_fit
from gpu_advisor.assistant.e2e_words import e2e_lines
from gpu_advisor.assistant.fsdp_qlora import fsdp_lines
from gpu_advisor.assistant.lead_rent import rent_first_lines
from gpu_advisor.assistant.long_prompt import full_prompt_ttft
from gpu_advisor.assistant.no_fp8 import KEPT_ON_YOURS, lever_key, swapped_format_line
from gpu_advisor.assistant.offload_verdict import offload_ram_short, offload_target
from gpu_advisor.assistant.policy import Profile, relevant
from gpu_advisor.assistant.pool_words import pool_headline, pool_lines
from gpu_advisor.assistant.prefill_words import prefill_load_lines
from gpu_advisor.assistant.rate_scale_words import headroom_lines, speed_cost_lines
from gpu_advisor.assistant.rent_unit_reply import rent_unit_lines
from gpu_advisor.assistant.server_head import bought_head, partial_server, unit_note
from gpu_advisor.assistant.serving_levers import lever_lines
from gpu_advisor.assistant.thinking_words import thinking_lines
from gpu_advisor.assistant.train_edge import EDGE_CODES, card_units, edge_sentence, fits_edge_line
from gpu_advisor.assistant.user_price import near_budget_line
from gpu_advisor.assistant.window_verdict import window_yes
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.resolve import weight_bits
from gpu_advisor.knowledge.use_cases import use_case
from gpu_advisor.tools.common import Explained
from gpu_advisor.tools.cost import HOURS_PER_MONTH, few_offers, offer_spread
from gpu_advisor.tools.durations import hours_figure, seconds_figure
from gpu_advisor.tools.offload import OS_RESERVE_GB
from gpu_advisor.tools.queueing import (
    MAX_UTILISATION,
    P99,
    TARGET_MARGIN,
    Traffic,
    percentile_name,
    poisson_quantile,
)
from gpu_advisor.tools.recommend import (
    FOUR_BIT,
    LEVER_SLOTS,
    TIGHT_HEADROOM,
    Finding,
    Option,
    Recommendation,
    Workload,
    buys_over_budget,
    doubly_unsure,
    one_at_home,
    package_words,
    parse_owned,
    pinned_cards,
    quoted,
    rate_lengths,
    reasoning_output,
    rents_only,
    service_hours,
    stack_warning,
    training_setup,
    training_time_setup,
)

GB = 1e9
APP_NAMES = {"ollama": "ollama", "lm-studio": "LM Studio"}  # apps that run llama.cpp, as they are written


def gb(n: float) -> str:
    return f"{n / GB:,.1f}"


def tps(n: float) -> str:
    return f"{n:,.0f}" if n >= 10 else f"{n:,.1f}"


def money(n: float) -> str:
    return f"${n:,.0f}" if n >= 100 else f"${n:,.2f}"


LISTED_CARDS_MAX = 6  # more cards ruled out than this are counted where the answer repeats them, not listed


def cash(usd: float, rec: Recommendation) -> str:
    """Money where the user pays: yuan first in China (the dollars beside it), dollars elsewhere."""
    return cash_at(usd, rec.usd_per_cny)


def cash_at(usd: float, usd_per_cny: float | None) -> str:
    """Money at an exchange rate: yuan first where one is given (the dollars beside it), else dollars."""
    if not usd_per_cny:
        return money(usd)
    cny = usd / usd_per_cny
    return (f"¥{cny:,.0f}" if cny >= 100 else f"¥{cny:,.2f}") + f" ({money(usd)})"


def token_count(n: float) -> str:
    """'20M', '2.2B', '1,000B': millions below a billion tokens, billions above."""
    if n >= 1e9:
        return f"{n / 1e9:,.1f}".removesuffix(".0") + "B"
    return (f"{n / 1e6:,.1f}".removesuffix(".0") if n < 1e7 else f"{n / 1e6:,.0f}") + "M"


def pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def hours(h: float) -> str:
    """Hours to show: two decimals under six minutes (a 3-minute job is 0.05 h, not 0.0 h), never 0 for a time
    above it (tools.durations)."""
    return hours_figure(h)


def seconds(s: float) -> str:
    """'12 ms', '0.4 ms', '2.5 s': never '0 ms' for a time above it."""
    return (f"{s * 1000:,.0f}" if s >= 0.001 else seconds_figure(s * 1000)) + " ms" if s < 1 else f"{s:,.1f} s"


def gpu_words(o: Option, lang: str | None = None) -> str:
    """'8 × H100'; cards added beside yours: '16 yours + 8 × H100' (with a language), '16 + 8 × H100' without."""
    if o.owned_gpus:
        if lang is None:
            return f"{o.owned_gpus} + {o.gpus - o.owned_gpus} × {o.gpu_name}"
        return say(lang, "extend.cards", owned=o.owned_gpus, added=o.gpus - o.owned_gpus, gpu=o.gpu_name)
    return f"{o.gpus} × {o.gpu_name}"


def bought_words(o: Option) -> str:
    """The cards rented or bought: all of them, or those added beside the ones you own."""
    return f"{o.gpus - o.owned_gpus} × {o.gpu_name}"


def plan_words(o: Option, lang: str) -> str:
    """The option as a plan beyond one copy or one server: '4 replicas of 2 × H100 (8 GPUs, one server)',
    '2 servers × 8 × H100'; the card count otherwise."""
    if o.tp is None:
        return gpu_words(o)
    servers = say(lang, "scale.servers_one") if o.servers == 1 else say(lang, "scale.servers", n=o.servers)
    wide = o.pp == 1 and o.server_gpus is not None and o.tp > o.server_gpus  # a DP-attention copy over servers
    unit = (say(lang, "scale.pipeline", servers=o.pp, per=o.tp, gpu=o.gpu_name) if o.pp > 1
            else say(lang, "scale.pipeline", servers=o.tp // o.server_gpus, per=o.server_gpus, gpu=o.gpu_name)
            if wide and o.server_gpus else f"{o.tp} × {o.gpu_name}")
    if o.replicas == 1:
        return unit
    return say(lang, "scale.replicas_of", replicas=o.replicas, unit=unit, gpus=o.gpus, servers=servers)


def layout_label(o: Option) -> str | None:
    """A plan's layout in the table, the same in every language: 'TP8×PP2', '4×TP2'."""
    if o.tp is None:
        return None
    if o.dp_attention > 1:  # data-parallel attention, experts spread over the copy's GPUs: 'DP16+EP16'
        return (f"{o.replicas}×" if o.replicas > 1 else "") + f"DP{o.dp_attention}+EP{o.tp}"
    return (f"{o.replicas}×" if o.replicas > 1 else "") + f"TP{o.tp}" + (f"×PP{o.pp}" if o.pp > 1 else "")


def _clouds_of(values: list[str]) -> list[str]:
    """The names of the one or two clouds whose cards together are exactly these ('only' set by "runpod or
    vast"), else []."""
    from itertools import combinations

    from gpu_advisor.knowledge.clouds import clouds

    wanted = set(values)
    if len(wanted) < 2:
        return []
    records = list(clouds().values())
    for k in (1, 2):
        for group in combinations(records, k):
            if set().union(*(c.gpus for c in group)) == wanted:
                return [c.name for c in group]
    return []


def cards_words(values: list[str], lang: str = "en") -> str:
    """Owned or ruled-out cards in words: ['2x rtx-4090', 'amd'] -> '2 × NVIDIA RTX 4090 24GB, AMD';
    a vendor or a class of cards in the conversation's language (catalog key vendor.<id>)."""
    from gpu_advisor.assistant.catalog import say as catalog_say
    from gpu_advisor.assistant.catalog import text

    named = _clouds_of(values)
    if named:  # "runpod or vast": the cards those clouds rent, by the clouds' names, not thirty card names
        return catalog_say(lang, "cards.of_clouds", names=(" 或 " if lang == "zh" else " or ").join(named))
    single = [v[3:] for v in values if v.startswith("1x ")]
    if len(values) > 2 and len(single) == len(values):  # "what about on a single card?": one of any of them
        from gpu_advisor.knowledge.clouds import clouds

        named = _clouds_of(single)
        if named:
            return catalog_say(lang, "cards.one_of_clouds", names=(" 或 " if lang == "zh" else " or ").join(named))
        if set(single) == {g for c in clouds().values() for g in c.gpus}:
            return catalog_say(lang, "cards.one_of_any")
    words = []
    for value in values:
        try:
            words.append(str(text(lang, f"vendor.{value}")))
            continue
        except KeyError:
            pass
        try:
            count, gpu = parse_owned(value)
        except (LookupError, ValueError):
            words.append(value)
            continue
        words.append(f"{count} × {gpu.name}" if re.match(r"\s*\d", value) else gpu.name)
    return say(lang, "list_sep").join(words)


# ---------------------------------------------------------------- the options table


def columns(rec: Recommendation) -> list[str]:
    """Column keys for this job: serving shows speed and the first token; jobs show time and cost per run."""
    spec = rec.workload.spec
    cols = ["option", "fits", "spare"]
    if spec.serves:
        cols += ["tps", "ttft"]
    if spec.batch or (spec.trains and rec.training_run is None):  # training apart: its line says it all
        cols += ["job_hours", "job_usd"]
    if spec.serves:  # "we'd rather buy": what each option costs to buy is the price that ranks them
        cols += ["to_buy"] if rec.action == "buy" else ["per_hour"]
    return cols


def cell(key: str, o: Option, lang: str, formats: bool = False) -> str:
    """One table cell; with formats, the option names its weight format (the rows differ in it)."""
    if key == "option":
        labels: list[str] = [o.engine] if o.engine == "llama.cpp" else []
        labels += [o.precision] if formats and o.precision else []
        labels += [x for x in [layout_label(o)] if x]
        return gpu_words(o, lang) + (f" ({', '.join(labels)})" if labels else "")
    if key == "fits":
        if o.ok:
            return say(lang, "table.yes")
        missed = [k for k, v in o.meets.items() if not v] if o.headroom_fraction >= 0 else []
        if not missed and o.headroom_fraction >= 0 and o.serves and o.trains is not False:
            return say(lang, "table.no_because", why=say(lang, "table.miss.speed"))  # fits, but slower than reading
        if not missed:
            return say(lang, "table.no")
        return say(lang, "table.no_because", why=say(lang, "list_sep").join(say(lang, f"table.miss.{k}") for k in missed))
    if key == "spare":
        return pct(o.headroom_fraction)
    if key == "tps":
        return tps(o.decode_tokens_per_s) if o.decode_tokens_per_s else "-"
    if key == "ttft":
        return seconds(o.ttft_s) if o.ttft_s is not None else "-"
    if key == "job_hours":  # a row that does not hold the job has no time to run it (review s27: 'no' and 17.3 h)
        return hours(o.job_hours) if o.job_hours is not None and o.headroom_fraction >= 0 else "-"
    if key == "to_buy":
        if o.owned:
            return say(lang, "table.owned")
        price = _price_cell(o, o.purchase_usd) + (say(lang, "table.used") if o.used_price and o.purchase_usd else "")
        # a card sold only in whole servers: what the price buys is said
        return say(lang, "table.whole_unit", price=price, n=o.sold_in) if o.purchase_usd and o.gpus % o.sold_in else price
    if key in ("job_usd", "per_hour"):
        return say(lang, "table.owned") if o.owned else _marked_price_cell(
            o, o.job_usd if key == "job_usd" else o.usd_per_hour, lang)
    raise KeyError(key)


def _price_cell(o: Option, usd: float | None) -> str:
    """A price in a table: dollars, or yuan first where the user pays in yuan (the option's own rate)."""
    if not usd:
        return "-"
    if o.cny_per_hour and o.usd_per_hour:
        cny = usd * o.cny_per_hour / o.usd_per_hour
        return (f"¥{cny:,.0f}" if cny >= 100 else f"¥{cny:,.2f}") + f" ({money(usd)})"
    if o.used_price and o.usd_per_cny:  # a used card with no rent on record, in yuan all the same
        cny = usd / o.usd_per_cny
        return (f"¥{cny:,.0f}" if cny >= 100 else f"¥{cny:,.2f}") + f" ({money(usd)})"
    return money(usd)


def _marked_price_cell(o: Option, usd: float | None, lang: str) -> str:
    """A table's price cell: a price on record from too few offers to stand for a market says so ('$2.59 (price
    from 1 offer)'), the reason such a card ranks as if it cost more (tools.cost.offer_spread)."""
    price = _price_cell(o, usd)
    if price == "-" or not few_offers(o.price_offers):
        return price
    n = o.price_offers or 0
    return say(lang, "table.few_offers_one" if n == 1 else "table.few_offers", price=price, n=n)


FITTING_ROWS = 5  # best fitting options shown, one per card class
CLOSEST_ROWS = 3  # when few fit: the options that come closest


def _faster_same_cost(rec: Recommendation) -> Option | None:
    """For a job, the recommended card at a larger count that finishes sooner for about the same
    cost per run (more cards of one kind share the work; the bill barely moves)."""
    best = rec.best
    if best is None or best.owned or best.job_usd is None or best.job_hours is None:
        return None
    one_server = max(8, best.gpus)  # more nodes for a job this size is a cluster booking, not a faster row
    same = [o for o in rec.options if o.ok and o.gpu == best.gpu and best.gpus < o.gpus <= one_server
            and o.job_usd is not None and o.job_usd <= best.job_usd * 1.1 and o.job_hours is not None
            and o.job_hours <= best.job_hours / 2]
    return max(same, key=lambda o: o.gpus) if same else None


def _closeness(o: Option) -> tuple:
    """How near an option that misses comes: memory first, then the fewest constraints missed."""
    return (o.headroom_fraction < 0, -min(o.headroom_fraction, 0.0), sum(not v for v in o.meets.values()))


def _alternative_stack_warnings(answer: Answer) -> list[str]:
    """The software-risk caveat of every card off CUDA in the table, and the package a multi-die card's NPUs make
    (the Ascend 910C: a row's 64 GB is one die of a 128 GB package): an alternative shown keeps its caveats."""
    return [x for o in table_options(answer) for x in
            [None if o.owned else stack_warning(find_gpu(o.gpu)), package_words(find_gpu(o.gpu), o.gpus)] if x]


def table_options(answer: Answer) -> list[Option]:
    """The options shown, in order: the user's own cards, the ones asked about, the recommendation
    (so the first rented row is the headline), the best fitting option of each other card class, and
    when few fit, those that come closest. A card the user owns is not offered again for rent."""
    rec = answer.recommend
    chosen = [rec.best] if rec.best and not rec.best.owned else []
    faster = _faster_same_cost(rec)
    fitting = [o for o in rec.options if o.ok]
    # the count the user named with the card first ('说错了，是四张L20': 4 × L20, never 8 nobody named: review CT C8)
    named_counts = pinned_cards(rec.workload) if rec.workload is not None else set()
    missing = sorted((o for o in rec.options if not o.ok),
                     key=lambda o: (f"{o.gpus}x {o.gpu}" not in named_counts, *_closeness(o)))
    shown: list[Option] = []
    for o in [*rec.owned_options, *answer.options, *chosen, *([faster] if faster else [])]:
        if all((o.gpu, o.gpus, o.owned) != (x.gpu, x.gpus, x.owned) for x in shown):
            shown.append(o)  # a card asked about that is also the pick is one row
    named = set(answer.choice) if len(answer.choice) >= 2 else set()
    if named and rec.best is not None and rec.best.gpu in named:
        # 'H100 or H200 and how many': the rows are the options named (other cards: one 'also consider' line)
        # a named card whose compared count falls short shows its fewest that fit, when the plan found one
        # ('h100 vs h200 vs b200 … minimum number of each': 16 × H100 over two servers, not 8 that do not fit)
        fewest: dict[str, Option] = {}
        for o in sorted((o for o in rec.options if o.ok and not o.owned and o.gpu in named), key=lambda o: o.gpus):
            fewest.setdefault(o.gpu, o)
        # (a count the user said with the card is kept: '2x 3090' is 2 × 3090 that fall short, never 4 nobody named)
        return [fewest.get(o.gpu, o) if not o.ok and not o.owned and o.gpu not in answer.counts else o
                for o in shown if o.owned or o.gpu in named]
    seen = {(o.gpu, o.gpus) for o in shown}
    classes = {o.gpu for o in chosen}
    room = FITTING_ROWS - len(chosen) - (faster is not None)
    for pool, limit in ((fitting, room), (missing, CLOSEST_ROWS - min(len(fitting), CLOSEST_ROWS))):
        added = 0
        for o in pool:
            if added >= limit:
                break
            if (o.gpu, o.gpus) in seen or o.gpu in classes:
                continue
            seen.add((o.gpu, o.gpus))
            classes.add(o.gpu)
            shown.append(o)
            added += 1
    return shown


def table(answer: Answer, lang: str) -> dict[str, Any]:
    cols = columns(answer.recommend)
    shown = table_options(answer)
    formats = len({o.precision for o in shown if o.precision}) > 1
    rows = [[cell(c, o, lang, formats) for c in cols] for o in shown]
    return {"columns": [say(lang, f"table.{c}") for c in cols], "rows": rows}


def markdown_table(t: dict[str, Any]) -> list[str]:
    lines = ["| " + " | ".join(t["columns"]) + " |", "|" + "---|" * len(t["columns"])]
    lines += ["| " + " | ".join(row) + " |" for row in t["rows"]]
    return lines


# ---------------------------------------------------------------- the answer


def _layout_suffix(best: Option, lang: str) -> str:
    """The heading's note of a copy over several servers: pipeline stages, or data-parallel attention + experts."""
    if best.pp > 1 and best.tp is not None:
        return say(lang, "head.layout_pp", tp=best.tp, pp=best.pp, network=_fabric(best, lang))
    if best.dp_attention > 1 and (best.servers or 1) > best.replicas:
        return say(lang, "head.layout_dp", n=best.dp_attention, network=_fabric(best, lang))
    return ""


def _buy_not_paying(rec: Recommendation, lang: str) -> str | None:
    """Buying asked about (no budget, no count, the use assumed), and its own figures say renting costs less at that
    use: the heading says so (review BL #17: '购买 8 × H20' above 'renting ¥0.53M, buying ¥1.6M')."""
    rb, w, best = rec.rent_or_buy, rec.workload, rec.best
    if best is None or rec.action != "buy" or rb is None or rb.rent_total_usd >= rb.buy_total_usd or rb.buy_gpu \
            or getattr(rb, "rent_usd_per_gpu_month", None) is not None or w.budget_usd is not None \
            or w.buy_count is not None or w.spec.trains or w.requests_per_s or "utilisation" not in w.flexible:
        return None
    return "## " + say(lang, "head.buy_not_paying", option=plan_words(best, lang), use=pct(rb.utilisation),
                       rent=cash(rb.rent_total_usd, rec), buy=cash(rb.buy_total_usd, rec), months=rb.horizon_months,
                       breakeven=_break_even(rb, lang))


def headline(rec: Recommendation, lang: str) -> str:
    job = say(lang, f"job.{rec.workload.phase}")
    best = rec.best
    if rec.offload_leads and rec.offload is not None:  # the model asked, part of it in system RAM
        from gpu_advisor.assistant.home_short import slow_at_home

        o = rec.offload  # (slower than reading on a card that holds it in no file: said so, assistant.home_short)
        return "## " + say(lang, "head.offload_slow" if slow_at_home(rec) else "head.offload",
                           option=f"{o.gpus} × {o.gpu}", job=job,
                           model=model_words(o.model, lang), precision=o.precision, tps=tps(o.decode_tokens_per_s))
    if rec.pool_leads and rec.pool is not None:  # your cards of several kinds hold it together
        return pool_headline(rec.pool, job, lang)
    from gpu_advisor.assistant.target_reach import reach_headline

    said = reach_headline(rec, lang)  # no plan, or one missing the end-to-end target said: never "rent" it
    if said is not None or best is None:
        return said or ""
    t = rec.traffic
    if t is not None and (t.owned_short or t.queue_unsized) and best.meets.get("rate") is False:
        # the cards named or owned hold the requests but do not keep up with the rate: never "buy" or "use" them
        return "## " + say(lang, "head.rate_short" if t.needed_gpus else "head.rate_short_none",
                           option=gpu_words(best), job=job, rate=f"{t.requests_per_s:,.3g}",
                           needed=f"{t.needed_gpus or 0:,}", gpu=best.gpu_name)
    if t is not None and t.ttft_unreachable and t.ttft_q_s is not None and t.ttft_target_ms is not None \
            and best.meets.get("latency") is False:  # never "buy" a plan that misses the target said (review X E4)
        return "## " + say(lang, "head.rate_target_missed", option=plan_words(best, lang), job=job,
                           rate=f"{t.requests_per_s:,.3g}", pct=percentile_name(t.ttft_percentile),
                           target=f"{t.ttft_target_ms:,.0f}", ttft=seconds(t.ttft_q_s))
    if rec.owned_share is not None and rec.owned_users:
        return "## " + say(lang, "head.gap", owned=gpu_words(rec.owned_share), n=rec.owned_users,
                           action=say(lang, f"verb.{rec.action}"), option=gpu_words(best), rest=rec.workload.users)
    if rec.training_run is not None:
        job = say(lang, "job.serve")
    if best.owned_gpus:  # more of your own card beside yours
        head = "## " + say(lang, f"head.extend_{rec.action}", added=best.gpus - best.owned_gpus, gpu=best.gpu_name,
                           owned=best.owned_gpus, job=job)
        if best.pp > 1 and best.tp is not None:
            head += say(lang, "head.layout_pp", tp=best.tp, pp=best.pp, network=_fabric(best, lang))
        return head
    # ('we own H100s, how many do we need': run it on yours, never rent them)
    unpriced = rec.action in ("rent", "buy") and not best.usd_per_hour and not best.purchase_usd \
        and not _yours_uncounted(rec)
    against = _buy_not_paying(rec, lang)
    if against is not None:
        return against
    bought = unpriced and rec.action == "buy" and rec.workload.preference == "buy"  # a purchase said, no price on record
    action = ("head.use_uncounted" if _yours_uncounted(rec) else "head.unpriced" if unpriced and not bought
              else f"head.{rec.action}")
    server = rec.action == "buy" and not unpriced and bool(best.purchase_usd) and partial_server(best)
    head = "## " + (bought_head(best, job, lang, lambda usd: cash(usd, rec)) if server  # the server, its price
                    else say(lang, action, option=plan_words(best, lang), job=job))
    head += _sized_from_figures(rec, lang) + _layout_suffix(best, lang)
    if rec.action == "use" and one_at_home(rec.workload) and best.decode_tokens_per_s and best.precision:
        # one person at home: what runs on their own card, and how fast, is the answer
        head += say(lang, "head.home_speed", model=_model_name(rec, lang), precision=best.precision,
                    tps=tps(best.decode_tokens_per_s))
    head += unit_note(best, rec.action, unpriced, server, lang, bought)
    if rec.training_run is not None:
        head += say(lang, "head.train_run", option=gpu_words(rec.training_run))
    return head


def _sized_from_figures(rec: Recommendation, lang: str) -> str:
    """A model known only by its total and active parameters ('总参数两千三百亿，激活二百二十亿', '230B total, 22B active',
    an in-house MoE): the heading says the plan is sized from those figures (review CD #12)."""
    model = _model(rec)
    if not str(model.id).startswith("generic-") or model.active_params_b >= model.total_params_b:
        return ""
    return say(lang, "head.sized_from_figures", total=f"{model.total_params_b:g}B", active=f"{model.active_params_b:g}B")


def _yours_uncounted(rec: Recommendation) -> bool:
    """The plan's cards are of the kind the user owns, in a number not said ('we own H100s, how many do we need'): the
    count is how many of theirs to run it on, never an order to rent them (review BJ #6)."""
    w, best = rec.workload, rec.best
    return (best is not None and w.fewest_owned and not w.owned and rec.action in ("rent", "buy")
            and any(c.split()[-1] == best.gpu for c in w.candidates or []) and not best.owned_gpus)


def memory_headline(rec: Recommendation, lang: str) -> str | None:
    """A question about memory alone ('how much vram to full finetune llama 3b'): the plan under the figure is
    cards that hold it, not an order to rent or buy them. None when the plan is the user's own cards or none."""
    best = rec.best
    if best is None or best.owned or rec.action not in ("rent", "buy") or rec.owned_share is not None:
        return None
    return "## " + say(lang, "head.memory", option=plan_words(best, lang), job=say(lang, f"job.{rec.workload.phase}"))


def fits_headline(rec: Recommendation, lang: str, asked: dict[str, Any]) -> str | None:
    """'does it fit on one 8xH100 node?': the plan under the yes or no is the cards asked about ('It fits: 8 × H100
    for serving'), or the cards that hold it, never an order to buy or rent them. None when the plan is the
    user's own cards or none."""
    best = rec.best
    if best is None or best.owned or rec.action not in ("rent", "buy") or rec.owned_share is not None \
            or not (best.usd_per_hour or best.purchase_usd):  # an unpriced plan's headline is no order already
        return None
    if asked.get("fits") and asked.get("gpu") == best.gpu and asked.get("gpus") == best.gpus:
        return "## " + say(lang, "head.fits", option=plan_words(best, lang), job=say(lang, f"job.{rec.workload.phase}"))
    return memory_headline(rec, lang)


def _fabric(o: Option, lang: str) -> str:
    """The network between servers a pipeline-staged plan runs on: the one the user said ('万兆网': 10 Gb/s, review BT
    #13 headed 'InfiniBand 或 RoCE'), else what it needs: RoCE for Huawei's Ascend servers, else InfiniBand or RoCE."""
    if o.pipeline_network_gbit:
        return say(lang, "fabric.said", gbit=f"{o.pipeline_network_gbit:g}")
    return say(lang, "fabric.roce" if find_gpu(o.gpu).vendor == "huawei" else "fabric.ib_or_roce")


def decision(answer: Answer, lang: str) -> dict[str, Any]:
    """What was decided, as data: what scenario checks and rich front-ends read."""
    rec = answer.recommend
    best = rec.best
    split = _split_decision(rec)
    if split is not None:  # your own card with part of the model in RAM leads: that is what was decided
        return split | {"lang": lang}
    return {
        "action": rec.action, "gpu": best.gpu if best else None, "gpus": best.gpus if best else 0,
        "owned": bool(best and best.owned), "fits": bool(best and best.ok),
        "owned_gpus": best.owned_gpus if best else 0,
        "meets": {k: (best.meets.get(k) if best else False) if _stated(rec, k) else None
                  for k in ("deadline", "latency", "budget", "e2e")},
        "model": rec.model_id, "precision": best.precision if best and best.precision else rec.precision,
        "engine": best.engine if best else None, "runtime": best.runtime if best else None, "lang": lang,
        "training": {"gpu": rec.training_run.gpu, "gpus": rec.training_run.gpus} if rec.training_run else None,
        "layout": {"replicas": best.replicas, "tp": best.tp, "pp": best.pp, "servers": best.servers,
                   "server_gpus": best.server_gpus, "link_within": best.link_within,
                   "link_between": best.link_between} if best and best.tp is not None else None,
    }


def _split_decision(rec: Recommendation) -> dict[str, Any] | None:
    """The decision when the llama.cpp split on the user's own cards leads (rec.offload_leads): those cards, used, in
    the split's file, so the data says what the headline and the command say; None otherwise."""
    o, best = rec.offload, rec.best
    if not rec.offload_leads or o is None or best is None or best.owned:
        return None
    mine = next((x for x in rec.owned_options if x.gpu_name == o.gpu), None)
    return {"action": "use", "gpu": mine.gpu if mine else None, "gpus": o.gpus, "owned": True, "fits": o.fits,
            "owned_gpus": 0, "meets": {k: None for k in ("deadline", "latency", "budget", "e2e")},
            "model": o.model_id, "precision": o.precision, "engine": "llama.cpp", "runtime": "llama.cpp",
            "training": None, "layout": None, "offload": o.flags}


def _stated(rec: Recommendation, constraint: str) -> bool:
    w = rec.workload
    return {"deadline": w.deadline_hours is not None,
            "latency": w.latency_stated,
            "e2e": w.e2e_ms is not None,
            "budget": w.budget_usd is not None or w.budget_usd_per_month is not None}[constraint]


def _train_plan_lines(rec: Recommendation, lang: str) -> list[str]:
    from gpu_advisor.assistant.rl_owned import owned_full_lines
    from gpu_advisor.assistant.train_plans import train_count_lines, train_offload_lines

    return train_offload_lines(rec, lang) + train_count_lines(rec, lang) + owned_full_lines(rec, lang)


def _zero_offload_lines(key: str, best: Option, lang: str) -> list[str]:
    """A full fine-tune kept on your card by a precision or optimizer change: ZeRO-3 with the optimizer states in
    CPU memory is the other way (AdamW and mixed precision as usual, slower steps)."""
    if key not in ("adamw-8bit", "pure-bf16", "pure-bf16-adamw-8bit"):
        return []
    return [say(lang, "answer.zero_offload_owned", option=gpu_words(best, lang)), ""]


def write_answer(answer: Answer, profile: Profile, defaulted: dict[str, str], changed: list[str], lang: str,
                 notes: list[str] | None = None, said: list[str] | None = None,
                 own_prices: bool = False) -> tuple[str, dict[str, Any]]:
    """The answer in Markdown, and its options table as data; `said` is what was read from the user's
    own words, which opens the assumptions so that a misreading shows. `own_prices`: the user gave
    rent and buy prices, compared after the answer, so the catalog's comparison is left out."""
    rec = answer.recommend
    best = rec.best
    from gpu_advisor.assistant.adapters_reply import adapter_lines
    from gpu_advisor.assistant.china_market import grey_headline
    from gpu_advisor.assistant.choice_rows import neither_headline
    from gpu_advisor.assistant.count_grew import grew_lines
    from gpu_advisor.assistant.home_short import home_lines, slow_at_home
    from gpu_advisor.assistant.launch_reply import start_ending
    from gpu_advisor.assistant.named_hold import named_hold_lines
    from gpu_advisor.assistant.own_card_head import own_card_lines
    from gpu_advisor.assistant.owned_near import beside_key, leads, near_lines
    from gpu_advisor.assistant.phase_moved import beyond_lines
    from gpu_advisor.assistant.vllm_offload_reply import vllm_offload_lines

    neither = neither_headline(answer, lang)  # your card at home first, the plan as its step up (own_card_head)
    own = [] if neither else own_card_lines(rec, lang) or near_lines(rec, lang)  # (a few cards owned: owned_near)
    lines = [*(own or [neither or headline(rec, lang), ""]), *named_hold_lines(rec, lang), *grey_headline(rec, lang),
             *grew_lines(rec, lang)]  # (a grey pick in China, the count said grown: said under the headline)
    if changed:
        lines += [say(lang, "answer.updated", slots=say(lang, "list_sep").join(changed)), ""]
    for note in notes or []:
        lines += [note, ""]
    lines += beyond_lines(answer, lang)  # 'and for fine-tuning it?': the machines weighed, each (assistant.phase_moved)
    if rec.offload_leads:  # (short at home: the smallest change and the fallback model follow, assistant.home_short)
        lines += _offload_lines(rec, lang, profile.engine_app) + home_lines(rec, lang)
    lines += _relaxed_lines(rec, lang)
    if rec.ruled_out:
        lines += [say(lang, "answer.domestic_ruled_out", cards=cards_words(rec.ruled_out, lang)), ""]
    lines += _home_alternative(rec, lang)
    lines += [] if rec.offload_leads else _offload_lines(rec, lang, profile.engine_app)
    if rec.offload_leads and best is not None and not best.owned:
        # your card with part in RAM is the answer: the rented cards below are the all-on-a-card alternative,
        # not a plan that replaces it (no "cannot do this", no renting the whole service, no rent-or-buy)
        lines += [say(lang, "answer.offload_all_on_card_slow" if slow_at_home(rec) else "answer.offload_all_on_card",
                      option=gpu_words(best)), ""]
    else:
        lines += ([] if leads(rec) and own else _owned_lines(rec, lang)) + _train_plan_lines(rec, lang) \
            + pool_lines(rec.pool, lang)  # (what your cards hold is said under the heading: owned_near)
        if rec.pool_leads and best is not None and not best.owned:  # the rented plan below is the alternative
            lines += [say(lang, "answer.pool_rented_instead", option=gpu_words(best)), ""]
    if rec.beside_yours is not None and best is not None and not rec.offload_leads:
        lines += [say(lang, beside_key(rec, f"answer.beside.{rec.beside_yours}"), option=gpu_words(best),
                      added=f"{best.gpus - best.owned_gpus:,}", owned=f"{best.owned_gpus:,}"), ""]
    share = None if leads(rec) and own else rec.owned_share  # (what your cards hold is said under the heading)
    if share is not None and rec.owned_users:
        shown = (share.precision or "") + (say(lang, "fig.kv", kv=share.kv_precision.upper()) if share.kv_precision else "")
        lines += [say(lang, "fig.owned_share", option=gpu_words(share), n=rec.owned_users, precision=shown,
                      tps=tps(share.decode_tokens_per_s or 0), used=gb(share.serve_per_gpu_bytes or 0),
                      capacity=gb(share.capacity_bytes)), ""]
        if rec.owned_context:
            lines += [say(lang, "fig.owned_context", users=f"{rec.workload.users + rec.owned_users:,}",
                          option=gpu_words(share), context=f"{rec.owned_context:,}", full=f"{rec.workload.context:,}",
                          n=f"{rec.owned_users:,}"), ""]
    if best:
        lines += _figures(answer, lang, profile.engine_app)
    lines += adapter_lines(rec, lang)  # 'serve 50 customer-specific LoRAs' (assistant.adapters_reply)
    lines += vllm_offload_lines(rec, profile, lang)  # 'can i offload to cpu with vllm' (assistant.vllm_offload_reply)
    lines += _better_lines(rec, lang)
    t = table(answer, lang)
    if not [o for o in rec.options if o.ok] and not (best is not None and best.ok):
        lines += [say(lang, "answer.closest"), ""]
    lines += markdown_table(t) + [""]
    lines += _cheaper_row_lines(answer, lang) or cheaper_why_lines(answer, lang, table_options(answer), gpu_words, _price_cell)
    lines += _quote_lines(rec, lang)
    lines += rent_unit_lines(rec, lang)  # 4 x B200 rented: why that count is to be had (assistant.rent_unit_reply)
    lines += _reasons(answer, lang)
    lines += _levers(rec, lang)
    lines += lever_lines(rec, lang)  # prefix caching, speculative decoding (assistant/serving_levers.py)
    lines += _one_card_lines(answer, lang)
    # nothing meets the budget: what it buys of the closest option, and how many it serves (assistant.budget_holds)
    lines += _budget_lines(rec, lang) if best is not None else held_block(rec, lang, bought_words, cash, tps)
    lines += [] if own_prices or rec.offload_leads or rec.pool_leads else _rent_or_buy_lines(rec, lang)
    restricted = {x.partition(EXPORT_SAID)[0] for x in (best.warnings if best else []) if EXPORT_SAID in x}
    warnings = list(dict.fromkeys((best.warnings if best else []) + rec.warnings
                                  + [x for o in answer.options for x in o.warnings
                                     if x.partition(EXPORT_SAID)[0] not in restricted]  # the plan's card: said once, as had
                                  + _alternative_stack_warnings(answer)))
    lines += [f"⚠ {localise(lang, x)}" for x in warnings] + ([""] if warnings else [])
    lines += _assumption_lines(answer, profile, defaulted, lang, said)
    lines += [f"- {x}" for x in _plan_lines(rec, lang)]
    lines += start_ending(rec, lang)  # "Start it:": the command that starts the plan (assistant/launch_reply.py)
    lines += ["", say(lang, "answer.footer")]
    return "\n".join(lines), t


EXPORT_SAID = " is export-restricted:"  # tools.recommend.china_supply's warnings, one per card


def _cheaper_row_lines(answer: Answer, lang: str) -> list[str]:
    """A row cheaper than the pick whose price comes from too few offers: why it does not lead (its price must beat
    the well-sourced pick by more than the usual spread of prices, tools.cost.offer_spread)."""
    best = answer.recommend.best
    if best is None or best.owned or answer.recommend.action == "buy":
        return []  # bought: ranked on what buying costs, not on a rental offer's price
    # a service (trained first or not) is ranked on its rent by the hour, a job on what a run costs
    serves = answer.recommend.workload.spec.serves
    key = "job_usd" if best.job_usd is not None and not serves else "usd_per_hour"
    mine = getattr(best, key)
    if not mine:
        return []
    if few_offers(best.price_offers):
        return _few_offers_lead(answer, best, key, mine, lang)
    for o in table_options(answer):
        theirs = getattr(o, key)
        if o.owned or not o.ok or not theirs or theirs >= mine or not few_offers(o.price_offers):
            continue
        n = o.price_offers or 0
        if doubly_unsure(o, answer.recommend.workload):  # priced thinly and off CUDA, unasked: not headlined
            return [say(lang, "answer.cheaper_unsure", option=gpu_words(o, lang), price=_price_cell(o, theirs),
                        pick=_price_cell(best, mine), n=n), ""]
        return [say(lang, "answer.cheaper_few_offers_one" if n == 1 else "answer.cheaper_few_offers",
                    option=gpu_words(o), price=_price_cell(o, theirs),
                    pick=_price_cell(best, mine), n=n,
                    spread=f"{offer_spread().spread * 100:.0f}"), ""]
    return []


def _few_offers_lead(answer: Answer, best: Option, key: str, mine: float, lang: str) -> list[str]:
    """The pick's price rests on few offers: it leads only by beating the best card priced from many offers
    (rules.well_sourced_offers) by more than the usual spread, and that card is named with its price (issue 23)."""
    from gpu_advisor.knowledge import rules

    well = [o for o in table_options(answer) if o.ok and not o.owned and o.gpu != best.gpu and getattr(o, key)
            and (o.price_offers or 0) >= rules().well_sourced_offers]
    if not well:
        return []
    alt = min(well, key=lambda o: getattr(o, key))
    if getattr(alt, key) <= mine:
        return []  # planned on the card asked about, not on its price: no 'beats' to say (review BY #4's follow-up)
    n = best.price_offers or 0
    return [say(lang, "answer.leads_few_offers_one" if n == 1 else "answer.leads_few_offers", pick=gpu_words(best, lang),
                price=_price_cell(best, mine), option=gpu_words(alt, lang), alt=_price_cell(alt, getattr(alt, key)),
                n=n, spread=f"{offer_spread().spread * 100:.0f}"), ""]


def _rent_quoted(w: Any, gpu_id: str) -> bool:
    """Whether the user gave a rent for this card (not only a purchase price)."""
    said = quoted(w, gpu_id)
    return said is not None and said.usd_per_gpu_hour is not None


def _quote_lines(rec: Recommendation, lang: str) -> list[str]:
    """The rental prices the user was quoted, and what each quoted card costs at them for this job (the
    options' own figures): on demand for the hours used, a reservation for every hour."""
    w = rec.workload
    items = []
    for q in w.quotes:
        o = next((x for x in rec.options if x.gpu == q.gpu and x.ok), None) \
            or next((x for x in rec.options if x.gpu == q.gpu), None)
        name = o.gpu_name if o is not None else find_gpu(q.gpu).name
        if q.usd_per_gpu_hour is None:  # a purchase price only: what the option costs to buy at it
            price = cash(q.buy_usd_per_gpu or 0.0, rec)
            items.append(say(lang, "quotes.item_buy_unsized", gpu=name, price=price) if o is None or o.purchase_usd is None
                         else say(lang, "quotes.item_buy", gpu=name, price=price, option=gpu_words(o, lang),
                                  total=cash(o.purchase_usd, rec),
                                  fits=say(lang, "quotes.fits" if o.ok else "quotes.short")))
            if q.machine_gpus:  # '8卡整机120万一台': the machine's price as said, each card's share of it above
                items[-1] += say(lang, "quotes.machine_price", m=q.machine_gpus,
                                 machine=cash((q.buy_usd_per_gpu or 0.0) * q.machine_gpus, rec))
            continue
        rate = cash(q.usd_per_gpu_hour, rec)
        if o is None or o.usd_per_month is None:
            items.append(say(lang, "quotes.item_unsized", gpu=name, rate=rate))
            continue
        if not q.reserved and not w.spec.serves and not w.runs_per_month and o.job_usd is not None:
            items.append(say(lang, "deadline.quote_run", gpu=name, rate=rate, option=gpu_words(o, lang),
                             run=cash(o.job_usd, rec), hours=hours(o.job_hours or 0.0),
                             fits=say(lang, "quotes.fits" if o.ok else "quotes.short")))  # a one-off job: per run
            continue
        key = "quotes.item_reserved" if q.reserved else "quotes.item"
        items.append(say(lang, key, gpu=name, rate=rate, option=gpu_words(o, lang), month=cash(o.usd_per_month, rec),
                         use=pct(w.utilisation), fits=say(lang, "quotes.fits" if o.ok else "quotes.short")))
        if q.machine_gpus and o.gpus % q.machine_gpus:  # a whole machine quoted, part of it planned: both said
            machines = -(-o.gpus // q.machine_gpus)
            whole = o.usd_per_month * machines * q.machine_gpus / o.gpus
            items[-1] += say(lang, "quotes.part_of_machine", n=o.gpus, m=q.machine_gpus, machines=machines,
                             month=cash(o.usd_per_month, rec), whole=cash(whole, rec))
    if not items:
        return []
    lines = [say(lang, "quotes.head"), *[f"- {x}" for x in items]]
    doing = [o for o in rec.options if o.ok and not o.owned and o.usd_per_month is not None
             and _rent_quoted(w, o.gpu)]
    cheapest = min(doing, key=lambda o: o.usd_per_month or 0.0) if len(doing) > 1 else None
    best = rec.best
    if cheapest is not None and best is not None and (cheapest.gpu, cheapest.gpus) == (best.gpu, best.gpus):
        lines.append(say(lang, "quotes.cheapest_is_plan", option=gpu_words(cheapest)))
    elif cheapest is not None and best is not None:
        why = say(lang, "quotes.why_tight", spare=pct(cheapest.headroom_fraction)) \
            if cheapest.headroom_fraction < TIGHT_HEADROOM else say(lang, "quotes.why_other")
        lines.append(say(lang, "quotes.cheapest_not_plan", option=gpu_words(cheapest), best=gpu_words(best),
                         month=cash(cheapest.usd_per_month or 0.0, rec), why=why))
    return [*lines, ""]


def _offload_lines(rec: Recommendation, lang: str, app: str | None = None) -> list[str]:
    """The model asked for on your own card with part of it in system RAM (tools.offload): the split, the RAM
    it takes and the speed range the RAM's bandwidth gives."""
    o = rec.offload
    if o is None:
        return []
    said = rec.workload.system_ram_gb
    ram = (say(lang, "answer.offload_ram_unsaid") if said is None else
           say(lang, "answer.offload_ram_ok" if o.ram_ok else "answer.offload_ram_short", said=f"{said:g}"))
    slow, fast = o.decode_tokens_per_s_range
    on_card = say(lang, "offload.on_card.one", gb=f"{o.gpu_gb:,.1f} GB") if o.gpus == 1 or not o.tensor_split else \
        say(lang, "offload.on_card.many", n=o.gpus, gb=f"{o.gpu_gb:,.1f} GB", per=f"{o.gpu_gb_per_card:,.1f} GB",
            ts=",".join(str(c) for c in o.tensor_split))
    figures = {"model": model_words(o.model, lang), "precision": o.precision.upper(), "layers": o.layers,
               "on_card": on_card, "flags": o.flags, "ram_gb": f"{o.ram_gb:,.1f} GB", "tps": tps(o.decode_tokens_per_s),
               "slow": tps(slow), "fast": tps(fast), "full": tps(o.all_on_card_tokens_per_s),
               "ram_needed": f"{math.ceil(o.ram_needed_gb):,} GB", "reserve": f"{OS_RESERVE_GB:g}", "ram": ram}
    if o.mode == "experts":
        return [say(lang, "answer.offload_experts", n=o.cpu_moe_layers or 0, **figures), ""]
    pre = "-".join(f"{x:,.0f}" for x in o.prefill_tokens_per_s_range)
    text = say(lang, "answer.offload_layers", ngl=o.gpu_layers, prefill=pre, **figures)
    if app == "ollama":  # the same split in ollama's own words: the layers it puts on the GPU
        text += say(lang, "answer.offload_ollama", ngl=o.gpu_layers)
    return [text, ""]


def _better_lines(rec: Recommendation, lang: str) -> list[str]:
    """The better (or priced) choice beside a plan on the cards the user named, said for the job's own
    phase (the same run, the same batch job, the same users) with the reason it was named (a code)."""
    alt, why = rec.better, rec.better_why
    if alt is None or why is None:
        return []
    head = say(lang, {"unpriced": "better.head.priced", "budget": "better.head.datacentre",
                      "grey": "better.head.official"}.get(why, "better.head.better"))
    budget = rec.workload.budget_usd_per_month
    reason = say(lang, f"better.why.{why}", month=cash(alt.usd_per_hour * service_hours(rec.workload), rec)
                 if alt.usd_per_hour else "", budget=cash(budget, rec) if budget else "")
    spec = rec.workload.spec
    if (spec.trains or spec.batch) and alt.job_hours is not None and alt.job_usd is not None:
        key = "answer.better.train" if spec.trains else "answer.better.batch"
        return [say(lang, key, head=head, option=gpu_words(alt), hours=hours(alt.job_hours),
                    usd=cash(alt.job_usd, rec), why=reason), ""]
    if spec.serves and alt.decode_tokens_per_s and why == "grey" and alt.purchase_usd:
        return [say(lang, "answer.better.serve_buy", head=head, option=gpu_words(alt), tps=tps(alt.decode_tokens_per_s),
                    usd=cash(alt.purchase_usd, rec), spare=pct(alt.headroom_fraction), why=reason), ""]
    if spec.serves and alt.decode_tokens_per_s and alt.usd_per_hour:
        return [say(lang, "answer.better.serve", head=head, option=gpu_words(alt), tps=tps(alt.decode_tokens_per_s),
                    price=_price_cell(alt, alt.usd_per_hour), spare=pct(alt.headroom_fraction), why=reason), ""]
    return []


def _home_alternative(rec: Recommendation, lang: str) -> list[str]:
    """One person at home answered on their own card: renting as the alternative, with its price (the model
    asked for, when a smaller one leads; else the cheapest rented option that does the job)."""
    best = rec.best
    if best is None or not best.owned or not one_at_home(rec.workload):
        return []
    if rec.instead is not None and rec.instead_model and rec.instead.usd_per_hour:
        o = rec.instead
        return [say(lang, "answer.instead_rent", model=model_words(rec.instead_model, lang), option=gpu_words(o),
                    price=_price_cell(o, o.usd_per_hour), tps=tps(o.decode_tokens_per_s or 0)), ""]
    rented = next((o for o in rec.options if o.ok and not o.owned and o.usd_per_hour and o.decode_tokens_per_s), None)
    if rented is None or rec.workload.personal:
        return []  # (one person's own job, done on their own device: no rental to suggest)
    return [say(lang, "answer.or_rent", option=gpu_words(rented), price=_price_cell(rented, rented.usd_per_hour),
                tps=tps(rented.decode_tokens_per_s or 0)), ""]


def _lacks_fp8(option: Option | None) -> bool:
    """Whether the plan's card has no FP8 units (an H100 served by llama.cpp in q8_0 has them: the engine
    decides there, not the card)."""
    if option is None:
        return False
    try:
        return find_gpu(option.gpu).fp8_tflops is None
    except (LookupError, ValueError):
        return False


def _no_8bit_units(option: Option | None) -> bool:
    """Whether the plan's card is an NVIDIA card with neither FP8 nor INT8 tensor cores (Volta): it is served in its
    own 16-bit format (tools.recommend.serving_precision)."""
    if option is None:
        return False
    try:
        gpu = find_gpu(option.gpu)
    except (LookupError, ValueError):
        return False
    return gpu.stack == "cuda" and not gpu.fp8_tflops and not gpu.int8_tops


def _assumption_lines(answer: Answer, profile: Profile, defaulted: dict[str, str], lang: str,
                      said: list[str] | None) -> list[str]:
    """What was read from the user's words, then what was assumed (the defaults that matter here)."""
    rec = answer.recommend
    w, best = rec.workload, rec.best
    lines: list[str] = []
    if said:
        lines += [say(lang, "answer.you_said", said=say(lang, "sep").join(said)), ""]
    lines.append(say(lang, "answer.assumptions"))
    data = profile.model_dump()
    owned = rec.action == "use"
    # the plan moved the weights to another format (4-bit, a llama.cpp 3-, 2- or 1-bit file): that format is
    # the assumption to say, not the default it replaced
    relaxed_format = LEVER_SLOTS.get((rec.relaxed or "").partition("=")[0]) == "precision"
    for slot, words in defaulted.items():
        if relevant(slot, data) and not (owned and slot in ("region", "preference", "utilisation")) \
                and not (relaxed_format and slot == "precision"):
            lines.append(f"- {words}")
    if (w.spec.serves or w.spec.batch) and (profile.precision is None or relaxed_format) \
            and ((best and best.precision) or rec.precision):
        shown = (best.precision if best and best.precision else rec.precision) or ""
        mixed = len({o.precision for o in table_options(answer) if o.precision}) > 1 and _lacks_fp8(best)
        native = _native(rec)
        key = ("answer.precision_encoder" if _model(rec).encoder and shown == "bf16" else
               "answer.precision_native" if native == shown else
               ("answer.precision_widened" if weight_bits(shown) > weight_bits(native) + 1 else
                "answer.precision_converted" if weight_bits(shown) >= weight_bits(native) else "answer.precision_shrunk") if native else
               "answer.precision_one_bit" if weight_bits(shown) < ONE_BIT_FILE_BITS else
               "answer.precision_low_bit" if weight_bits(shown) < 3.5 else
               "answer.precision_three_bit" if shown in FOUR_BIT and weight_bits(shown) < 4 else  # Q3_K_M: 3.9 bits
               "answer.precision_four_bit" if shown in FOUR_BIT else
               "answer.precision_default_fp8" if shown == "fp8" else
               "answer.precision_default_16bit" if shown in ("fp16", "bf16") and _no_8bit_units(best) else
               "answer.precision_default_mixed" if mixed else "answer.precision_default")
        lines.append("- " + say(lang, key, precision=shown, bits=f"{weight_bits(shown):.2g}", native=native or ""))
    lines += [x for x in [swapped_format_line(profile.precision, best, lang)] if x]  # 'fp8' on a 910B: W8A8, said
    if w.spec.serves and w.images_per_request and not rec.image_tokens:
        lines.append("- " + say(lang, "answer.images_text_model", images=w.images_per_request))
    elif w.spec.serves and w.images_per_request:
        lines.append("- " + say(lang, "answer.prompt_images", images=w.images_per_request, each=f"{rec.image_tokens:,}",
                                prompt=f"{w.prompt_length():,}"))
    elif w.spec.serves and (w.ttft_ms is not None or w.e2e_ms is not None) and not w.prompt_tokens:
        lines.append("- " + say(lang, _by_use("answer.prompt", w), prompt=f"{w.prompt_length():,}", use=_use(w, lang)))
    elif w.spec.serves and profile.requests_per_s and not profile.prompt_tokens:
        # the rate path fills the workload's lengths: the user's own words are the profile's
        lines.append("- " + say(lang, _by_use("answer.rate_prompt", w), prompt=f"{rate_lengths(w)[0]:,}",
                                use=_use(w, lang)))
    if w.spec.serves and w.e2e_ms is not None and not profile.output_tokens and best is not None \
            and best.e2e_output_tokens:
        lines.append("- " + say(lang, "answer.e2e_output_default", output=f"{best.e2e_output_tokens:,}"))
    if w.spec.serves and profile.requests_per_s and not profile.output_tokens:
        key = "answer.rate_output_reasoning" if reasoning_output(w.model) else _by_use("answer.rate_output", w)
        lines.append("- " + say(lang, key, output=f"{rate_lengths(w)[1]:,}", use=_use(w, lang)))
    lines += tpot_tail_lines(w, rec.traffic, lang)
    if best is not None and best.kv_precision:
        kv = best.kv_precision
        quarter = kv in ("q4_0", "int4")
        lines.append("- " + say(lang, "answer.kv_cache", kv=kv.upper(), flag=_kv_flag(best),
                                share=say(lang, "kv.share_quarter" if quarter else "kv.share_half"))
                     + _kv_saving(best, lang))
    return lines


def _by_use(key: str, w: Any) -> str:
    """A length's assumption: typical of the use said (knowledge use_cases), else the tools' default."""
    return key + ("_use_case" if use_case(w.use_case) else "_default")


def _use(w: Any, lang: str) -> str:
    return say(lang, f"use_case.{w.use_case}") if use_case(w.use_case) else ""


def _kv_flag(o: Option) -> str:
    """The engine's switch for the option's KV-cache format."""
    kv = o.kv_precision
    return (f"llama.cpp -ctk {kv} -ctv {kv} -fa" if o.engine == "llama.cpp"
            else f"{o.runtime or 'vLLM'} --kv-cache-dtype {kv}")


def _kv_saving(o: Option, lang: str) -> str:
    """What the option's smaller KV cache saves against the 16-bit one, from the tool's cache term."""
    if o.kv_saved_bytes is None or o.kv_cache_16bit_bytes is None:
        return ""
    return say(lang, "kv.saves", saved=gb(o.kv_saved_bytes), full=gb(o.kv_cache_16bit_bytes))


# Whole-file bits a weight under which a llama.cpp file is a 1-bit type (IQ1_S 2.0, IQ1_M 2.15 in
# knowledge/data/precisions.yaml; IQ2_XXS is 2.38): rarely usable, said so.
ONE_BIT_FILE_BITS = 2.2


def _plan_lines(rec: Recommendation, lang: str) -> list[str]:
    """The tools' own assumptions, in the user's language (their English text stays in the payload)."""
    from gpu_advisor.tools.recommend import BATCH_JOB_CONCURRENCY

    w = rec.workload
    lines = []
    if w.spec.batch:
        lines.append(say(lang, "plan.batch", concurrency=BATCH_JOB_CONCURRENCY))
        if _model(rec).encoder:
            lines.append(say(lang, "plan.encoder", model=_model_name(rec, lang),
                             params=f"{_model(rec).total_params_b * 1e3:,.0f}"))
    if w.reinforces:
        split = rec.trains_on is not None and rec.trains_on.rl is not None and rec.trains_on.rl.layout == "split"
        lines.append(say(lang, "plan.rl_steps" if w.rl_run_steps else "plan.rl", algorithm=w.rl_algorithm.upper(),
                         prompts=f"{w.rl_prompts:,}", steps=f"{w.rl_run_steps or 0:,}", per_step=f"{w.rl_prompts_per_step:,}",
                         where=say(lang, f"plan.rl_where.{'split' if split else 'colocate'}"),
                         samples=w.rl_samples, completion=f"{w.rl_completion_tokens:,}", prompt=f"{w.rl_prompt_tokens:,}",
                         method=say(lang, f"method.{w.method}"), trained=token_count(w.tokens_per_run(_model(rec))))
                     + _critic_words(w, lang))
        lines += _reward_lines(rec, lang)
    elif w.spec.trains:
        kind = say(lang, f"plan.{w.phase}") if w.spec.pretrains else say(lang, f"method.{w.method}")
        if w.method == "qlora" and w.qlora_base and not w.spec.pretrains:
            kind += say(lang, "plan.qlora_base", bits=w.qlora_base)
        dpo = say(lang, "plan.dpo") if w.objective == "dpo" else ""
        sharded = rec.trains_on is not None and rec.trains_on.gpus > 1
        lines.append(say(lang, "plan.train", kind=kind, dpo=dpo, tokens=token_count(w.tokens_per_run(_model(rec))),
                         epochs=f"{w.epochs:g}", seq=f"{w.seq_len:,}") + (say(lang, "plan.sharded") if sharded else ""))
        if w.framework:  # named by the user: its defaults size the run (tools.training presets)
            from gpu_advisor.tools.training import framework_on

            preset = framework_on(w.framework, rec.trains_on.gpus if rec.trains_on is not None else 1)
            lines.append(say(lang, "plan.framework", name=preset.name))
    if w.exclude and len(w.exclude) > LISTED_CARDS_MAX:
        lines.append(say(lang, "plan.exclude_many", n=f"{len(w.exclude)}"))
    elif w.exclude:
        lines.append(say(lang, "plan.exclude", cards=cards_words(w.exclude, lang)))
    if w.candidates and w.candidates != rec_default_candidates(w):
        lines.append(say(lang, "plan.only", cards=cards_words(w.candidates, lang)))
    return lines


def _other_model(spec: str) -> str:
    """A model beside the policy by its name ('Qwen2.5 7B'), or its size as said ('7B')."""
    from gpu_advisor.tools.models import resolve_model

    return spec if spec[:1].isdigit() else resolve_model(spec).name


def _critic_words(w, lang: str) -> str:
    """PPO's critic: the policy's size (the update doubles), or the one named."""
    if w.rl_algorithm != "ppo":
        return ""
    return say(lang, "plan.rl_ppo_critic", critic=_other_model(w.rl_critic_model)) if w.rl_critic_model \
        else say(lang, "plan.rl_ppo")


def _reward_lines(rec: Recommendation, lang: str) -> list[str]:
    """The reward model's share (memory and time, tools.rl), OpenRLHF's own critic default, and what is not modelled."""
    w, run = rec.workload, rec.trains_on
    if not w.rl_reward_model:
        return [say(lang, "plan.rl_not")]
    reward, lines = _other_model(w.rl_reward_model), []
    r = run.rl if run is not None else None
    if r is not None and r.fits:
        lines.append(say(lang, "plan.rl_reward", reward=reward, gb=gb(r.reward_per_gpu_bytes), h=hours(r.reward_hours)))
    if w.rl_algorithm == "ppo" and not w.rl_critic_model and w.framework == "openrlhf" \
            and w.rl_reward_model != w.model:  # a reward model of the policy's size makes no lighter critic
        lines.append(say(lang, "plan.rl_critic_openrlhf", reward=reward))
    return [*lines, say(lang, "plan.rl_not_reward")]


def rec_default_candidates(w) -> list[str]:
    from gpu_advisor.tools.recommend import CANDIDATES

    return CANDIDATES["china" if w.region == "china" else "global"]


def _native(rec: Recommendation) -> str | None:
    """The format the model's checkpoint ships in, when the user named none (else None)."""
    from gpu_advisor.tools.models import resolve_model

    return resolve_model(rec.workload.model).native_precision if rec.workload.serve_precision is None else None


def finding_sentence(finding: Finding, lang: str) -> str:
    """A tool's finding, from its code and figures, in the answer's language (figures in GB)."""
    if finding.code in EDGE_CODES:  # a training plan at the edge: with its levers (assistant.train_edge)
        return edge_sentence(finding, lang)
    values = {k: gb(v) if k.endswith("_bytes") and isinstance(v, float) else v for k, v in finding.values.items()}
    key = f"finding.{finding.code}" + ("_lora" if "lora_hours" in values else "")
    if finding.code in ("one_server_training", "across_servers_training"):  # what crosses: ZeRO-3's weights, or
        key += {"zero3": "", "data_parallel": "_adapters"}.get(str(values.get("layout")), "_plain")  # LoRA's adapters
    if "link" in values:  # inside each server: NVLink, or PCIe as the user said (review T29 #1)
        values["inside"] = say(lang, f"finding.inside.{values['link']}")
    return say(lang, key, **values)


def _owned_lines(rec: Recommendation, lang: str) -> list[str]:
    lines = []
    for o in rec.owned_options:
        if not o.ok:
            why = say(lang, "sep").join(localise(lang, r) for r in o.reasons) or say(lang, "owned.short")
            line = say(lang, "owned.cannot", option=gpu_words(o), why=why)
            if o.kv_precision and o.serves is False:  # the smaller KV cache was tried and is not enough alone
                line += say(lang, "owned.kv_tried", kv=o.kv_precision.upper(), flag=_kv_flag(o)) + _kv_saving(o, lang)
                line += say(lang, "fig.end")
            lines.append(line)
            if o.chosen_because == "closest" and o.layouts_tried:  # every layout of them, and how far each misses
                lines += [""] + _tried_lines(o, lang)[:-1]
    if lines:  # 'qlora 72b on my 2 x 3090': FSDP + QLoRA with CPU offload at a shorter sequence (assistant.fsdp_qlora)
        lines += [""] + fsdp_lines(rec, lang, gpu_words, gb)[:-1]
    return lines + [""] if lines else []


def _rl_lines(rec: Recommendation, run: Option, lang: str) -> list[str]:
    """An online RL fine-tune on its cards (tools.rl): memory shared by the trainer and the rollout engine, and a
    pass's time as the rollouts' generation plus the policy update."""
    from gpu_advisor.assistant.rl_layout import layout_lines, per_words, step_prompts, step_words, steps_words

    w, r = rec.workload, run.rl
    assert r is not None
    method = say(lang, f"method.{w.method}") if lang == "zh" else w.method
    if r.layout == "split":
        line = say(lang, "fig.rl_split", algorithm=w.rl_algorithm.upper(), method=method, model=_model_name(rec, lang),
                   r=r.rollout_gpus, t=r.train_gpus, engine=gb(r.engine_weights_per_gpu_bytes), tp=r.engine_tp,
                   kv=gb(r.kv_per_gpu_bytes), in_flight=r.rollouts_in_flight, train=gb(r.train_per_gpu_bytes),
                   capacity=gb(r.capacity_bytes))
    else:
        line = say(lang, "fig.rl", algorithm=w.rl_algorithm.upper(), method=method, model=_model_name(rec, lang),
                   used=gb(r.per_gpu_bytes), capacity=gb(r.capacity_bytes), train=gb(r.train_per_gpu_bytes),
                   engine=gb(r.engine_weights_per_gpu_bytes), kv=gb(r.kv_per_gpu_bytes))
    if rec.training_run is not None:
        line += say(lang, "fig.train_on", option=gpu_words(run))
    if r.fits:
        times = 1 if r.run_steps else w.epochs  # (a run said in steps holds its totals already)
        line += say(lang, "fig.rl_time", hours=hours(r.hours), rollout_h=hours(r.rollout_hours),
                    generated=token_count(r.generated_tokens * times), tps=tps(r.rollout_tokens_per_s),
                    update_h=hours(r.update_hours), trained=token_count(r.trained_tokens * times), per=per_words(r, lang))
        line += step_words(r, step_prompts(r, w.rl_prompts, w.rl_prompts_per_step), lang) + steps_words(r, w.rl_steps, lang)
        if run.training_usd is not None and not run.owned:
            line += say(lang, "fig.rented", usd=cash(run.training_usd, rec))
    across = [x for f in run.findings if f.code in ("rl_across_servers", "rl_one_server", *EDGE_CODES)
              for x in (finding_sentence(f, lang), "")]  # your servers over Ethernet: all of them, or one and why
    return [line + say(lang, "fig.end"), "", *across, *layout_lines(run, lang)]


def _train_lines(rec: Recommendation, run: Option, lang: str) -> list[str]:
    """Fine-tuning or pretraining on its cards: memory per GPU, time and cost per run, and its findings."""
    w = rec.workload
    assert run.train_per_gpu_bytes is not None
    method = say(lang, f"method.{w.method}") if lang == "zh" else w.method  # the English lines keep the short id
    line = say(lang, f"fig.{w.phase}" if w.spec.pretrains else "fig.train", method=method,
               model=_model_name(rec, lang), used=gb(run.train_per_gpu_bytes), capacity=gb(run.capacity_bytes))
    if rec.training_run is not None:
        line += say(lang, "fig.train_on", option=gpu_words(run))
    if run.training_hours is not None:
        tokens = w.tokens_per_run(_model(rec)) * w.epochs
        pairs = w.objective == "dpo" and not w.reinforces  # both sides of each pair run (reading/pair_tokens.py)
        line += say(lang, "fig.train_time_pairs" if pairs else "fig.train_time", hours=hours(run.training_hours),
                    tokens=token_count(tokens), both=token_count(2 * tokens))
        if run.training_usd is not None and not run.owned:
            line += say(lang, "fig.rented", usd=cash(run.training_usd, rec))
    return [line + say(lang, "fig.end"), "", *[x for f in run.findings for x in (finding_sentence(f, lang), "")]]


def _vision_key(rec: Any) -> str:
    """The vision tower's sentence: images cross-attended, images as tokens (in a fine-tune: the tower frozen under
    adapters, trained in a full one), or a tower alone."""
    w = rec.workload
    if rec.image_state_mb:
        return "fig.vision_cross"
    if not rec.image_tokens:
        return "fig.vision"
    if w.spec.trains and not w.spec.pretrains:
        return "fig.vision_train." + ("full" if w.method == "full" else "adapter")
    return "fig.vision_tokens"


def _figures(answer: Answer, lang: str, app: str | None = None) -> list[str]:
    rec = answer.recommend
    w, best = rec.workload, rec.best
    assert best is not None
    lines: list[str] = []
    run = rec.trains_on
    if w.reinforces and run is not None and run.rl is not None:
        lines += _rl_lines(rec, run, lang)
    elif w.spec.trains and run is not None and run.train_per_gpu_bytes is not None:
        lines += _train_lines(rec, run, lang)
    if w.spec.serves and best.serve_per_gpu_bytes is not None:
        users = (say(lang, "unit.in_flight", n=f"{w.users:,}") if rec.traffic is not None
                 else _users_words(w.users, best, lang))
        shown = (best.precision or "") + (say(lang, "fig.kv", kv=best.kv_precision.upper()) if best.kv_precision else "")
        line = say(lang, "fig.serve", model=model_words(rec.model_name, lang), precision=shown, users=users, context=f"{w.context:,}",
                   used=gb(best.serve_per_gpu_bytes), capacity=gb(best.capacity_bytes))
        if best.decode_tokens_per_s:
            line += _speed_words(w, best, best.decode_tokens_per_s, lang)
        full = full_prompt_ttft(w, best)  # '128k上下文': the first token of a prompt that fills it, said beside
        if best.ttft_s is not None and (w.ttft_ms is not None or w.prompt_tokens or full is not None):
            line += say(lang, "fig.ttft", ttft=seconds(best.ttft_s), prompt=f"{w.prompt_length():,}")
        if full is not None:
            line += say(lang, "fig.ttft_full", ttft=seconds(full), context=f"{w.context:,}")
        if best.runtime and app and best.engine == "llama.cpp":  # "with ollama": named, its llama.cpp underneath
            line += say(lang, "fig.engine_app", app=APP_NAMES.get(app, app))
        elif best.runtime:
            line += say(lang, "fig.engine", engine=best.runtime)
        lines += [line + say(lang, "fig.end"), ""]
        lines += _traffic_lines(rec, lang)
        lines += e2e_lines(rec, lang) + thinking_lines(rec, lang)  # a reasoning model's wait (tools.thinking_wait)
        from gpu_advisor.assistant.shape_words import shape_lines

        lines += shape_lines(rec, lang)
        tried = _tried_lines(best, lang) if best.owned or _named_by_user(w, best) else []  # not a rate plan's own pick
        lines += _layout_lines(best, lang) + tried + _serve_choice_lines(answer, lang)
    if rec.vision_params_b:
        lines += [say(lang, _vision_key(rec), model=model_words(rec.model_name, lang), vision=f"{rec.vision_params_b:g}",
                      tokens=rec.image_tokens, mb=f"{rec.image_state_mb or 0:,.0f}"), ""]
    if w.spec.batch and best.job_hours is not None:
        from gpu_advisor.assistant.chunk_words import batch_totals, chunk_lines

        written = w.written_per_item(_model(rec))
        total = sum(batch_totals(w))  # a chunked item: its chunks and merges read and written
        line = say(lang, "fig.batch" if written else "fig.batch_read_only", model=model_words(rec.model_name, lang),
                   items=f"{w.batch_items or 1:,}", tokens_in=f"{w.batch_input_tokens:,}",
                   tokens_out=f"{written:,}", total=token_count(total),
                   hours=hours(best.job_hours), option=gpu_words(best, lang),
                   tps=tps(best.aggregate_tokens_per_s or 0))
        if best.job_usd is not None:
            line += say(lang, "fig.rented", usd=cash(best.job_usd, rec))
        per = best.gpus // max(1, best.replicas)
        if per > 1:  # a copy over several cards: the size chosen for the most work per card (tools.recommend)
            line += say(lang, "fig.batch_copies" if best.replicas > 1 else "fig.batch_copy_one", replicas=best.replicas,
                        per=per)
        elif best.replicas > 1:
            line += say(lang, "fig.replicas", replicas=best.replicas, per=per)
        lines += [line + say(lang, "fig.end"), ""] + chunk_lines(w, model_words(rec.model_name, lang), lang, token_count)
        lines += _choice_lines(answer, lang)
    from gpu_advisor.assistant.deadline_margin import deadline_lines

    return lines + deadline_lines(w, best, lang)  # with a batch job's slow end and first-hour check


def _speed_words(w: Workload, best: Option, per_user: float, lang: str) -> str:
    """The plan's per-user speed (at the rate's load when queue-modelled: one figure), and its verdict against a
    product's floor (rules data) or the speed the user stated."""
    line = say(lang, "fig.speed_load" if best.at_load else "fig.speed", tps=tps(per_user),
               all=tps(best.aggregate_tokens_per_s or 0), tpot=seconds(best.tpot_s or 1 / per_user))
    if w.product_floor is not None:  # a product people use: the rules' per-user floor, said with its verdict
        line += say(lang, "fig.product_speed_met" if per_user >= w.product_floor else "fig.product_speed_missed",
                    target=f"{w.product_floor:,.0f}")
    if w.min_tokens_per_s is not None:
        met = per_user >= w.min_tokens_per_s
        line += say(lang, "fig.speed_met" if met else "fig.speed_missed",
                    target=f"{w.min_tokens_per_s:,.0f}" if w.min_tokens_per_s >= 10 else f"{w.min_tokens_per_s:.3g}")
    return line


def _choice_lines(answer: Answer, lang: str) -> list[str]:
    """'租 4090 还是 A100 划算' for a batch job: each card asked about, what a run costs on it and how long it takes,
    and which does it for less (the plan is on that one)."""
    rec = answer.recommend
    rows = [o for gpu_id in answer.choice for o in [rec.best, *answer.options]
            if o is not None and o.gpu == gpu_id and o.ok and o.job_usd is not None and o.job_hours is not None]
    rows = list({o.gpu: o for o in reversed(rows)}.values())  # one row a card, the plan's own first
    if len(rows) < 2:
        return []
    rows.sort(key=lambda o: o.job_usd or 0)
    cheap, dear = rows[0], rows[-1]
    return [say(lang, "fig.batch_choice", cheap=cheap.gpu_name, dear=dear.gpu_name,
                cheap_option=gpu_words(cheap, lang), dear_option=gpu_words(dear, lang),
                cheap_usd=cash(cheap.job_usd or 0, rec), dear_usd=cash(dear.job_usd or 0, rec),
                cheap_hours=hours(cheap.job_hours or 0), dear_hours=hours(dear.job_hours or 0),
                times=f"{(dear.job_usd or 0) / max(cheap.job_usd or 1e-9, 1e-9):.1f}"), ""]


def _serve_choice_lines(answer: Answer, lang: str) -> list[str]:
    """'H20 和 L20 哪个划算' for a service whose load was said: what a month of each costs at the count that serves
    that load (assistant.value's month basis, the one the plan was put on), when the plan is the cheaper by more
    than the verdict's margin (review P1 C4: 20 people at once on an L20 at a third of an H20's rent)."""
    from gpu_advisor.assistant.value import clearly_cheaper, load_known
    from gpu_advisor.assistant.verdict import SAME

    rec = answer.recommend
    if len(answer.choice) < 2 or rec.best is None or not load_known(rec.workload):
        return []
    rows = [o for gpu_id in answer.choice for o in [rec.best, *answer.options]
            if o is not None and o.gpu == gpu_id and o.ok and not o.owned and o.billed_usd_per_month and o.decode_tokens_per_s]
    rows = list({o.gpu: o for o in reversed(rows)}.values())
    if len(rows) < 2:
        return []
    rows.sort(key=lambda o: o.billed_usd_per_month or 0)  # as printed (value.clearly_cheaper)
    cheap, dear = rows[0], rows[-1]
    a, b = cheap.billed_usd_per_month or 0, dear.billed_usd_per_month or 0
    if cheap.gpu != rec.best.gpu or not clearly_cheaper(a, cheap.price_offers, b, dear.price_offers, SAME):
        return []
    return [say(lang, "fig.serve_choice", cheap=cheap.gpu_name, dear=dear.gpu_name, cheap_option=gpu_words(cheap, lang),
                dear_option=gpu_words(dear, lang), cheap_usd=cash(a, rec), dear_usd=cash(b, rec),
                cheap_tps=tps(cheap.decode_tokens_per_s or 0), dear_tps=tps(dear.decode_tokens_per_s or 0),
                times=f"{b / max(a, 1e-9):.1f}"), ""]


def _traffic_lines(rec: Recommendation, lang: str) -> list[str]:
    """A request rate served: the requests in flight it implies (Little's law), and the plan's first token and
    per-token times at that load with the queue modelled (tools.queueing)."""
    t = rec.traffic
    if t is None:
        return []
    key = "fig.traffic" if t.users_cap is None else "advice.traffic_at_people" if t.in_flight <= t.users_cap \
        else "fig.traffic_cap"
    lines = prefill_load_lines(rec, lang) + [
        say(lang, "fig.traffic_unheld" if _unheld(t) else key, rate=f"{t.requests_per_s:,.3g}",
                 prompt=f"{t.prompt_tokens:,}", output=f"{t.output_tokens:,}", seconds=f"{t.time_in_system_s:,.1f}",
            in_flight=f"{t.in_flight:,.0f}", sized=f"{t.users_sized:,}", users=f"{t.users_cap or 0:,}"), ""]
    if t.ttft_p99_s is not None and t.ttft_p50_s is not None and t.tpot_p50_s and t.tpot_p99_s and t.utilisation:
        lines += [say(lang, "fig.traffic_load", ttft50=seconds(t.ttft_p50_s), ttft99=seconds(t.ttft_p99_s),
                      tpot50=seconds(t.tpot_p50_s), tpot99=seconds(t.tpot_p99_s), util=pct(t.utilisation)), ""]
        lines += speed_cost_lines(rec, lang) + headroom_lines(rec, lang, MAX_UTILISATION)
        if t.queue_model is not None:  # which approximation, and when it breaks: said once, beside its figures
            lines += [say(lang, f"queue.{t.queue_model}", cap=pct(MAX_UTILISATION)), ""]
    if t.edge_of_target:
        lines += [say(lang, "fig.traffic_edge", margin=pct(TARGET_MARGIN)), ""]
    elif t.target_margin and t.utilisation and rec.best is not None and rec.best.ok:
        lines += [say(lang, "fig.traffic_margin", margin=pct(t.target_margin)), ""]
    if t.fewer_precision and t.fewer_gpus and t.gpus and rec.best is not None:
        lines += [say(lang, "fig.traffic_fewer_precision", precision=t.fewer_precision, gpus=f"{t.fewer_gpus:,}",
                      gpu=rec.best.gpu_name, fewer=f"{t.gpus - t.fewer_gpus:,}"), ""]
    said = percentile_name(t.ttft_percentile)
    if t.owned_short:
        lines += [_owned_short(rec, t, lang), ""]
    if t.queue_unsized:
        lines += [say(lang, "fig.traffic_unsized"), ""]
    if t.ttft_typical and t.ttft_q_s is not None and t.ttft_p99_s is not None and t.ttft_target_ms is not None:
        lines += [say(lang, "ascend.ttft_typical", ttft=seconds(t.ttft_q_s), ttft99=seconds(t.ttft_p99_s),
                      target=f"{t.ttft_target_ms:,.0f}", prompt=f"{t.prompt_tokens:,}"), ""]
    elif t.ttft_q_s is not None and t.ttft_percentile != P99 and t.ttft_target_ms is not None and t.ttft_p99_met:
        lines += [say(lang, "fig.traffic_ttft_at", pct=said, ttft=seconds(t.ttft_q_s), target=f"{t.ttft_target_ms:,.0f}"),
                  ""]
    if t.ttft_unreachable and t.ttft_q_s is not None and t.ttft_target_ms is not None:
        limited = bool(rec.workload.candidates or rec.workload.exclude)  # no faster card the user rules out
        lines += [say(lang, "ascend.ttft_unreachable" if limited else "fig.traffic_ttft_unreachable", pct=said, ttft99=seconds(t.ttft_q_s),
                      target=f"{t.ttft_target_ms:,.0f}", prompt=f"{t.prompt_tokens:,}"), ""]
    elif t.ttft_p99_met is False and t.ttft_q_s is not None and t.ttft_target_ms is not None:
        lines += [say(lang, "fig.traffic_ttft_missed", pct=said, ttft99=seconds(t.ttft_q_s),
                      target=f"{t.ttft_target_ms:,.0f}"), ""]
    return lines


def rate_said(rps: float, lang: str) -> str:
    """A request rate as said: 'about 0.4 requests a second', never one rounded to 0 ('under 1 request a second')."""
    if rps < 0.01:
        return say(lang, "fig.rate_under_one")
    return say(lang, "fig.rate_about", rate=f"{rps:,.2g}")


def _unheld(t: Traffic) -> bool:
    """Your cards short of a rate whose plan holds fewer requests than the rate puts in flight (their format kept,
    tools.recommend._format_given_up): the answer says they hold the model, never the requests."""
    return t.owned_short and t.users_cap is None and t.users_sized < poisson_quantile(t.in_flight, P99)


def _owned_short(rec: Recommendation, t: Traffic, lang: str) -> str:
    """The cards you own hold the requests in memory (or the model only: _unheld) but sustain the rate on no layout:
    what they sustain, and the cards of that kind the rate needs (tools.queueing)."""
    name = rec.best.gpu_name if rec.best is not None else ""
    model = "_model" if _unheld(t) and rec.best is not None and rec.best.precision else ""
    fmt = rec.best.precision if model and rec.best is not None else ""
    if t.needed_gpus is None or t.owned_rps is None:
        return say(lang, "fig.traffic_owned_short_none" + model, owned=f"{t.owned_gpus or 0:,}", gpu=name,
                   rate=f"{t.requests_per_s:,.3g}", precision=fmt)
    return say(lang, "fig.traffic_owned_short" + model, owned=f"{t.owned_gpus or 0:,}", gpu=name, precision=fmt,
               rate=f"{t.requests_per_s:,.3g}", sustain=rate_said(t.owned_rps, lang), needed=f"{t.needed_gpus:,}",
               replicas=f"{t.needed_replicas:,}", unit=f"{t.needed_unit:,}",
               more=f"{max(0, t.needed_gpus - (t.owned_gpus or 0)):,}", cap=pct(MAX_UTILISATION)) \
        + more_servers(rec, t, lang)


def _named_by_user(w: Workload, o: Option) -> bool:
    """Whether the user limited the choice to this option's card ('only H100', '2 x L40S'), as opposed to a card the
    plan chose itself."""
    return any((parse_owned(c)[1].id if c[:1].isdigit() else c) == o.gpu for c in w.candidates or [])


def _tried_lines(o: Option, lang: str) -> list[str]:
    """Every layout tried on the cards you own (or the setup you named), as a small table, and why the
    chosen one: it meets every target (fastest per user in the format asked), or it comes closest."""
    if len(o.layouts_tried) < 2:
        return []
    head = say(lang, "tried.head_owned" if o.owned else "tried.head_named", gpus=max(t.gpus for t in o.layouts_tried))
    cols = ["tried.layout", "tried.format", "table.tps", "table.ttft", "tried.meets"]
    rows = []
    for t in o.layouts_tried:
        label = (f"{t.replicas}×" if t.replicas > 1 else "") + (
            f"DP{t.dp_attention}+EP{t.tp}" if t.dp_attention > 1 else f"TP{t.tp}" + (f"×PP{t.pp}" if t.pp > 1 else ""))
        fmt = (t.precision or "") + (say(lang, "fig.kv", kv=t.kv_precision.upper()) if t.kv_precision else "")
        if t.ok:
            meets = say(lang, "table.yes")
        elif not t.fits or t.shortfall is None or t.shortfall == float("inf"):
            meets = say(lang, "table.no")
        else:
            meets = say(lang, "tried.short", pct=f"{(t.shortfall - 1) * 100:,.0f}")
        rows.append([f"{label} ({t.gpus})", fmt, tps(t.decode_tokens_per_s) if t.decode_tokens_per_s else "-",
                     seconds(t.ttft_s) if t.ttft_s is not None else "-", meets])
    lines = [head, ""] + markdown_table({"columns": [say(lang, c) for c in cols], "rows": rows}) + [""]
    first = o.layouts_tried[0]
    label = (f"{first.replicas}×" if first.replicas > 1 else "") + (
        f"DP{first.dp_attention}+EP{first.tp}" if first.dp_attention > 1
        else f"TP{first.tp}" + (f"×PP{first.pp}" if first.pp > 1 else ""))
    if o.chosen_because == "meets":
        lines += [say(lang, "tried.chosen_meets", layout=label, precision=first.precision or ""), ""]
    elif o.chosen_because == "closest" and first.shortfall not in (None, float("inf")):
        lines += [say(lang, "tried.chosen_closest", layout=label, precision=first.precision or "",
                      pct=f"{((first.shortfall or 1) - 1) * 100:,.0f}"), ""]
    return lines


def _users_words(users: int, best: Option, lang: str) -> str:
    """The users the memory figure holds: all of them, or one copy's share of them."""
    if best.replicas > 1 and best.users_per_replica:
        return say(lang, "unit.users_per_copy", n=best.users_per_replica, total=f"{users:,}")
    return say(lang, "unit.users_one") if users == 1 else say(lang, "unit.users", n=users)


def _layout_lines(o: Option, lang: str) -> list[str]:
    """How a plan beyond one copy or one server is laid out: the copies and their share of the users, tensor
    and pipeline parallel, the servers, and the links it needs inside and between them."""
    if o.tp is None:
        return []
    from gpu_advisor.tools.throughput import INTER_NODE_GBPS

    unit = o.tp * o.pp
    copies = "scale.copies_one_gpu" if unit == 1 else "scale.copies"
    parts = [say(lang, copies, replicas=o.replicas, unit=unit, users=o.users_per_replica)
             if o.replicas > 1 else say(lang, "scale.one_copy", unit=unit)]
    if o.pp > 1:
        parts.append(say(lang, "scale.tp_pp", tp=o.tp, pp=o.pp))
    elif o.dp_attention > 1:
        parts.append(say(lang, "scale.dp_ep", n=o.dp_attention))
    elif o.tp > 1:
        parts.append(say(lang, "scale.tp", tp=o.tp))
    parts.append(say(lang, "scale.servers_of_one" if o.servers == 1 else "scale.servers_of", servers=o.servers,
                     per=o.server_gpus))
    if o.expert_parallel and o.dp_attention <= 1:
        parts.append(say(lang, "scale.expert_parallel"))
    if o.tp > 1 and o.link_within:
        parts.append(say(lang, f"scale.within.{o.link_within}"))
    if o.pp > 1:
        key = "scale.between_pipeline_said" if o.pipeline_network_gbit else "scale.between_pipeline"
        parts.append(say(lang, key, gbps=f"{o.pipeline_network_gbit or INTER_NODE_GBPS * 8:,.0f}",
                         ms=f"{(o.pipeline_s_per_token or 0) * 1000:.2f}"))
    elif o.dp_attention > 1 and (o.servers or 1) > o.replicas:
        parts.append(say(lang, "scale.between_experts", gbps=f"{o.pipeline_network_gbit or INTER_NODE_GBPS * 8:,.0f}"))
    elif (o.servers or 1) > 1:
        parts.append(say(lang, "scale.between_replicas"))
    return [say(lang, "scale.head") + say(lang, "sep").join(parts) + say(lang, "fig.end"), ""]


def _model(rec: Recommendation):
    from gpu_advisor.tools.models import resolve_model

    return resolve_model(rec.workload.model)


def _model_name(rec: Recommendation, lang: str = "en") -> str:
    return model_words(_model(rec).name, lang)


def model_words(name: str, lang: str) -> str:
    """A model known only by its size ('27B dense model', '26B-A3.8B MoE model') in the reply's language."""
    for kind in ("dense", "MoE"):
        if name.endswith(f" {kind} model"):
            return say(lang, f"model.generic_{kind.lower()}", size=name[: -len(f" {kind} model")])
    return name


def same_hardware(answer: Answer, cards: tuple[int, str], lang: str) -> str:
    """Whether the cards of the plan before still do the job after a change asked as a question ('what
    about 64 users?', '上下文从8k加到32k，卡还够吗'): fits with the memory to spare, or the reasons it does not."""
    o = next((x for x in answer.options if (x.gpus, x.gpu) == cards), None)
    if o is None:
        return ""
    best = answer.recommend.best
    if o.ok and best is not None and (best.gpus, best.gpu) != cards:
        # the cards before still do it, but the plan now heads with others: said so, never "still fits" alone
        # under another headline (review O3 #16: "Still fits on the same 8 x B200" under "Rent 2 x 4090")
        return say(lang, "answer.same_fits_moved", option=gpu_words(o), spare=pct(o.headroom_fraction),
                   best=gpu_words(best))
    if o.ok:
        return say(lang, "answer.same_fits", option=gpu_words(o), spare=pct(o.headroom_fraction))
    why = say(lang, "sep").join(localise(lang, r) for r in o.reasons)
    return say(lang, "answer.same_fails", option=gpu_words(o), why=why)


def tried_added(answer: Answer, tried: tuple[int, str], lang: str, heads: tuple[int, int] | None = None) -> str:
    """'would adding a third 3090 help?', '再加一张3090有用吗': the cards with the added ones against the plan's own
    (yours of that card, else the plan's), yes or no with the figures that change; for serving, whether the new
    count can split one copy by tensor parallelism (it must divide the attention heads) or runs as copies side by side."""
    rec = answer.recommend
    o = next((x for x in answer.options if (x.gpus, x.gpu) == tried), None)
    base = next((x for x in rec.options if x.owned and x.gpu == tried[1]), None) or rec.best
    if o is None or base is None or (base.gpus, base.gpu) == tried:
        return ""
    this, was = gpu_words(o), gpu_words(base)
    if not o.ok:
        why = say(lang, "sep").join(localise(lang, r) for r in o.reasons)
        line = say(lang, "whatif.add.still_short", option=this, why=why)
    elif not base.ok:
        line = say(lang, "whatif.add.fits_now", option=this, base=was, spare=pct(o.headroom_fraction))
    elif o.job_hours is not None and base.job_hours is not None:
        key = "whatif.add.faster_run" if o.job_hours < base.job_hours * 0.95 else "whatif.add.no_gain_run"
        line = say(lang, key, option=this, base=was, this_h=hours(o.job_hours), base_h=hours(base.job_hours),
                   spare=pct(o.headroom_fraction), base_spare=pct(base.headroom_fraction))
    elif o.decode_tokens_per_s and base.decode_tokens_per_s:
        key = "whatif.add.faster_serve" if o.decode_tokens_per_s > base.decode_tokens_per_s * 1.05 else "whatif.add.no_gain_serve"
        line = say(lang, key, option=this, base=was, this=tps(o.decode_tokens_per_s), was=tps(base.decode_tokens_per_s),
                   spare=pct(o.headroom_fraction), base_spare=pct(base.headroom_fraction))
    else:
        line = say(lang, "whatif.add.fits_too", option=this, spare=pct(o.headroom_fraction))
    if o.serve_per_gpu_bytes is not None and heads and o.gpus > 1 and heads[0] % o.gpus:
        line += say(lang, "sep") + say(lang, "whatif.add.no_tp", n=o.gpus, heads=heads[0],
                                        tp=o.tp or 1, replicas=o.replicas, pp=o.pp)
    return line + say(lang, "fig.end")


def why_not_rate(answer: Answer, lang: str) -> str:
    """'why not just 1 h100 then?' beside a rate plan: the constraint that count fails (memory, load, the
    first-token target at the percentile said), with its figures from tools.rate_short; or that it would do it."""
    s = answer.short
    best = answer.recommend.best
    if s is None or best is None:
        return ""
    gpu = best.gpu_name if best.gpu == s.gpu else find_gpu(s.gpu).name
    common = {"n": f"{s.gpus:,}", "gpu": gpu, "rate": f"{s.requests_per_s:,.3g}", "plan": gpu_words(best),
              "unit": f"{s.unit_gpus or 0:,}", "copies": f"{s.copies:,}", "needed": f"{s.needed_gpus or 0:,}",
              "cap": pct(s.cap)}
    if s.constraint == "memory":
        return say(lang, "why_not_rate.memory" if s.unit_gpus else "why_not_rate.memory_none", **common)
    if s.constraint == "load":
        return say(lang, "why_not_rate.load", sustain=f"{s.sustain_rps or 0:,.3g}", load=pct(s.load or 0), **common)
    pq = percentile_name(s.ttft_percentile or P99)
    if s.constraint == "ttft":
        return say(lang, "why_not_rate.ttft", pq=pq, ttft=seconds(s.ttft_q_s or 0), target=f"{s.ttft_target_ms or 0:,.0f}",
                   load=pct(s.load or 0), **common)
    meets = "onevoice.why_not_e2e" if best.meets.get("e2e") is False else "why_not_rate.meets"  # (no queue e2e)
    return say(lang, meets, load=pct(s.load or 0), **common)


def against_before(answer: Answer, before: dict, lang: str) -> str:
    """A change asked as a question ('qlora on cheaper cards instead?', '换成qlora呢'): the new plan's pick against
    the plan before it: memory per GPU, hours and cost per run (or tokens/s and price an hour)."""
    rec = answer.recommend
    new = rec.best
    if new is None or not before.get("gpu") or (rec.offload_leads and not new.owned):
        return ""  # (your card with part in RAM leads: the rented row is no plan that replaced the one before)
    old = Option.model_validate(before)
    parts = []
    mem_new = new.train_per_gpu_bytes or new.serve_per_gpu_bytes
    mem_old = old.train_per_gpu_bytes or old.serve_per_gpu_bytes
    if mem_new and mem_old:
        parts.append(say(lang, "whatif.before.memory", this=gb(mem_new), was=gb(mem_old)))
    if new.job_hours is not None and old.job_hours is not None:
        parts.append(say(lang, "whatif.before.hours", this=hours(new.job_hours), was=hours(old.job_hours)))
    own = say(lang, "whatif.before.owned")
    if new.job_usd is not None or old.job_usd is not None:
        parts.append(say(lang, "whatif.before.run", this=own if new.owned or new.job_usd is None else cash(new.job_usd, rec),
                         was=own if old.owned or old.job_usd is None else cash(old.job_usd, rec)))
    else:
        if new.decode_tokens_per_s and old.decode_tokens_per_s:
            parts.append(say(lang, "whatif.before.speed", this=tps(new.decode_tokens_per_s),
                             was=tps(old.decode_tokens_per_s)))
        if new.usd_per_hour and old.usd_per_hour:
            parts.append(say(lang, "whatif.before.price", this=own if new.owned else cash(new.usd_per_hour, rec),
                             was=own if old.owned else cash(old.usd_per_hour, rec)))
    if not parts:
        return ""
    return say(lang, "whatif.before.head", this=gpu_words(new), was=gpu_words(old)) + say(lang, "sep").join(parts) \
        + say(lang, "fig.end")


def _reasons(answer: Answer, lang: str) -> list[str]:
    rec = answer.recommend
    best = rec.best
    fitting = [o for o in rec.options if o.ok]
    shown = [o for o in table_options(answer) if o not in answer.options and not o.owned]  # owned: said above
    closest = [o for o in shown if not o.ok][:max(0, 3 - len(fitting[:5]))]
    lines = []
    for o in answer.options + closest:
        if not o.ok and o.reasons:
            lines.append(f"- {gpu_words(o)}: " + say(lang, "sep").join(localise(lang, r) for r in o.reasons)
                         + say(lang, "fig.end"))
        elif o.ok and best and (o.gpu, o.gpus) != (best.gpu, best.gpus):
            lines.append(_versus(o, best, rec, lang))
    other = _also_consider(answer)
    if other is not None and best is not None:
        lines.append(say(lang, "versus.also_consider", option=gpu_words(other), price=cash(other.usd_per_hour or 0, rec),
                         best=cash(best.usd_per_hour or 0, rec)))
    return lines + [""] if lines else []


def _also_consider(answer: Answer) -> Option | None:
    """Beside a plan among the cards named as a choice, the cheapest card per hour not named that does the job, when
    it costs less per hour than the plan: one side line, never a row of the ranking."""
    rec, best = answer.recommend, answer.recommend.best
    named = set(answer.choice)
    if len(named) < 2 or best is None or best.gpu not in named or not best.usd_per_hour:
        return None
    others = [o for o in rec.options if o.ok and not o.owned and o.gpu not in named and o.usd_per_hour]
    cheapest = min(others, key=lambda o: o.usd_per_hour or 0, default=None)
    return cheapest if cheapest is not None and (cheapest.usd_per_hour or 0) < best.usd_per_hour else None


def _versus(o: Option, best: Option, rec: Recommendation, lang: str) -> str:
    """How an option the user asked about compares with the recommendation."""
    parts = [say(lang, "versus.fits", option=gpu_words(o), spare=pct(o.headroom_fraction))]
    if o.decode_tokens_per_s and best.decode_tokens_per_s:
        parts.append(say(lang, "versus.speed", this=tps(o.decode_tokens_per_s), best=tps(best.decode_tokens_per_s)))
    if o.job_usd is not None and best.job_usd is not None and o.job_hours is not None and best.job_hours is not None:
        parts.append(say(lang, "versus.run", this=cash(o.job_usd, rec), best=cash(best.job_usd, rec),
                         this_h=hours(o.job_hours), best_h=hours(best.job_hours)))
    elif o.usd_per_hour and best.usd_per_hour:
        parts.append(say(lang, "versus.price", this=cash(o.usd_per_hour, rec), best=cash(best.usd_per_hour, rec)))
    if o.avoid:
        parts.append(say(lang, "versus.avoid"))
    rest = say(lang, "colon") + say(lang, "sep").join(parts[1:]) if len(parts) > 1 else ""
    return "- " + parts[0] + rest + say(lang, "fig.end")


def _relaxed_lines(rec: Recommendation, lang: str) -> list[str]:
    """The change the plan made to what was asked, said before the plan: a smaller model or a lever on your own
    card, the cheapest storage lever that meets everything (tools.levers), or 4-bit weights."""
    best = rec.best
    if rec.relaxed and best is not None and best.owned and rec.instead_model:  # a smaller model on your card
        return [say(lang, "answer.relaxed_model", asked=model_words(rec.instead_model, lang),
                    change=say(lang, "lever.model", value=_model_name(rec, lang))), ""]
    if rec.relaxed and best is not None and best.owned:
        key, _, value = rec.relaxed.partition("=")
        return [say(lang, "answer.relaxed_owned", change=say(lang, lever_key(key, best), value=value)), "",
                *_zero_offload_lines(key, best, lang)]
    if rec.taken_lever:  # nothing met as asked: the cheapest storage lever that does, taken and said
        key, _, value = rec.taken_lever.partition("=")
        code = {"count_named": "answer.count_named_lever", "count_kept": "answer.count_kept_lever"}.get(
            rec.taken_because or "", "answer.relaxed_lever")
        return [say(lang, code, change=say(lang, lever_key(key, best), value=value)), ""]
    if rec.relaxed:
        return [say(lang, "answer.relaxed_int4_cheaper" if rec.taken_because == "cheaper" else "answer.relaxed_int4"), ""]
    return []


def _levers(rec: Recommendation, lang: str) -> list[str]:
    if not rec.levers:
        return []
    taken = rec.best is not None and bool(rec.taken_lever or rec.relaxed) and (
        not rec.best.owned or (rec.relaxed or "").partition("=")[0] in KEPT_ON_YOURS)  # (yours kept by a change)
    head = "levers.others" if taken else "levers.head" if all(x.within_budget for x in rec.levers) else "levers.cheapest"
    from gpu_advisor.assistant.budget_cap import cap_cost, cap_head

    capped = cap_head(rec, lang) if head == "levers.cheapest" else None  # 'Nothing keeps under your cap of $1 an hour'
    lines = [capped or say(lang, head)]
    from gpu_advisor.assistant.home_short import home_lines

    said = bool(home_lines(rec, lang))  # the smaller model at home: said above as the fallback (assistant.home_short)
    for lever in rec.levers:
        o = lever.option
        if o is None or (said and lever.change.startswith("model=") and o.owned):
            continue
        cost = ""
        key, _, value = lever.change.partition("=")
        if key == "model":
            from gpu_advisor.tools.models import resolve_model

            value = resolve_model(value).name
        change = say(lang, lever_key(key, o), value=value)
        if o.owned and o.kv_precision:  # the change works with a smaller KV cache, said with what it saves
            change += say(lang, "lever.with_kv", kv=o.kv_precision.upper(), flag=_kv_flag(o), saved=gb(o.kv_saved_bytes or 0))
        if o.owned and not o.ok:  # it fits that way, but still misses a target
            why = say(lang, "sep").join(localise(lang, r) for r in o.reasons)
            lines.append("- " + say(lang, "levers.owned_short", change=change, option=gpu_words(o), why=why))
            continue
        if o.owned:
            took = say(lang, "levers.hours", hours=hours(o.job_hours)) if o.job_hours is not None else ""
            lines.append("- " + say(lang, "levers.owned", change=change, option=gpu_words(o), hours=took))
            continue
        if o.job_usd is not None and not rec.workload.spec.serves:
            cost = say(lang, "levers.run", usd=cash(o.job_usd, rec))
        elif rec.workload.preference == "buy" or lever.change == "buy":
            cost = say(lang, "levers.buy", usd=cash(o.purchase_usd, rec)) if o.purchase_usd else ""
        elif o.billed_usd_per_month is not None:  # billed as the plan's own month is (a service: every hour)
            cost = cap_cost(o, rec, lang) or say(lang, "levers.month", usd=cash(o.billed_usd_per_month, rec))
        over = "" if lever.within_budget else say(lang, "levers.over")
        lines.append(f"- {change}: {gpu_words(o)}" + (f" ({cost}{over})" if cost else ""))
        if lever.change in ("adamw-8bit", "pure-bf16-adamw-8bit") and o.train_per_gpu_bytes:  # at the margin: the memory, and the other way
            lines[-1] += say(lang, "levers.margin_memory", used=gb(o.train_per_gpu_bytes), capacity=gb(o.capacity_bytes))
            lines.append("- " + say(lang, "levers.zero_offload", option=gpu_words(o)))
    return lines + [""] if len(lines) > 1 else []


def _one_card_lines(answer: Answer, lang: str) -> list[str]:
    one = answer.one_card
    best = answer.recommend.best
    if not one or best is None:
        return []
    option = one.options[0]
    fits = [r for r in one.remedies if r.fits]
    run = answer.recommend.training_run or best  # the card the fit was run on: its own name with its own capacity
    lines = [say(lang, "one_card.head", used=gb(option.per_gpu_bytes), gpu=run.gpu_name,
                 capacity=gb(option.capacity_bytes))]
    if fits:
        lines.append(say(lang, "one_card.with", changes=say(lang, "sep").join(
            f"{localise(lang, r.change)} ({gb(r.per_gpu_bytes)} GB)" for r in fits)))
    elif one.remedies:  # the savings tried: only those the card's software runs (no QLoRA on an Ascend card)
        lines.append(say(lang, "one_card.none", tried=say(lang, "sep").join(
            localise(lang, r.change) for r in one.remedies)))
    return lines + [""]


def _bills_more(o: Option) -> bool:
    """Whether the month a budget is checked against bills more than the plan at its use (a second site, a
    spare copy, a service around the clock): then the budget line says which cards and hours it bills."""
    return o.running_usd_per_month is not None and o.usd_per_month is not None \
        and not math.isclose(o.running_usd_per_month, o.usd_per_month, rel_tol=1e-9)


def _running_words(o: Option, rec: Recommendation, lang: str) -> str:
    """Which rented cards a service's month bills and for how long: '8 × H100 (the plan at each of two sites),
    730 h a month (around the clock)'."""
    w = rec.workload
    name = find_gpu(o.gpu).name
    why = "two_sites" if w.redundancy == "two-sites" else "spare" if (w.redundancy == "n+1" or w.uptime) else "plan"
    hours = "clock" if o.running_hours is not None and o.running_hours >= HOURS_PER_MONTH else "use"
    return say(lang, f"budget.running.{why}", n=f"{o.running_gpus or 0:,}", gpu=name) + say(
        lang, f"budget.hours.{hours}", hours=f"{o.running_hours or 0:,.0f}", use=pct(w.utilisation))


def _used_note(rec: Recommendation, best: Option, lang: str) -> str:
    """Where the used price of the card bought comes from: the sourced range on record and its date."""
    from gpu_advisor.knowledge import used_prices

    used = used_prices()[best.gpu]
    return say(lang, "budget.used_note", card=best.gpu_name, low=cash(used.usd_low, rec), high=cash(used.usd_high, rec),
               date=f"{used.as_of:%Y-%m}", usd=cash(used.usd, rec))


def _buy_too(rec: Recommendation, lang: str) -> str:
    """Beside the rent of a one-off budget: what buying costs against it, the cheapest machine that does the job
    where renting is weighed against it (tools.bought_side), else the plan's own cards."""
    w, o = rec.workload, rec.bought or rec.best
    if o is None or not o.purchase_usd:
        return ""
    option = bought_words(o)  # 2 cards of an 8-card server: the price is the server's, and said so
    option = say(lang, "table.whole_unit", price=option, n=o.sold_in) if partial_server(o) else option
    return say(lang, "budget.buy_too", option=option, usd=cash(o.purchase_usd, rec),
               verdict=say(lang, "budget.over" if buys_over_budget(w, o) else "budget.within"))


def _budget_lines(rec: Recommendation, lang: str) -> list[str]:
    w, best = rec.workload, rec.best
    if best is None or best.owned:
        return []
    lines = []
    verdict = say(lang, "budget.within") if best.meets.get("budget", True) else say(lang, "budget.over")
    if w.budget_usd is not None and best.purchase_usd and rec.action == "buy":
        usd = cash(best.purchase_usd, rec) + (say(lang, "table.used") if best.used_price else "")
        bought = say(lang, "budget.over" if buys_over_budget(w, best) else "budget.within")  # the purchase, not its rent
        line = say(lang, "budget.buy", option=bought_words(best), usd=usd, verdict=bought,
                   budget=cash(w.budget_usd, rec))
        line = near_budget_line(rec, bought_words(best), usd, cash(w.budget_usd, rec), lang) or line  # '左右'
        if best.host_usd and best.sold_in == 1:  # the PC or workstation around consumer cards
            line += say(lang, "budget.host", usd=cash(best.host_usd, rec))
        lines += [line, *budget_holds_line(rec, lang, bought_words, cash, tps)]  # what the budget buys serves fewer
    elif w.budget_usd is not None and w.spec.serves and best.usd_per_month is not None:
        # a one-off budget while renting: does it pay for a year of it, and what would buying cost
        from gpu_advisor.tools.recommend import BUDGET_MONTHS

        month = best.billed_usd_per_month or 0.0  # (usd_per_month is known here)
        year = month * BUDGET_MONTHS <= w.budget_usd
        # 'for the next 3 yrs': weighed over the months given, not a year, and what fits them (review CF #3)
        horizon = horizon_rent(rec, month, lang, _running_words(best, rec, lang) if _bills_more(best) else None)
        if horizon is not None:
            line = horizon[0]
        elif _bills_more(best):
            line = say(lang, "budget.rent_once_running", usd=cash(month, rec), running=_running_words(best, rec, lang),
                       verdict=say(lang, "budget.within" if year else "budget.over"), budget=cash(w.budget_usd, rec))
        else:
            line = say(lang, "budget.rent_once", usd=cash(month, rec), use=pct(w.utilisation),
                       verdict=say(lang, "budget.within" if year else "budget.over"), budget=cash(w.budget_usd, rec))
        if rec.budget_months is not None:  # credits, or a wish to rent: the months of it the budget pays for
            months = rec.budget_months
            line += say(lang, "budget.months", months=f"{months:,.0f}" if months >= 10 else f"{months:.1f}")
        else:
            line += _buy_too(rec, lang)
        lines += [line, *budget_holds_line(rec, lang, bought_words, cash, tps), *(horizon[1] if horizon else [])]
    elif w.budget_usd is not None and best.job_usd is not None:
        lines.append(say(lang, "budget.run", usd=cash(best.job_usd, rec), verdict=verdict, budget=cash(w.budget_usd, rec)))
    if best.used_price and rec.action == "buy":
        lines.append(_used_note(rec, best, lang))
    if w.budget_usd_per_month is not None:
        month_line = _month_budget_line(rec, verdict, lang)
        if month_line:
            lines.append(month_line)
    near = _just_over_budget(rec)
    if near is not None:
        spend, budget, key = _spend(rec, near)
        if spend <= budget:
            key += "_within"
        lines.append(say(lang, key, option=bought_words(near), usd=cash(spend, rec), over=pct(max(spend / budget - 1, 0)),
                         this=tps(near.decode_tokens_per_s or 0), best=tps(best.decode_tokens_per_s or 0)))
    lines += budget_room_lines(rec, lang, bought_words, cash, tps) if lines else []  # what the budget's headroom buys
    return lines + [""] if lines else []


def _month_budget_line(rec: Recommendation, verdict: str, lang: str) -> str | None:
    """The line that holds the plan against a monthly budget: a month of serving (every card it runs), a month of a
    job said to repeat, or one run with the runs that budget pays for (one basis with tools.recommend's check)."""
    w, best = rec.workload, rec.best
    assert best is not None and w.budget_usd_per_month is not None
    if w.budget_per is not None:  # '$3/hr', '每天最多500': said back by the hour or day (assistant.budget_cap)
        from gpu_advisor.assistant.budget_cap import budget_cap_line

        if capped := budget_cap_line(rec, lang):
            return capped
    budget = cash(w.budget_usd_per_month, rec)
    if w.spec.serves and best.running_usd_per_month is not None and _bills_more(best):
        return say(lang, "budget.month_running", usd=cash(best.running_usd_per_month, rec),
                   running=_running_words(best, rec, lang), verdict=verdict, budget=budget)
    if w.spec.serves and best.usd_per_month is not None:
        return say(lang, "budget.month", usd=cash(best.usd_per_month, rec), use=pct(w.utilisation), verdict=verdict,
                   budget=budget)
    if best.job_usd is not None and best.job_usd_per_month is not None and w.runs_per_month:
        # a job said to repeat: the month's runs against the month's budget (one basis, as tools.recommend checks it)
        return say(lang, "budget.runs_month", usd=cash(best.job_usd_per_month, rec), run=cash(best.job_usd, rec),
                   runs=f"{w.runs_per_month:g}", verdict=verdict, budget=budget)
    if best.job_usd is not None:
        # a run against a monthly budget: the run's cost, and how many runs that budget pays for in a month
        runs = int(w.budget_usd_per_month // best.job_usd) if best.job_usd > 0 else 0
        return say(lang, "budget.run_month" if runs >= 1 else "budget.run", usd=cash(best.job_usd, rec),
                   verdict=verdict, budget=budget, runs=f"{runs:,}")
    return None


# An option this much over a monthly serving budget, and clearly faster, is worth a sentence.
NEAR_BUDGET = 0.10


def _spend(rec: Recommendation, o: Option) -> tuple[float, float, str]:
    """(what the option costs, the budget it is held against, the sentence): a month's rent against
    a monthly budget, the purchase against a one-off budget when buying."""
    w = rec.workload
    if w.budget_usd_per_month:
        month = o.billed_usd_per_month
        return month or math.inf, w.budget_usd_per_month, "budget.near"  # every card the plan runs
    return o.purchase_usd or math.inf, w.budget_usd or math.inf, "budget.near_buy"


def _just_over_budget(rec: Recommendation) -> Option | None:
    """A plan a little over the budget, or still within it, that serves much faster than the cheapest
    one: the trade an expert would point out ('for 2% more, 2 x H20 is twice as fast')."""
    w, best = rec.workload, rec.best
    buying = rec.action == "buy" and w.budget_usd is not None
    if not (w.spec.serves and (w.budget_usd_per_month or buying) and best and best.decode_tokens_per_s):
        return None
    for o in rec.options:
        spend, budget, _key = _spend(rec, o)
        only_budget = all(v for k, v in o.meets.items() if k != "budget") and o is not best \
            and (o.meets.get("budget") is False or o.ok)
        if only_budget and o.serves and o.decode_tokens_per_s and spend <= (1 + NEAR_BUDGET) * budget \
                and o.decode_tokens_per_s >= 1.3 * best.decode_tokens_per_s:
            return o
    return None


# A repeating job whose month of rent pays for the cards within this many months is worth buying for (the
# cards' useful life before the next generation halves their value: the horizon tools.cost compares over).
RECURRING_PAYBACK_MONTHS = 24


def _host_part(best: Option, rec: Recommendation, lang: str) -> str:
    """The purchase split into the cards (the table's price per card) and the computer around them, so the reply
    gives one price per card."""
    if not best.host_usd or best.sold_in != 1 or not best.purchase_usd:
        return ""
    return say(lang, "rb.buy_host", cards=cash(best.purchase_usd - best.host_usd, rec), host=cash(best.host_usd, rec))


def _rent_or_buy_lines(rec: Recommendation, lang: str) -> list[str]:
    best, rb = rec.best, rec.rent_or_buy
    w = rec.workload
    if best is not None and not best.owned and not w.spec.serves and w.preference != "rent" \
            and best.job_usd is not None and best.job_hours is not None:
        # a job that ends: what one run costs rented against what the cards would cost to own
        if best.purchase_usd and best.job_usd_per_month and best.payback_months:
            # a job that repeats ("nightly"): a month of runs rented against the cards bought
            key = "rb.job_recurring_buy" if best.payback_months <= RECURRING_PAYBACK_MONTHS else "rb.job_recurring_rent"
            return [say(lang, key, run=cash(best.job_usd, rec), runs=f"{w.runs_per_month:g}",
                        month=cash(best.job_usd_per_month, rec), option=bought_words(best),
                        buy=cash(best.purchase_usd, rec), months=f"{best.payback_months:,.0f}") + _rb_caveats(rec, lang), ""]
        if best.purchase_usd:
            key = "rb.job_buy" if w.preference == "buy" else "rb.job"  # buying said (data stays in-house): kept
            return [say(lang, key, run=cash(best.job_usd, rec), option=bought_words(best),
                        buy=cash(best.purchase_usd, rec) + _host_part(best, rec, lang)) + _rb_caveats(rec, lang), ""]
        return [say(lang, "rb.job_no_price", run=cash(best.job_usd, rec), hours=hours(best.job_hours),
                    gpu=best.gpu_name), ""]
    if best is None or best.owned or not w.spec.serves or _rent_or_buy_unasked(w):
        return []
    if w.personal and w.preference == "buy" and best.at_home and rec.action == "buy":
        # one person buying a card for home: renting is a side note, never weighed over a guessed utilisation
        return [say(lang, "rb.home_try", option=bought_words(best), usd=cash(best.usd_per_hour, rec)), ""] \
            if best.usd_per_hour else []
    if rb is None:
        key = ("rb.no_prices" if best.purchase_usd is None and best.usd_per_hour is None else
               "rb.no_price" if best.purchase_usd is None else "rb.no_rent_price")
        from gpu_advisor.assistant.unpriced_rb import (
            bought_line,  # '预算两百万买设备，够吗': the budget unchecked, the price per card that fits it
            rule_line,  # the rule the answer turns on, till quotes come
        )

        bought = bought_line(w, best, lang, lambda usd: cash(usd, rec)) if best.purchase_usd is None else None
        return [bought or say(lang, key, gpu=best.gpu_name) + rule_line(w, lang), ""]
    if rec.bought is not None:  # weighed against the cheapest machine that does the job, bought (tools.bought_side)
        return rent_first_lines(rec, lang) + [say(lang, "rb.cheapest_lead") + _cheapest_rb(rec, lang), ""]
    lines = rent_first_lines(rec, lang) + [say(lang, "rb.line", use=pct(rb.utilisation), rent=cash(rb.rent_total_usd, rec), months=rb.horizon_months,
                 buy=cash(rb.buy_total_usd, rec), breakeven=_break_even(rb, lang)) + _rb_caveats(rec, lang)]
    lines += [_sentence(localise(lang, x), lang) for x in rb.warnings  # the line above already says either
              if "never pays off" not in x and "does not pay for itself" not in x]
    return lines + [""]


def _cheapest_rb(rec: Recommendation, lang: str) -> str:
    """The rent against the cheapest machine that does the job, bought, and why the plan still rents."""
    from gpu_advisor.assistant.rb_cheapest import cheapest_body, cheapest_caveat

    caveat = cheapest_caveat(rec, lang, rents_only(rec.workload))
    return cheapest_body(rec, lang, lambda usd: cash(usd, rec), bought_words) \
        + (("" if lang == "zh" else " ") + caveat if caveat else "")


def _rent_or_buy_unasked(w: Workload) -> bool:
    """One person's model, with cards of their own or a card they asked about ('can i run it on a single h100?'),
    who said neither renting nor buying, no budget and not how busy it will be: a rent-or-buy line would rest on an
    invented utilisation and answer nothing asked (review T1 #2, #7); 'rent or buy?' still gives it."""
    return (w.users <= 2 and not w.requests_per_s and "utilisation" in w.flexible and w.preference == "either"
            and w.budget_usd is None and w.budget_usd_per_month is None and bool(w.owned or pinned_cards(w))
            and not w.spec.trains and not w.spec.batch)


def _break_even(rb, lang: str) -> str:
    if getattr(rb, "rent_usd_per_gpu_month", None) is not None:  # a monthly rental: paid back after so many months
        months = rb.break_even_months
        return (say(lang, "rb.never_months") if months is None or months > rb.horizon_months
                else say(lang, "rb.after_months", months=f"{months:.0f}" if months >= 10 else f"{months:.1f}"))
    from gpu_advisor.tools.cost import DEFAULT_HORIZON_MONTHS

    # (within a card's usual life, the horizon when none is said)
    if rb.break_even_utilisation is None and rb.payback_months is not None \
            and rb.horizon_months < rb.payback_months <= DEFAULT_HORIZON_MONTHS:
        # never within the horizon asked ('一年下来哪个便宜'), yet it does pay later: when, at this use (review T2 #5:
        # '买永远不划算' at 12 months after turn 1 said buying wins over 36)
        months = rb.payback_months
        return say(lang, "rb.not_within", horizon=rb.horizon_months, use=pct(rb.utilisation),
                   months=f"{months:.0f}" if months >= 10 else f"{months:.1f}")
    return (say(lang, "rb.never") if rb.break_even_utilisation is None
            else say(lang, "rb.above", pct=pct(rb.break_even_utilisation)))


def _rb_caveats(rec: Recommendation, lang: str) -> str:
    """What the rent-or-buy figures mean for this option: a whole server when cards come as boards,
    and why the advice still rents when owning saves only a little."""
    best, rb = rec.best, rec.rent_or_buy
    parts = []
    if best is not None and best.gpus % best.sold_in:
        parts.append(say(lang, "rb.whole_unit", unit=best.sold_in, gpu=best.gpu_name))
        parts.append(say(lang, "rb.rent_counts", n=best.gpus, gpu=best.gpu_name))  # the rent is the plan's cards, part of a machine
    if rb is not None and rec.action == "rent" and rb.buy_total_usd < rb.rent_total_usd and rents_only(rec.workload):
        from gpu_advisor.assistant.rb_cheapest import renting_key

        parts.append(say(lang, renting_key(rec.workload)))  # cloud-only, or kept rented: no nudge towards buying
    elif rb is not None and rec.action == "rent" and rb.buy_total_usd < rb.rent_total_usd \
            and rec.workload.budget_usd_per_month is not None and rec.workload.budget_usd is None:
        parts.append(say(lang, "rb.monthly_budget"))  # a budget by the month: rented, owning shown for comparison
    elif rb is not None and rec.action == "rent" and rb.buy_total_usd < rb.rent_total_usd \
            and not rec.workload.runs_per_month:  # a repeating job's use is its runs, said in its own line
        from gpu_advisor.tools.recommend import owning_pays

        saving = rb.owning_saves or 0.0  # the tool's share (every number shown comes from a tool result)
        key = "rb.guessed_use" if owning_pays(rb.rent_total_usd, rb.buy_total_usd) else "rb.small_saving"
        if key == "rb.guessed_use" and best is not None and few_offers(best.price_offers) \
                and not _rent_quoted(rec.workload, best.gpu):  # tools.recommend._action: no purchase on a thin rent
            key = "rb.thin_rent_one" if best.price_offers == 1 else "rb.thin_rent"
        parts.append(say(lang, key, pct=pct(saving), use=pct(rb.utilisation), n=best.price_offers if best else 0))
    if rb is not None and best is not None and rec.action == "buy" and few_offers(best.price_offers) \
            and not _rent_quoted(rec.workload, best.gpu):
        # buying weighed against a rent that rests on few offers (review P1 E2): that rent is said to be thin
        n = best.price_offers or 0
        parts.append(say(lang, "rb.few_offers_one" if n == 1 else "rb.few_offers", n=n))
    sep = "" if lang == "zh" else " "
    return "".join(sep + p for p in parts)


def _sentence(x: str, lang: str) -> str:
    return f"_{x[0].upper()}{x[1:]}{'' if x.endswith(('.', '。')) else say(lang, 'fig.end')}_"


def payback_line(rb: Any, lang: str, usd: Callable[[float], str]) -> str:
    """When buying pays for itself ('when does that pay off?', '多久回本'): the months after which the rent saved,
    less hosting and power, has paid the purchase back (the rent-or-buy tool's payback_months)."""
    months = rb.payback_months
    if months is None:
        return say(lang, "rb.payback_never", use=pct(rb.utilisation))
    shown = f"{months:,.0f}" if months >= 10 else f"{months:.1f}"
    return say(lang, "rb.payback" if months <= rb.horizon_months else "rb.payback_late", months=shown,
               use=pct(rb.utilisation), horizon=rb.horizon_months)


def write_running_costs(results: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]]:
    """'Does the buy number include power?': what the plan's cost of owning counts beside the purchase, from
    its rent-or-buy figures (power at the wall for the busy hours at the electricity price, hosting per card a
    month), the user's own figures where they gave them."""
    rec = Recommendation.model_validate(results["recommend"])
    rb = rec.rent_or_buy
    if rb is None:
        return say(lang, "rb.nothing"), {}
    buy = rb.term("buy_total_usd").inputs
    kw, kwh, hosting = float(buy["power_kw"]), float(buy["usd_per_kwh"]), float(buy["hosting_usd_per_gpu_month"])
    busy = rb.horizon_months * 730.0 * rb.utilisation
    power_total = kw * kwh * busy * rb.gpus
    hosting_total = hosting * rb.horizon_months * rb.gpus
    line = say(lang, "rb.running", gpu=find_gpu(rb.gpu).name, watts=f"{kw * 1000:,.0f}", kwh=f"{kwh:.2f}", use=pct(rb.utilisation),
               power=money(power_total), hosting=money(hosting), hosting_total=money(hosting_total), n=rb.gpus,
               months=rb.horizon_months, buy=money(rb.buy_total_usd))
    return line, {"rent_or_buy": rb.model_dump(mode="json"), "power_usd": power_total, "hosting_usd": hosting_total}


def write_rent_or_buy(results: dict[str, Any], lang: str, payback: bool = False) -> tuple[str, dict[str, Any]]:
    """The rent-or-buy question on its own, for the recommended option; `payback`: when buying pays off was
    asked, said first."""
    rec = Recommendation.model_validate(results["recommend"])
    best, rb = rec.best, rec.rent_or_buy
    if best is None:
        return say(lang, "rb.nothing"), {}
    if best.owned:
        return _owned_against_renting(rec, lang)
    job = _rent_or_buy_lines(rec, lang) if not rec.workload.spec.serves else []
    if job:  # a job that ends: per run, not a utilisation over years
        lines = ["## " + say(lang, "rb.title", option=bought_words(best)), "", *job]
        payload: dict[str, Any] = {"option": best.model_dump(mode="json")}
        if best.purchase_usd and best.job_usd:
            payload["runs_to_pay_off"] = best.purchase_usd / best.job_usd
            lines += [say(lang, "rb.job_runs", runs=f"{payload['runs_to_pay_off']:,.0f}")]
        return "\n".join(lines).rstrip(), payload
    if rb is None:
        return (say(lang, "rb.rent_only", gpu=best.gpu_name, usd=money(best.usd_per_hour or 0), n=best.gpus),
                {"option": best.model_dump(mode="json")})
    if rec.bought is not None:  # the rent against the cheapest machine that does the job, bought
        lines = ["## " + say(lang, "rb.cheapest_title", rented=bought_words(best), option=bought_words(rec.bought)), "",
                 _cheapest_rb(rec, lang)]  # (its payback months said there, asked or not)
        lines += ["", say(lang, "rb.assumed")] + [f"- {localise(lang, a)}" for a in rb.assumptions]
        return "\n".join(lines), {"rent_or_buy": rb.model_dump(mode="json"), "bought": rec.bought.model_dump(mode="json")}
    lines = ["## " + say(lang, "rb.title", option=bought_words(best)), "",
             say(lang, "rb.body", use=pct(rb.utilisation), months=rb.horizon_months, rent=money(rb.rent_total_usd),
                 buy=money(rb.buy_total_usd), breakeven=_break_even(rb, lang)) + " "
             + ("" if rb.cheaper != "rent" and rents_only(rec.workload)  # said by the caveats
                else say(lang, "rb.cheaper_rent" if rb.cheaper == "rent" else "rb.cheaper_buy"))
             + _rb_caveats(rec, lang), ""]
    if payback:
        lines[2:2] = [payback_line(rb, lang, money), ""]
    lines += [_sentence(localise(lang, x), lang) for x in rb.warnings]
    lines += ["", say(lang, "rb.assumed")] + [f"- {localise(lang, a)}" for a in rb.assumptions]
    lines += ["", say(lang, "rb.footer")]
    data: dict[str, Any] = {"rent_or_buy": rb.model_dump(mode="json")}
    if best.gpus % best.sold_in:  # the whole server the caveat says the purchase prices
        data["sold_in"] = best.sold_in
    return "\n".join(lines), data


def _paid(o: Option, job: bool) -> float | None:
    """What an option costs the user: per run for a job that ends, per month for serving."""
    return o.job_usd if job else o.usd_per_month


def _rented_that_do_it(rec: Recommendation, job: bool) -> list[Option]:
    """Rented options that meet every requirement and are not warned against, cheapest first."""
    return sorted((o for o in rec.options if not o.owned and o.ok and not o.avoid and _paid(o, job) is not None),
                  key=lambda o: (_paid(o, job), o.gpus, o.gpu))


def _rented_plan(results: dict[str, Any], lang: str, spare: bool = False) -> Recommendation | tuple[str, dict[str, Any]]:
    """The plan behind a cost question, or the reply when there is nothing rented to price: no plan yet, or
    cards you own (then what renting instead would cost, with a spare copy when one is asked)."""
    rec = Recommendation.model_validate(results["recommend"])
    if rec.best is None:
        return say(lang, "rb.nothing"), {}
    if rec.best.owned:
        return _owned_against_renting(rec, lang, spare)
    return rec


def _owned_against_renting(rec: Recommendation, lang: str, spare: bool = False) -> tuple[str, dict[str, Any]]:
    """Cards you own that do the job: keep them, and what renting the cheapest card that does the same job
    would cost instead (per run for a job that ends, per month for serving; 'we want 2 instances for redundancy,
    monthly cost if we rent': with the spare copy's month added)."""
    best = rec.best
    assert best is not None
    job = not rec.workload.spec.serves
    rented = _rented_that_do_it(rec, job)
    if not best.ok or not rented:
        return say(lang, "rb.owned", option=gpu_words(best)), {}
    alt = rented[0]
    line = (say(lang, "rb.owned_job", option=gpu_words(best), alt=gpu_words(alt), run=cash(alt.job_usd or 0, rec),
                hours=hours(alt.job_hours or 0)) if job else
            say(lang, "rb.owned_serving", option=gpu_words(best), alt=gpu_words(alt),
                month=cash(alt.usd_per_month or 0, rec), hour=cash(alt.usd_per_hour or 0, rec),
                use=pct(rec.workload.utilisation)))
    data: dict[str, Any] = {"option": best.model_dump(mode="json"), "rented_instead": alt.model_dump(mode="json")}
    price = _bought_price(best)
    if price and alt.usd_per_month and not job:  # "is it worth it vs just renting": the machine against the rent
        months = price / alt.usd_per_month
        data["months_of_rent"] = round(months, 1)
        line += " " + say(lang, "rb.owned_price", price=cash(price, rec), months=f"{months:,.0f}",
                          alt_tps=tps(alt.decode_tokens_per_s or 0), tps=tps(best.decode_tokens_per_s or 0))
    if spare and alt.usd_per_month and not job:  # N+1 rented: one more copy of the unit, billed like the rest
        copy = alt.usd_per_month / max(1, alt.replicas)
        data["month_with_spare"] = round(alt.usd_per_month + copy, 2)
        line += (" " if lang != "zh" else "") + say(lang, "cost.spare", copy=cash(copy, rec),
                                                    month=cash(alt.usd_per_month + copy, rec))
    return line, data


def _bought_price(o: Option) -> float | None:
    """What the cards of an option cost new (the catalog's price), or None when it has none."""
    from gpu_advisor.knowledge import find_gpu

    try:
        each = find_gpu(o.gpu).buy_price_usd
    except (LookupError, ValueError):
        return None
    return each * o.gpus if each else None


def _fit_words(o: Option, trains: bool, lang: str) -> str:
    """'49.8 of 51.0 GB per GPU, 32 tokens/s per user' (serving) or '..., about 36.3 h a run' (a job)."""
    used = o.train_per_gpu_bytes if trains and o.train_per_gpu_bytes else o.serve_per_gpu_bytes
    parts = [say(lang, "own.memory", used=gb(used), cap=gb(o.capacity_bytes))] if used else []
    if o.job_hours:
        parts.append(say(lang, "own.run_hours", hours=hours(o.job_hours)))
    elif o.decode_tokens_per_s:
        parts.append(say(lang, "own.user_speed", tps=tps(o.decode_tokens_per_s)))
    return say(lang, "sep").join(parts)


def write_own_enough(results: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]]:
    """"Can we do it on what we have?": yes with the fit, no with the reason and the plan instead, or which
    cards they are when none were named."""
    rec = Recommendation.model_validate(results["recommend"])
    best, trains = rec.best, rec.workload.spec.trains and not rec.workload.spec.serves
    slow = next((f for f in best.findings if f.code == "slow_network_training"), None) if best else None
    if best is not None and best.owned and best.ok and slow is not None:
        key = "own.network_lora" if "lora_hours" in slow.values else "own.network"
        return say(lang, key, option=gpu_words(best), fit=_fit_words(best, trains, lang).split(say(lang, "sep"))[0],
                   **slow.values), \
            {"option": best.model_dump(mode="json")}
    if best is not None and best.owned and best.ok:
        return say(lang, "own.yes", option=gpu_words(best), fit=_fit_words(best, trains, lang)), \
            {"option": best.model_dump(mode="json")}
    if not rec.owned_options:
        return say(lang, "own.which"), {}
    mine = rec.owned_options[0]
    why = say(lang, "sep").join(localise(lang, r) for r in mine.reasons) or say(lang, "owned.short")
    line = say(lang, "own.no", option=gpu_words(mine), why=why)
    if best is not None and not best.owned:
        line += ("" if lang == "zh" else " ") + say(lang, "own.instead", option=plan_words(best, lang))
    return line, {"option": mine.model_dump(mode="json")}


def servers_line(results: dict[str, Any], lang: str) -> str | None:
    """Whether an RL run uses all your servers over their Ethernet or one, and why (the finding's sentence); None
    when the plan is no such run."""
    run = Recommendation.model_validate(results["recommend"]).trains_on if results.get("recommend") else None
    found = next((f for f in run.findings if f.code in ("rl_across_servers", "rl_one_server")), None) if run else None
    return finding_sentence(found, lang).removeprefix("⚠ ") if found is not None else None


def write_why(results: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]]:
    """"Why so many cards?" in plain words, from the plan's own figures: what the memory holds (weights, the
    cache for the users, or training's states) against what a card has, how many servers that is, how the
    users are shared out, and the time against a deadline. "Show the math" gives every formula."""
    rec = Recommendation.model_validate(results["recommend"])
    best, w = rec.best, rec.workload
    if best is None:
        return say(lang, "math.nothing"), {}
    sep = "" if lang == "zh" else " "
    lines: list[str] = []
    serving = results.get("serving_memory") or {}
    training = results.get("training_memory") or {}
    if w.spec.serves and serving and not best.owned_gpus:
        one = serving["gpus"] * serving.get("pp", 1) == 1
        plan_gpu = best.serve_per_gpu_bytes or serving["per_gpu_total_bytes"]
        split = abs(serving["per_gpu_total_bytes"] - plan_gpu) > 0.02 * plan_gpu  # laid out otherwise (DP attention)
        key = "why.serving_memory_plan" if split else "why.serving_memory_one" if one else "why.serving_memory"
        serving = {**serving, "per_gpu_total_bytes": plan_gpu} if split else serving
        lines.append(say(lang, key, model=rec.model_name,
                         precision=best.precision or "",
                         weights=gb(serving["weights_bytes"]), users=w.users, context=f"{w.context:,}",
                         w_gpu=gb(serving["per_gpu_weights_bytes"]), kv_gpu=gb(serving["per_gpu_kv_cache_bytes"]),
                         per_gpu=gb(serving["per_gpu_total_bytes"]),
                         gpus=serving["gpus"] * serving.get("pp", 1), cap=gb(best.capacity_bytes)))
        per = best.server_gpus or 8
        if (best.servers or 1) > 1 and (best.pp > 1 or (best.tp or 0) > per):  # one copy over several servers
            lines.append(say(lang, "why.servers", servers=best.servers, per=per, gpu=best.gpu_name,
                             server=gb(best.capacity_bytes * per)))
        if best.replicas > 1:
            lines.append(say(lang, "why.replicas", replicas=best.replicas, each=best.users_per_replica or 0,
                             users=w.users))
    across = servers_line(results, lang)
    if across:  # 'we have 16 gpus, why only 8?': your servers over Ethernet, all of them or one, and why
        lines.append(across)
    elif w.spec.trains and training and rec.trains_on is not None:
        run = rec.trains_on
        lines.append(say(lang, "why.training_memory", method=say(lang, f"method.{w.method}"), model=rec.model_name, gpus=run.gpus,
                         gpu=run.gpu_name, per_gpu=gb(training["per_gpu_total_bytes"]), cap=gb(run.capacity_bytes),
                         weights=gb(training["weights_bytes"]), grads=gb(training["gradient_bytes"]),
                         states=gb(training["optimizer_bytes"]), acts=gb(training["activation_bytes"])))
        if run.gpus > 1 or w.method == "full":  # "为啥全参微调要这么多显存": the whole run's states, and sharding
            from gpu_advisor.tools.training import training_memory

            whole = training_memory(training_setup(w, 1, run.gpu))
            terms = {t.key: t for t in whole.terms}
            if run.gpus > 1:
                training = {**training, "one_gpu_total_bytes": whole.per_gpu_total_bytes}
                lines.append(say(lang, "why.training_sharded", gpus=run.gpus, one=gb(whole.per_gpu_total_bytes)))
            params = float(terms["weights_bytes"].inputs.get("parameters") or 0) if "weights_bytes" in terms else 0.0
            if w.method == "full" and params:  # every parameter's weight, gradient and optimizer moments
                state_bytes = sum((float(terms[k].value) for k in ("weights_bytes", "gradient_bytes", "optimizer_bytes") if k in terms), 0.0)
                lines.append(say(lang, "why.training_full", params=f"{params / 1e9:,.1f}", bytes=f"{state_bytes / params:.0f}"))
                pure = next((f for f in getattr(run, "findings", None) or best.findings if f.code == "full_ft_pure_bf16"), None)
                if pure is not None:  # the plan fits in pure BF16: the usual mixed precision's figure beside it
                    lines.append(say(lang, "why.training_mixed", per_param=pure.values["mixed_per_param"],
                                     mixed=gb(float(pure.values["mixed_bytes"])), cap=gb(run.capacity_bytes),
                                     weights=gb(training["weights_bytes"])))
    run = rec.training_run or best
    if run.job_hours is not None and (not w.spec.serves or rec.training_run is not None):
        deadline = w.deadline_hours
        key = "why.time_deadline" if deadline else "why.time"
        lines.append(say(lang, key, hours=hours(run.job_hours or 0), deadline=hours(deadline or 0)))
    if best.meets.get("latency") is not None or best.meets.get("ttft") is not None:
        lines.append(say(lang, "why.latency", ttft=seconds(best.ttft_s or 0)))
    if not lines:
        return write_math(results, lang)
    lines.append(say(lang, "why.more"))
    shown = ("weights_bytes", "per_gpu_weights_bytes", "per_gpu_kv_cache_bytes", "per_gpu_total_bytes", "gpus",
             "gradient_bytes", "optimizer_bytes", "activation_bytes", "one_gpu_total_bytes")
    return sep.join(lines), {"option": best.model_dump(mode="json"),
                             "workload": {"users": w.users, "context": w.context, "deadline_hours": w.deadline_hours},
                             "serving_memory": {k: serving[k] for k in shown if k in serving},
                             "training_memory": {k: training[k] for k in shown if k in training}}


def write_servers(results: dict[str, Any], lang: str, servers: int | None,
                  uptime: float | None = None, two_sites: bool = False) -> tuple[str, dict[str, Any]]:
    """"What if we only had one server?" about the plan on screen: whether it fits in that many servers, and
    if not, how many it takes; "how many servers?" (servers None): how many it uses. With an availability
    target, one more server for the spare copy (N+1)."""
    rec = Recommendation.model_validate(results["recommend"])
    best = rec.best
    if best is None:
        return say(lang, "rb.nothing"), {}
    per = best.server_gpus or 8
    used = best.servers or -(-best.gpus // per)
    if servers is None:
        key = "servers.count_one" if used == 1 else "servers.count"
    else:
        key = "servers.fits_one" if used == 1 else "servers.fits" if used <= servers else "servers.needs"
    line = say(lang, key, n=servers or used, used=used, plan=plan_words(best, lang), gpu=best.gpu_name, per=per)
    if two_sites:  # each site carries the whole load: the plan twice over
        line += ("" if lang == "zh" else " ") + say(lang, "servers.two_sites", each=used, total=2 * used)
    elif uptime:
        short = servers is not None and servers < used + 1  # the servers asked about leave no room for a spare
        line += ("" if lang == "zh" else " ") + say(lang, "servers.spare_short" if short else "servers.spare",
                                                    uptime=f"{uptime:g}%", total=used + 1, n=servers or used)
    return line, {"servers_asked": servers, "servers_used": used, "option": best.model_dump(mode="json")}


def write_cheapest(results: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]]:
    """"What's the cheapest way?" after a plan: the plan is ranked on what you pay, so it is the cheapest option
    that meets every requirement (your own cards cost nothing to rent); said with its cost and time."""
    rec = _rented_plan(results, lang)
    if isinstance(rec, tuple):
        return rec
    best = rec.best
    assert best is not None
    job = best.job_usd is not None and best.job_hours is not None
    cheaper = [o for o in _rented_that_do_it(rec, job) if (_paid(o, job) or 0) < (_paid(best, job) or 0) * 0.999]
    if cheaper:  # the plan weighs more than the price (one card over several, a data-centre card): say so
        alt = cheaper[0]
        line = say(lang, "cheap.other_run" if job else "cheap.other_month", alt=plan_words(alt, lang),
                   alt_cost=cash(_paid(alt, job) or 0, rec), option=plan_words(best, lang),
                   cost=cash(_paid(best, job) or 0, rec), hours=hours(alt.job_hours or 0))
        return line, {"option": best.model_dump(mode="json"), "cheapest": alt.model_dump(mode="json")}
    if job:
        line = say(lang, "cheap.run", option=plan_words(best, lang), run=cash(best.job_usd or 0, rec),
                   hours=hours(best.job_hours or 0))
    elif best.usd_per_month is not None:
        month, use = _billed_month(best, rec)
        line = say(lang, "cheap.month", option=plan_words(best, lang), month=cash(month, rec), use=pct(use))
    else:
        return say(lang, "rb.no_prices", gpu=best.gpu_name), {}
    return line, {"option": best.model_dump(mode="json")}


def _billed_month(best: Option, rec: Recommendation, spare: bool = False) -> tuple[float, float]:
    """(a month's rent of the plan's cards, the share of the month billed): the hours the service is up
    (tools.recommend.service_hours: around the clock for other people), as the budget line and rent-or-buy use
    them; with a spare copy asked here, the plan's own cards (the spare is added by the caller)."""
    hours = best.running_hours
    if spare or best.running_usd_per_month is None or not hours or best.running_gpus != best.gpus - best.owned_gpus:
        return best.usd_per_month or 0.0, rec.workload.utilisation
    return best.running_usd_per_month, hours / HOURS_PER_MONTH


def write_how_long(results: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]]:
    """"How long will it take?": a run's hours for a job that ends (with the deadline, when one was said);
    for serving, the wait for the first token and the pace after it."""
    rec = Recommendation.model_validate(results["recommend"])
    best = rec.best
    if best is None:
        return say(lang, "rb.nothing"), {}
    run = rec.training_run or best
    if run.job_hours is not None:
        line = say(lang, "long.run_days" if run.job_hours >= 48 else "long.run", option=plan_words(run, lang),
                   hours=hours(run.job_hours),
                   days=f"{run.job_hours / 24:,.1f}")
        deadline = rec.workload.deadline_hours
        if deadline:
            line += ("" if lang == "zh" else " ") + say(lang, "long.deadline_met" if run.job_hours <= deadline
                                                        else "long.deadline_missed", deadline=hours(deadline))
        return line, {"option": run.model_dump(mode="json")}
    if best.ttft_s is not None and best.decode_tokens_per_s:
        return say(lang, "long.serving", option=plan_words(best, lang), ttft=seconds(best.ttft_s),
                   prompt=f"{rec.workload.prompt_length():,}",
                   tps=tps(best.decode_tokens_per_s), ms=f"{1000 / best.decode_tokens_per_s:,.0f}"), \
            {"option": best.model_dump(mode="json")}
    return say(lang, "rb.nothing"), {}


def write_total_cost(results: dict[str, Any], lang: str, months: int | None = None,
                     spare: bool = False) -> tuple[str, dict[str, Any]]:
    """"What's the total cost?": a run's cost for a job that ends, rent per hour and per month for serving
    (over the months asked, and with one spare copy when the service must stay up), the purchase price when
    the plan buys; for cards one owns, what renting instead would cost."""
    rec = _rented_plan(results, lang, spare)
    if isinstance(rec, tuple):
        return rec
    best = rec.best
    assert best is not None
    lines = []
    run = rec.training_run or (best if best.job_usd is not None else None)
    if run is not None and run.job_usd is not None:
        lines.append(say(lang, "cost.run", option=plan_words(run, lang), run=cash(run.job_usd, rec),
                         hours=hours(run.job_hours or 0)))
        if run.job_usd_per_month is not None and rec.workload.runs_per_month:  # a job said to repeat: its month
            lines.append(say(lang, "cost.runs_month", runs=f"{rec.workload.runs_per_month:g}",
                             month=cash(run.job_usd_per_month, rec)))
    if rec.workload.spec.serves and best.usd_per_hour is not None:
        month, use = _billed_month(best, rec, spare)
        lines.append(say(lang, "cost.serving", option=plan_words(best, lang), hour=cash(best.usd_per_hour, rec),
                         month=cash(month, rec), use=pct(use)))
        if spare:  # N+1: one more copy of the unit, billed every hour like the rest
            copy = month / max(1, best.replicas)
            month += copy
            lines.append(say(lang, "cost.spare", copy=cash(copy, rec), month=cash(month, rec)))
        if months:
            lines.append(say(lang, "cost.months", months=months, total=cash(month * months, rec)))
    if rec.action == "buy" and best.purchase_usd:
        lines.append(say(lang, "cost.buy", option=bought_words(best),
                         buy=cash(best.purchase_usd, rec) + _host_part(best, rec, lang)))
    if not lines:
        return say(lang, "rb.no_prices", gpu=best.gpu_name), {}
    lines.append(say(lang, "cost.not_counted"))
    return " ".join(lines) if lang != "zh" else "".join(lines), {"option": best.model_dump(mode="json")}


def write_math(results: dict[str, Any], lang: str, recorder: Recorder | None = None) -> tuple[str, dict[str, Any]]:
    """Every term behind the recommended option: run the tools for it and list formulas and inputs."""
    from gpu_advisor.tools.inference import inference_memory
    from gpu_advisor.tools.rl import across_servers
    from gpu_advisor.tools.scale import SERVER_GPUS
    from gpu_advisor.tools.throughput import SpeedInput, speed
    from gpu_advisor.tools.training import training_memory
    from gpu_advisor.tools.training_time import training_time

    rec = Recommendation.model_validate(results["recommend"])
    best, w = rec.best, rec.workload
    if best is None:
        return say(lang, "math.nothing"), {}
    parts: list[tuple[str, Explained]] = []

    def run(title: str, tool: str, fn: Callable[[Any], Explained], inp: Any) -> None:
        parts.append((say(lang, title), _call(recorder, tool, inp.model_dump(mode="json"), lambda: fn(inp))))

    if (w.spec.serves or w.spec.batch) and best.precision:
        mem = serving_setup(w, best)
        run("math.serving_memory", "inference_memory", inference_memory, mem)
        if best.decode_tokens_per_s:
            run("math.serving_speed", "speed", speed, SpeedInput(
                model=w.model, precision=best.precision, gpu=best.gpu, gpus=mem.gpus, pp=mem.pp, batch=mem.batch,
                context=mem.context, engine=best.engine, kv_precision=best.kv_precision, dp_attention=mem.dp_attention,
                # the copy's speed as the plan sized it: its data-parallel ranks, over the servers it spans
                expert_servers=-(-mem.gpus // (w.server_gpus or SERVER_GPUS)) if mem.dp_attention > 1 and mem.pp == 1 else 1,
                network_gbit_per_s=best.pipeline_network_gbit))
    if w.spec.trains and rec.trains_on is not None:
        on = rec.trains_on
        run("math.training_memory", "training_memory", training_memory, training_setup(w, on.gpus, on.gpu, on.owned))
        # an RL run across your servers is data parallel between them (its exchange below), never ZeRO-3 over them
        run("math.training_time", "training_time", training_time,
            training_time_setup(w, on.gpu, on.gpus, on.owned and not w.reinforces))
        exchange = across_servers(w.rl_input(on.gpu, on.gpus, on.owned)) \
            if on.rl is not None and on.rl.network_seconds_per_step else None
        if exchange is not None:
            parts.append((say(lang, "math.rl_sync"), exchange))
    if rec.rent_or_buy:
        parts.append((say(lang, "math.rent_or_buy"), rec.rent_or_buy))
    lines = ["## " + say(lang, "math.title", option=gpu_words(best)), ""]
    payload: dict[str, Any] = {}
    for title, result in parts:
        payload[title] = result.model_dump(mode="json")
        lines += [f"### {title}", ""]
        for t in result.terms:
            label = localise(lang, t.label)
            label = formula_words(lang, label) if label == t.label else label
            lines.append(f"- **{label}** = {_term_value(t.value, t.unit)}{say(lang, 'colon')}{formula_words(lang, t.formula)}")
            if t.inputs and lang == "en":  # the tools' input names are English code names: a Chinese reply drops them
                lines.append(f"  - {say(lang, 'math.inputs')}" + ", ".join(f"{k} = {_plain(v)}" for k, v in t.inputs.items()))
        for a in result.assumptions:
            lines.append(f"- _{say(lang, 'math.assumed')}_ {localise(lang, a)}")
        lines.append("")
    return "\n".join(lines).rstrip(), payload


def _term_value(value: float, unit: str) -> str:
    if unit == "s":
        return seconds(value)
    if unit == "bytes":
        return f"{gb(value)} GB"
    if unit == "fraction":
        return pct(value)
    if unit in ("USD", "USD/h"):
        return money(value)
    return f"{value:,.1f} {unit}" if value < 1000 else f"{value:,.0f} {unit}"


def _plain(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, int) or float(v).is_integer() or abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:,.4g}"


def glossary_reply(topic: str, lang: str) -> str:
    """A short explanation from the knowledge base's glossary; 'lora+qlora' gives both entries."""
    from gpu_advisor.knowledge import glossary

    found = [next((g for g in glossary() if g.id == t), None) for t in topic.split("+")]
    entries = [e for e in found if e is not None]
    if len(entries) < len(found):
        return say(lang, "glossary.unknown")
    def body(e) -> str:
        # folded YAML joins lines with a space, which Chinese does not put after its punctuation
        return _ZH_FOLD_SPACE.sub("", e.zh) if lang == "zh" else e.en

    return "\n\n".join(f"**{e.title_zh if lang == 'zh' else e.title_en}**: {body(e)}" for e in entries)


_ZH_FOLD_SPACE = re.compile(r"(?<=[，。：；、！？）])\s+|(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")


def choices_line(choices: list[tuple[str, str]]) -> str:
    return "  ".join(f"[{label}]" for label, _ in choices)


__all__ = ["choices_line", "decision", "glossary_reply", "write_answer", "write_math", "write_rent_or_buy"]


def session_title(profile: dict[str, Any], defaulted: dict[str, str], lang: str) -> str | None:
    """A saved session's title from what was understood, never from a default: the job and the model,
    and for serving the people at once when they were said ("Serve Llama 3.1 70B to 200 users",
    "微调 Qwen2.5 14B"). None until a model is known (the first message stays the title)."""
    from gpu_advisor.assistant.engine import (
        describe,  # (the engine imports this module: looked up when called)
    )
    from gpu_advisor.tools.phases import PHASES

    model = profile.get("model")
    if not model or "model" in defaulted:
        return None
    name = describe("model", model, lang)  # "Llama 3.1 70B", "a 27B model"
    phase = profile.get("phase") if "phase" not in defaulted else None
    title = say(lang, f"title.{phase}" if phase in PHASES else "title.model", model=name)
    if phase in PHASES and PHASES[phase].serves and phase != "experiment" and "users" not in defaulted:
        said = profile.get("users_range")
        if said:
            low, high = said
            title += say(lang, "title.users_range" if high else "title.users_range_open", low=f"{low:,}",
                         high=f"{high or low:,}")
        elif profile.get("users"):
            title += say(lang, "title.users_one" if profile["users"] == 1 else "title.users", n=f"{profile['users']:,}")
    return title


def _run_month(rec: Recommendation, lang: str) -> str | None:
    """'What's that per month' of a job that ends: its cost per run (hours x price), or a month of the runs said to
    repeat (review P1 C5: never a month of one run at an assumed utilisation). None when the run has no price."""
    run = rec.training_run or rec.best
    if run is None or run.owned or run.job_usd is None:
        return None
    if run.job_usd_per_month is not None and rec.workload.runs_per_month:
        return say(lang, "literal.monthly_runs", month=cash(run.job_usd_per_month, rec), run=cash(run.job_usd, rec),
                   runs=f"{rec.workload.runs_per_month:g}", option=gpu_words(run, lang))
    return say(lang, "literal.run", run=cash(run.job_usd, rec), hours=hours(run.job_hours or 0),
               option=gpu_words(run, lang))


def need_line(rec: Recommendation, lang: str) -> str | None:
    from gpu_advisor.assistant.need_count import need_line as line

    return line(rec, lang)


def _fleet_line(rec: Recommendation, kind: str | None, lang: str) -> str | None:
    from gpu_advisor.assistant.fleet import fleet_line

    best = rec.best
    if kind == "duration" and best is not None and best.job_hours is not None:  # 'how long will it take'
        from gpu_advisor.assistant.rl_layout import asked_steps_line, step_prompts

        w = rec.workload
        step = asked_steps_line(best.rl, w.rl_steps, step_prompts(best.rl, w.rl_prompts, w.rl_prompts_per_step),
                                gpu_words(best, lang), lang) if w.reinforces and best.rl is not None else None
        return step or say(lang, "literal.duration", hours=hours(best.job_hours), option=gpu_words(best, lang))
    return fleet_line(rec, lang) if kind in (None, "count", "fits", "more") else None


def _offload_speed(rec: Recommendation, lang: str) -> str | None:
    from gpu_advisor.assistant.asked_speed import offload_speed

    return offload_speed(rec, lang)


def literal_answer(answer: Answer, kind: str | None, lang: str) -> str | None:
    """The first line owed to the message's literal question (reading.literal's kind), before the plan: for
    'fits' ('will it fit?', '能跑吗'), yes or no on the user's own cards (else the plan's), with the memory per
    GPU against the card's. None when the kind has no line here or nothing was sized."""
    rec = answer.recommend
    best = rec.best
    first = _fleet_line(rec, kind, lang)  # fewer of yours than you own (assistant.fleet), or 'how long will it take'
    first = first or (stated_format_memory(rec, lang) if kind == "memory" else None)  # 'in fp16 … on my 2x 3090'
    if first:
        return first
    month = None if best is None else best.billed_usd_per_month
    if kind == "monthly" and not rec.workload.spec.serves and _run_month(rec, lang):
        return _run_month(rec, lang)
    if kind == "monthly" and best is not None and month is not None and not best.owned:  # "what's that per month"
        return say(lang, "literal.monthly", month=cash(month, rec), option=gpu_words(best, lang))
    option = rec.owned_options[0] if rec.owned_options else best
    if kind == "speed" and _offload_speed(rec, lang):  # the model asked, part of it in RAM: its speed, first
        return _offload_speed(rec, lang)
    if kind == "speed" and option is not None and option.serves and option.decode_tokens_per_s \
            and rec.workload.spec.serves and rec.pool is None:  # 'how fast would it be', '速度能有多少'
        return say(lang, "literal.speed", tps=tps(option.decode_tokens_per_s), option=gpu_words(option, lang),
                   precision=option.precision or "")
    if kind == "memory" and option is not None:  # 'how much vram to full finetune llama 3b': the figure, first
        used = option.train_per_gpu_bytes if rec.workload.spec.trains else option.serve_per_gpu_bytes
        if used is not None:
            return say(lang, "literal.memory_one" if option.gpus == 1 else "literal.memory_many", used=gb(used),
                       capacity=gb(option.capacity_bytes), option=gpu_words(option, lang))
    if kind == "count" and best is not None:  # 'how many L4s …, or L40S?': no count of them meets it, said first
        from gpu_advisor.assistant.count_unmet import unmet_count_line

        unmet = unmet_count_line(answer, lang)
        if unmet:
            return unmet
    if kind == "count" and best is not None and best.ok:  # 'how many GPUs do I need': the plan's cards, first
        # (a plan that misses the request says so in its own headline: never 'you need' cards that fall short)
        used = best.train_per_gpu_bytes if rec.workload.spec.trains else best.serve_per_gpu_bytes
        if used is not None:  # (a card sold in whole servers: the fewest that do it, the server beside: need_count)
            return need_line(rec, lang) or say(lang, "literal.count", option=gpu_words(best, lang), used=gb(used),
                                               capacity=gb(best.capacity_bytes))
    if kind == "daily":
        return _literal_daily(rec, option, lang)
    if kind in ("fits", "more"):  # 'is it enough?', 'do we need to buy more?': on your own cards first
        from gpu_advisor.assistant.owned_enough import owned_line

        return owned_line(rec, kind, lang) or (literal_fits(rec, option, lang) if kind == "fits" else None)
    if kind in (None, "versus") and best is not None and rec.action == "buy" and rec.workload.preference == "either":
        return need_line(rec, lang)  # no purchase said: the cards the job needs, beside the whole server (AJ 6)
    return None


def _literal_daily(rec: Recommendation, option: Option | None, lang: str) -> str | None:
    """'good enough for daily use?', '够不够日常用': yes or no for one person, from whether it fits and how its speed
    stands against reading speed (tools.recommend: MIN_TOKENS_PER_S reading, COMFORTABLE_TOKENS_PER_S at ease)."""
    from gpu_advisor.tools.recommend import COMFORTABLE_TOKENS_PER_S, MIN_TOKENS_PER_S

    if option is None or not option.serves or not option.decode_tokens_per_s or option.serve_per_gpu_bytes is None \
            or not rec.workload.spec.serves or rec.pool is not None:
        return literal_fits(rec, option, lang)
    speed = option.decode_tokens_per_s
    key = "literal.daily_yes" if speed >= COMFORTABLE_TOKENS_PER_S else \
        "literal.daily_slow" if speed >= MIN_TOKENS_PER_S else "literal.daily_no"
    return say(lang, key, option=gpu_words(option, lang), used=gb(option.serve_per_gpu_bytes),
               capacity=gb(option.capacity_bytes), tps=tps(speed), read=f"{MIN_TOKENS_PER_S:g}",
               x=f"{speed / MIN_TOKENS_PER_S:.0f}", comfort=f"{COMFORTABLE_TOKENS_PER_S:g}",
               precision=option.precision or "")


def literal_fits(rec: Recommendation, option: Option | None, lang: str) -> str | None:
    """literal_answer's line for 'fits' ('will it fit?', '能跑吗'): yes or no on `option` (the user's own cards,
    else the plan's)."""
    best = rec.best
    if option is None and rec.options and rec.pool is None:
        # nothing meets every requirement on the cards asked ('一张卡够吗？' for 200 people): no, first; the closest
        # rows follow (a card that holds the model but misses the target says so)
        near = rec.options[0]
        used = near.train_per_gpu_bytes if rec.workload.spec.trains else near.serve_per_gpu_bytes
        held = near.trains if rec.workload.spec.trains else near.serves
        if used is not None:
            return say(lang, "literal.fits_not_target" if held else "literal.fits_no_closest", option=gpu_words(near, lang),
                       used=gb(used), capacity=gb(near.capacity_bytes))
    if option is None or rec.pool is not None or len(rec.owned_options) > 1:
        return None  # several kinds of your own cards: the pool's own line answers it
    training = rec.workload.spec.trains
    used = option.train_per_gpu_bytes if training else option.serve_per_gpu_bytes
    fits = option.trains if training else option.serves
    if used is None or fits is None:
        return None
    if fits and not training and rec.traffic is not None and rec.traffic.owned_short:
        return say(lang, "literal.fits_not_the_rate", option=gpu_words(option, lang), used=gb(used),
                   capacity=gb(option.capacity_bytes), rate=f"{rec.traffic.requests_per_s:,.3g}")
    t = rec.traffic
    if fits and not training and option.owned and option.ok and t is not None and t.owned_rps and t.utilisation:
        # your cards keep up with the rate: yes, with the headroom the queueing model gives (review O1 #16, O3 #18)
        return say(lang, "literal.fits_the_rate", option=gpu_words(option, lang), rate=f"{t.requests_per_s:,.3g}",
                   util=pct(t.utilisation), most=f"{t.owned_rps:,.3g}", cap=pct(MAX_UTILISATION),
                   used=gb(used), capacity=gb(option.capacity_bytes))
    off = rec.offload
    if not fits and not training and option.owned and rec.offload_leads and off is not None:
        # your card runs it with part of it in system RAM, and the answer says so: yes on that card (review N1 #13)
        ram = say(lang, "literal.offload_ram_ask", ram=f"{math.ceil(off.ram_needed_gb):,}") if off.ram_ok is None else ""
        return say(lang, "literal.fits_offload", option=gpu_words(option, lang), used=gb(used),
                   capacity=gb(option.capacity_bytes), flags=off.flags, tps=tps(off.decode_tokens_per_s),
                   low=tps(off.decode_tokens_per_s_range[0]), high=tps(off.decode_tokens_per_s_range[1])) + ram \
            + offload_target(off.decode_tokens_per_s, rec.workload.min_tokens_per_s, lang)
    if fits and option.owned and rec.relaxed and not rec.instead_model:  # yes, with the change the answer names below
        return say(lang, "literal.fits_yes_changed", option=gpu_words(option, lang), used=gb(used),
                   capacity=gb(option.capacity_bytes))
    if not fits and option.owned and best is not None and best.owned_gpus and best.precision:
        # more of the user's own card does it: how many in all, first (review O3 #18: 'is 8 H100 enough')
        return say(lang, "literal.fits_no_extend", total=f"{best.gpus:,}", gpu=best.gpu_name,
                   precision=best.precision, added=f"{best.gpus - best.owned_gpus:,}", owned=f"{best.owned_gpus:,}",
                   option=gpu_words(option, lang), used=gb(used), capacity=gb(option.capacity_bytes))
    if fits and not option.ok and option.reasons and not option.owned:  # it holds the model, misses what the headline
        return say(lang, "literal.fits_not_target", option=gpu_words(option, lang), used=gb(used),  # says: no
                   capacity=gb(option.capacity_bytes))
    if fits and not training and option.owned and not option.ok and option.reasons and not rec.relaxed \
            and not (rec.workload is not None and rec.workload.spec.batch):  # (a batch job's deadline: said below)
        # your cards hold the model but miss a target (the first token late): no, never 'Yes' above a plan that goes
        # elsewhere (review CUB #1)
        return say(lang, "literal.fits_owned_not_target", option=gpu_words(option, lang), used=gb(used),
                   capacity=gb(option.capacity_bytes), why=say(lang, "sep").join(localise(lang, r) for r in option.reasons))
    edge = fits_edge_line(option, gpu_words(option, lang), lang) if fits and training else None
    if edge:  # fits on paper, less than the training margin free: only just, with what gives it room (below)
        return edge
    window = (late_fit(rec, option, lang, gpu_words(option, lang), gb(used), gb(option.capacity_bytes))  # ends too late
              or window_yes(rec, option, lang, gpu_words(option, lang), gb(used), gb(option.capacity_bytes))) if fits else None
    short = offload_ram_short(rec, lang) if not fits and not training and option.owned else ""  # the RAM said is short
    return window or say(lang, "literal.fits_yes" if fits else "literal.fits_no", option=gpu_words(option, lang),
                         used=gb(used), capacity=gb(option.capacity_bytes), units=card_units(option, lang)) + short


def tpot_tail_lines(w: Any, traffic: Any, lang: str) -> list[str]:
    """The approximation a per-token target said at a percentile was held with (tools.queueing): with a request rate,
    the queueing model's own p99 against the target (its p99 and median from the result); else the mean below it."""
    from gpu_advisor.tools.queueing import STEADY_TPOT_RANGE, per_token_tail, percentile_name

    q = w.tpot_percentile
    if not (w.spec.serves and q and w.min_tokens_per_s):
        return []
    factor = per_token_tail(q)
    said = factor * 1000 / w.min_tokens_per_s
    common = {"pct": percentile_name(q), "ms": f"{said:,.4g}", "factor": f"{per_token_tail(0.99):.2f}",
              "lo": f"{STEADY_TPOT_RANGE[0]:.2f}", "hi": f"{STEADY_TPOT_RANGE[1]:.2f}"}
    if traffic is not None and traffic.tpot_p99_s and traffic.tpot_p50_s and w.queue_speed_targets().get("tpot_p99_ms"):
        return ["- " + say(lang, "answer.tpot_tail_rate", p99=f"{traffic.tpot_p99_s * 1000:,.0f}",
                           p50=f"{traffic.tpot_p50_s * 1000:,.0f}", **common)]
    return ["- " + say(lang, "answer.tpot_tail_fixed", mean=f"{said / factor:,.3g}", **{**common, "factor": f"{factor:.2f}"})]
