"""h-parts2 (session 17, round F): two-part questions whose second part is a job of another kind or for later.
- AZ 19: an occasional fine-tune of another model said after a serving plan ('噢对了 我还想偶尔微调一下 8B 的模型') is
  a training run checked on the plan's cards (LoRA/QLoRA, hours), never a second model served; the plan stays."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_conversation

HOME_EN = "I want to run Llama 3.1 70B at home just for me, Mac Studio M2 Ultra 192GB or two used 3090s, which is better?"
HOME_ZH = "我想在家里跑 Llama 3.1 70B 聊天，就我一个人用，Mac Studio M2 Ultra 192G 和两张二手3090 哪个好？"
SIDE_EN = [
    ("oh and I'd also like to fine-tune an 8B model now and then", "8B", "lora"),
    ("and sometimes I want to fine-tune an 8b too", "8B", "lora"),
    ("oh btw I also want to occasionally qlora llama 3.1 8b", "llama-3.1-8b", "qlora"),
]
SIDE_ZH = [
    ("噢对了 我还想偶尔微调一下 8B 的模型", "8B", "lora"),
    ("对了，偶尔也想拿 qwen2.5 7b 做做lora微调", "qwen2.5-7b", "lora"),
    ("另外有时候还想qlora微调一下llama 3.1 8b", "llama-3.1-8b", "qlora"),
]


def _payload(turns: list[str]) -> dict[str, Any]:
    return dict(run_conversation(turns)[-1].additional_kwargs["gpu_advisor"])


@pytest.mark.parametrize(("first", "side"), [(HOME_EN, s) for s in SIDE_EN] + [(HOME_ZH, s) for s in SIDE_ZH])
def test_occasional_fine_tune_is_checked_on_the_chosen_cards(first: str, side: tuple[str, str, str]) -> None:
    text, model, method = side
    p = _payload([first, text])
    assert p["profile"]["model"] == "llama-3.1-70b" and p["profile"]["phase"] == "serve"  # the plan stays
    best = p["results"]["recommend"]["best"]
    assert best["gpu"] == "rtx-3090" and best["gpus"] == 2  # the decision of the first turn
    job = p["second_job"]
    assert job["phase"] == "fine-tune" and job["model"] == model and job["method"] == method
    assert not (p["results"].get("pair") or {}).get("together")  # no second service beside the first
    sized = job["sized"]
    assert sized["gpu"] == "rtx-3090" and sized["gpus"] == 2 and sized["fits"] and 0 < sized["hours"] < 10
