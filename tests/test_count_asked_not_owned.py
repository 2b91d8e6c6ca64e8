"""A card whose count is asked ('how many H100s', '要几张H100') is the card for the plan, never one the speaker
has, whatever 'we run' / '我们线上跑' said before it (found by the h-price helper, session 13)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN_LEADS = ["we run {m} in prod", "we use {m} for our chatbot", "we're running {m} in production", "our team uses {m}"]
EN_ASKS = ["how many {c}s do we need?", "how many {c}s", "how many {c} gpus would it take"]
ZH_LEADS = ["我们线上跑{m}", "我们跑{m}", "我们公司用{m}做客服", "生产环境里用{m}"]
ZH_ASKS = ["要几张{c}", "需要多少张{c}", "需要几块{c}？", "得要多少张{c}啊"]
CARDS = [("H100", "h100-sxm"), ("A100", "a100-80gb-sxm"), ("L40S", "l40s")]
MODELS = [("qwen2.5 32b", "qwen2.5-32b"), ("llama 3.1 8b", "llama-3.1-8b")]

CASES = [(f"{lead.format(m=m)}, {ask.format(c=c)}", model, card)
         for (lead, ask), (c, card), (m, model) in itertools.product(
             list(itertools.product(EN_LEADS, EN_ASKS)) + list(itertools.product(ZH_LEADS, ZH_ASKS)), CARDS, MODELS)]


@pytest.mark.parametrize(("text", "model", "card"), CASES)
def test_the_card_asked_about_is_not_owned(text, model, card):
    u = understand(text, None).updates
    assert not u.get("owned"), (text, u)
    assert u.get("model") == model
    assert [c.partition("x ")[2] or c for c in u.get("only") or []] == [card], (text, u)


@pytest.mark.parametrize("text", ["我们有4张H100，跑qwen2.5 32b够不够", "we have 4 H100s, will qwen2.5 32b fit?",
                                  "我们有8张4090，还需要多少张4090才能跑qwen2.5 72b"])
def test_cards_said_had_stay_owned(text):
    owned = understand(text, None).updates.get("owned") or []
    assert owned and owned[0].split("x ")[0] in {"4", "8"}, text


CARD_COUNTS = [f"部署deepseek-r1 671b需要{n}{u}910B" for n in ("几", "多少") for u in ("台", "张", "块")] \
    + [f"跑qwen2.5 72b要{n}台910B服务器" for n in ("几", "多少")]


@pytest.mark.parametrize("text", CARD_COUNTS)
def test_a_count_of_910b_is_the_card_not_an_unknown_model_of_910b(text):
    u = understand(text, None).updates
    assert u.get("model") in ("deepseek-r1", "qwen2.5-72b"), u
    assert any("ascend-910b" in c for c in (u.get("only") or []) + (u.get("owned") or [])), u
