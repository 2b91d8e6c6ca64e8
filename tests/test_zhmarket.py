"""China-market answers (review AR 2, AS ZH4): a purchase in China is not headlined on a card that official channels
there do not sell while one they sell does the job; a stock question about buying cards in China is answered per
channel, one price per card, in both languages and several phrasings."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.china_channel import china_channel, officially_sold
from tests.conversation import run_conversation


def _payload(reply):
    return reply.additional_kwargs["gpu_advisor"]


@pytest.mark.parametrize(("gpu", "channel"), [
    ("h20", "licence"), ("l20", "official"), ("rtx-4090d", "official"), ("ascend-910b", "official"),
    ("rtx-4090", "grey"), ("rtx-5090", "grey"), ("h100-sxm", "grey"), ("h800-sxm", "grey"), ("rtx-4090-48gb", "grey"),
])
def test_channel_per_card(gpu, channel):
    assert china_channel(find_gpu(gpu)) == channel


PROCURE = [
    ("H20和4090在国内现在哪个更好买？价格大概多少", "zh", {"h20": True, "rtx-4090": False}),
    ("国内现在4090和H20哪个好买，大概多少钱", "zh", {"h20": True, "rtx-4090": False}),
    ("H20好买吗", "zh", {"h20": True}),
    ("哪里能买到L20", "zh", {"l20": True}),
    ("请问国内5090和4090D哪个更好买啊", "zh", {"rtx-5090": False, "rtx-4090d": True}),
    ("is the H20 easy to get in China", "en", {"h20": True}),
    ("in china, which is easier to buy, the 4090 or the H20? and roughly what price", "en",
     {"h20": True, "rtx-4090": False}),
    ("where can i buy an L20 in china?", "en", {"l20": True}),
    ("how hard is it to get a 4090 in china these days", "en", {"rtx-4090": False}),
]


@pytest.mark.parametrize(("text", "lang", "sold"), PROCURE)
def test_procurement_answered_per_channel(text, lang, sold):
    reply = run_conversation([text])[-1]
    data = _payload(reply)
    assert data["topic"] == "availability"
    channels = data["results"]["china_channel"]
    assert {g: c != "grey" for g, c in channels.items()} == sold
    assert {c["id"] for c in data["results"]["cards"]} == set(sold)  # one price per card, from its record
    if lang == "zh":
        assert "正规渠道" in reply.content and "official channels" not in reply.content
    else:
        assert "official channels" in reply.content


def test_renting_only_keeps_the_offers():
    data = _payload(run_conversation(["哪里租4090最便宜"])[-1])
    assert "china_channel" not in data["results"]


PURCHASE = [
    ["我们是做法律文书的小团队，想用qwen3-32b做问答，同时在线大概15个人，合同动不动就五六万字，所以上下文得给到64k。"
     "想买卡放办公室，预算20万以内，买啥？", "工作时间用"],
    ["小公司在深圳，想采购显卡部署qwen3-32b，15个人同时用，上下文64k，预算20万，工作时间用"],
    ["small company in shenzhen, we want to buy cards for qwen3-32b serving 15 users at 64k context, "
     "budget 200k RMB, office hours"],
    ["we're a firm in shanghai buying gpus to serve qwen2.5 32b to 20 staff, 32k context, office hours, budget 300k rmb"],
]


@pytest.mark.parametrize("turns", PURCHASE)
def test_china_purchase_headline_is_sold_there(turns):
    reply = run_conversation(turns)[-1]
    rec = _payload(reply)["results"]["recommend"]
    assert rec["workload"]["region"] == "china"
    best = rec["best"]
    assert best is not None and best["ok"]
    if rec["action"] == "buy":
        assert officially_sold(find_gpu(best["gpu"])), best["gpu"]
    head = reply.content.splitlines()[0]
    assert "5090" not in head and "RTX 4090 24GB" not in head


H100_BUY = [
    ["租还是买？我们打算长期跑一个llama 3.1 70b的api服务，24小时不停，大概要4张H100，买的话多少钱，多久回本", "20-100 人"],
    ["我们在北京，llama 3.1 70b 的 API 要全天候跑，打算买4张H100，多少钱，几个月能回本？", "100人左右同时用"],
    ["We want to rent or buy for a long-running llama 3.1 70b API, 24/7, about 4 H100s. How much to buy and how long "
     "to pay back? We're in Beijing", "about 100 users at once"],
]


@pytest.mark.parametrize("turns", H100_BUY)
def test_server_priced_per_card_and_rent_said_from_where(turns):
    from gpu_advisor.tools.cost import price_quote

    first, second = run_conversation(turns)
    h100 = find_gpu("h100-sxm")
    # T1: the four cards come on an 8-GPU board: the server said as the 8 it holds, per card at the record's price
    assert "8" in first.content.split("\n\n")[2] or "8-GPU" in first.content
    rb = _payload(first)["results"].get("rent_or_buy") or _payload(first)["results"].get("recommend", {}).get(
        "rent_or_buy")
    if rb is not None:
        assert price_quote("h100-sxm", "china").region != "china"
        assert any("outside China" in a for a in rb["assumptions"])
    rec = _payload(second)["results"]["recommend"]
    best = rec["best"]
    assert best["gpu"] == "h100-sxm"
    if rec["action"] == "buy" and best["purchase_usd"]:
        host = best["purchase_usd"] - best["gpus"] * h100.buy_price_usd
        assert host >= 0  # the cards at one price per card, whatever the count
    if best["gpus"] > 4:  # the four said grew: the reason is said
        key = "你说的 4 ×" if second.content[:1] in "#*⚠" and any("\u4e00" <= c <= "\u9fff" for c in second.content[:40]) \
            else "Your 4 ×"
        assert key in second.content


@pytest.mark.parametrize("text", [
    "we can't get H100/H800 obviously, we want to serve a 72B",
    "serve a 72B for 20 people. no H100/H800 for us",
    "我们买不到H100/H800，想部署一个72B的模型",
    "A800/H800 也买不到，部署72B给内部用",
])
def test_cards_with_a_slash_are_never_a_model(text):
    from gpu_advisor.assistant.reading import understand

    u = understand(text)
    assert u.unknown_model is None
    assert u.updates.get("model") == "72B"


LAB = [
    "we're a small AI lab in shenzhen, budget around 1.5M RMB for hardware. want to do LoRA and occasional full FT on "
    "models up to 32B and serve a 72B for internal use. H20 or RTX 4090 48GB modded cards? we can't get H100/H800 obviously",
    "shenzhen lab, 1.5M RMB budget: serve a 72B internally, plus LoRA and sometimes full fine-tuning of models up to "
    "32B. H20 or modded 4090 48GB? no H100/H800 for us",
    "我们是深圳的小实验室，硬件预算150万，要做LoRA，偶尔全参微调，模型最大32B，另外内部部署一个72B。买H20还是魔改4090 48G？"
    "H100/H800我们买不到",
]


@pytest.mark.parametrize("text", LAB)
def test_full_ft_bounded_by_the_size_said(text):
    reply = run_conversation([text])[-1]
    data = _payload(reply)
    rec = data["results"]["recommend"]
    assert rec["workload"]["region"] == "china"
    assert "H100/H800" not in reply.content
    second = data["results"].get("second_job") or {}
    sized = second.get("sized")
    if sized is not None:  # the fine-tune checked on the plan's cards is the 32B, never the 72B served
        assert sized["model"] == "generic-32b"
    if rec["action"] == "buy":
        assert officially_sold(find_gpu(rec["best"]["gpu"]))
