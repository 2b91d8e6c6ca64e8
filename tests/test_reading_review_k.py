"""Review round K: cards said as the only ones had ('我就一张4090'), a card planned with its count asked ('我们用910B
全参微调…要几张'), and a training sequence said as '8k seq'."""
from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand


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


@pytest.mark.parametrize("pair, prompt, output", [("300 in 10 out", 300, 10), ("500 in/5 out", 500, 5),
                                                  ("2k in 300 out", 2000, 300), ("1500 in / 300 out", 1500, 300),
                                                  ("800 in, 150 out", 800, 150)])
@pytest.mark.parametrize("frame, prompt_slot, output_slot", [
    ("llama 3.1 8b api at 20 rps, {}", "prompt_tokens", "output_tokens"),
    ("{}, 10 req/s on qwen3-32b, p99 under 2s", "prompt_tokens", "output_tokens"),
    ("classify 2M tickets with llama 8b, {}, by friday", "batch_input_tokens", "batch_output_tokens"),
])
def test_a_count_in_and_a_count_out(pair, prompt, output, frame, prompt_slot, output_slot):
    u = understand(frame.format(pair)).updates
    assert (u.get(prompt_slot), u.get(output_slot)) == (prompt, output)


@pytest.mark.parametrize("text", [
    "we need ~500 rps on mistral 7b, prompts are ~300 tokens in and ~10 tokens out (basically classification)",
    "classification api on gemma 3 27b, 200 req/s, 500 in/5 out", "200 requests per second of summarization, qwen3-8b",
    "no its not batch, its a live api, 200 req/s around the clock", "its not a batch job, its a live api",
])
def test_requests_arriving_live_are_serving_whatever_the_task(text):
    assert understand(text).updates.get("phase") == "serve"


@pytest.mark.parametrize("text", ["we can use spot instances yeah", "spot is fine", "preemptible vms are ok for this",
                                  "用竞价实例可以吗", "抢占式实例也行"])
def test_spot_instances_are_said_back_not_dropped(text):
    u = understand(text)
    assert ("note.spot", {}) in u.notes and not u.empty


@pytest.mark.parametrize("text, n", [("上下文想开到32k", 32768), ("上下文希望有32k", 32768), ("上下文开到128k", 131072),
                                     ("context想要64k", 65536)])
def test_a_wished_context_is_the_context(text, n):
    assert understand(text).updates.get("context") == n


@pytest.mark.parametrize("text", ["就自己聊天用，量化也行，速度别太慢就好", "就自己用", "就自己玩玩"])
def test_just_me_in_chinese(text):
    assert understand(text).updates.get("personal") is True


@pytest.mark.parametrize("text, owned", [("A800 80G 16 张，Qwen2.5-32B 全参 SFT，5B token 多久", ["16x a800-80gb-sxm"]),
                                         ("H100 80G 8张，全参微调qwen2.5-7b要多久", ["8x h100-sxm"])])
def test_a_count_after_a_card_and_its_memory(text, owned):
    assert understand(text).updates.get("owned") == owned


@pytest.mark.parametrize("text, n", [("bf16，zero3，序列 8k", 8000), ("zero2，序列长度4096", 4096), ("序列要8k，lora qwen 7b", 8000)])
def test_a_zero_stage_is_no_sequence(text, n):
    u = understand(text)
    assert u.updates.get("seq_len") == n and not u.problems


@pytest.mark.parametrize("text", ["A100 和 H100 推理差多少", "A100和H100哪个好", "a100 and h100 difference",
                                  "which is faster, a100 or h100", "H20和L20跑推理到底差多少", "A100 与 H100 的区别"])
def test_two_cards_asked_about_are_both_compared(text):
    assert len(understand(text).compare_gpus) == 2


@pytest.mark.parametrize("text, share", [("就白天 早9点到晚9点", 0.5), ("早8点到晚8点都有人用", 0.5),
                                         ("工作日早9点到晚6点", 0.2679)])
def test_a_chinese_day_window_with_single_character_clock_words(text, share):
    assert understand(text).updates.get("utilisation") == share


@pytest.mark.parametrize("text", ["都没有 还没买呢 想跑qwen2.5 32b", "一张都没有，想买卡跑qwen2.5-32b", "还没有卡，想跑qwen2.5-32b"])
def test_owning_nothing_in_chinese(text):
    assert understand(text).updates.get("owned") == []


def test_the_latest_time_is_no_clock_range():
    assert "utilisation" not in understand("最晚9点前要跑完").updates
