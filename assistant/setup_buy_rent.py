"""Buy the setup named or rent ('buying a box w/ 8x H200 vs renting them, 60% of the time over 2 years, power
0.15/kWh: which is cheaper?', '买一台8卡H200还是租，用两年'): the cards named (profile.only, 'Nx id') bought, their
price, power at the user's electricity price and hosting over the horizon said, against renting them (or the
plan's card for the same runs, when renting another card was asked: 'buy a 4x rtx 6000 ada or rent h100s') for
the same share of the time, from tools.cost.rent_vs_buy; the break-even use and the verdict code ('rent'/'buy')
that the headline follows (writers). Asked when the user weighs buying against renting: the rent-or-buy question
this turn, or the months it covers said (profile.horizon_months) with neither way preferred.
Words: catalog setup_rb.*."""

from __future__ import annotations

from typing import Any, Literal

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.common import ToolError


def _setup(profile: Any, sides: dict[str, Any] | None = None) -> tuple[int, str] | None:
    """The one setup named with its count ('8x h200'), the cards to buy; or the card said bought in 'rent A or buy
    B?' (reading/rent_buy_sides.py), at its count said (0: the count the job needs)."""
    from gpu_advisor.tools.recommend import parse_owned

    if sides:
        return int(sides.get("buy_n") or 0), str(sides["buy"])

    try:
        named = [parse_owned(x) for x in profile.only or [] if x[:1].isdigit()]
    except LookupError:
        return None
    if not named or len({gpu.id for _n, gpu in named}) != 1:
        return None  # two setups named: the plan weighs them
    return named[0][0], named[0][1].id


def asked(profile: Any, this_turn: bool) -> bool:
    """Buying weighed against renting: asked this turn, or its months said with neither way preferred."""
    return (this_turn or profile.horizon_months is not None) and profile.preference in (None, "either") \
        and not profile.owned


