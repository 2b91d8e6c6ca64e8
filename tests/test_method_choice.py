"""'full or lora? will it fit and how long' inside a sizing request (review CV #4): both methods sized on the cards
(full: weights, gradients, optimizer states, activations and DPO's frozen reference; LoRA/QLoRA), which fits, what a
full fine-tune would need, and the pick; preference pairs counted as two sequences (the time follows); the framework
named for a QLoRA too big for one card is one that shards (PEFT + FSDP-QLoRA), never Unsloth (review NC30 #2)."""
from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.method_choice import method_choice_lines
from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.method_choice import method_choice
from gpu_advisor.tools.recommend import Workload, training_time_setup
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
from tests.conversation import payload, run_conversation

CJK = re.compile(r"[\u4e00-\u9fff]")

# ------------------------------------------------------------------ reading: "which method" inside a sizing request
EN = [
    "our lab owns {cards}. want to {obj} {model} on ~{n} {unit}, seq len 4096. full or lora? will it fit and how long roughly",
    "should I do full fine-tuning or lora for {model} {obj} on my own {cards}, {n} {unit}?",
    "{obj} {model} on {cards} we own with {n} {unit}: lora or full finetune? how long",
]
ZH = [
    "我们实验室有{cards_zh}，想用{n_zh}条{unit_zh}对{model}做{obj}，序列长度4096，全参还是LoRA？",
    "我有{cards_zh}，{model} 做 {obj}，{n_zh}条{unit_zh}，LoRA够吗还是要全量？",
    "手上有{cards_zh}，{model}用{n_zh}条{unit_zh}做{obj}微调，全参数微调还是lora，能放下吗",
]
OBJECTIVES = [("sft", "SFT", "examples", "样本"), ("dpo", "DPO", "preference pairs", "偏好数据"),
              ("dpo", "ORPO", "preference pairs", "偏好数据"), ("dpo", "KTO", "examples", "样本")]
MODELS = ["gemma-3-12b", "qwen2.5 7b", "llama 3.1 8b", "mistral 7b"]
CARDS = [("2x A100 80GB PCIe", "两张A100 80G"), ("4x rtx 4090", "4张4090"), ("8x H100", "8张H100")]


def _en_cases():
    i = 0
    for template in EN[:3]:
        for objective, obj, unit, _zh in OBJECTIVES:
            cards = CARDS[i % len(CARDS)][0]
            yield template.format(cards=cards, obj=obj, model=MODELS[i % len(MODELS)], n="40k", unit=unit), objective
            i += 1


def _zh_cases():
    i = 0
    for template in ZH:
        for objective, obj, _unit, unit_zh in OBJECTIVES:
            cards_zh = CARDS[i % len(CARDS)][1]
            yield template.format(cards_zh=cards_zh, obj=obj, model=MODELS[i % len(MODELS)], n_zh="4万",
                                  unit_zh=unit_zh), objective
            i += 1


@pytest.mark.parametrize(("text", "objective"), [*_en_cases(), *_zh_cases()])
def test_which_method_in_a_sizing_request_is_read_as_a_choice(text, objective):
    u = understand(text)
    assert u.ask.get("method_choice") == ["lora", "full"]
    assert u.updates["method"] == "lora"  # the plan is on the method a pick prefers; both are weighed in the reply
    assert u.updates.get("objective") == objective
    assert "method_compare" not in u.intents  # a plan, not the one-GPU comparison
    assert not u.ask.get("methods_weighed")  # weighed once, on their cards (not again beside the plan)


@pytest.mark.parametrize("text", [
    "lora or full fine-tune for mistral 7b, 200k examples, which one?",
    "想微调 mistral 7b 做分类，数据 20 万条，全参还是 lora，要什么卡",
])
def test_no_cards_of_their_own_keeps_the_plan_card_weighing(text):
    u = understand(text)
    assert not u.ask.get("method_choice") and u.ask.get("methods_weighed")


