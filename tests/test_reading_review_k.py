"""Review round K: cards said as the only ones had ('我就一张4090'), a card planned with its count asked ('我们用910B
全参微调…要几张'), and a training sequence said as '8k seq'."""
from __future__ import annotations

import pytest

from assistant.reading import understand


@pytest.mark.parametrize("lead", ["我就", "我只有", "我就只有", "我们手上就", "我们就"])
@pytest.mark.parametrize("count, n", [("一张", 1), ("两张", 2), ("4张", 4)])
@pytest.mark.parametrize("card, gpu", [("4090", "rtx-4090"), ("3090", "rtx-3090")])
def test_the_only_cards_had_are_owned(lead, count, n, card, gpu):
    u = understand(f"{lead}{count}{card}，能跑qwen3-14b吗")
    assert u.updates.get("owned") == [f"{n}x {gpu}"] and "only" not in u.updates


@pytest.mark.parametrize("text", ["那我们用910B全参微调Qwen2.5-7B，要几张", "我们用910B全参微调Qwen2.5-7B，需要多少张",
                                  "we use 910B to full fine-tune qwen2.5-7b, how many do we need",
                                  "we use h100s for a lora of qwen2.5-7b, how many cards?"])
def test_a_card_planned_with_its_count_asked_is_not_owned(text):
    u = understand(text)
    assert "owned" not in u.updates and len(u.updates.get("only") or []) == 1


@pytest.mark.parametrize("text, owned", [("我们用910B全参微调Qwen2.5-7B", ["1x ascend-910b"]),
                                         ("我们用4张A100全参微调Qwen2.5-7B，要多久", ["4x a100-80gb-sxm"])])
def test_cards_in_use_without_a_count_question_stay_owned(text, owned):
    assert understand(text).updates.get("owned") == owned


@pytest.mark.parametrize("said, n", [("8k seq", 8000), ("4k seq len", 4000), ("seq 2048", 2048), ("2048 seq", 2048)])
@pytest.mark.parametrize("frame", ["fine tune qwen3 30b a3b moe with lora, {}, how much vram", "lora llama 3.1 8b at {}",
                                   "{}，LoRA微调qwen2.5-7b"])
def test_a_short_seq_word_is_the_training_sequence(said, n, frame):
    assert understand(frame.format(said)).updates.get("seq_len") == n


def test_a_count_of_sequences_stays_a_count():
    assert understand("8k sequences of 2k tokens, lora llama 8b").updates.get("seq_len") == 2000
