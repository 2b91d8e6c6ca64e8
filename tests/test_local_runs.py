"""Hobbyists asking about running a model on their own machine (h-local): running it (run / chat with / 跑 / 本地跑)
is inference, never a fine-tune, even with a training question asked on the side; a later 'the finetuning was a
side question' drops the training."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

RUN_EN = [
    "can i run llama 3.3 70b on it locally? what quant and roughly how many tok/s",
    "what quant should i use to chat with llama 3.3 70b locally, and how many tok/s",
    "roughly how many tok/s would llama 3.3 70b run at locally, and at what quant",
]
SIDE_EN = [
    "also could i lora finetune something on it or is that a dumb idea",
    "could i also qlora something small on it",
    "btw is lora fine-tuning on it a dumb idea",
]
RUN_ZH = [
    "能本地跑 llama 3.3 70b 吗？用什么量化，大概多少 tok/s",
    "想本地跑 llama 3.3 70b 聊天，用什么量化，速度大概多少",
]
SIDE_ZH = [
    "顺便问下能不能在上面做lora微调",
    "另外能不能在上面微调个小模型",
]
MAC_EN = "got a macbook pro m3 max w/ 64gb unified memory."
MAC_ZH = "我的 m3 max 64g 笔记本，"


def _running(text: str) -> None:
    u = understand(text)
    assert u.updates.get("phase") in ("serve", "experiment"), (text, u.updates)
    assert u.updates.get("model") == "llama-3.3-70b"
    assert not u.updates.get("method")
    assert not (u.second and u.second.get("phase") in (None, "fine-tune", "train-and-serve"))


@pytest.mark.parametrize("run", RUN_EN)
@pytest.mark.parametrize("side", SIDE_EN)
def test_side_training_keeps_running_en(run: str, side: str) -> None:
    _running(f"{MAC_EN} {run}. {side}")
    _running(f"{MAC_EN} {run}? {side}?")


@pytest.mark.parametrize("run", RUN_ZH)
@pytest.mark.parametrize("side", SIDE_ZH)
def test_side_training_keeps_running_zh(run: str, side: str) -> None:
    _running(f"{MAC_ZH}{run}？{side}")


@pytest.mark.parametrize("text", [
    "i mostly meant running it for chat, just me. the finetuning was a side question",
    "just for chatting, me alone; the lora thing was only a side question",
    "我主要是想跑来聊天，就我一个人用，微调只是顺便问问",
    "就我自己聊天用，lora微调只是顺便问的",
])
def test_training_waved_off(text: str) -> None:
    u = understand(text)
    assert u.updates.get("phase") == "serve"
    assert u.ask.get("drops") == "train"
    assert not u.updates.get("method")


@pytest.mark.parametrize("text", [
    "fine-tune llama 3 8b with lora on 50k examples and serve it to 20 users",
    "qlora llama 3 8b on my notes, also how fast will it run afterwards",
    "用lora微调qwen2.5 7b，另外部署给20个人用",
])
def test_training_as_the_job_stays(text: str) -> None:
    assert understand(text).updates.get("phase") in ("fine-tune", "train-and-serve")


@pytest.mark.parametrize("turns", [
    [MAC_EN + " can i run llama 3.3 70b on it locally? what quant and roughly how many tok/s. also could i lora "
     "finetune something on it or is that a dumb idea", "i mostly meant running it for chat, just me. the finetuning "
     "was a side question"],
    [MAC_ZH + "能本地跑 llama 3.3 70b 吗？用什么量化，大概多少 tok/s？顺便问下能不能在上面做lora微调",
     "我主要是想跑来聊天，就我一个人用，微调只是顺便问问"],
])
def test_mac_conversation_answers_running(turns: list[str]) -> None:
    for reply in run_conversation(turns):
        text = str(reply.content)
        assert "q4_k_m" in text
        assert "B200" not in text and "LoRA on" not in text


# Two jobs, each on its own model: the QLoRA is on the 32B, the chat on the 70B (review AB E9).
TWO_JOBS = [
    "i want to qlora 32b models and chat with 70b at q4",
    "chat with 70b at q4 and qlora 32b models",
    "i'd like to qlora 32b models, then chat with 70b at q4",
    "想qlora微调32b的模型，再用q4跑70b聊天",
    "我想用q4跑70b聊天，并且qlora微调32b模型",
]
CARDS = ["is a used rtx a6000 (48gb) for 3500 bucks a better buy than two used 3090s for 1600 total? ",
         "二手 rtx a6000 48g 和两张二手 3090 哪个更值？", ""]


@pytest.mark.parametrize("job", TWO_JOBS)
@pytest.mark.parametrize("cards", CARDS)
def test_each_job_keeps_its_model(job: str, cards: str) -> None:
    u = understand(cards + job)
    assert u.updates.get("phase") == "serve" and u.updates.get("model") == "70B"
    assert u.updates.get("precision") == "q4_k_m" and not u.updates.get("method")
    assert u.second and u.second["phase"] == "fine-tune" and u.second["model"] == "32B"


def test_a6000_or_3090s_serves_the_70b() -> None:
    turns = ["is a used rtx a6000 (48gb) for 3500 bucks a better buy than two used 3090s for 1600 total? i want to "
             "qlora 32b models and chat with 70b at q4", "just me, 1 person"]
    for reply in run_conversation(turns):
        text = str(reply.content)
        assert "Serving** (70B" in text and "32B" in text
        assert "(lora" not in text.lower() and "qlora, 70b" not in text.lower()


# 'occasionally' qualifies the side job, never the cards' utilisation said back as the user's (review AB C10).
SIDE_USE = [
    "学校经费30万人民币，主要做lora微调7b到14b的模型，偶尔推理，买一台4090工作站还是租云划算？",
    "主要做lora微调14b的模型，有时候推理，买4090工作站还是租云？",
    "we mostly lora finetune 14b models, occasionally inference. buy a 4090 workstation or rent cloud?",
    "occasionally inference, but mainly lora finetuning 14b models; buy a 4090 or rent?",
]


@pytest.mark.parametrize("text", SIDE_USE)
def test_occasionally_is_no_utilisation(text: str) -> None:
    u = understand(text)
    assert "utilisation" not in u.updates
    assert not (u.ask.get("buy_or_rent") or {}).get("busy")


def test_usage_stated_stays() -> None:
    u = understand("we mostly lora finetune 14b models, occasionally inference, the box is busy 60% of the time")
    assert u.updates.get("utilisation") == pytest.approx(0.6)


def test_lab_budget_reply_invents_no_usage() -> None:
    reply = run_conversation(["学校经费30万人民币，主要做lora微调7b到14b的模型，偶尔推理，买一台4090工作站还是租云划算？"])[0]
    assert "按你说的" not in str(reply.content) and "5%" not in str(reply.content)
