"""The specific second question inside a request gets its figure first (review WC E8): 'explain the kv cache,
and then: how much does one user take' answers the KV cache per user (16-bit and 8-bit) before the concept, and
never turns 'one user' into a card to buy. Phrasings are generated in both languages; the assertions are on the
intent read and the figures, not on prose."""

from __future__ import annotations

import itertools
import math

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- the KV cache per user, asked after the concept

KV_ASKED = {
    "en": ["can you explain kv cache simply? and then: for {model} at 32k context how much kv cache does one user "
           "take{fmt}",
           "explain the kv cache, then how much kv cache does one user take for {model} at 32k context{fmt}?",
           "what is a kv cache? also for {model} with 32k context, how big is the kv cache for a single user{fmt}",
           "how much kv cache does one user take for {model} at 32k{fmt}, just me"],
    "zh": ["先简单解释一下kv cache是啥？然后：{model} 32k上下文，一个用户的kv cache占多少{fmt}",
           "kv cache是什么？{model}开32k上下文，单个用户kv cache要多少显存{fmt}",
           "{model}在32k上下文下一个用户的KV缓存多大{fmt}，就我自己用"],
}
FMT = {"en": ["", " in fp16"], "zh": ["", "，fp16"]}
# model -> (per-token KiB at 16 bits): Mistral Small 24B 2 x 40 x 8 x 128 x 2 B = 160 KiB
MODELS = {"mistral small 24b": ("mistral-small-3-24b", 160), "llama 3.1 8b": ("llama-3.1-8b", 128)}


@pytest.mark.parametrize(("lang", "phrase", "fmt", "model"),
                         [(lang, p, f, mdl) for lang in ("en", "zh")
                          for p, f, mdl in itertools.product(KV_ASKED[lang], FMT[lang], MODELS)])
def test_kv_per_user_asked_beside_the_concept_is_answered_first(lang: str, phrase: str, fmt: str,
                                                                model: str) -> None:
    text = phrase.format(model=model, fmt=fmt)
    u = understand(text)
    model_id, kib = MODELS[model]
    assert "kv_cache" in u.intents, (text, u.intents, u.updates)
    assert u.ask.get("model") == model_id and u.ask.get("context") == 32768
    assert not u.ask.get("home_buy") and "preference" not in u.updates  # 'one user' buys no card
    reply = run_conversation([text])[-1]
    kv = payload(reply)["results"]["kv_cache"]
    assert kv["per_user_bytes"] == kib * 1024 * 32768, reply.content
    assert kv["fp8_per_user_bytes"] * 2 == kv["per_user_bytes"]
    assert kv["users"] == 1
    # the figure asked is the first thing after the acknowledgement, before the concept
    body = reply.content.split("\n\n", 1)[1]
    gb = f"{kv['per_user_bytes'] / 1e9:.1f}"
    assert gb in body.split("\n\n", 1)[0], reply.content
    if "fp16" in fmt:
        assert kv["kv_precision"] == "fp16"
    if lang == "zh":
        assert "per user" not in reply.content


# ---------------------------------------------------------------- the offload speed of the bigger model asked

OWN = {"en": ["i have an rtx 3060 12gb and 32gb of system ram. is that enough to run llama 3.1 8b for chatting at "
              "home?", "running llama 3.1 8b at home on my rtx 3060 12gb, 32gb ram"],
       "zh": ["我有一张3060 12g，内存32g，在家跑llama 3.1 8b聊天够吗", "家里一张3060 12G，32G内存，跑llama3.1 8b"]}
OFFLOAD_ASKED = {
    "en": ["ok cool. and what about llama 3.1 70b if i offload part of it to ram, how many tokens/s roughly?",
           "what about llama 3.1 70b with some layers offloaded to system ram, how fast?",
           "and llama 3.1 70b with part of it in ram, roughly how many tokens per second?"],
    "zh": ["那llama 3.1 70b呢，放一部分到内存里，大概每秒多少token", "换成llama 3.1 70b，部分层放内存，速度大概多少",
           "llama 3.1 70b 用内存 offload 一部分的话，每秒能出几个token"],
}


@pytest.mark.parametrize(("lang", "first", "asked"),
                         [(lang, f, a) for lang in ("en", "zh") for f, a in itertools.product(OWN[lang],
                                                                                            OFFLOAD_ASKED[lang])])
def test_offload_speed_of_the_model_asked_is_the_first_line(lang: str, first: str, asked: str) -> None:
    reply = run_conversation([first, asked])[-1]
    data = payload(reply)
    off = data["results"]["recommend"]["offload"]
    assert off["model_id"] == "llama-3.1-70b" and off["gpu_layers"] > 0, reply.content
    head = reply.content.split("\n", 1)[0]
    assert f"{off['decode_tokens_per_s']:.1f}" in head, reply.content  # ~1.2 tok/s, not the 8B's 31
    assert "31" not in head
    assert off["ram_ok"] is False  # 32 GB said, about 36 needed: said on the first line too
    assert f"{math.ceil(off['ram_needed_gb'])}" in head  # as the answer's offload line rounds it


# ---------------------------------------------------------------- one more card asked

CARD_OWNED = {"en": ["i have one 4060 ti 16gb at home, running qwen2.5 14b for chat",
                     "my pc has a single rtx 4060 ti 16gb, want to chat with qwen2.5 14b locally, is it enough?"],
              "zh": ["家里一张 4060 Ti 16G，想本地跑 qwen2.5 14b 聊天，够不够？要不要量化", "我有一张4060ti 16g，自己用qwen2.5 14b聊天"]}
ADD_ASKED = {
    "en": ["what if it's {m} instead, do i need to add a second card?", "and {m}, do i need another gpu?",
           "switch to {m}, would i have to get one more card?"],
    "zh": ["那要是换成 {m} 呢，需要再加一张卡吗", "换成{m}的话要不要再买一张卡", "{m}呢？得再加块显卡吗"],
}
VERDICT = {"32b": ("yes", 2), "7b": ("no", 1)}


@pytest.mark.parametrize(("lang", "first", "asked", "size"),
                         [(lang, f, a, s) for lang in ("en", "zh")
                          for f, a, s in itertools.product(CARD_OWNED[lang], ADD_ASKED[lang], VERDICT)])
def test_add_a_card_question_is_answered_first(lang: str, first: str, asked: str, size: str) -> None:
    text = asked.format(m=f"qwen2.5 {size}" if "{m}" in asked else size)
    assert understand(text).ask.get("add_card"), text
    reply = run_conversation([first, text])[-1]
    figure = payload(reply)["direct"]
    add = figure if figure.get("code") == "figure.add_card" else figure["also"][0]
    verdict, cards = VERDICT[size]
    assert add["code"] == "figure.add_card" and add["verdict"] == verdict, reply.content
    assert add["gpu"] == "rtx-4060-ti-16gb" and add["owned"] == 1
    used = add["per_gpu_bytes"][cards - 1]
    assert used is not None and used / 1e9 < 17.2
    assert f"{used / 1e9:.1f}" in reply.content.split("\n", 1)[0]  # the figure, on the first line
    assert f"{cards} ×" in reply.content.split("\n", 1)[0]
    if size == "32b":
        assert add["format"] == "q4_k_m" and not add["fits_now"] and add["fits_more"]
        assert 8 <= add["tokens_per_s"][1] <= 14  # ~10-11 tok/s on two 4060 Ti
