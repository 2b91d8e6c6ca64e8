"""Issue 23 item 3: a card priced from a single offer is marked so and never wins a headline over a well-sourced
card by less than its spread. The spread is measured on the price data (tools.cost.offer_spread); a user's own
quote and a cloud the user named are never marked down; owned cards and purchases are unaffected."""

from __future__ import annotations

import statistics

import pytest

from gpu_advisor.assistant.writers import cell
from gpu_advisor.knowledge import find_gpu, prices, rules
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.tools.cost import few_offers, offer_spread, price_quote
from gpu_advisor.tools.recommend import Option, RentQuote, Workload, cost_score, decide, recommend
from tests.conversation import payload, run_conversation

SPREAD = offer_spread().spread
SINGLE, WELL = "mi300x", "h100-sxm"  # 1 offer on record; 17 offers
SINGLE_CUDA = "l4"  # 1 offer, on CUDA: no software-stack penalty in the way


def test_the_thresholds_are_data_and_the_spread_is_measured_on_the_well_sourced_cards():
    r = rules()
    assert (r.few_offers_below, r.well_sourced_offers) == (3, 5)
    quotes = [price_quote(g) for g in sorted({p.gpu for p in prices()})]
    well = [q for q in quotes if q.samples >= r.well_sourced_offers]
    expected = statistics.median((q.usd_per_gpu_hour_typical - q.usd_per_gpu_hour_low) / q.usd_per_gpu_hour_typical
                                 for q in well)
    assert expected == pytest.approx(SPREAD)
    assert 0.05 < SPREAD < 0.9
    assert WELL in offer_spread().cards and SINGLE not in offer_spread().cards
    assert price_quote(SINGLE).samples == 1 and price_quote(SINGLE_CUDA).samples == 1
    assert few_offers(1) and few_offers(2) and not few_offers(3) and not few_offers(None)


def _option(gpu: str, usd_per_hour: float, offers: int | None, job: bool) -> Option:
    card = find_gpu(gpu)
    return Option(gpu=gpu, gpu_name=card.name, gpus=1, capacity_bytes=card.memory_gb * 1e9, headroom_fraction=0.4,
                  ok=True, usd_per_hour=usd_per_hour, usd_per_month=usd_per_hour * 730 * 0.5,
                  job_hours=2.0 if job else None, job_usd=usd_per_hour * 2.0 if job else None, price_offers=offers)


JOBS = [("serve", False), ("batch", True), ("fine-tune", True)]


@pytest.mark.parametrize("phase,job", JOBS)
@pytest.mark.parametrize("share", [0.1, 0.5, 0.9, 0.99])
@pytest.mark.parametrize("well_price", [1.0, 3.99, 12.5])
def test_a_single_offer_card_cheaper_by_less_than_the_spread_loses(phase, job, share, well_price):
    cheaper = well_price / (1 + share * SPREAD)  # cheaper than the well-sourced card, by less than the spread
    w = Workload(phase=phase, model="llama-3.1-8b")
    single = _option(SINGLE_CUDA, cheaper, 1, job)
    well = _option(WELL, well_price, 17, job)
    best, _action, _rb = decide(w, [single, well])
    assert best is not None and best.gpu == WELL, (phase, share, cheaper, well_price)
    assert cost_score(single, w) > cost_score(well, w)


@pytest.mark.parametrize("phase,job", JOBS)
@pytest.mark.parametrize("share", [1.05, 1.5, 3.0])
@pytest.mark.parametrize("offers", [1, 2])
def test_a_single_offer_card_cheaper_by_more_than_the_spread_wins(phase, job, share, offers):
    well_price = 3.99
    w = Workload(phase=phase, model="llama-3.1-8b")
    single = _option(SINGLE_CUDA, well_price / (1 + share * SPREAD), offers, job)
    best, _action, _rb = decide(w, [_option(WELL, well_price, 17, job), single])
    assert best is not None and best.gpu == SINGLE_CUDA, (phase, share, offers)


@pytest.mark.parametrize("offers", [3, 5, None])
def test_a_price_from_enough_offers_or_the_users_own_is_not_marked_down(offers):
    w = Workload(phase="serve", model="llama-3.1-8b")
    single = _option(SINGLE_CUDA, 3.5, offers, False)
    assert cost_score(single, w) == pytest.approx(cost_score(_option(SINGLE_CUDA, 3.5, 17, False), w))
    best, _action, _rb = decide(w, [_option(WELL, 3.99, 17, False), single])
    assert best is not None and best.gpu == SINGLE_CUDA


