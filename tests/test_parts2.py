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


# AY 19: a training run with the machine's cards said apart from the card ('8卡一台够不够') and an engine asked after.
ASCEND = [
    ("我们想在昇腾910B上用LLaMA-Factory做Qwen2.5-7B的全参微调，数据大概10万条，每条2k token，8卡一台够不够，要跑几个小时？"
     "另外推理的时候用MindIE还是vllm-ascend好", "zh"),
    ("在昇腾910B上全参微调Qwen2.5-7B，10万条每条2k token，单台8卡够不够，多久？推理用MindIE还是vllm-ascend", "zh"),
    ("We want to full fine-tune Qwen2.5-7B with LLaMA-Factory on Ascend 910B, 100k samples of 2k tokens each. Is one "
     "8-card box enough and how many hours? Also for inference, MindIE or vllm-ascend?", "en"),
    ("On Ascend 910B, full finetune qwen2.5-7b on 100k samples x 2k tokens: is a single 8 gpu server enough, how long? "
     "and mindie vs vllm-ascend for inference later?", "en"),
]


@pytest.mark.parametrize(("text", "lang"), ASCEND)
def test_box_of_eight_sized_then_engine(text: str, lang: str) -> None:
    reply = run_conversation([text])[-1]
    p = reply.additional_kwargs["gpu_advisor"]
    assert p["profile"]["phase"] == "fine-tune" and not p["profile"].get("users")  # no service load invented
    best = p["results"]["recommend"]["best"]
    assert best["gpu"] == "ascend-910b" and best["gpus"] == 8 and best["trains"] and 0 < best["training_hours"] < 12
    assert [a["code"] for a in p["also"]] == ["engine_choice"]
    assert {e["id"] for e in p["also"][0]["engines"]} == {"mindie", "vllm"}
    content = str(reply.content)
    first = content.split("\n")[0]
    assert first.startswith("**能**" if lang == "zh" else "**Yes**")  # the fit asked, answered first
    engines = content.index("MindIE")
    assert content.index("8 × Huawei Ascend 910B") < engines  # the sizing before the engine (order asked)


# AX 4: the model said to come later is a note, not a second service running now.
TP_EN = "quick q - tensor parallel vs pipeline parallel, when do i use which for inference? we have 2 nodes of 8xA100"
TP_ZH = "推理的时候张量并行和流水线并行分别什么时候用？我们有两台8卡A100"
LATER = [
    (TP_EN, "70B mostly, but maybe llama 405b later", "en"),
    (TP_EN, "mostly llama 3.3 70b, maybe llama 3.1 405b down the road", "en"),
    (TP_ZH, "主要是70B，以后可能上llama 405b", "zh"),
    (TP_ZH, "以70B为主，将来也许跑llama 3.1 405b", "zh"),
]


@pytest.mark.parametrize(("first", "text", "lang"), LATER)
def test_later_model_is_a_note(first: str, text: str, lang: str) -> None:
    from gpu_advisor.assistant.catalog import say

    reply = run_conversation([first, text])[-1]
    p = reply.additional_kwargs["gpu_advisor"]
    assert p["profile"]["model"] in ("70B", "llama-3.3-70b") and p["profile"]["phase"] == "serve"
    assert "second_job" not in p and not (p["results"].get("pair") or {}).get("together")
    best = p["results"]["recommend"]["best"]
    assert best["gpu"].startswith("a100") and best["gpus"] == 16 and best["replicas"] == 2  # a copy per node
    assert say(lang, "note.model_other", others="§", chosen="", first="").split("§")[0] in str(reply.content)
    assert "Llama 3.1 405B" in str(reply.content)
