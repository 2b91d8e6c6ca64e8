"""Review round O, class 2: nothing invented from stray words. A precision name never yields a number ('bf16 对吧' is
not 16 preference pairs; 'DeepSeek-V3 对外服务' not 3); preference tuning only from its own words, never '偏好' or
'preference' alone; numerals inside idioms ('二选一', '不二之选', '一模一样') are no count or price; a card weighed for
the plan ('thinking one H100', '考虑两张A100') is a candidate, not owned; doubt about the plan's memory ('7B 不是才
14G 吗') is one why; and no reply shows internal identifiers (source ids, tool input names) in Chinese."""
from __future__ import annotations

import re

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand

# ------------------------------------------------------------------ precision names are no number

PRECISIONS = ["bf16", "BF16", "fp16", "FP16", "fp8", "int4", "INT8", "w8a8", "W4A16", "q4_k_m", "Q8_0", "nf4"]
TAILS_ZH = ["对吧", " 对吧", "对不对", "对吗", "条够吗", " 个", "对外服务", "人用"]
TAILS_EN = [" right?", " pairs?", ", ok?", " samples?"]
NUMBER_SLOTS = {"train_tokens", "train_examples", "users", "epochs", "objective", "budget_usd", "context"}


@pytest.mark.parametrize("fmt", PRECISIONS)
@pytest.mark.parametrize("tail", TAILS_ZH + TAILS_EN)
def test_precision_name_yields_no_number(fmt: str, tail: str) -> None:
    u = understand(f"V100 不支持 {fmt}{tail}" if tail in TAILS_ZH else f"the V100 has no {fmt}{tail}")
    assert not set(u.updates) & NUMBER_SLOTS, u.updates
    assert not u.quotes and not u.prices


@pytest.mark.parametrize("model", ["DeepSeek-V3", "deepseek v3", "Qwen3", "GLM-4", "Llama3"])
@pytest.mark.parametrize("tail", ["对外服务", " 对外提供服务", "对内使用", "对比一下"])
def test_digits_ending_a_name_are_no_pairs(model: str, tail: str) -> None:
    u = understand(f"要部署 {model}{tail}")
    assert u.updates.get("objective") != "dpo", u.updates
    assert "train_examples" not in u.updates


@pytest.mark.parametrize("said, n", [("5000对偏好数据", 5000), ("2000 对 偏好数据做 DPO", 2000), ("300对样本做偏好微调", 300)])
def test_counted_pairs_still_read(said: str, n: int) -> None:
    u = understand(f"用 Qwen2.5-7B，{said}")
    assert u.updates.get("objective") == "dpo"
    assert u.updates.get("train_examples") == n


def test_v100_bf16_question_answers_fp16_amp() -> None:
    for turns, words in [
        (["8 张 V100 32G，想全量微调 GLM-4-9B，数据 10 万条", "V100 不支持 bf16 对吧，那怎么办"], ["不支持 BF16", "FP16 混合精度", "损失缩放"]),
        (["full fine-tune GLM-4-9B on my 8x V100 32GB, 100k samples", "V100 doesn't support bf16 right? what do I do"],
         ["no BF16", "FP16 mixed precision", "loss scaling"]),
    ]:
        reply = run_conversation(turns)[-1].content
        for w in words:
            assert w in reply, reply
        assert "DPO" not in reply and "0.00" not in reply


# ------------------------------------------------------------------ preference tuning only from its own words

@pytest.mark.parametrize("msg", [
    "创业公司，下个月上线，要部署 DeepSeek-V3 对外服务，预算每月 5 万人民币，租卡的话 H20 还是 H800 好",
    "我偏好 H20", "我比较偏好租卡，部署 Qwen2.5-72B", "个人偏好 A100 还是 H100 好", "H20 还是 H800 好",
    "my preference is renting, serving Llama 3 70B", "no strong preference, which is better for qwen2.5-32b",
])
def test_no_preference_tuning_from_liking(msg: str) -> None:
    assert understand(msg).updates.get("objective") != "dpo"


@pytest.mark.parametrize("msg", [
    "做偏好微调 Qwen2.5-7B", "偏好对齐 Llama 3 8B", "DPO 训练 Qwen2.5-7B", "用 RLHF 对齐 Qwen2.5-7B",
    "preference tuning Llama 3 8B", "DPO on Qwen2.5-7B", "偏好数据 2 万条，微调 Qwen2.5-7B",
])
def test_preference_tuning_words_still_read(msg: str) -> None:
    assert understand(msg).updates.get("objective") == "dpo"


# ------------------------------------------------------------------ numerals in idioms

IDIOMS = ["二选一", "2选1", "两者选其一", "三选一", "不二之选", "一模一样", "一步到位", "三思", "一口气", "一方面",
          "千万别乱买", "一边训练一边推理", "一般", "一些", "一下", "一直在用", "万一", "一起"]


@pytest.mark.parametrize("idiom", IDIOMS)
@pytest.mark.parametrize("frame", ["想用 vLLM 部署 Qwen2.5-72B，H100 和 A800 {i}，哪个性价比高",
                                   "A800 {i}，部署 Qwen2.5-72B", "{i} H20 还是 L20 部署 Qwen2.5-32B"])
