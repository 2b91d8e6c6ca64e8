"""h-second2 (session 15): the second part of a two-part question is answered, not deferred.
- A fine-tune asked beside a serving question ('How many cards? Also can we LoRA finetune it on the same boxes?',
  '同一台机器晚上闲着，能不能拿来lora微调这个14b') is checked on the serving plan's cards (assistant/side_lora.py):
  fits or not, the method that fits, the hours for the data given."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

SERVE_EN = [
    "We want qwen2.5-72b-instruct for ~100 staff on Ascend 910B. How many cards?",
    "how many ascend 910b cards to serve qwen2.5-72b to about 100 staff?",
]
SIDE_EN = [
    "Also can we LoRA finetune it on the same boxes?",
    "and could we also lora fine-tune it on the same machine?",
]
SERVE_ZH = [
    "我们要给100个员工部署qwen2.5-72b，只能用昇腾910B，要几张卡？",
    "只能用昇腾910B，部署qwen2.5-72b给大概100个员工用，需要几张卡？",
]
SIDE_ZH = [
    "另外能不能在同一台机器上做lora微调？",
    "顺便问下，同样的机器上能不能lora微调它",
]


def _prefix(key: str, lang: str) -> str:
    """The fixed words before the first figure or name."""
    names = ("model", "n", "card", "have", "hours", "tokens", "method", "asked", "need", "need_asked", "servers",
             "days", "all", "all_hours", "fmt", "total", "users", "tps")
    return say(lang, key, **dict.fromkeys(names, "§")).split("§")[0]


@pytest.mark.parametrize("serve", SERVE_EN)
@pytest.mark.parametrize("side", SIDE_EN)
def test_side_lora_read_en(serve: str, side: str) -> None:
    u = understand(f"{serve} {side}")
    assert u.updates.get("phase") == "serve" and u.updates.get("model") == "qwen2.5-72b"
    assert u.ask.get("side_train", {}).get("method") == "lora"


@pytest.mark.parametrize("serve", SERVE_ZH)
@pytest.mark.parametrize("side", SIDE_ZH)
def test_side_lora_read_zh(serve: str, side: str) -> None:
    u = understand(f"{serve}{side}")
    assert u.updates.get("phase") == "serve" and u.updates.get("model") == "qwen2.5-72b"
    assert u.ask.get("side_train", {}).get("method") == "lora"


def test_side_data_is_training_not_prompt() -> None:
    u = understand("How many H100s to serve llama 3.1 70b to 50 people, and could we also qlora it on the same "
                   "machine on 20k examples of 1k tokens")
    side = u.ask["side_train"]
    assert side["method"] == "qlora" and side["train_tokens"] == 20_000_000
    assert not u.updates.get("prompt_tokens") and not u.updates.get("seq_len")


@pytest.mark.parametrize(("text", "lang"), [
    (f"{SERVE_EN[0]} {SIDE_EN[0]}", "en"),
    (f"{SERVE_ZH[1]}{SIDE_ZH[0]}", "zh"),
])
def test_side_lora_answered_on_the_plan(text: str, lang: str) -> None:
    reply = str(run_conversation([text])[0].content)
    assert _prefix("second2.side_yes", lang) in reply  # yes, on the same 4 × 910B
    assert "4 × Huawei Ascend 910B" in reply.split(_prefix("second2.side_yes", lang))[1].split("\n")[0]
    assert say(lang, "note.side_training") not in reply
    assert ("小时" if lang == "zh" else " h ") in reply


@pytest.mark.parametrize(("text", "lang"), [
    ("两个问题哈：1）部署qwen2.5-14b给部门二十来个人日常用，配什么卡合适 2）同一台机器晚上闲着，能不能拿来lora微调这个14b，"
     "数据大概3万条，每条1k token", "zh"),
    ("two questions: 1) what card for serving qwen2.5-14b to about 20 people in our team 2) at night the same machine "
     "is idle, can we lora finetune this 14b on it, about 30k samples of 1k tokens each", "en"),
])
def test_side_lora_second_question_sized(text: str, lang: str) -> None:
    reply = str(run_conversation([text])[0].content)
    said = [k for k in ("second2.side_yes", "second2.side_lighter", "second2.side_no") if _prefix(k, lang) in reply]
    assert said, reply
    assert "Qwen2.5 14B" in reply and say(lang, "second2.side_data", tokens="30M", hours="§").split("§")[0] in reply


# Fewer of the user's own machines asked as the second part of a training question: the time on that many.
LAB_EN = "we run a research lab with 4 nodes of 8x H100 already. want to do continued pretraining of llama 3.1 8b on " \
         "200B tokens. how long will it take on what we have?"
LAB_ZH = "我们实验室有4台8卡H100，想在llama 3.1 8b上做200B token的继续预训练，用现有的要多久？"
FEWER_EN = [
    "and if we only get 2 of the nodes bc other team needs the rest, how long then",
    "what if we only had two nodes?",
    "if we can only use 16 gpus, how long?",
]
FEWER_ZH = [
    "要是另一个组要用，只给我们两台呢，要多久",
    "如果只有2个节点要多久",
    "要是只能用16张卡呢",
]


@pytest.mark.parametrize(("text", "want"), [(f"{LAB_EN} {f}", 16) for f in FEWER_EN]
                         + [(f"{LAB_ZH}{f}", 16) for f in FEWER_ZH])
def test_fewer_read(text: str, want: int) -> None:
    fewer = understand(text).ask.get("fewer")
    assert fewer in ({"servers": want // 8}, {"gpus": want}), fewer


@pytest.mark.parametrize(("text", "lang"), [(f"{LAB_EN} {FEWER_EN[0]}", "en"), (f"{LAB_ZH}{FEWER_ZH[0]}", "zh")])
def test_fewer_time_said(text: str, lang: str) -> None:
    msg = run_conversation([text])[0]
    f = msg.additional_kwargs["gpu_advisor"]["fewer"]
    assert f["gpus"] == 16 and f["of"] == 32 and f["fits"]
    assert 1.8 * f["all_hours"] < f["hours"] < 2.2 * f["all_hours"]  # about twice the 32-card time
    assert _prefix("second2.fewer_yes", lang) in str(msg.content)


def test_not_fewer_when_not_supposed() -> None:
    assert "fewer" not in understand(LAB_EN).ask
    assert "fewer" not in understand("serve llama 3.1 8b on 2 h100s for 10 users").ask


# Capacity asked of cards named, with a per-user speed floor: the number, never a question back.
CAP = [
    ("帮我算下：DeepSeek-R1-Distill-Qwen-32B 部署在 8 张昇腾 910B 的一台机器上，能撑多少并发？每个人要求每秒至少 20 个 token，上下文 16k",
     "zh"),
    ("DeepSeek-R1-Distill-Qwen-32B 上下文 16k，每人至少 20 token/s，8 张 910B 最多能撑多少人", "zh"),
    ("how many users can 8x ascend 910b handle for deepseek-r1-distill-qwen-32b at 16k context, each needing at "
     "least 20 tok/s", "en"),
    ("at least 20 tok/s each, 16k context: max concurrent users for deepseek-r1-distill-qwen-32b on 8 ascend 910b?",
     "en"),
]


@pytest.mark.parametrize(("text", "lang"), CAP)
def test_capacity_with_speed_floor(text: str, lang: str) -> None:
    u = understand(text)
    assert "capacity" in u.intents, u.intents
    assert u.updates.get("min_tokens_per_s") == 20


def test_capacity_this_machine_is_the_one_described() -> None:
    msgs = run_conversation([CAP[0][0], "我不知道啊，我就是想问这台机器最多能撑多少人同时用"])
    for m in msgs:
        assert "gpu-advisor detect" not in str(m.content)
        assert "人同时生成" in str(m.content).split("\n")[0] or "人同时生成" in str(m.content)


# Memory asked at a stated format and speed on the user's own (too few) cards: the total first, then the lighter
# format that fits those cards, with its tokens/s per user.
TOTAL = [
    ("two things: how much vram does llama 3.3 70b need in plain fp16, and if i put it on 2x H100 80gb how many "
     "tokens per sec can i expect for like 10 concurrent users", "en"),
    ("llama 3.3 70b in fp16: how much memory does it need? and with 10 users at once on 2 h100 80gb what tok/s per "
     "user?", "en"),
    ("两个问题：llama 3.3 70b 纯 fp16 要多少显存？放在 2 张 H100 80G 上，10 个人同时用，每人每秒多少 token", "zh"),
    ("放 2 张 H100 80G 上 10 个人同时用速度多少？另外 llama 3.3 70b 用 fp16 一共要多少显存", "zh"),
]


@pytest.mark.parametrize(("text", "lang"), TOTAL)
def test_total_at_format_then_lighter_on_their_cards(text: str, lang: str) -> None:
    msg = run_conversation([text])[0]
    f = msg.additional_kwargs["gpu_advisor"]["total_at_format"]
    assert f["precision"] == "fp16" and f["gpus"] == 2 and f["gpu"].startswith("h100")
    assert 140e9 < f["total_bytes"] < 200e9 and f["total_bytes"] > f["capacity_bytes"] * 2  # does not fit 2 × 80 GB
    assert f["lighter"]["precision"] == "fp8" and 20 < f["lighter"]["tokens_per_s"] < 80
    assert str(msg.content).startswith(_prefix("second2.total_no", lang).strip())
