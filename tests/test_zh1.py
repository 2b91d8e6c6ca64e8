"""Round G, zh1: the checkpoint's own format ('满血', 'native weights') never crashes a tool; a capacity question
answers in that format; request rates said per person; a long prompt per request; a stated concurrency kept."""

from __future__ import annotations

import pytest

from tests.conversation import run_states

MODELS = ["DeepSeek-R1", "DeepSeek-V3", "Qwen2.5-72B", "Llama-3.1-70B"]
ZH_WORDS = ["满血", "满血版", "原版权重", "官方权重"]
EN_WORDS = ["full-fat", "native weights", "native precision", "original weights"]
ZH_Q = ["一台 8 卡 H20 96G 能不能跑{w} {m}，大概能撑多少并发？",
        "{w}{m} 要多少显存？我们有 8 张 H20，能撑多少人同时用？",
        "我们手上有 8 卡 H100，跑{w}的{m}能支持多少并发"]
EN_Q = ["We own an 8x H20 96GB box. Can it run {m} with {w}, and how many concurrent users can it handle?",
        "how many users can 8 H100s serve with {m} at {w}?",
        "how much VRAM does {m} need in {w}, and how many concurrent users on 8x H200?"]
CASES = [q.format(w=w, m=m) for q in ZH_Q for w in ZH_WORDS for m in MODELS] + \
        [q.format(w=w, m=m) for q in EN_Q for w in EN_WORDS for m in MODELS]


def _last(turns: list[str]) -> dict:
    return run_states(turns)[-1]


@pytest.mark.parametrize("text", CASES)
def test_native_format_never_crashes(text: str) -> None:
    state = _last([text])
    reply = state["messages"][-1].content
    assert reply and "native" not in reply.replace("native weights", "")


def _payload(turns: list[str]) -> tuple[dict, str]:
    from tests.conversation import run_conversation

    reply = run_conversation(turns)[-1]
    return reply.additional_kwargs["gpu_advisor"], str(reply.content)


R1_ON_H20 = [
    ("zh", "两个问题：第一，DeepSeek-R1 满血 671B 到底要多少显存？第二，我们手上有一台 8 卡 H20 96G 的机器，能不能跑得动满血R1，"
           "大概能撑多少并发？"),
    ("zh", "一台 8 卡 H20 96G 跑 DeepSeek-R1 能撑多少并发？"),
    ("zh", "我们有台8卡H20（96G）的机器，满血版 deepseek r1 能跑吗，能扛多少并发"),
    ("en", "We have one 8x H20 96GB server. How much VRAM does full-fat DeepSeek-R1 need, can our box run it, and how "
           "many concurrent users?"),
    ("en", "how many concurrent users can our own 8 x H20 96G serve with deepseek r1?"),
]


@pytest.mark.parametrize(("lang", "text"), R1_ON_H20)
def test_r1_on_owned_h20_counts_in_fp8_at_a_reasoning_speed(lang: str, text: str) -> None:
    data, reply = _payload([text])
    cap = data["results"]["capacity"]
    assert cap["at_limit"]["precision"] == "fp8", reply  # the checkpoint's own format, never a silent int4
    assert cap["floor"] >= 15 and cap["reasoning_floor"], reply  # a reasoning model's usable speed
    assert cap["at_limit"]["decode_tokens_per_s"] >= 15
    assert 10 <= cap["users"] <= 100, reply
    if "显存" in text or "VRAM" in text:
        mem = data["results"]["capacity_memory"]
        assert mem["fits"] and mem["precision"] == "fp8" and 6.5e11 < mem["weights_bytes"] < 7e11
    assert ("人同时生成" in reply) if lang == "zh" else ("people generating at once" in reply)


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "我们有4张4090，跑满血 DeepSeek-R1 要多少显存，能撑几个人"),
    ("en", "we own 4 RTX 4090s. how much memory does full-fat DeepSeek-R1 need, and how many users can we serve?"),
])
def test_native_r1_on_small_cards_says_it_does_not_fit(lang: str, text: str) -> None:
    data, reply = _payload([text])
    mem = data["results"]["capacity_memory"]
    assert not mem["fits"] and data["results"]["capacity"]["users"] == 0
    assert ("放不下" in reply) == (lang == "zh")


# (text, people x each person's requests / period seconds)
PERSON_RATES = [
    ("给公司两百来个程序员做代码补全，打算用 Qwen2.5-Coder-32B，补全要快，首token要在300毫秒以内，每次补全输入大概2k token、输出五六十个"
     "token。一般写代码的时候大概每人每分钟触发三四次。要多少卡，H100还是H20？", 200 * 4 / 60),
    ("200 devs on code completion with Qwen2.5-Coder-32B, each dev fires 3-4 completions a minute, 2k prompt, 50 "
     "output, TTFT under 300ms. H100 or H20?", 200 * 3.5 / 60),
    ("Code completion for 200 engineers, Qwen2.5-Coder-32B, prompts about 2k tokens and 50 tokens out, first token "
     "under 300 ms; roughly 3 to 4 requests per user per minute while coding. H20 or H100?", 200 * 3.5 / 60),
    ("H100 还是 H20？代码补全，Qwen2.5-Coder-32B，200 个程序员，每人每分钟大概 4 次补全请求，输入 2k token 输出 60 token，"
     "首 token 300ms 以内", 200 * 4 / 60),
    ("我们 300 个工程师用 Qwen2.5-Coder-7B 做补全，每人每小时20次，输入1500 token，首字 200ms 以内，用什么卡", 300 * 20 / 3600),
    ("150 users, 10 requests per user per minute, llama 3.1 8b, what gpu?", 150 * 10 / 60),
]