def _sized(rec: Any, gpu: str) -> Any:
    """The fewest cards of `gpu` (a power of two, up to a server) that do the job (tools.recommend.evaluate)."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate

    for k in (1, 2, 4, 8):
        o = evaluate(rec.workload, find_gpu(gpu), k)
        if o is not None and o.ok:
            return o
    return None


def _rented(rec: Any, n: int, gpu: str, region: str, named: list[str]) -> tuple[int, str, float] | None:
    """The cards rented for the same work and the rented hours per hour of the setup's work: a card named beside
    the setup ('or rent h100s'), else the setup itself when it is rented anywhere, else the plan's (or the first
    priced) other card; another card's hours are its run hours over the setup's for the same runs."""
    from gpu_advisor.assistant.rent_sized import rented_for
    from gpu_advisor.tools.cost import try_price

    sized = rented_for(rec, gpu, n, named) if named else None  # 'buy 8 H20 or rent H800': the H800 sized for the job
    if sized is not None:
        return sized
    best = rec.best if rec is not None else None
    priced = try_price(gpu, region) is not None  # type: ignore[arg-type]
    if priced and not named and (best is None or best.owned or best.gpu == gpu):
        return n, gpu, 1.0
    mine = next((o for o in rec.options if o.gpu == gpu and o.gpus == n and o.job_hours), None) if rec else None
    others = [o for o in ([best] if best is not None else []) + list(rec.options if rec else [])
              if o.ok and not o.owned and o.gpu != gpu and o.job_hours and o.usd_per_hour]
    if named and rec is not None:
        others = [o for o in others if o.gpu in named] or [o for o in map(lambda c: _sized(rec, c), named)
                                                           if o is not None and o.job_hours and o.usd_per_hour]
    if mine is None or not others:
        return (n, gpu, 1.0) if priced else None
    return others[0].gpus, others[0].gpu, others[0].job_hours / mine.job_hours


def follow(rec: Any, v: dict[str, Any] | None) -> Any:
    """The plan headlined the way the verdict goes: bought when buying is cheaper and the plan is on the setup's
    card, rented when renting is, on the rented card (its option when the plan was on the setup's card)."""
    if rec is None or v is None or rec.best is None or rec.best.owned or rec.action not in ("rent", "buy"):
        return rec
    from gpu_advisor.assistant.rb_tradeoff import needed_rows

    rec = needed_rows(rec, v)  # the rented card's row at the count weighed, never one card that falls short
    if v["code"] == "buy" and rec.best.gpu == v["buy"] and not v.get("over_budget"):
        # (a budget that does not buy the setup: the plan's way stands); another card rented weighed: its verdict is
        # the answer, never the plan's own card rented against bought beside it
        return rec.model_copy(update={"action": "buy", **({"rent_or_buy": None} if v["rented"] != v["buy"] else {})})
    if v["code"] == "buy" and not v.get("over_budget"):  # 'rent an A100 or buy 2 4090s': the plan on the 4090s bought
        from gpu_advisor.assistant.rb_tradeoff import row

        mine = row(rec, v["buy"], v["buy_gpus"])
        if mine is not None and mine.ok:
            return rec.model_copy(update={"action": "buy", "best": mine, "rent_or_buy": None, "rent_unit": None})
    if v["code"] == "rent":
        if rec.best.gpu == v["rented"]:
            return rec.model_copy(update={"action": "rent"})
        other = next((o for o in rec.options if o.ok and not o.owned and o.gpu == v["rented"]
                      and o.gpus == v["rented_gpus"]), None)
        if other is None:  # the card named to rent, sized for the job, is in no row of the plan's table
            from gpu_advisor.assistant.rent_sized import sized

            other = sized(rec, v["rented"])
            other = other if other is not None and other.gpus == v["rented_gpus"] else None
        if other is not None:
            return rec.model_copy(update={"action": "rent", "best": other, "rent_or_buy": None,
                                          **({"rent_unit": None} if other.gpu != rec.best.gpu else {})})
    return rec


def weigh(profile: Any, rec: Any, this_turn: bool, recorder: Any, named: list[str] | None = None,
          sides: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The figures and the verdict code; None when not asked, no setup was named or a price is missing."""
    from gpu_advisor.assistant import rb_tradeoff
    from gpu_advisor.assistant.rent_sized import service
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.purchase import purchase_usd, server_usd_per_gpu
    from gpu_advisor.tools.cost import DEFAULT_HORIZON_MONTHS, RentBuyInput, rent_vs_buy, try_price

    setup = _setup(profile, sides)
    if setup is None or not asked(profile, this_turn) or profile.utilisation is None:
        return None
    said_n, gpu = setup
    named_n, short = rb_tradeoff.doing_count(rec, gpu, said_n) if sides else (said_n, {})  # '2 × 5090' that cannot carry it
    if not named_n:
        return None
    n = _needed(rec, gpu, named_n)  # the 8-card box for a service 2 cards carry: the 2 weighed (review BZ #3)
    region: Literal["global", "china"] = "china" if profile.region == "china" else "global"
    rented = _rented(rec, n, gpu, region, [c for c in named or [] if c != gpu])
    quote = try_price(rented[1], region) if rented else None
    bought = find_gpu(gpu)
    said = _their_price(rec, gpu)  # '想买一台8卡H20服务器，大概一百万': the user's own purchase price, per card
    server = server_usd_per_gpu(bought, n)  # the whole server per card, chassis and all: the plan's price too
    shown = rb_tradeoff.row(rec, gpu, n)  # the plan's row of the setup: its purchase price is the one said
    whole = shown.purchase_usd if shown is not None and shown.purchase_usd and shown.gpus == n else purchase_usd(bought, n)
    pcs = bought.host_kind == "consumer" and (whole or 0) > (bought.buy_price_usd or 0) * n
    server = whole / n if whole else server  # the region's price, desktop cards with the PCs they go into
    if rented is None or quote is None or (server is None and said is None):
        return None
    k, rent_gpu, ratio = rented
    months = profile.horizon_months or DEFAULT_HORIZON_MONTHS
    billed = _billed_share(rec, profile.utilisation)  # a service for others is rented every hour it is up
    hosting = {"hosting_usd_per_gpu_month": profile.hosting_usd_per_month / n} if profile.hosting_usd_per_month else {}
    args = RentBuyInput(gpu=rent_gpu, gpus=k, utilisation=billed, region=region, buy_utilisation=profile.utilisation,
                        rent_usd_per_gpu_hour=quote.usd_per_gpu_hour_typical * ratio, horizon_months=months,
                        electricity_usd_per_kwh=profile.electricity_usd_per_kwh, buy_gpu=gpu, buy_gpus=n, **hosting,
                        purchase_usd_per_gpu=said or server)
    try:
        rb = rent_vs_buy(args)
    except (ToolError, LookupError, ValueError):
        return None
    if recorder is not None:
        recorder("rent_vs_buy", args.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
    own = next(t for t in rb.terms if t.key == "buy_total_usd").inputs
    cards = float(own["purchase_usd_per_gpu"]) * n
    upkeep = float(own["hosting_usd_per_gpu_month"]) * months * n
    from gpu_advisor.assistant import rb_tradeoff

    return rb_tradeoff.weigh(rec, {"code": rb.cheaper, "buy": gpu, "buy_name": bought.name, "buy_gpus": n, "rented": rent_gpu,
            "rented_name": find_gpu(rent_gpu).name, "rented_gpus": k, "same": rent_gpu == gpu and k == n,
            "run_ratio": ratio, "usd_per_gpu_hour": quote.usd_per_gpu_hour_typical, "busy_hours":
            months * 730 * billed * ratio, "utilisation": billed, "busy": profile.utilisation, "months": months,
            "around_the_clock": billed > profile.utilisation,
            "rent_total_usd": rb.rent_total_usd, "buy_total_usd": rb.buy_total_usd, "cards_usd": cards,
            "power_usd": rb.buy_total_usd - cards - upkeep, "usd_per_kwh": own["usd_per_kwh"],
            "kwh_said": profile.electricity_usd_per_kwh is not None,
            "server": bought.host_kind != "consumer", "pcs": pcs and said is None, "hosting_usd": upkeep, "price_said": said is not None,
            "hosting_usd_per_gpu_month": own["hosting_usd_per_gpu_month"],
            "break_even_utilisation": rb.break_even_utilisation, "payback_months": rb.payback_months,
            "service": service(rec), **over_budget(rec, cards), **_oversized(bought, named_n, n), **short}, region)


def _needed(rec: Any, gpu: str, n: int) -> int:
    """The cards of the setup's card a service needs, when fewer than the setup named ('debating buying an 8x H100
    box vs renting' for Mistral Small 24B at 40 users, which 2 carry): the plan's count on that card, else the fewest
    that do it (rent_sized.sized); `n` for a job (more cards finish it sooner) or when no fewer do it."""
    from gpu_advisor.assistant.rent_sized import service, sized

    if rec is None or not service(rec):
        return n
    best = rec.best
    o = best if best is not None and best.ok and not best.owned and best.gpu == gpu else sized(rec, gpu)
    return o.gpus if o is not None and o.gpus < n else n


def _oversized(card: Any, named: int, need: int) -> dict[str, Any]:
    """The setup named with its price when the service needs fewer of its cards ({} otherwise): said before the
    comparison, which weighs the cards needed."""
    from gpu_advisor.knowledge.purchase import purchase_usd

    usd = purchase_usd(card, named) if named > need else None
    return {"named_gpus": named, "named_usd": usd} if usd is not None else {}


def over_budget(rec: Any, cards_usd: float) -> dict[str, Any]:
    """The setup's price against a one-off budget it overruns by more than the leeway (review BX #4: an $336,000
    8 x H200 server on '$250k' is 34% over): the budget and the overrun; {} when within it or no budget was said."""
    from gpu_advisor.tools.recommend import within_budget

    w = getattr(rec, "workload", None)
    if w is None or w.budget_usd is None or within_budget(cards_usd, w.budget_usd, w):
        return {}
    found = {"over_budget": cards_usd / w.budget_usd - 1, "budget_usd": w.budget_usd}
    buys = budget_buys(w)
    if buys is not None:
        found["budget_buys"] = {"gpus": buys.gpus, "name": buys.gpu_name, "usd": buys.purchase_usd,
                                "tps": buys.decode_tokens_per_s, "sold_in": buys.sold_in}
    return found


def budget_buys(w: Any) -> Any:
    """What the budget buys for the job among every card on record (the setup named set aside), ranked by its
    purchase price: the plan of tools.recommend bought, when it meets every requirement and its whole price is
    within the budget; None otherwise."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import recommend, within_budget

    try:
        rec = recommend(w.model_copy(update={"candidates": None, "preference": "buy"}), with_levers=False)
    except (ToolError, LookupError, ValueError):
        return None
    best = rec.best
    if best is None or best.owned or not best.ok or best.purchase_usd is None \
            or not within_budget(best.purchase_usd, w.budget_usd, w):
        return None
    return best


def _billed_share(rec: Any, utilisation: float) -> float:
    """The share of the hours the rented cards are billed: a service for other people with no utilisation said is up
    around the clock (tools.recommend.service_hours, the basis of the plan's month and its assumption line), a job
    or one person's model the share it is busy."""
    from gpu_advisor.assistant.rent_sized import service
    from gpu_advisor.tools.recommend import HOURS_PER_MONTH, service_hours

    if not service(rec):
        return utilisation
    return min(max(service_hours(rec.workload) / HOURS_PER_MONTH, utilisation), 1.0)


def _their_price(rec: Any, gpu: str) -> float | None:
    """The purchase price per card the user gave for `gpu` (tools.recommend.quoted), else None: one price for the
    card in every line of the reply."""
    from gpu_advisor.tools.recommend import quoted

    said = quoted(rec.workload, gpu) if rec is not None else None
    return said.buy_usd_per_gpu if said is not None else None


def _pct(x: float) -> str:
    return f"{x:.0%}"


def block(v: dict[str, Any], lang: str, money: Any) -> str:
    """The head-on answer, before the plan: both totals, their parts, the break-even use, the verdict."""
    setup = f"{v['buy_gpus']} × {v['buy_name']}"
    rented = f"{v['rented_gpus']} × {v['rented_name']}"
    clock = "_clock" if v.get("around_the_clock") else ""  # a service billed every hour: said so, not its busy share
    lines = [say(lang, "money.rb_head_clock", setup=setup, months=v["months"], busy=_pct(v["busy"])) if clock else
             say(lang, "setup_rb.head", setup=setup, use=_pct(v["utilisation"]), months=v["months"])]
    from gpu_advisor.assistant import rb_tradeoff
    from gpu_advisor.assistant.server_price import line
    from gpu_advisor.knowledge import find_gpu

    # '买一台8卡H20服务器要多少钱': the server's price on record, said first
    priced = line(find_gpu(v["buy"]), v["buy_gpus"], lang, money) if not v.get("price_said") else ""
    lines = [priced] * bool(priced) + lines
    big = v.get("named_gpus")
    if big:  # the box named is more than the service needs: said with its price, the need weighed below
        lines = [say(lang, "setup_rb.oversized", named=f"{big} × {v['buy_name']}", need=setup, usd=money(v["named_usd"]),
                     times=f"{big / v['buy_gpus']:g}")] + lines
    if not v["same"]:
        lines.append(say(lang, "ratezh.rb_service", rented=rented, setup=setup, rented_card=v["rented_name"])
                     if v.get("service") else
                     say(lang, "setup_rb.other", rented=rented, setup=setup, ratio=f"{v['run_ratio']:.2f}"))
    lines.append(say(lang, "money.rb_rent_clock" if clock else "setup_rb.rent", rented=rented, price=money(v["usd_per_gpu_hour"]),
                     hours=f"{v['busy_hours']:,.0f}", total=money(v["rent_total_usd"])))
    cards = money(v["cards_usd"]) + (say(lang, "setup_rb.price_said") if v.get("price_said") else "")
    what = say(lang, "setup_rb.what.server" if v.get("server") else "rbone.what.pcs" if v.get("pcs")
               else "setup_rb.what.cards")  # (the PCs the desktop cards go into: the plan's purchase price)
    lines.append(say(lang, "setup_rb.buy", setup=setup, cards=cards, what=what, power=money(v["power_usd"]),
                     kwh=money(v["usd_per_kwh"]), kwh_said=say(lang, "setup_rb.kwh_said" if v["kwh_said"]
                                                                else "setup_rb.kwh_default"),
                     hosting=money(v["hosting_usd"]), per=money(v["hosting_usd_per_gpu_month"]),
                     total=money(v["buy_total_usd"])))
    be = v["break_even_utilisation"]
    lines.append(say(lang, "setup_rb.never", months=v["months"]) if be is None
                 else say(lang, "money.rb_break_even_clock" if clock else "setup_rb.break_even", pct=_pct(be),
                          months=v["months"]))
    payback = v.get("payback_months")
    if payback is not None and not clock:  # '每天训练十个小时': the month's rent and the years owning takes to pay off
        lines.append(say(lang, "setup_rb.payback", use=_pct(v["utilisation"]), month=money(v["rent_total_usd"] / v["months"]),
                         payback=f"{payback:,.0f}", years=f"{payback / 12:.1f}"))
    gap = abs(v["rent_total_usd"] - v["buy_total_usd"])
    key = f"money.rb_verdict_{v['code']}_clock" if clock else f"setup_rb.verdict.{v['code']}"
    lines.append(rb_tradeoff.verdict(v, lang, setup, rented, money(gap), _pct(v["utilisation"]), key,
                                     months=v["months"], busy=_pct(v["busy"])))  # one verdict, its trade-off
    if v.get("over_budget") is not None:  # cheaper over the months, but the money to buy it is not there
        lines.append(say(lang, "setup_rb.over_budget", setup=setup, usd=money(v["cards_usd"]), over=_pct(v["over_budget"]),
                         budget=money(v["budget_usd"])))
        b = v.get("budget_buys")
        if b:  # what the money does buy for the job
            key = "setup_rb.budget_buys_server" if b["gpus"] % b["sold_in"] == 0 and b["sold_in"] > 1 else "setup_rb.budget_buys"
            lines[-1] += say(lang, key, option=f"{b['gpus']} × {b['name']}", usd=money(b["usd"]), tps=f"{b['tps'] or 0:,.0f}",
                             budget=money(v["budget_usd"]))
    short = rb_tradeoff.short_line(v, lang, setup, rented)  # 'buy 2 × 5090' that cannot carry it: the count that does
    lines = [short] * bool(short) + lines
    head = 1 + bool(priced) + bool(big) + bool(short)  # the oversize, the server's price and the heading, then the figures as a list
    tail = 2 if v.get("over_budget") is not None else 1  # the verdict (and the budget line) after the list
    return "\n".join(f"- {x}" if head <= i < len(lines) - tail else x for i, x in enumerate(lines))


def first(turn: Any, profile: Any, answer: Any, lang: str, recorder: Any, money: Any) -> tuple[str, dict[str, Any] | None]:
    """The block said before the plan and its data (engine): ('', None) when not asked."""
    rec = answer.recommend if answer is not None else None
    this_turn = bool(turn.has("rent_buy"))
    # the card named to rent beside the setup: said this turn, or kept with it in the cards to consider
    named = list(turn.cards) if this_turn else [x for x in profile.only or [] if not x[:1].isdigit()]
    sides = turn.ask.get("rent_buy_sides") if this_turn else None  # 'rent an A100 or buy 2 RTX 4090s?'
    named = [sides["rent"]] if sides else named
    v = weigh(profile, rec, this_turn, recorder, named, sides)
    return (block(v, lang, money), v) if v else ("", None)
