"""Review round N, classes 5 and 7: fits judged fairly and headlines that match what was said.

- a fine-tune that fits one card with a change keeping the job (Unsloth, checkpointing, a shorter sequence,
  an 8-bit optimizer) is "yes, with it" (N3 #9, #15); a model the user's own card runs with experts in system RAM
  is "yes" on that card (N1 #13);
- a mixture of experts trained over many GPUs uses expert parallelism: DeepSeek-V3 LoRA fits H800s, not only
  H20s the answer warns against (N3 #19);
- a monthly budget or 租/rent in the question rents (N3 #12, final #4);
- "mistral 7b" is the latest Mistral 7B (final #6), by the one family-and-size rule for every family;
- a quality question between weight formats gets each format's quality (final #10);
- a card the user cannot get is excluded; a price per million tokens is no token amount to size.
Both languages, several phrasings each.
"""
from __future__ import annotations

import itertools

import pytest
from conversation import payload, run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_precision, models
from gpu_advisor.knowledge.resolve import FAMILY_SUFFIXES, _family_index, normalise
from gpu_advisor.tools.fit import FitInput, fit
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory


def _first(text: str) -> str:
    return text.split("\n", 1)[0]


def _head(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


# ---------------------------------------------------------------- 1. yes, with a change that keeps the job

GLM_LORA = {
    "en": ["can a 3090 run a glm-4-9b lora with 3000 samples?", "glm-4-9b lora, 3000 examples, will it fit on one 3090?",
           "would a glm-4-9b lora with 3k samples fit on a single rtx 3090?"],
    "zh": ["GLM-4-9B LoRA 3000 条 3090 能跑吗", "glm-4-9b 做 lora，3000 条数据，一张 3090 够不够", "3090 单卡能跑 GLM-4-9B 的 LoRA 吗，3000 条"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in GLM_LORA.items() for t in v])
def test_a_lora_that_fits_with_unsloth_is_yes_with_it(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    first = _first(reply.content)
    assert first.startswith("**Yes**" if lang == "en" else "**能**"), first
    assert "Unsloth" in first and "1 × NVIDIA GeForce RTX 3090" in first, first
    assert payload(reply)["pinned"] == {"gpu": "rtx-3090", "gpus": 1, "fits": True, "change": "LoRA with Unsloth"}


@pytest.mark.parametrize("second", ["QLoRA 单卡 4090 够不够", "QLoRA 一张 4090 能跑吗"])
def test_the_qlora_offered_a_turn_before_is_yes_with_unsloth(second: str) -> None:
    reply = run_conversation(["Gemma 3 27B 全量微调多少显存 2 万条", second])[-1]
    first = _first(reply.content)
    assert first.startswith("**能**") and "QLoRA + Unsloth" in first and "21.1 GB" in first, first
    assert "不能" not in first


@pytest.mark.parametrize(("model", "gpu", "method"), [("glm-4-9b", "rtx-3090", "lora"), ("gemma-3-27b", "rtx-4090", "qlora"),
                                                      ("qwen2.5-14b", "rtx-4090", "lora")])
def test_remedies_that_keep_the_job_are_marked(model: str, gpu: str, method: str) -> None:
    result = fit(FitInput(model=model, gpu=gpu, phase="train", counts=[1], method=method))
    labels = {r.change: r for r in result.remedies}
    assert labels[f"{'LoRA' if method == 'lora' else 'QLoRA'} with Unsloth"].keeps_job
    for r in result.remedies:  # a change of method is never "the job as asked"
        assert r.keeps_job == (("QLoRA" not in r.change or method == "qlora") and "instead" not in r.change
                               and "(4-bit base)" not in r.change), r


@pytest.mark.parametrize("text", ["qwen2.5 14b lora 1万条，一张4090能跑吗", "qwen2.5 14b 做 LoRA，1 万条数据，单张 4090 够不够"])
def test_a_job_that_fits_only_another_way_is_still_no(text: str) -> None:
    # a 14B LoRA in BF16 needs more than a 4090 even with Unsloth; only QLoRA (another method) fits: the answer stays no
    reply = run_conversation([text])[0]
    first = _first(reply.content)
    assert first.startswith("**不能**"), first
    assert payload(reply)["pinned"]["fits"] is False


# ---------------------------------------------------------------- 2. your own card, with experts in system RAM

OFFLOAD = {
    "en": ["i have a 3060 12gb can i run gpt-oss 20b", "can my rtx 3060 12gb run gpt-oss-20b?",
           "got a 3060 12gb, will gpt-oss 20b run on it"],
    "zh": ["我有一张 3060 12G，能跑 gpt-oss 20b 吗", "我的 3060 12gb 能不能跑 gpt-oss-20b"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in OFFLOAD.items() for t in v])
def test_your_card_with_experts_in_ram_is_yes_on_your_card(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    first = _first(reply.content)
    if not first.startswith("## "):  # the literal question read ('can i run'): yes, on your card, with the flags
        # h-mixed (d4cde8d): the verdict line is the offload plan's own yes, naming the part in system RAM
        assert first.startswith("**Yes, with part of it in system RAM**" if lang == "en"
                                else "**能，把一部分放在内存里**"), first
        assert "--n-cpu-moe" in first and "RTX 3060" in first
    assert _head(reply.content).startswith("## Use your" if lang == "en" else "## 使用你自己的"), _head(reply.content)
    off = payload(reply)["results"]["recommend"]["offload"]
    assert off["ram_ok"] is None and off["ram_needed_gb"] <= 16  # RAM not said: the RAM it takes is said


# ---------------------------------------------------------------- 3. expert parallelism for a MoE fine-tune

def test_moe_over_many_gpus_gathers_no_routed_experts() -> None:
    dense = training_memory(TrainingMemoryInput(model="llama-3.1-70b", method="lora", gpus=32, zero=3))
    moe = training_memory(TrainingMemoryInput(model="deepseek-v3", method="lora", gpus=32, zero=3))
    weights = next(t for t in moe.terms if t.key == "weights_bytes").value
    assert weights < 1.45e12 / 32 * 1.05  # the shard, plus attention and shared weights of two layers
    assert any("expert parallelism" in a for a in moe.assumptions)
    assert not any("expert parallelism" in a for a in dense.assumptions)


@pytest.mark.parametrize("text", ["DeepSeek-V3 LoRA 5 万条，多少卡", "deepseek v3 lora on 50k examples, how many gpus?"])
def test_deepseek_v3_lora_is_not_planned_on_cards_warned_against(text: str) -> None:
    replies = run_conversation([text])
    best = payload(replies[-1])["results"]["recommend"]["best"]
    assert best["gpu"] != "h20" and not best["avoid"], best["gpu"]


# ---------------------------------------------------------------- 4. headline verbs: a monthly budget and 租 rent

RENT = [
    ("we're launching in 3 weeks, need to serve qwen2.5-32b with p95 ttft under 500ms at 15 rps, budget 20k/month. "
     "what setup", "en"),
    ("serve qwen2.5 32b at 15 requests per second, budget $20,000 a month, live service", "en"),
    ("下周五之前要上线一个客服机器人，glm-4-9b，并发20，8k，租什么卡最快", "zh"),
    ("glm-4-9b 客服，并发 20，8k 上下文，下周上线，租啥卡", "zh"),
    ("上线一个客服，qwen2.5 14b，并发 30，全天候，每月预算两万", "zh"),
]


@pytest.mark.parametrize(("text", "lang"), RENT)
def test_a_monthly_budget_or_rent_in_the_question_rents(text: str, lang: str) -> None:
    replies = run_conversation([text])
    head = _head(replies[-1].content)
    assert head.startswith("## Rent" if lang == "en" else "## 租用"), head
    assert payload(replies[-1])["results"]["recommend"]["action"] == "rent"


@pytest.mark.parametrize("text", ["租什么卡跑 qwen2.5 14b，并发 30", "想租卡部署 qwen2.5 14b，租哪个", "what should we rent for qwen2.5 14b, 30 users"])
def test_rent_said_is_the_preference(text: str) -> None:
    assert understand(text).updates.get("preference") == "rent", text


# ---------------------------------------------------------------- 5. a family without a version is its latest

@pytest.mark.parametrize("name", ["mistral 7b", "Mistral-7B", "mistral7b", "mistral 7b instruct", "Mistral 7B Instruct"])
def test_mistral_7b_is_the_latest(name: str) -> None:
    m = resolve_model(name)
    assert m.id == "mistral-7b-v0.3" and m.max_context == 32768 and m.sliding_window is None


@pytest.mark.parametrize(("name", "want"), [("mistral 7b v0.1", "mistral-7b-v0.1"), ("mistralai/Mistral-7B-v0.1", "mistral-7b-v0.1"),
                                            ("mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-v0.3")])
def test_a_version_said_is_kept(name: str, want: str) -> None:
    assert resolve_model(name).id == want


def test_no_versionless_name_points_at_an_older_model() -> None:
    # the one rule, over every family: "family size" (and its chat words) names the newest such model; no id, name or
    # alias of another model may take that key
    newest = _family_index()
    clashes = [(key, m.id, newest[base]) for m in models() for key in (m.id, m.name, *m.aliases)
               for base in newest for suffix in FAMILY_SUFFIXES
               if normalise(key) == base + suffix and newest[base] != m.id]
    assert clashes == []


@pytest.mark.parametrize("text", ["40 nurses using mistral 7b, 16k context", "用 mistral 7b 给 40 个护士用，16k 上下文"])
def test_mistral_7b_in_a_conversation_is_v0_3(text: str) -> None:
    assert understand(text).updates["model"] == "mistral-7b-v0.3"


# ---------------------------------------------------------------- 6. the quality of weight formats

QUALITY = {
    "en": ["whats the difference between fp8 and int4 awq for quality", "fp8 vs awq quality-wise?",
           "will eval scores differ between fp8 and awq", "fp8 or awq: which is better for quality?"],
    "zh": ["fp8 和 awq 在质量上有什么区别", "FP8 和 int4 AWQ 质量差别大吗", "fp8 跟 awq 质量上差距大吗"],
}
NOTES = {"en": ("near-lossless", "a small loss"), "zh": ("几乎无损", "略有损失")}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in QUALITY.items() for t in v])
def test_a_quality_question_gets_each_formats_quality(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    fp8, awq = NOTES[lang]
    assert f"**FP8**{':' if lang == 'en' else '：'} {fp8}".replace("： ", "：") in reply.content, reply.content
    assert f"**AWQ INT4**{':' if lang == 'en' else '：'} {awq}".replace("： ", "：") in reply.content, reply.content
    assert payload(reply)["results"]["quality"] == {"fp8": "near_lossless", "awq": "small_loss"}


def test_every_format_has_its_quality_and_it_falls_with_the_bits() -> None:
    order = ["reference", "near_lossless", "small_loss", "noticeable", "large", "severe"]
    for a, b in itertools.combinations(["bf16", "fp8", "q8_0", "awq", "q4_k_m", "q3_k_m", "q2_k", "iq1_s"], 2):
        pa, pb = find_precision(a), find_precision(b)
        assert pa.quality and pb.quality
        if pa.bits_per_weight > pb.bits_per_weight:
            assert order.index(pa.quality) <= order.index(pb.quality), (a, b)


# ---------------------------------------------------------------- 7. a card the user cannot get

UNAVAILABLE = [
    ("can't get b200, serve llama 3.1 70b for 100 users", "b200"),
    ("we cannot get the B200. serve llama 3.1 70b, 100 users", "b200"),
    ("no b200 available. serve deepseek v3 to 50 users", "b200"),
    ("h100s are out of stock, serve llama 3.1 70b to 100 users", "h100-sxm"),
    ("b200 拿不到，部署 llama 3.1 70b，100 个并发", "b200"),
    ("拿不到b200，部署 llama 3.1 70b，100 个并发", "b200"),
    ("我们买不到 H100，部署 qwen2.5 72b，50 个并发", "h100-sxm"),
    ("B200 买不到，部署 qwen2.5 72b，50 个并发", "b200"),
]


@pytest.mark.parametrize(("text", "card"), UNAVAILABLE)
def test_a_card_you_cannot_get_is_excluded(text: str, card: str) -> None:
    u = understand(text)
    assert card in (u.updates.get("exclude") or []), (text, u.updates)


def test_a_card_you_have_is_not_excluded() -> None:
    assert "exclude" not in understand("we have a b200, serve llama 3.1 70b for 100 users").updates


# ---------------------------------------------------------------- 8. cost per million tokens

PER_TOKEN_ASKED = {"en": ["cost per million tokens?", "what's the cost per million tokens", "cost per 1M tokens?"],
                   "zh": ["每百万token成本是多少", "每百万token成本", "每百万 token 的成本多少"]}
PER_TOKEN = [t for v in PER_TOKEN_ASKED.values() for t in v]


@pytest.mark.parametrize("text", PER_TOKEN)
def test_a_price_per_million_tokens_is_no_token_amount(text: str) -> None:
    u = understand(text)
    assert u.ask.get("per_token") is True
    assert not {"train_tokens", "prompt_tokens", "output_tokens", "batch_input_tokens"} & set(u.updates), u.updates


@pytest.mark.parametrize(("plan", "lang"), [(["serve llama 3.1 8b for 50 users on l40s", "around the clock"], "en"),
                                            (["部署 qwen2.5 14b，并发 30", "全天候"], "zh")])
@pytest.mark.parametrize("ask", [0, 1, 2])
def test_cost_per_million_tokens_after_a_serving_plan(plan: list[str], lang: str, ask: int) -> None:
    text = PER_TOKEN_ASKED[lang][ask]
    reply = run_conversation([*plan, text])[-1]
    assert reply.content.startswith("**Cost per million tokens**" if lang == "en" else "**每百万 token 成本**"), reply.content[:200]
    profile = payload(reply)["profile"]
    assert profile.get("phase") == "serve" and not profile.get("train_tokens")
