"""'kimi k2 self host vs just paying moonshot api, we'd do about 2 billion tokens a month': an API vendor (Moonshot,
OpenAI, Together, Fireworks, 阿里云百炼, 火山方舟 …) is a company selling tokens, never a model the catalog lacks; self-hosting
weighed against it is priced at the stated monthly usage, with the maker's dated list price where the knowledge data has
one (Kimi K2: Moonshot's) and a request for the price where it has none (review s21 #2)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.api_prices import api_price_of
from tests.conversation import payload, run_conversation

EN_VENDORS = ["moonshot api", "the moonshot api", "moonshot's api", "together api", "fireworks api", "openai's api",
              "the deepseek api", "openrouter"]
EN_FORMS = ["kimi k2 self host vs just paying {v}, we'd do about 2 billion tokens a month",
            "self hosting kimi k2 or paying {v}? about 2B tokens a month mostly input",
            "we use about 2 billion tokens a month. kimi k2 on our own gpus vs {v}"]
ZH = ["kimi k2自己部署还是直接用月之暗面的api划算？每个月大概20亿token",
      "每月大概20亿token，kimi k2自建还是用月之暗面的接口",
      "kimi k2 自己部署还是直接调月之暗面的api？每个月20亿token，大部分是输入"]


@pytest.mark.parametrize(("form", "vendor"), list(itertools.product(EN_FORMS, EN_VENDORS)))
def test_an_api_vendor_is_no_model_and_the_usage_is_weighed(form, vendor):
    u = understand(form.format(v=vendor))
    assert u.unknown_model is None
    assert u.updates["model"] == "kimi-k2"
    assert u.ask["break_even"] == {"usage_million_per_month": 2000.0}


@pytest.mark.parametrize("text", ZH)
def test_an_api_vendor_is_no_model_in_chinese(text):
    u = understand(text)
    assert u.unknown_model is None and u.updates["model"] == "kimi-k2"
    assert u.ask["break_even"] == {"usage_million_per_month": 2000.0}


@pytest.mark.parametrize("text", ["qwen2.5 72b 自己部署还是用阿里云百炼？每月5亿token", "qwen2.5 72b自建还是用火山方舟，每月5亿token"])
def test_a_chinese_platform_is_no_model(text):
    u = understand(text)
    assert u.unknown_model is None and u.updates["model"] == "qwen2.5-72b"
    assert u.ask["break_even"] == {"usage_million_per_month": 500.0}


def test_kimi_k2_has_moonshots_dated_list_price():
    price = api_price_of("kimi-k2")
    assert price is not None and price.provider == "Moonshot AI"
    assert (price.usd_per_million_input, price.usd_per_million_output) == (0.60, 2.50)
    assert price.as_of.isoformat() == "2026-03-26"


@pytest.mark.parametrize(("text", "lang"), [(EN_FORMS[0].format(v="moonshot api"), "en"), (ZH[0], "zh")])
def test_the_api_is_priced_at_the_usage_with_moonshots_price(text, lang):
    reply = run_conversation([text])[-1]
    body = reply.content
    api = payload(reply)["results"]["api_compare"]
    assert api["api_usd_at_usage"] == pytest.approx(2000 * (0.60 * 4096 + 2.50 * 256) / (4096 + 256), rel=1e-3)
    if lang == "en":
        assert body.startswith("**No: stay on the API.** At your 2 billion tokens a month it bills $1,424 at $0.71")
        assert "Moonshot AI's list price on record (2026-03-26)" in body and "moonshot api" not in body
    else:
        assert body.startswith("**不会更便宜，继续用 API。**") and "Moonshot AI 公布的标价（2026-03-26）" in body


def test_a_bought_plan_is_not_called_rented():
    reply = run_conversation([EN_FORMS[0].format(v="moonshot api")])[-1]
    first = reply.content.split("\n\n")[0]
    if payload(reply)["results"]["recommend"]["action"] == "buy":
        assert "rented" not in first and "bought" in first


def test_with_no_price_on_record_the_price_is_asked():
    body = run_conversation(["llama 3.1 70b self-host or pay together api? about 300 million tokens a month"])[-1].content
    assert body.startswith("**Self-hosting is cheaper only if the API charges more than $")
    assert "tell me the price you pay per million tokens" in body
