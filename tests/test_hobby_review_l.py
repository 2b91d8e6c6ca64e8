"""Hobbyists and students get the answer an expert would give (review L3 02, 03, 06, 08, 12, 19, 20 and L1 02):
llama.cpp MoE decode on CUDA reads only the active experts (no fixed time per expert on current builds);
"quantised is fine" / "量化也行" allows 4-bit and "not too slow" / "速度别太慢" is a speed wish; one person on
their own card or Mac runs the 4-bit file below a comfortable speed; "it's my own card" / "我自己的卡啊" makes the
card asked about owned; "can i full finetune X or is it qlora only" asks about full fine-tuning; data said with
a how-long question is read together; images counted for a vision fine-tune are the model's image tokens plus
their text; "runpod or vast" keeps to either's cards. Generated over fillers, phrasings and both languages."""

from __future__ import annotations

import itertools
import re

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.tools.phases import IMAGE_EXAMPLE_TEXT_TOKENS
from gpu_advisor.tools.recommend import COMFORTABLE_TOKENS_PER_S
from gpu_advisor.tools.throughput import SpeedInput, speed


def _tps(reply: str) -> float:
    """The per-user decode speed of the headline plan ('about 116 tokens/s', '约 64 token/s')."""
    x = re.search(r"(?:about|约)\s*([\d,.]+)\s*tokens?/s", reply)
    assert x, reply[:400]
    return float(x.group(1).replace(",", ""))


# ---------------------------------------------------------------- llama.cpp MoE decode on CUDA (L3 08)

@pytest.mark.parametrize(("context", "low", "high"), [(512, 170, 230), (8192, 150, 200), (32768, 100, 135)])
def test_qwen3_30b_a3b_on_a_4090_reads_only_its_active_experts(context: int, low: float, high: float):
    # llama.cpp Q4_K_M on one RTX 4090: well above 100 tokens/s at batch 1 (about 3x the 41 of the April 2025
    # "slow with CUDA" build the old central figure came from)
    r = speed(SpeedInput(model="qwen3-30b-a3b", precision="q4_k_m", gpu="rtx-4090", context=context, engine="llama.cpp"))
    assert low <= r.decode_tokens_per_s <= high
    assert r.terms[0].inputs["expert_fixed_s"] == 0.0
    # a MoE with 3.3B active runs faster than a dense 14B in the same format on the same card
    dense = speed(SpeedInput(model="qwen3-14b", precision="q4_k_m", gpu="rtx-4090", context=context, engine="llama.cpp"))
    assert r.decode_tokens_per_s > 1.3 * dense.decode_tokens_per_s


@pytest.mark.parametrize("follow", ["nice. would qwen3 30b a3b be faster or slower on the same card?",
                                    "what about qwen3 30b a3b on it", "and Qwen3-30B-A3B?"])
def test_the_moe_follow_up_on_a_4090_is_fast(follow: str):
    first, second = run_conversation(["want to run gpt-oss-20b on my 4090 for a local coding agent, will it fit "
                                      "with 32k context", follow])
    assert "your 1 × NVIDIA GeForce RTX 4090 24GB" in second.content and "Qwen3 30B-A3B" in second.content
    assert 100 <= _tps(second.content) <= 135
    assert 150 <= _tps(first.content) <= 260  # gpt-oss-20b: 3.6B active, MXFP4


# ---------------------------------------------------------------- "quantised is fine", "not too slow" (L1 02)

QUANT_OK = {"en": ["quantized is fine", "quantization is ok", "i don't mind quantization", "a quantised model is fine",
                   "fine with quantization"],
            "zh": ["量化也行", "量化也可以", "量化的也没问题", "可以接受量化", "不介意量化"]}
SPEED_WISH = {"en": ["as long as it's not too slow", "speed not too slow", "reasonably fast please", "decent speed"],
              "zh": ["速度别太慢就好", "速度不要太慢", "速度快点就行", "别太慢"]}
PERSONAL = {"en": ["just for me to chat", "only me using it", ""], "zh": ["就自己聊天用", "自用", ""]}
SEP = {"en": ", ", "zh": "，"}


@pytest.mark.parametrize(("lang", "who", "quant", "fast"), [
    (lang, who, quant, fast) for lang in ("en", "zh")
    for who, quant, fast in itertools.islice(itertools.product(PERSONAL[lang], QUANT_OK[lang], SPEED_WISH[lang]), 0, None, 3)])
def test_quantisation_allowed_and_a_speed_wish_are_read(lang: str, who: str, quant: str, fast: str):
    u = understand(SEP[lang].join(x for x in (who, quant, fast) if x))
    assert u.updates["precision"] == "int4"
    assert u.updates["min_tokens_per_s"] == COMFORTABLE_TOKENS_PER_S == 15.0
    assert ("note.quant_ok", {}) in u.notes and ("note.speed_wish", {"tps": "15"}) in u.notes