def test_a_purchase_is_not_marked_down_by_the_rental_offers():
    w = Workload(phase="serve", model="llama-3.1-8b", preference="buy")
    single = _option(SINGLE_CUDA, 3.5, 1, False).model_copy(update={"purchase_usd": 10_000.0})
    assert cost_score(single, w) == pytest.approx(
        cost_score(single.model_copy(update={"price_offers": 17}), w))


@pytest.mark.parametrize("cloud", ["azure"])
def test_a_cloud_the_user_named_is_not_marked_down(cloud):
    w = Workload(phase="serve", model="llama-3.1-8b", preference="rent", candidates=list(clouds()[cloud].gpus))
    single = _option(SINGLE, 2.59, 1, False)
    assert cost_score(single, w) == pytest.approx(cost_score(single.model_copy(update={"price_offers": 17}), w))
    elsewhere = w.model_copy(update={"candidates": None})
    assert cost_score(single, elsewhere) == pytest.approx(cost_score(single, w) * (1 + SPREAD))


# The reviewers' case: a 70B model for a few users. 1 x MI300X ($2.59, one offer) is cheaper than 2 x A100 80GB
# ($2.98, eight offers) by less than the spread: the A100s lead, the MI300X row is shown and marked.
@pytest.mark.parametrize("users,utilisation", [(5, 0.24), (5, 1.0), (3, 0.5)])
def test_the_seventy_b_headline_is_a_well_sourced_card(users, utilisation):
    rec = recommend(Workload(phase="serve", model="llama-3.1-70b", users=users, utilisation=utilisation))
    assert rec.best is not None and rec.best.gpu != SINGLE
    mi300x = next(o for o in rec.options if o.gpu == SINGLE and o.ok)
    assert mi300x.price_offers == 1 and rec.best.price_offers is not None and rec.best.price_offers >= 3
    assert mi300x.usd_per_hour is not None and rec.best.usd_per_hour is not None
    assert mi300x.usd_per_hour < rec.best.usd_per_hour < mi300x.usd_per_hour * (1 + SPREAD)


def test_the_users_own_quotes_are_not_marked_down():
    quotes = [RentQuote(gpu=SINGLE, usd_per_gpu_hour=2.59), RentQuote(gpu="a100-80gb-sxm", usd_per_gpu_hour=1.49)]
    rec = recommend(Workload(phase="serve", model="llama-3.1-70b", users=5, utilisation=0.24, quotes=quotes))
    quoted = next(o for o in rec.options if o.gpu == SINGLE)
    assert quoted.price_offers is None and quoted.usd_per_hour == pytest.approx(2.59)
    # 13% under the two quoted A100s is within the measured price spread, so the ROCm card does not head
    # the answer (rules.software_risk_over_spread); it stays an alternative at the user's own price
    assert rec.best is not None and rec.best.gpu == "a100-80gb-sxm" and rec.best.price_offers is None


ROW = "| 1 × AMD Instinct MI300X 192GB (fp8) |"
MARK = {"en": "$2.59 (price from 1 offer) |", "zh": "$2.59（仅 1 个报价） |"}
ASKS = {
    "en": ["serve a 70B model to 5 users during working hours", "5 users, a 70b model, serving, office hours",
           "We want to host a 70B LLM for 5 people during working hours"],
    "zh": ["我们在海外，给5个用户部署一个70B模型，工作时间使用", "在海外部署70B模型，5个人用，上班时间用"],
}


@pytest.mark.parametrize("lang,text", [(lang, t) for lang, texts in ASKS.items() for t in texts])
def test_the_table_marks_a_price_from_one_offer_in_both_languages(lang, text):
    reply = run_conversation([text])[-1]
    assert payload(reply)["kind"] == "answer", reply.content
    head = reply.content.splitlines()[0]
    assert "A100" in head and "MI300X" not in head, head
    row = next(line for line in reply.content.splitlines() if line.startswith(ROW))
    assert row.endswith(MARK[lang]), row
    a100 = next(line for line in reply.content.splitlines() if line.startswith("| 2 × NVIDIA A100 SXM4 80GB"))
    assert a100.endswith("| $2.98 |") and "offer" not in a100 and "报价" not in a100, a100