def test_idiom_numerals_are_no_count_or_price(idiom: str, frame: str) -> None:
    u = understand(frame.format(i=idiom))
    assert not u.quotes and not u.prices, (u.quotes, u.prices)
    assert not any(re.match(r"\d+x ", c) for c in u.updates.get("only") or []), u.updates
    assert not u.updates.get("owned")
    assert not set(u.updates) & {"users", "train_tokens", "train_examples", "epochs", "budget_usd"}, u.updates


def test_two_choose_one_quotes_nothing() -> None:
    reply = run_conversation(["想用 vLLM 部署 Qwen2.5-72B-Instruct，H100 和 A800 二选一，哪个性价比高，延迟要求首 token 500ms 以内"])[0].content
    assert "报价" not in reply.split("| 方案")[0] and "¥2.00/卡时" not in reply


# ------------------------------------------------------------------ a card weighed is a candidate, not owned

@pytest.mark.parametrize("msg, card", [
    ("deploying gpt-oss-120b for our team, thinking one H100. enough?", "1x h100-sxm"),
    ("deploying gpt-oss-120b for our team, thinking of one H100", "1x h100-sxm"),
    ("serving llama 3 70b for our users, considering 2 A100s", "2x a100-80gb-sxm"),
    ("we're considering 2 A100s for serving Llama 3 70B", "2x a100-80gb-sxm"),
    ("we are thinking about renting 4 H100s to fine-tune llama 3 70b", "4x h100-sxm"),
    ("planning on an L40S to serve Qwen2.5-7B for our team", "l40s"),
    ("打算用一张H100部署 gpt-oss-120b", "1x h100-sxm"),
    ("我们打算用一张 H100 给团队部署 gpt-oss-120b", "1x h100-sxm"),
    ("考虑两张A100部署 Llama 3 70B", "2x a100-80gb-sxm"),
    ("my preference is the H100 for serving llama 3 70b", "h100-sxm"),
    ("our pick is 2 A100s to serve qwen2.5-72b", "2x a100-80gb-sxm"),
    ("我们在考虑 2 张 A100 部署 Llama 3 70B", "2x a100-80gb-sxm"),
])
def test_candidate_card_not_owned(msg: str, card: str) -> None:
    u = understand(msg)
    assert not u.updates.get("owned"), u.updates
    assert u.updates.get("only") == [card], u.updates


@pytest.mark.parametrize("msg", ["we have 2 A100s, thinking of serving llama 3 70b", "我们有两张A100，考虑部署 Llama 3 70B"])
def test_owned_then_considering_stays_owned(msg: str) -> None:
    assert understand(msg).updates.get("owned") == ["2x a100-80gb-sxm"]


def test_candidate_then_cheaper_cards_compare_costs() -> None:
    replies = run_conversation(["deploying gpt-oss-120b for our team, thinking one H100. enough?",
                                "why not 2x L40S instead, theyre cheaper", "5-20", "working hours"])
    first = replies[0].content
    # the comparison comes once the load is known ('5-20'); a later 'working hours' may change nothing
    last = next(r.content for r in reversed(replies) if "an hour against" in r.content)
    assert "you own" not in first and "your 1" not in last.lower() and "owned" not in last
    assert "2 × NVIDIA L40S 48GB" in last


# ------------------------------------------------------------------ memory doubt, and nothing internal in Chinese

IDENT = re.compile(r"\b(?=[A-Z0-9_]{6,}\b)[A-Z0-9]*_[A-Z0-9_]*\b")  # QWEN1_FT_PROFILE, not NVIDIA
ASSIGN = re.compile(r"\b[a-z][a-z0-9_]+ = ")


def _clean_zh(text: str) -> None:
    assert not IDENT.search(text), text
    assert not ASSIGN.search(text), text
    assert "ampere-hbm" not in text and "我理解到" not in text


@pytest.mark.parametrize("doubt", ["为啥不能，7B 不是才 14G 吗", "为什么不行？7B 不是只要 15G 吗", "不是才 14GB 吗"])
def test_memory_doubt_zh(doubt: str) -> None:
    first, reply = (r.content for r in run_conversation(
        ["单卡 A800 80G 能全参微调 Qwen2.5-7B 吗？用 deepspeed zero3 + offload 行不行", doubt]))
    _clean_zh(first)
    _clean_zh(reply)
    assert "**能**：" not in first and "能，但要改一处" in first and "ZeRO-3" in first
    assert "权重 15.2 GB" in reply and "混合精度" in reply and "每个参数要 18 字节" in reply
    assert "1." not in reply.split("\n")[0]


@pytest.mark.parametrize("doubt", ["why not? isn't a 7B model only 14 GB", "isn't 7B only 14GB?", "why can't it fit?"])
def test_memory_doubt_en(doubt: str) -> None:
    u = understand(doubt)
    assert "why" in u.intents and not u.updates
    reply = run_conversation(["can I fully fine-tune Qwen2.5-7B on one A800 80GB", doubt])[-1].content
    assert "of weights" in reply and "bytes a parameter" in reply and "inputs:" not in reply


def test_chinese_math_shows_no_identifiers() -> None:
    reply = run_conversation(["单卡 A800 80G 能全参微调 Qwen2.5-7B 吗", "展示计算过程"])[-1].content
    _clean_zh(reply)
    assert "QWEN1_FT_PROFILE" not in reply and "输入：" not in reply