@pytest.mark.parametrize("text", ["不要量化，速度别太慢", "no quantization please, not too slow", "in bf16, not too slow"])
def test_a_format_said_is_kept_beside_a_speed_wish(text: str):
    u = understand(text)
    assert u.updates.get("precision") != "int4" and u.updates["min_tokens_per_s"] == 15.0


@pytest.mark.parametrize(("turns", "lang"), [
    (["我就一张3090 24G，想本地跑个Qwen2.5-14B玩玩，能跑得动吗", "就自己聊天用，量化也行，速度别太慢就好"], "zh"),
    (["我就一张3090 24G，想本地跑个Qwen2.5-14B玩玩，能跑得动吗", "自用 量化的也没问题 速度不要太慢"], "zh"),
    (["i have a single 3090 24gb, can i run qwen2.5 14b locally?", "just me chatting, quantized is fine, as long as "
      "it's not too slow"], "en"),
])
def test_the_personal_follow_up_gets_4_bit_and_a_met_speed(turns: list[str], lang: str):
    reply = run_conversation(turns)[-1].content
    assert "没看懂" not in reply and "didn't understand" not in reply
    assert "q4_k_m" in reply and "15" in reply
    speed_line = next(line for line in reply.splitlines() if "q4_k_m" in line and ("每个用户" in line or "per user" in line))
    tps = float(re.search(r"(?:每个用户|;)\s*([\d.]+)\s*tokens?/s", speed_line).group(1))
    assert 50 <= tps <= 80  # Qwen2.5 14B Q4_K_M on a 3090 (42 in Q8_0 before)
    assert ("已满足" if lang == "zh" else "met") in speed_line


# ---------------------------------------------------------------- one person on their own Mac (L3 02)

@pytest.mark.parametrize("text", [
    "i have a macbook pro m3 max 64gb, can i run qwen2.5 32b locally for coding? how fast would it be",
    "can my m3 max 64gb macbook run qwen2.5 32b? how fast?",
    "我有一台 m3 max 64g 的 macbook pro，本地能跑 qwen2.5 32b 写代码吗，速度多少",
])
def test_one_person_on_a_mac_runs_the_4_bit_file_when_8_bit_is_slow(text: str):
    reply = run_conversation([text])[0].content
    head = reply.splitlines()[0] if reply.startswith("##") else next(x for x in reply.splitlines() if x.startswith("##"))
    assert "M3 Max" in head and "q4_k_m" in head
    assert 9 <= _tps(head) <= 16  # Q8_0 ran at 9.2 tokens/s
    assert "Q8_0 KV" not in reply  # the 16-bit cache fits: no 8-bit cache "so the conversations fit"


def test_8_bit_said_on_the_mac_is_kept():
    reply = run_conversation(["i have a macbook pro m3 max 64gb, can i run qwen2.5 32b in q8_0 locally?"])[0].content
    assert "q8_0" in next(x for x in reply.splitlines() if x.startswith("##"))


# ---------------------------------------------------------------- "it's my own card" (L3 19)

@pytest.mark.parametrize(("first", "second", "own", "context"), [
    ("gemma 3 12b 在 3080 10g 上能推理吗 int4的", "我自己的卡啊 不用租 上下文想开到16k行不行", "使用你自己的", "16,384"),
    ("gemma 3 12b 在 3080 10g 上能推理吗 int4的", "是我自己的卡，上下文开到16k呢", "使用你自己的", "16,384"),
    ("can gemma 3 12b run on a 3080 10gb in int4?", "it's my own card, not renting. can i do 16k context?",
     "Use your", "16,384"),
    ("can gemma 3 12b run on a 3080 10gb in int4?", "i already own it. 16k context?", "Use your", "16,384"),
])
def test_the_card_asked_about_becomes_yours(first: str, second: str, own: str, context: str):
    reply = run_conversation([first, second])[-1].content
    head = next(x for x in reply.splitlines() if x.startswith("##"))
    assert own in head and "3080" in head
    assert "购买" not in head and "Buy" not in head
    assert f"{context} token" in reply


# ---------------------------------------------------------------- full fine-tuning asked, QLoRA its fallback (L3 06)

@pytest.mark.parametrize("text", [
    "have 2x rtx 3090 (no nvlink). can i full finetune gemma 2 9b or is it qlora only",
    "can i do full fine-tuning of gemma 2 9b on 2x 3090 or just lora",
    "2x 3090: full finetune gemma 2 9b possible, or only qlora?",
    "两张3090能全参微调gemma 2 9b吗，还是只能qlora",
    "我有两张3090，想全参微调gemma 2 9b，可以吗，还是只能用lora",
])
def test_full_fine_tuning_is_the_question(text: str):
    u = understand(text)  # full fine-tuning is asked about: sized itself, or set beside the fallback named
    assert u.updates.get("method") == "full" or ("method_compare" in u.intents and u.ask["methods"][0] == "full")