@pytest.mark.parametrize("lang,offers,expected", [
    ("en", 1, "$2.59 (price from 1 offer)"), ("en", 2, "$2.59 (price from 2 offers)"), ("en", 3, "$2.59"),
    ("en", None, "$2.59"), ("zh", 1, "$2.59（仅 1 个报价）"), ("zh", 2, "$2.59（仅 2 个报价）"), ("zh", 5, "$2.59"),
])
def test_the_price_cell_says_how_many_offers(lang, offers, expected):
    o = _option(SINGLE, 2.59, offers, True)
    assert cell("per_hour", o, lang) == expected
    assert cell("job_usd", o, lang) == expected.replace("2.59", "5.18")


# The plan now rents one RTX 4090 in China (the 3090's price rests on 2 offers): "buy two 4090s ourselves" is the
# payback of the two cards said, not of the plan's one.
@pytest.mark.parametrize("turns", [
    ["给10个人部署qwen2.5 7b，工作时间用", "自己买两张4090，多久回本"],
    ["给10个人部署qwen2.5 7b，工作时间用", "买2张4090的话多久能回本"],
    ["serve qwen2.5 7b to 10 people during working hours, in China", "if we buy two 4090s ourselves, when does it pay off?"],
    ["serve qwen2.5 7b to 10 people during working hours, in China", "if we bought 2 rtx 4090s, when would they pay off?"],
])
def test_a_count_said_of_the_plans_own_card_is_the_count_priced(turns):
    first, answer = run_conversation(turns)
    assert payload(first)["decision"]["gpu"] == "rtx-4090" and payload(first)["decision"]["gpus"] == 1
    rb = payload(answer)["results"]["rent_or_buy"]
    assert rb["gpus"] == 2 and rb["payback_months"] is not None, answer.content
    assert "2 × NVIDIA GeForce RTX 4090 24GB" in answer.content


@pytest.mark.parametrize("text", ["serve a 70B model to 5 users during working hours, we only use azure",
                                  "serve a 70B model to 5 users during working hours on Azure",
                                  "我们在海外，只用Azure，给5个用户部署一个70B模型，工作时间使用"])
def test_a_cloud_named_in_words_keeps_its_single_offer_cards_unmarked_down(text):
    reply = run_conversation([text])[-1]
    rec = payload(reply)["results"]["recommend"]
    w = Workload.model_validate(rec["workload"])
    assert w.candidates == list(clouds()["azure"].gpus) and w.preference == "rent"
    mi300x = next(Option.model_validate(o) for o in rec["options"] if o["gpu"] == SINGLE and o["ok"])
    assert mi300x.price_offers == 1
    assert cost_score(mi300x, w) == pytest.approx(cost_score(mi300x.model_copy(update={"price_offers": 17}), w))
    # the price is still marked: it rests on one offer whoever rents it
    assert ("(price from 1 offer)" if text.isascii() else "（仅 1 个报价）") in reply.content


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_narrow_terminal_table_moves_the_mark_under_the_table_before_dropping_a_column(lang):
    from gpu_advisor.tui.format import SHORT_HEADERS, VENDOR_WORDS, fit_table, table_width

    cheap, dear = _option(SINGLE, 2.59, 1, False), _option(WELL, 3.99, 17, False)
    columns = ["option", "fits", "memory to spare", "per hour"]
    rows = [[o.gpu_name, "yes", "40%", cell("per_hour", o, lang)] for o in (cheap, dear)]
    mark = MARK[lang].removeprefix("$2.59").removesuffix(" |").strip(" ()（）")
    assert fit_table(columns, rows, 200) == (columns, rows, [])
    short = [SHORT_HEADERS.get(c, c) for c in columns]
    starred = [[VENDOR_WORDS.sub("", r[0]), *r[1:3], r[3] if r[3] == "$3.99" else "$2.59*"] for r in rows]
    cols, body, dropped = fit_table(columns, rows, table_width(short, starred))  # fits once the mark is moved out
    assert cols == short and body == starred and dropped == ["*" + mark]
    cols, body, dropped = fit_table(columns, rows, 30)  # narrower: columns go too, the price and its mark stay
    assert cols[-1] in ("per hour", "$/h") and body[0][-1] == "$2.59*" and dropped[-1] == "*" + mark
