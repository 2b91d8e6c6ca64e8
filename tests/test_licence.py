"""Licence questions get an answer (review AI E7, Z8): the licence and its commercial terms from
knowledge/data/licences.yaml, what they mean at the monthly users said, 'not legal advice', the CAC filing for
China; alone when no load is said, under the plan's headline when one is."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.licences import licence_of, licences
from gpu_advisor.knowledge.loader import models
from gpu_advisor.tools.licence import licence_terms
from tests.conversation import run_conversation
from tests.test_no_english_in_chinese import english_runs


def _payload(turns: list[str]) -> tuple[str, dict[str, Any]]:
    last = run_conversation(turns)[-1]
    return str(last.content), last.additional_kwargs.get("gpu_advisor") or {}


def _licence_data(payload: dict[str, Any]) -> dict[str, Any] | None:
    if payload.get("topic") == "licence":
        return (payload.get("results") or {}).get("licence")
    return next((d for d in payload.get("asked_more") or [] if d.get("code") == "licence"), None)


def test_every_licence_names_known_models_and_a_dated_source():
    ids = {m.id for m in models()}
    for lic in licences():
        assert lic.models and set(lic.models) <= ids, lic.id
        assert lic.source.startswith("http") and lic.as_of.year >= 2026
    assert licence_of("llama-3.1-70b").mau_limit == 700_000_000  # type: ignore[union-attr]
    assert licence_of("qwen2.5-72b").mau_limit == 100_000_000  # type: ignore[union-attr]
    assert licence_of("qwen2.5-7b").id == "qwen2.5-apache"  # type: ignore[union-attr]
    assert licence_of("qwen2.5-3b").commercial == "not_allowed"  # type: ignore[union-attr]
    assert licence_of("deepseek-r1").id == "deepseek-r1-mit"  # type: ignore[union-attr]
    assert licence_of("mixtral-8x7b").id == "mistral-apache"  # type: ignore[union-attr]
    assert licence_of("gemma-3-27b").id == "gemma-terms"  # type: ignore[union-attr]


@pytest.mark.parametrize(("mau", "verdict"), [(2_000_000, "allowed"), (None, "allowed"),
                                               (800_000_000, "over_limit")])
def test_the_verdict_turns_on_the_licences_limit(mau, verdict):
    assert licence_terms(["llama-3.1-70b"], [], mau)[0].verdict == verdict
    assert licence_terms(["qwen2.5-3b"], [], mau)[0].verdict == "not_allowed"


ALONE = [
    ("en", "can we legally use llama 3.1 70b in a commercial saas? we'd have ~2 million monthly users", "llama-3.1-70b"),
    ("en", "we'd have about 2M MAU. is it legal to use Llama-3.1-70B for our commercial product?", "llama-3.1-70b"),
    ("en", "is qwen2.5 72b ok for commercial use?", "qwen2.5-72b"),
    ("en", "what's the license of mixtral 8x7b, can we use it commercially?", "mixtral-8x7b"),
    ("en", "deepseek r1 license for a commercial app?", "deepseek-r1"),
    ("zh", "Qwen2.5-72B 能商用吗？月活大概200万", "qwen2.5-72b"),
    ("zh", "月活200万，商用 llama 3.1 70b 有法律风险吗", "llama-3.1-70b"),
    ("zh", "gemma 3 27b 的许可协议允许商用吗", "gemma-3-27b"),
    ("en", "Are there any licensing issues with running gemma 3 27b for paying customers?", "gemma-3-27b"),
    ("zh", "商用deepseek v3需要授权吗？", "deepseek-v3"),
    ("zh", "用 mistral 7b 做商业产品要申请许可吗", "mistral-7b-v0.3"),
    ("zh", "DeepSeek R1 的开源协议是什么，能商用吗", "deepseek-r1"),
]


@pytest.mark.parametrize("text", ["we have 900 million monthly active users, can we use llama 3.3 70b commercially?",
                                  "月活9亿，商用 llama 3.3 70b 有法律风险吗"])
def test_above_the_limit_the_owners_licence_is_needed(text):
    reply, payload = _payload([text])
    data = _licence_data(payload)
    assert data is not None and data["licences"][0]["verdict"] == "over_limit"
    assert data["licences"][0]["mau"] == 900_000_000
    assert "900,000,000" not in reply  # the monthly users are the licence's scale, not a load noted


@pytest.mark.parametrize(("lang", "text", "model"), ALONE)
def test_a_licence_question_without_a_load_is_answered_alone(lang, text, model):
    reply, payload = _payload([text])
    data = _licence_data(payload)
    assert payload.get("topic") == "licence" and data is not None
    first = data["licences"][0]
    assert first["subject"] == model and first["licence_id"] == licence_of(model).id  # type: ignore[union-attr]
    assert first["verdict"] == "allowed"
    assert say(lang, "licence.head") in reply
    assert not payload.get("decision")  # no plan sized, no 'how many at once?'
    if "200" in text or "2" in text.split("million")[0][-4:]:
        assert first["mau"] == 2_000_000
    if lang == "zh":
        assert not english_runs(reply)


@pytest.mark.parametrize("text", [
    "can we legally use llama 3.1 70b in a commercial saas? we have around 2 million monthly users. and roughly what "
    "hardware to handle ~5 requests/sec",
    "what hardware for llama 3.1 70b at 5 requests/sec, and is it legal for our commercial saas with 2m mau?",
    "llama 3.1 70b 每秒5个请求要什么硬件？月活200万，商用有法律风险吗",
])
def test_with_a_load_the_plan_is_sized_and_the_licence_answered_under_its_headline(text):
    reply, payload = _payload([text])
    data = _licence_data(payload)
    assert payload.get("decision") and payload.get("topic") is None  # the plan
    assert data is not None and data["licences"][0]["subject"] == "llama-3.1-70b"
    assert data["licences"][0]["mau"] == 2_000_000 and data["licences"][0]["verdict"] == "allowed"
    assert reply.index("## ") < reply.index("Llama 3.1 70B**")


@pytest.mark.parametrize("text", [
    "国内公司商用 Llama 3.1 有法律风险吗？用Qwen是不是更稳？备案的话模型有要求吗",
    "备案的话模型有要求吗？国内商用 llama 3.1 还是 qwen 更稳",
    "we're a company in china: can we use llama 3.1 commercially? does the CAC filing care which model?",
])
def test_china_gets_both_families_and_the_filing(text):
    lang = "zh" if "国内" in text else "en"
    reply, payload = _payload([text])
    data = _licence_data(payload)
    assert data is not None and data["china"]
    ids = {t["licence_id"] for t in data["licences"]}
    assert "llama-3.1-community" in ids
    if "qwen" in text.lower():
        assert {"qwen2.5-apache", "qwen-licence"} <= ids
    assert say(lang, "licence.filing") in reply
    if lang == "zh":
        assert not english_runs(reply)


@pytest.mark.parametrize("text", [
    "summarise legal contracts with llama 3.1 70b for 20 people at once",
    "部署qwen2.5-72b给50个人用，工作时间，32k上下文",
    "serve qwen2.5 72b for a commercial product, 30 users at once",
])
def test_no_licence_question_no_licence_answer(text):
    assert "licence" not in understand(text).ask