@pytest.mark.parametrize("text", [
    "our lab owns 2x A100 80GB PCIe. want to DPO gemma-3-12b on 40k pairs. lora or qlora?",
    "我有两张4090，qwen2.5 14b 微调，2万条样本，QLoRA还是LoRA？",
])
def test_two_adapter_methods_weighed_plan_on_lora(text):
    u = understand(text)
    assert u.ask.get("method_choice") == ["lora", "qlora"]
    assert u.updates["method"] == "lora"


@pytest.mark.parametrize("text", [
    "our lab owns 2x A100 80GB PCIe. want to DPO gemma-3-12b with lora on 40k pairs",
    "full finetune llama 3.1 8b on 8x h100, 50k examples",
    "can we do full-param SFT of qwen2.5 7b on 4x 4090, 20k examples? if not, LoRA?",  # a fallback, not a choice
])
def test_one_method_asked_is_no_choice(text):
    assert not understand(text).ask.get("method_choice")


# ------------------------------------------------------------------ the tool: both methods on the cards
def _dpo(**more):
    return Workload(phase="fine-tune", model="gemma-3-12b", method="lora", objective="dpo", train_tokens=40e6,
                    seq_len=4096, owned=["2x a100-80gb-pcie"], **more)


def test_full_dpo_of_gemma_12b_does_not_fit_two_a100_pcie_lora_does():
    mc = method_choice(_dpo(), ["lora", "full"], "a100-80gb-pcie", 2, True)
    rows = {r.method: r for r in mc.rows}
    assert mc.pick == "lora" and mc.reason == "only_light" and mc.reference
    assert rows["lora"].fits and not rows["full"].fits
    # full: 12.2B weights x 2 bytes BF16 + a frozen BF16 reference copy, both sharded over the 2 cards
    assert rows["full"].reference_bytes == pytest.approx(12.2e9, rel=0.01)
    assert 130e9 < rows["full"].per_gpu_bytes < 160e9 and 30e9 < rows["lora"].per_gpu_bytes < 45e9
    full = training_memory(TrainingMemoryInput(model="gemma-3-12b", method="full", seq_len=4096, gpus=2, zero=3,
                                               batch=2, reference_model=True))
    assert rows["full"].per_gpu_bytes == pytest.approx(full.per_gpu_total_bytes)
    assert rows["full"].hours > rows["lora"].hours > 0
    needs = mc.full
    assert needs.cards == 5 and not needs.adam8_fits and needs.offload_fits and needs.pcie
    assert needs.offload_host_bytes == pytest.approx(170.8e9, rel=0.02)
    # ZeRO-3 per micro-batch: weights gathered twice + gradients reduce-scattered, half of it from the other card
    assert needs.gather_bytes_per_step == pytest.approx(3 * 12.2e9 * 2 / 2, rel=0.01)


def test_both_fit_small_model_picks_lora_with_both_times():
    w = Workload(phase="fine-tune", model="llama-3.1-8b", method="lora", train_tokens=20e6, seq_len=2048,
                 owned=["2x a100-80gb-pcie"])
    mc = method_choice(w, ["full", "lora"], "a100-80gb-pcie", 2, True)
    assert mc.reason == "both_fit" and mc.pick == "lora" and mc.full is None and not mc.reference
    assert all(r.fits for r in mc.rows)


