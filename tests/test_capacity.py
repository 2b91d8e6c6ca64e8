"""The inverse question (session 15, helper 'capacity'): 'the biggest model I can fine-tune / run on my card(s)'
is answered with the sizes the tools compute (tools.largest) per method or format asked, in both languages and
any word order, never with a 'which model?' question back nor a default model sized in its place; '离线翻译'
(offline as in local use) is no batch job."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.largest import largest
from gpu_advisor.tools.recommend import Workload
from tests.conversation import run_conversation, run_states

CJK = re.compile(r"[\u4e00-\u9fff]")


def _largest(turns: list[str]) -> tuple[dict[str, Any], str]:
    reply = run_conversation(turns)[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert data["topic"] == "largest", reply.content
    return data["results"]["largest"], str(reply.content)


def _lead(result: dict[str, Any]) -> float:
    """The size the reply leads with: the largest dense catalog model that fits, else the size bound."""
    dense = [e for e in result["examples"] if e["active_params_b"] is None]
    return dense[0]["params_b"] if dense else result["params_b"]


def _language(text: str, lang: str) -> None:
    assert bool(CJK.search(text)) == (lang == "zh")


# ---------------------------------------------------------------- fine-tuning: per method asked

FINETUNE_EACH = [
    ("en", "whats the actual difference between lora and qlora in practice? like if i have a single 3090, whats the "
           "biggest model i can finetune with each"),
    ("en", "on my 3090, what's the largest model I can fine-tune with qlora and with lora?"),
    ("en", "um so lora vs qlora, what is the max model size i could finetune on one rtx 3090 with each"),
    ("zh", "单张3090用lora和qlora分别最大能微调多大的模型"),
    ("zh", "用qlora和lora的话，我这张3090最大能微调多大的模型啊"),
    ("zh", "我有一张3090，lora 跟 qlora 各能微调多大的模型？"),
]


def _check_methods(found: dict[str, Any]) -> None:
    assert found["gpu"] == "rtx-3090" and found["gpus"] == 1 and found["trains"]
    by = {r["method"]: r for r in found["results"]}
    assert set(by) == {"lora", "qlora"}
    assert 7 <= _lead(by["lora"]) <= 10  # a 16-bit base: about 8B on 24 GB
    assert 20 <= _lead(by["qlora"]) <= 34 and by["qlora"]["params_b"] < 40  # a 4-bit base: 20-30B, 70B never
    assert _lead(by["qlora"]) > 2 * _lead(by["lora"])
    for r in by.values():
        assert all(e["fits"] for e in r["examples"])
        assert r["over"] is None or not r["over"]["fits"]


@pytest.mark.parametrize(("lang", "text"), FINETUNE_EACH)
def test_biggest_per_method_on_one_card(lang: str, text: str) -> None:
    found, reply = _largest([text])
    _check_methods(found)
    _language(reply, lang)
    assert "Which model" not in reply and "哪个模型" not in reply


@pytest.mark.parametrize("follow", ["idk thats what im asking lol, whats the max size for each",
                                    "what's the biggest size for each then?", "那各自最大能微调多大的模型？"])
def test_max_size_for_each_after_the_concept(follow: str) -> None:
    found, reply = _largest([FINETUNE_EACH[0][1], follow])
    _check_methods(found)
    assert "Llama 3.1 8B, a common starting model" not in reply


@pytest.mark.parametrize("text", ["how big a model can i fine-tune with qlora on a 3090?",
                                  "3090上用qlora最大能微调多大的模型", "biggest model i can qlora on one 3090"])
def test_one_method_asked_is_the_one_answered(text: str) -> None:
    found, _reply = _largest([text])
    assert [r["method"] for r in found["results"]] == ["qlora"]


# ---------------------------------------------------------------- serving: the cards' memory, the format asked

@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "24G显存最大能跑多大的模型"),
    ("zh", "显存24G，最大能跑多大的模型？"),
    ("en", "what's the biggest model i can run with 24gb of vram"),
    ("en", "with a 24 gb gpu, what is the largest model that can run"),
])
def test_bare_memory_amount(lang: str, text: str) -> None:
    found, reply = _largest([text])
    assert not found["trains"] and found["gpus"] == 1
    r = found["results"][0]
    assert 30 <= _lead(r) <= 41 and r["params_b"] < 48  # a 32B model at 4-bit fills 24 GB; 70B does not
    _language(reply, lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "what's the largest model i can run on 2x 4090 at q4"),
    ("en", "2x 4090 at q4 - biggest model that fits?"),
    ("zh", "两张4090跑q4最大能跑多大的模型"),
    ("zh", "q4的话，两张4090最大能跑多大的模型啊"),
])
def test_two_cards_at_four_bit(lang: str, text: str) -> None:
    found, reply = _largest([text])
    assert found["gpu"] == "rtx-4090" and found["gpus"] == 2 and not found["trains"]
    r = found["results"][0]
    assert r["precision"] == "q4_k_m" and all(e["precision"] == "q4_k_m" for e in r["examples"])
    assert 65 <= _lead(r) <= 80  # a 70B-class model at Q4 on 48 GB
    assert r["over"] is not None and r["over"]["params_b"] > 100 and not r["over"]["fits"]
    _language(reply, lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "macbook air m3 16g 能跑啥模型啊，主要想离线翻译英文论文，速度别太慢就行"),
    ("zh", "主要想本地离线翻译论文，我的macbook air m3 16g能跑什么模型"),
    ("en", "which models can i run on a macbook air m3 16gb? mostly for offline translation of papers"),
])
def test_mac_which_models(lang: str, text: str) -> None:
    found, reply = _largest([text])
    assert found["gpu"].startswith("apple-m3") and not found["trains"]
    r = found["results"][0]
    assert _lead(r) <= 16 and r["examples"]
    assert all(e["decode_tokens_per_s"] for e in r["examples"])  # how fast each runs, for one user
    assert "100,000" not in reply
    _language(reply, lang)


def test_mac_then_a_model_speed_is_one_user_not_a_batch() -> None:
    states = run_states(["macbook air m3 16g 能跑啥模型啊，主要想离线翻译英文论文，速度别太慢就行", "那 qwen3 8b 呢 能跑多快"])
    last = states[-1]
    assert last["profile"]["phase"] != "batch" and last["profile"].get("model") == "qwen3-8b"
    assert (last["profile"].get("users") or 1) == 1
    assert "100,000" not in str(last["messages"][-1].content)


# ---------------------------------------------------------------- the readings around it

@pytest.mark.parametrize("text", ["主要想离线翻译英文论文，用macbook air m3 16g", "想不联网用，离线用来翻译文档",
                                  "i want to use it for offline translation of papers on my 4090",
                                  "no internet at home, I need to translate documents on my own pc"])
def test_offline_use_is_no_batch_job(text: str) -> None:
    assert understand(text).updates.get("phase") != "batch"


@pytest.mark.parametrize("text", ["translate 10000 documents offline by friday", "离线批处理10万条文档，周五前跑完",
                                  "离线翻译 5000 万 token，用 qwen3-32b", "offline translation of 50M tokens with qwen3-32b"])
def test_an_offline_batch_stays_a_batch(text: str) -> None:
    assert understand(text).updates.get("phase") == "batch"


@pytest.mark.parametrize("text", ["what's the biggest model we can serve for that money", "how many users can it handle?",
                                  "这个预算最大能跑多大的模型", "最多能撑多少人？"])
def test_other_questions_stay_theirs(text: str) -> None:
    assert "largest" not in understand(text).intents


# ---------------------------------------------------------------- the tool

def test_the_tool_orders_methods_and_cards() -> None:
    w = Workload(phase="fine-tune", model="llama-3.1-8b")
    full, lora, qlora = (largest(w, "rtx-3090", 1, method=m).params_b for m in ("full", "lora", "qlora"))
    assert 0 < full < lora < qlora
    assert largest(w, "rtx-3090", 2, method="qlora").params_b > qlora
    serve = Workload(phase="serve", model="llama-3.1-8b")
    four = largest(serve, "rtx-4090", 1, precision="q4_k_m").params_b
    eight = largest(serve, "rtx-4090", 1, precision="q8_0").params_b
    assert four > 1.5 * eight


@pytest.mark.parametrize("text", ["what is the biggest model size of the qwen3 family", "qwen3系列最大的模型有多大"])
def test_a_family_question_without_cards_is_not_the_cards(text: str) -> None:
    assert "largest" not in understand(text).intents


@pytest.mark.parametrize("ask", ["what's the biggest model these cards can run?", "这张卡最大能跑多大的模型？"])
def test_after_a_plan_the_plans_card(ask: str) -> None:
    found, _reply = _largest(["serve llama 3.1 8b for 10 users on an l40s, working hours", ask])
    assert found["gpu"] == "l40s" and not found["trains"]
    r = found["results"][0]
    assert 30 <= _lead(r) < 70 and (r["over"] is None or r["over"]["params_b"] >= 65)


@pytest.mark.parametrize(("lang", "text"), FINETUNE_EACH[:1] + FINETUNE_EACH[3:4])
def test_the_difference_in_practice_follows_the_sizes(lang: str, text: str) -> None:
    found, reply = _largest([text])
    by = {r["method"]: r for r in found["results"]}
    ratio = f"{by['qlora']['params_b'] / by['lora']['params_b']:.0f}"
    assert (f"about {ratio}×" in reply) if lang == "en" else (f"大约 {ratio} 倍" in reply)