@pytest.mark.parametrize("text", ["lora, not qlora", "qlora please", "use lora instead of full fine-tuning"])
def test_a_method_chosen_is_unchanged(text: str):
    assert understand(text).updates["method"] in ("lora", "qlora")
    assert understand(text).updates["method"] != "full"


def test_full_fine_tuning_on_two_3090s_is_answered_no_with_lora_as_the_way():
    reply = run_conversation(["have 2x rtx 3090 (no nvlink). can i full finetune gemma 2 9b or is it qlora only"])[0].content
    need = float(re.search(r"a full fine-tune: \*\*does not fit\*\*, ([\d.]+) GB per GPU", reply).group(1))
    assert 70 <= need <= 100  # 16 B/param mixed precision over 2 cards: far more than a 3090's 25.5 GB
    assert "QLoRA: **fits**" in reply and "**Verdict:** use QLoRA" in reply


# ---------------------------------------------------------------- data said with a how-long question (L3 12)

@pytest.mark.parametrize(("plan", "data", "tokens", "seq"), [
    ("学生党，实验室只有两张3090，想用lora微调一下glm-4-9b做毕设，够不够", "数据大概3000条，每条500字左右，跑3个epoch要多久",
     "1.1M", "357"),
    ("学生党，实验室只有两张3090，想用lora微调一下glm-4-9b做毕设，够不够", "数据3000条，每条大概500 token，训练3个epoch需要多久",
     "1.5M", "500"),
    ("students with 2x 3090, want to lora finetune glm-4-9b for a thesis, enough?",
     "about 3000 examples, each around 500 tokens, how long for 3 epochs?", "1.5M", "500"),
])
def test_the_data_and_the_question_are_one_reply(plan: str, data: str, tokens: str, seq: str):
    reply = run_conversation([plan, data])[-1].content
    assert "**1." not in reply and "**2." not in reply
    assert f"{tokens} token × 3" in reply or f"{tokens} tokens × 3" in reply
    assert f"{seq} token" in reply
    hours = float(re.search(r"(?:约需|about) ([\d.]+) (?:小时|h)", reply).group(1))
    assert 0.3 <= hours <= 1.0  # 3.2M-4.5M tokens on two 3090s, not 9M


# ---------------------------------------------------------------- images as a vision model's examples (L3 20)

@pytest.mark.parametrize(("text", "n"), [
    ("想用 qwen2.5-vl 7b 微调做 ocr，单卡 4090 行不行，数据大概2万张图", 20_000),
    ("qwen2.5-vl 7b 微调，数据5000张票据图片，4090够吗", 5_000),
    ("fine-tune qwen2.5-vl 7b for ocr on my 4090, about 20k images", 20_000),
    ("lora qwen2.5-vl 7b on 8000 scanned images", 8_000),
])
def test_images_are_the_vision_models_examples(text: str, n: int):
    assert understand(text).updates["train_examples"] == n
    first, reply = (r.content for r in run_conversation([text, "QLoRA"]))
    each = 1369 + IMAGE_EXAMPLE_TEXT_TOKENS  # Qwen2.5-VL's image tokens on record, plus the text with it
    total = n * each / 1e6
    # one's own 4090 fine-tunes with QLoRA unasked (the plan comes first); else after the method question
    assert any(f"{total:,.2g}M" in r or f"{total:,.0f}M" in r for r in (first, reply))
    said = first if f"{each:,}" in first else reply  # the note comes with the first sizing, or the method question
    assert f"{each:,}" in said and "max_pixels" in said and f"{n:,}" in said


def test_a_text_model_keeps_the_typical_example_length():
    reply = run_conversation(["fine-tune llama 3.1 8b on my 4090 with 20k images of receipts transcribed", "QLoRA"])[-1].content
    assert "max_pixels" not in reply


# ---------------------------------------------------------------- "runpod or vast" (L3 03)

@pytest.mark.parametrize("text", [
    "student here, got maybe $300 total, want to lora finetune mistral 7b on ~5k examples. what should i rent on runpod or vast",
    "lora mistral 7b, 5k examples, renting on vast or runpod, budget $300",
])
def test_two_clouds_keep_to_either_ones_cards(text: str):
    u = understand(text)
    assert set(u.updates["only"]) == set(clouds()["runpod"].gpus) | set(clouds()["vast"].gpus)
    reply = run_conversation([text])[0].content
    assert "Vast.ai" in reply and "RunPod" in reply and "cannot say which of them is cheaper" in reply
    assert "NVIDIA RTX 5000 Ada Generation 32GB, " not in reply  # the clouds by name, not thirty cards


def test_the_vast_majority_is_no_cloud():
    assert "only" not in understand("the vast majority of my data is short, lora mistral 7b").updates


def test_training_tokens_keep_their_first_decimal():
    reply = run_conversation(["lora finetune mistral 7b on 5k examples", "each example is like 300 tokens and i want 3 epochs"])[-1].content
    assert "1.5M training tokens" in reply and "2M training tokens" not in reply