def test_nothing_fits_a_small_card():
    w = Workload(phase="fine-tune", model="qwen2.5-72b", method="lora", train_tokens=20e6, seq_len=4096,
                 owned=["1x rtx-3060"])
    mc = method_choice(w, ["lora", "full"], "rtx-3060", 1, True)
    assert mc.pick is None and mc.reason == "none"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lines_say_both_memories_the_need_and_the_pick(lang):
    mc = method_choice(_dpo(), ["lora", "full"], "a100-80gb-pcie", 2, True)
    text = "\n".join(method_choice_lines(mc, lang))
    rows = {r.method: r for r in mc.rows}
    for r in rows.values():
        assert f"{r.per_gpu_bytes / 1e9:,.1f} GB" in text
    assert "5 × NVIDIA A100 PCIe 80GB" in text or "5 张 NVIDIA A100 PCIe 80GB" in text
    assert "171 GB" in text  # the system RAM ZeRO-3's CPU offload needs
    assert "37 GB" in text  # what ZeRO-3 moves per micro-batch over each card's PCIe link
    pick = say(lang, "mch.verdict.only_light", name="LoRA", spare="x", x="x", heavy_gb="x", gb="x").split("LoRA")[0]
    assert pick in text
    if lang == "en":
        assert not CJK.search(text)
    else:
        assert not re.search(r"\b(?:fits|does not|per GPU|pick|would need)\b", text)


# ------------------------------------------------------------------ preference pairs counted in tokens
@pytest.mark.parametrize(("text", "each", "seq"), [
    ("DPO gemma-3-12b on ~40k preference pairs, seq len 4096, on 2x A100 80GB PCIe", 1000, "4,096"),
    ("simpo on qwen2.5 7b, 40,000 pairs, max length 512, 2x a100", 512, "512"),
    ("orpo llama 3.1 8b with 40k preference pairs on 4x 4090", 1000, None),
    ("用4万条偏好数据对qwen2.5 7b做DPO，序列长度2048，两张A100", 1000, "2,048"),
])
def test_preference_pairs_are_two_sequences(text, each, seq):
    u = understand(text)
    assert u.updates["train_tokens"] == pytest.approx(40_000 * each)
    note = next(v for k, v in u.notes if k == "note.example_tokens")
    assert note["pairs"] == "_pairs" + ("_seq" if seq else "")
    assert note["total"] == f"{2 * 40_000 * each / 1e6:,.0f}" and note["each"] == f"{each:,}"
    if seq:
        assert note["seq"] == seq


def test_kto_examples_are_not_pairs():
    note = next(v for k, v in understand("KTO on qwen2.5 7b with 40k examples, 2x a100").notes
                if k == "note.example_tokens")
    assert not note.get("pairs")


def test_dpo_time_counts_both_sequences():
    w = _dpo()
    sft = w.model_copy(update={"objective": "sft"})
    assert training_time_setup(w, "a100-80gb-pcie", 2, True).tokens == 2 * training_time_setup(sft, "a100-80gb-pcie", 2, True).tokens


# ------------------------------------------------------------------ the replies
@pytest.mark.parametrize(("text", "lang"), [
    ("our lab owns A100 80GB PCIe x2 (no nvlink). want to DPO gemma-3-12b on ~40k preference pairs, seq len 4096. "
     "full or lora? will it fit and how long roughly", "en"),
    ("我们实验室有两张A100 80G PCIe，想用4万条偏好数据对gemma-3-12b做DPO，序列长度4096，全参还是LoRA？", "zh"),
])
def test_reply_weighs_both_methods_on_the_cards(text, lang):
    (reply,) = run_conversation([text])
    data = payload(reply)["method_choice"]
    rows = {r["method"]: r for r in data["rows"]}
    assert data["pick"] == "lora" and not rows["full"]["fits"] and rows["lora"]["fits"]
    for r in rows.values():
        assert f"{r['per_gpu_bytes'] / 1e9:,.1f} GB" in reply.content
    assert ("**Pick: LoRA.**" if lang == "en" else "**选 LoRA。**") in reply.content
    # the time is said for both sides of the pairs: 40,000 x 1,000 tokens a side, 80M with both
    assert ("40M tokens a side (80M with the chosen and the rejected side together)" if lang == "en"
            else "每次训练 40M token（chosen 和 rejected 两边合计 80M）") in reply.content
    if lang == "en":
        assert not CJK.search(reply.content)
        assert "preference pairs as a prompt with a chosen and a rejected response" in reply.content
    else:
        assert "偏好数据我按每条一个提示词加 chosen 和 rejected 两个回答来算" in reply.content
