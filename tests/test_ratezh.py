"""A rate said per minute/hour with the items named and a time each must be done in (review AN2: '白天高峰一分钟
大概600篇 … 要求一篇20秒内出完'): a request rate with an end-to-end target, sized as a service under load, never
'1 user at a time' on one 4090; and buy-vs-rent between two named setups compares those two (AN10, AO 8)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

MODELS = ["glm-4-9b-chat", "qwen2.5-7b-instruct"]
RATES_ZH = [
    ("白天高峰一分钟大概600篇", 10.0), ("高峰每分钟要处理600篇作文", 10.0), ("每小时3万条", 30000 / 3600),
    ("一分钟600条左右", 10.0), ("每分钟差不多600份", 10.0),
]
RATES_EN = [
    ("peak about 600 essays a minute", 10.0), ("about 600 docs per minute at peak", 10.0),
    ("30k documents an hour", 30000 / 3600), ("600 requests a minute", 10.0), ("roughly 600 essays/min", 10.0),
]
LENGTHS_ZH = ["每篇输入差不多2000 token，输出800 token左右", "输入2000输出800"]
LENGTHS_EN = ["each 2000 tokens in and 800 out", "2000 tokens in, 800 out"]
TARGETS_ZH = ["要求一篇20秒内出完", "每条20秒内出完", "20秒内出完"]
TARGETS_EN = ["each must finish within 20 s", "within 20 s each", "each done in under 20 seconds"]


def _cases():
    for i, (rate, rps) in enumerate(RATES_ZH):
        for j, target in enumerate(TARGETS_ZH):
            lengths = LENGTHS_ZH[(i + j) % 2]
            model = MODELS[(i + j) % 2]
            yield f"我们用{model}，{rate}，{lengths}，{target}。租什么卡、几张", rps
            yield f"{target}，{lengths}，{rate}，模型是{model}，租什么卡", rps
    for i, (rate, rps) in enumerate(RATES_EN):
        for j, target in enumerate(TARGETS_EN):
            lengths = LENGTHS_EN[(i + j) % 2]
            model = MODELS[(i + j) % 2]
            yield f"we serve {model}, {rate}, {lengths}, {target}. which cards to rent, how many", rps
            yield f"{target}; {lengths}; {rate}. model is {model}, what should we rent", rps


@pytest.mark.parametrize(("text", "rps"), list(_cases()))
def test_items_per_period_are_a_request_rate_with_an_end_to_end_target(text, rps):
    u = understand(text)
    assert u.updates.get("phase") == "serve"
    assert u.updates.get("requests_per_s") == pytest.approx(rps, rel=1e-3)
    assert u.updates.get("e2e_ms") == pytest.approx(20000)
    assert u.updates.get("prompt_tokens") == 2000 and u.updates.get("output_tokens") == 800
    assert u.updates.get("users", 0) != 1  # the '1' of '一分钟' is the period's, no user count


@pytest.mark.parametrize("turn", [
    "我们做k12作文批改的，想上线用glm-4-9b-chat，白天高峰一分钟大概600篇，每篇输入差不多2000 token（含prompt），"
    "输出评语800 token左右，要求一篇20秒内出完。租什么卡、几张，一个月多少钱",
    "we grade k12 essays with glm-4-9b-chat, peak about 600 essays a minute, each 2000 tokens in and 800 out, "
    "each must finish within 20 s. which cards to rent, how many, and the monthly cost",
])
def test_the_essay_service_is_sized_for_its_rate_and_meets_the_target(turn):
    reply = run_conversation([turn])[0]
    rec = payload(reply)["results"]["recommend"]
    traffic = rec["traffic"]
    assert traffic["requests_per_s"] == pytest.approx(10.0)
    assert traffic["in_flight"] > 50  # ~100 requests at once, not one user
    assert rec["best"]["aggregate_tokens_per_s"] >= 8000 * 0.95
    assert rec["best"]["e2e_s"] <= 20.0
    assert ("每月" in reply.content) == ("批改" in turn)


BUY_A_RENT_B = [
    "老板问我：买 8 张 H20 还是租云上的 H800，我们跑 DeepSeek-V3 推理，一天大概 12 个小时有人用，打算用三年。哪个划算",
    "DeepSeek-V3推理服务，打算用三年，每天12小时左右在用，买8张H20划算，还是租云上的H800划算？",
    "my boss asks: buy 8 H20s or rent H800s in the cloud? we serve deepseek-v3, used about 12 hours a day, "
    "for three years. which is cheaper",
    "deepseek-v3 inference, busy about 12 hours a day, over 3 years: is renting h800 in the cloud or buying 8x h20 cheaper?",
]


@pytest.mark.parametrize("turn", BUY_A_RENT_B)
def test_buy_one_setup_or_rent_another_weighs_those_two_each_sized(turn):
    v = payload(run_conversation([turn])[0])["setup_buy_rent"]
    assert (v["buy"], v["buy_gpus"]) == ("h20", 8)
    assert v["rented"] == "h800-sxm" and v["rented_gpus"] == 16  # V3 at FP8 (~671 GB) takes two 8-card H800 servers
    assert v["utilisation"] == pytest.approx(0.5) and v["months"] == 36
    assert v["rent_total_usd"] > v["buy_total_usd"] and v["code"] == "buy"


HOURS_A_MONTH = [
    ("课题组纠结是买一台8卡4090服务器还是租H800，sft 32b，一个月大概用两百个小时，哪个划算", 200 / 730),
    ("sft 32b，每月200小时左右，买8卡4090服务器还是租H800划算", 200 / 730),
    ("买8张4090还是租H800？微调32b，每个月要用150个小时", 150 / 730),
    ("we fine-tune 32b; per month we use it about 200 hours; buy 8x 4090 or rent h800?", 200 / 730),
    ("buy an 8x 4090 server or rent h800? fine-tuning 32b, about 200 hours a month", 200 / 730),
    ("fine-tune 32b, every week we run it around 40 hours. buy 8x 4090 or rent h800?", 40 / 168),
]


@pytest.mark.parametrize(("text", "share"), HOURS_A_MONTH)
def test_hours_a_month_said_period_first_are_the_share_of_time_busy(text, share):
    assert understand(text).updates.get("utilisation") == pytest.approx(share, abs=0.002)


@pytest.mark.parametrize("turn", [
    "课题组手头有80万经费，纠结是买一台8卡4090服务器还是直接租H800。主要干的活是sft 7b到32b的模型，全参和lora都有，"
    "一个月大概用两百个小时。哪个划算点",
    "our lab has a budget of 800k yuan: buy one 8x 4090 server or rent h800? we sft 7b to 32b models, full and lora, "
    "about 200 hours a month. which is cheaper",
])
def test_buy_the_4090_box_or_rent_h800_weighs_those_two_at_the_hours_said(turn):
    v = payload(run_conversation([turn])[0])["setup_buy_rent"]
    assert (v["buy"], v["buy_gpus"]) == ("rtx-4090", 8)
    assert v["rented"] == "h800-sxm"
    assert v["utilisation"] == pytest.approx(200 / 730, abs=0.002)
