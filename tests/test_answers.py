"""Questions that are not (only) a sizing request get their answer first (session 14, 'answers'):
the longest context on the person's own card asked in the first message, ..."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_conversation


def _data(turns: list[str]) -> dict[str, Any]:
    return run_conversation(turns)[-1].additional_kwargs.get("gpu_advisor") or {}


LONGEST = [
    "家里就一张4060ti 16g，想跑qwen3-14b自己用，q4的话上下文最多能开多长？速度咋样",
    "我有一张4060ti 16g，qwen3 14b q4能跑多长的上下文",
    "qwen3-14b q4，我自己的4060 ti 16g，上下文最长能开到多少？",
    "i have a 4060 ti 16gb, qwen3 14b at q4, whats the max context i can run?",
    "qwen3 14b q4 on my rtx 4060ti 16gb - how long a context can it fit?",
    "so um, whats the longest context for qwen3 14b q4 on my own 4060 ti 16gb",
]


@pytest.mark.parametrize("text", LONGEST)
def test_longest_context_on_own_card_first_message(text: str) -> None:
    d = _data([text])
    direct = d.get("direct") or {}
    assert direct.get("code") == "figure.longest"
    assert direct["gpu"] == "rtx-4060-ti-16gb" and direct["gpus"] == 1
    first = direct["limits"][0]
    assert first["kv_cache"] is None and 30_000 <= first["context"] <= first["model_max"]


@pytest.mark.parametrize("text", [
    "i have a 4060 ti 16gb. llama 3.1 8b at q4, max context?",
    "我有一张4060ti 16g，llama 3.1 8b q4，上下文最多能开多长",
])
def test_longest_context_8bit_kv_holds_more(text: str) -> None:
    limits = (_data([text]).get("direct") or {}).get("limits") or []
    assert len(limits) >= 2 and limits[1]["kv_cache"] == 8 and limits[1]["context"] > limits[0]["context"] > 0


# ---------------------------------------------------------------- the KV cache, then 'would N x card hold it'

HOLD = [
    "whats the kv cache exactly and how big does it get for llama 3 70b at 8k context with 32 users? and would 2x h100 hold it all",
    "kv cache size for llama 3 70b, 8k context, 32 users - would 2x h100 fit it?",
    "so how big is the kv cache for llama 3 70b at 8k with 32 users, and can 2 h100s hold it",
    "llama 3 70b 8k上下文 32个用户 kv cache多大？两张h100放得下吗",
    "两张h100放得下吗？llama 3 70b，8k上下文，32个用户，kv cache 占多少",
]


@pytest.mark.parametrize("text", HOLD)
def test_kv_figure_and_yes_no_on_cards_named(text: str) -> None:
    d = _data([text])
    kv = (d.get("results") or {}).get("kv_cache") or {}
    assert kv.get("users") == 32 and kv.get("context") == 8192
    assert round(kv["per_user_bytes"] * 32 / 1e9, 1) == 85.9
    hold = kv["hold"]
    assert hold["gpus"] == 2 and hold["gpu"].startswith("h100") and hold["fits"]
    assert hold["fits_with"] == ["fp8", "fp8"]
    assert [r["fits"] for r in hold["rows"]] == [False, False, True]


@pytest.mark.parametrize("text", [
    "how big is the kv cache for qwen2.5 7b at 32k, 4 users? would one 4090 hold it",
    "qwen2.5 7b 32k上下文 4个用户 kv cache占多少？一张4090放得下吗",
])
def test_kv_hold_one_card(text: str) -> None:
    hold = (((_data([text]).get("results") or {}).get("kv_cache") or {}).get("hold")) or {}
    assert hold.get("gpus") == 1 and hold.get("gpu") == "rtx-4090" and hold["fits"]


# ---------------------------------------------------------------- $ per 1M tokens, against an API

def _results(turns: list[str]) -> dict[str, Any]:
    return _data(turns).get("results") or {}


@pytest.mark.parametrize("turns", [
    ["what's the cost per 1M output tokens if i self host llama 3.3 70b on rented h100s at decent load, vs just paying "
     "an api like together? at what volume does self hosting win", "idk, say 50 at a time. i just want the $/1M tokens comparison"],
    ["llama 3.3 70b on rented h100s, 50 users at once: cost per million output tokens vs an api? when does self hosting win"],
    ["自己租h100跑llama 3.3 70b，50个人同时用，每百万输出token成本多少？和直接用api比，用量多大才划算"],
])
def test_per_million_is_a_price_unit_and_api_price_is_asked(turns: list[str]) -> None:
    d = _data(turns)
    profile, r = d.get("profile") or {}, d.get("results") or {}
    assert profile.get("output_tokens") != 1_000_000 and (profile.get("context") or 0) < 200_000
    assert not profile.get("batch_items")
    assert r["per_token"] and r["per_token"][0]["usd_per_million_tokens"] > 0
    api = r["api_compare"]
    assert api["break_even_million_per_month"] is None and api["month_usd"] > 0  # no API price: it is asked for


@pytest.mark.parametrize("text, api_usd", [
    ("$ per million tokens self hosting qwen2.5 72b on 2x h100 for 30 users vs an api at $0.9/M, when does self hosting win?", 0.9),
    ("self hosting qwen2.5 72b on 2x h100, 30 users at once. the api charges 0.9 dollars per million tokens - break even volume?", 0.9),
    ("租2张h100跑qwen2.5 72b，30个人同时用，api每百万token 0.9美元，用量多大才划算？", 0.9),
])
def test_break_even_against_api_price(text: str, api_usd: float) -> None:
    d = _data([text])
    profile, r = d.get("profile") or {}, d.get("results") or {}
    assert not profile.get("budget_usd")
    api = r["api_compare"]
    assert api["break_even_million_per_month"] == pytest.approx(api["month_usd"] / api_usd)
    assert api["self_wins_at_capacity"] == (api["self_usd_per_million"] < api_usd)


# ---------------------------------------------------------------- 'how many L4s, and is L40S cheaper?'

L4_E2E = [
    "startup here. expecting ~200 rps at peak, avg 800 tokens in / 300 out, mistral 7b instruct. need end to end under "
    "2 sec per request. how many L4s do we need, and is it cheaper on L40S?",
    "mistral 7b, 200 requests/s, 800 in 300 out, end to end under 2 s. how many L4s do we need, or is L40S cheaper?",
    "mistral 7b，每秒200个请求，输入800输出300 token，端到端2秒以内，需要几张L4？换成L40S会不会更便宜",
]


@pytest.mark.parametrize("text", L4_E2E)
def test_no_count_of_the_cards_named_meets_end_to_end(text: str) -> None:
    msg = run_conversation([text])[-1]
    d = msg.additional_kwargs.get("gpu_advisor") or {}
    named = {g for _n, g in (d.get("results") or {}).get("named") or []}
    assert {"l4", "l40s"} <= named
    head = msg.content.split("\n\n")[0]
    assert "L4 24GB" in head and "L40S" in head
    assert "MI300X" not in head.split("\n")[0]  # never 'you need' a card not asked about, first
    rows = {o["gpu"]: o for o in (d.get("results") or {}).get("options") or []}
    assert rows["l4"]["meets"]["e2e"] is False and rows["l40s"]["meets"]["e2e"] is False


# ---------------------------------------------------------------- two models: 'the same memory?'

SAME = [
    "do deepseek r1 distill qwen 32b and qwq 32b need the same vram to deploy?",
    "does qwq 32b take the same memory as deepseek r1 distill qwen 32b? we'd serve one of them",
    "DeepSeek-R1-Distill-Qwen-32B和QwQ-32B部署起来显存需求一样吗？",
    "QwQ-32B跟DeepSeek-R1-Distill-Qwen-32B部署的话显存要求一样吗",
]
SAME_ON_CARDS = [
    "do deepseek r1 distill qwen 32b and qwq 32b need the same vram? planning 2x L40S for about 10 people",
    "DeepSeek-R1-Distill-Qwen-32B和QwQ-32B部署起来显存需求一样吗？我准备用两张L40S跑，大概十来个人用",
]
PAIR = {"deepseek-r1-distill-qwen-32b", "qwq-32b"}


@pytest.mark.parametrize("text", SAME)
def test_two_models_compared_not_served_together(text: str) -> None:
    d = _data([text])
    choice = d.get("model_choice") or {}
    assert {r["model"] for r in choice.get("rows") or []} == PAIR
    assert "memory" in (choice.get("dims") or [])
    verdict = choice["on_card"]["verdicts"]["memory"]
    assert verdict["pick"] is None  # about the same: the same Qwen2.5-32B shape
    assert not (d.get("profile") or {}).get("also")


@pytest.mark.parametrize("text", SAME_ON_CARDS)
def test_two_models_compared_on_the_cards_said(text: str) -> None:
    d = _data([text])
    r = d.get("results") or {}
    assert d.get("topic") == "weigh" and list(r.get("dims") or []) == ["memory"]
    assert r["dims"]["memory"]["pick"] is None  # about the same: the same Qwen2.5-32B shape


# ---------------------------------------------------------------- a concept asked of one's own setup

@pytest.mark.parametrize("text", [
    "whats speculative decoding exactly and is it worth turning on if im just running models for myself on a single 4090?",
    "is speculative decoding worth turning on for me on my 3090?",
    "so what is speculative decoding, should i enable it on my one 4090 just for me",
    "投机解码是什么？我自己用一张4090跑模型，值得开吗",
    "我就一张4090自己玩，投机解码有必要开吗",
])
def test_concept_on_own_card_is_explained_not_sized(text: str) -> None:
    msg = run_conversation([text])[-1]
    d = msg.additional_kwargs.get("gpu_advisor") or {}
    assert d.get("kind") == "info" and d.get("topic") == "speculative-decoding"
    assert "decision" not in d