@pytest.mark.parametrize(("text", "rate"), PERSON_RATES)
def test_a_rate_per_person_is_the_request_rate(text: str, rate: float) -> None:
    data, reply = _payload([text])
    assert data["profile"]["requests_per_s"] == pytest.approx(rate, rel=0.02), reply
    assert not data["profile"].get("users"), reply  # the people are a population, never a share of them at once


@pytest.mark.parametrize("text", [t for t, _r in PERSON_RATES if "H20" in t])
def test_completion_at_a_tight_first_token_picks_compute(text: str) -> None:
    data, reply = _payload([text])
    d = data["decision"]
    assert d["gpu"].startswith("h100") and d["meets"]["latency"] is True, reply
    assert d["gpus"] <= 8, reply


# (text, prompt tokens each request sends, its output tokens at least)
REQUEST_CONTEXTS = [
    ("做企业知识库RAG，模型用 Qwen2.5-32B，每次请求拼进去的上下文很长，大概16k token，输出就两三百字。峰值QPS大概5，要求首字延迟3秒以内。"
     "打算用L20，需要几张？", 16000, 150),
    ("Enterprise RAG on Qwen2.5-32B: each request stuffs ~16k tokens of context into the prompt, answers are 300-400 "
     "tokens. Peak 5 QPS, first token within 3 s. How many L20s?", 16000, 300),
    ("RAG with qwen2.5-14b, every query carries about 12k tokens of retrieved context, 200 token answers, 3 requests "
     "per second, TTFT under 2s, how many L40S?", 12000, 200),
    ("知识库问答，Qwen2.5-14B，每个请求大概带 8k 的上下文，输出 300 token，QPS 10，首 token 2 秒以内，用 H20 要几张", 8000, 300),
]


@pytest.mark.parametrize(("text", "prompt", "output"), REQUEST_CONTEXTS)
def test_context_per_request_is_its_prompt(text: str, prompt: int, output: int) -> None:
    data, reply = _payload([text])
    inputs = data["results"]["inputs"]
    assert inputs["prompt_tokens"] == prompt, reply  # the input each request sends, its prefill timed at it
    assert inputs["context"] >= prompt + inputs["output_tokens"] and inputs["output_tokens"] >= output
    d = data["decision"]
    if d["meets"]["latency"] is not True:  # the target out of reach on the card asked: said so, no plan claimed
        assert d["action"] == "none" or d["meets"]["latency"] is False
        assert ("首 token" in reply) or ("first token" in reply)


@pytest.mark.parametrize("text", ["serve llama 3.1 8b with a 16k context window per request for 20 users",
                                  "每次对话上下文最长 32k，qwen2.5-7b，20 人同时用"])
def test_a_window_said_stays_a_window(text: str) -> None:
    from gpu_advisor.assistant.reading import understand

    u = understand(text)
    assert u.updates["context"] >= 16000 and not u.updates.get("prompt_tokens")


CARD_CHOICES = [
    "纠结一下，部署 Qwen2.5-7B 做高并发的 API 服务（大概三百并发，短对话，输入500输出300），用 H20 好还是 4090 好？我们是租卡，不买",
    "We rent, not buy: a high-concurrency public API on Qwen2.5-7B, about 300 concurrent requests, 500 tokens in and 300 "
    "out. H20 or 4090?",
    "部署 Qwen2.5-7B 对外提供 API，三百路并发，输入 500 输出 300，4090 还是 H20 更合适？只租不买",
]


@pytest.mark.parametrize("text", CARD_CHOICES)
def test_one_decision_for_a_public_api_and_the_concurrency_said(text: str) -> None:
    data, reply = _payload([text])
    d = data["decision"]
    verdict = next((a["verdict"] for a in data.get("also") or [] if a.get("verdict")), {})
    assert d["gpu"] == "h20" and verdict.get("pick") == "h20", reply  # headline and verdict agree: one decision
    assert verdict.get("code") == "clean" and "rtx-4090" in verdict.get("avoided", [])
    traffic = data["results"]["recommend"].get("traffic") or {}
    held = traffic.get("users_sized") or 300
    # sized as said, or the shrink said with its reason as an assumption the user can change
    assert held >= 300 or ("300" in reply and ("QPS" in reply or "requests per second" in reply)), reply
