"""Nothing English leaks into a Chinese reply (issue 21, item 3): a generated set of Chinese conversations
(every phase, dense / MoE / MLA / sliding-window / vision models, consumer, datacenter, domestic and Apple
cards, owned or not, one server or several) with the follow-ups people type ("为什么", "展示计算过程", "租还是买",
"换成int4呢", "用vllm还是sglang"), run through the whole graph. Every reply is searched for a run of four or
more English words that are not a name from the catalogs (cards, models, engines, frameworks, providers), a
code span, a formula variable, a unit or an acronym."""

from __future__ import annotations

import itertools
import re
from functools import cache

import pytest

from gpu_advisor.assistant.catalog import localise
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.knowledge.loader import (
    engines,
    frameworks,
    gpus,
    llamacpp_efficiencies,
    models,
    precisions,
    residuals,
)
from gpu_advisor.tools.inference import ENGINE_VERSION_WORDS
from tests.conversation import run_conversation

WHY, MATH, RENT, INT4, ENGINE = "为什么", "展示计算过程", "租还是买", "换成int4呢", "用vllm还是sglang"

# (first message, follow-ups): built from phases x models x cards below
SERVE = [
    ("部署qwen2.5-72b给50个人用，工作时间，32k上下文", [WHY, MATH, RENT]),
    ("在我的一张4090上用llama.cpp跑qwen2.5-32b，32k上下文，就我一个人用", [MATH, INT4]),
    ("我们有3台8卡A800服务器，部署DeepSeek-V3给200个人用，全天候，可用性99.9%", [MATH, WHY]),
    ("我们有2台8卡A800，部署DeepSeek-V3给50个人用", [MATH, ENGINE]),
    ("我有两张3090，部署gemma-3-27b给30个人用，工作时间", [MATH, INT4]),
    ("H20部署gpt-oss-120b给100个人用，全天候", [MATH, ENGINE, RENT]),
    ("部署qwen2.5-vl-7b做图片问答，大概10个用户同时用，工作时间使用", [MATH]),
    ("国产化要求，部署qwen2.5 72b给50个用户用，全天候", [MATH, WHY]),
    ("我们有四台 Atlas 800I A2，部署DeepSeek-V3给100个人用", [MATH]),
    ("用910C部署deepseek-r1给30个人用，全天候", [MATH]),
    ("我有一台M4 Max 128GB的Mac，想跑llama 3.3 70b的int4版本，只有我自己用", [MATH, WHY]),
    ("部署mixtral-8x7b给40个人用，H100，工作时间", [RENT, MATH]),
    ("我用一张4090跑qwen3-30b-a3b给自己聊天", [MATH, ENGINE]),
    ("我们有一台8卡A800，部署llama 3.1 8b给500人用，全天候", [ENGINE, MATH]),
    ("我们有4台8卡H100服务器（32张卡），部署DeepSeek-V3给400个并发用户，首token要在2秒内", [MATH]),
    ("部署gemma-3-12b给20个人用，L20，全天候", [MATH]),
    ("我们机房有24张3090，分在3台服务器里，想给60个人部署Qwen2.5-72B", [MATH]),
    ("部署qwen3-next-80b-a3b给10个人用，工作时间", [MATH]),
    ("部署gpt-oss-20b给5个人用，一张5090，全天候", [MATH, INT4]),
    ("我们有4张4090，部署qwen2.5-72b给20个人用，工作时间", [MATH, WHY]),
    ("用MI300X部署llama 3.1 70b给50个人用，全天候", [MATH]),
    ("部署qwen2.5-7b给10个人用，上下文200k，工作时间", [MATH]),
    ("每月预算两万元，给一百个用户全天候部署qwen2.5-72b", [MATH]),
    ("部署llama 3.3 70b给10个用户，工作时间使用，提示大约4000个token，首字延迟必须低于500毫秒", [MATH, ENGINE]),
    ("我有一台M2 Ultra 192GB的Mac，想跑deepseek-v3，就我自己用", [MATH]),
]
FINE_TUNE = [
    ("在我的一张H200上全参微调qwen2.5-14b", [MATH, WHY]),
    ("用lora微调qwen2.5-7b，5万条数据，每条2k token，我有2张4090", [WHY, MATH]),
    ("用qlora微调llama 3.1 70b，一张4090", [MATH]),
    ("我们有两台8卡A800，以太网连接，想全参微调qwen2.5 72b，数据三万条", [MATH, WHY]),
    ("机房里放着4张L20，想LoRA一下glm-4-9b", [MATH]),
    ("用910B全参微调llama 3.1 8b，数据1亿token", [MATH]),
    ("我有一台M3 Max 128GB的Mac，用qlora微调qwen2.5-14b", [MATH]),
    ("我们只能用H20，想全量微调qwen2.5 72b，数据大概2亿token", [MATH, RENT]),
    ("用lora微调deepseek-v2-lite，一张A800，数据5万条", [MATH]),
    ("我有4张3090，想全参微调qwen2.5-7b，数据1亿token，3天内完成", [MATH, WHY]),
]
OTHER = [
    ("我们想用QLoRA微调qwen2.5-32b，然后给十五个同事用，工作时间", [MATH, RENT]),
    ("先用lora微调gemma-3-12b再部署给10个人用，我有两张3090，工作时间", [MATH]),
    ("离线批处理：用qwen2.5-7b给500万条评论打标签，每条500 token输入，20 token输出，用8张H800，多久跑完？", [MATH]),
    ("用llama 3.1 70b把200万篇文档（每篇3000 token）总结成300 token，24小时内完成", [MATH]),
    ("我们想从零预训练一个3B模型，数据有500亿token，需要多少张卡、多长时间？", [MATH]),
    ("租还是买？部署qwen2.5-32b给20个人用，全天候，预算一次性30w", [MATH]),
    ("在上海，部署qwen2.5 72b给100个用户用，不要AMD，不要消费级显卡，全天候", ["对比 L40S 和 A100", "改成 32k 上下文"]),
    ("部署qwen2.5-14b", ["十五个人", "工作时间", WHY]),
    ("我想买显卡，不想租。团队10个人在工作时间用qwen2.5-14b聊天", [RENT, MATH]),
    ("我有两万块预算，想买显卡在家里自己跑qwen2.5-32b的4bit量化版", [MATH]),
    ("部署kimi-k2给50个人用，全天候", [MATH, ENGINE]),
    ("部署qwen2.5-7b给10个人用，利用率150%", ["全天候"]),
]
CONVERSATIONS = [[first, *after] for first, after in itertools.chain(SERVE, FINE_TUNE, OTHER)]

CJK_OR_FULLWIDTH = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef\n|]+")
CODE = re.compile(r"`[^`]*`")
VARIABLE = re.compile(r"\b\w+ = ")  # "输入：sequences = 200, tokens = 8,192"
TOKEN = re.compile(r"[A-Za-z0-9_][\w.+/'’-]*")
# units, symbols and words that are names of things rather than English prose
KEPT = {"x", "token", "tokens", "bit", "bits", "bytes", "ms", "us", "s", "h", "tokens/s", "token/s", "max", "min",
        "logits", "graph", "graphs", "profile", "rank", "flash", "attention", "all-reduce", "k-quant", "top-k/top-p",
        "macOS", "iOS", "mem_fraction_static", "sudo", "sysctl", "kv", "v1", "e.g"}


@cache
def names() -> re.Pattern[str]:
    """Every catalog name (cards, models, engines, frameworks, providers), longest first, as whole words."""
    words: set[str] = set()
    for g in gpus():
        words |= {g.name, g.id}
    for m in models():
        words |= {m.name, m.id}
    for e in engines():
        words |= {e.name, e.id, *e.aliases, *(s.shown_as for s in e.runs_on if s.shown_as)}
    for f in frameworks():
        words |= {f.name, f.id}
    for c in clouds().values():
        words.add(c.name)
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if w)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def _is_prose(word: str) -> bool:
    """An English word, not a symbol, unit, setting, acronym or mixed-case name (NVLink, PCIe, InfiniBand)."""
    word = word.strip(".,;:'’-/")
    if not word or word in KEPT or word.lower() in KEPT or re.search(r"[\d_]", word):
        return False
    return not re.search(r"[A-Z]", word[1:])


def english_runs(text: str) -> list[str]:
    """Stretches of a Chinese reply holding four or more English words of prose."""
    found = []
    for stretch in CJK_OR_FULLWIDTH.split(CODE.sub(" ", text)):
        rest = VARIABLE.sub(" ", names().sub(" ", stretch))
        if sum(_is_prose(w) for w in TOKEN.findall(rest)) >= 4:
            found.append(stretch.strip())
    return found


def leaks() -> dict[str, list[str]]:
    """Each leaking stretch with the turns that produced it (first message / follow-up)."""
    out: dict[str, list[str]] = {}
    for turns in CONVERSATIONS:
        for said, reply in zip(turns, run_conversation(turns), strict=True):
            for run in english_runs(str(reply.content)):
                out.setdefault(run, []).append(f"{turns[0][:30]} / {said}")
    return out


def test_the_detector_finds_a_tool_sentence_and_lets_names_and_formulas_be():
    assert english_runs("_假设：_ NVIDIA A800 SXM4 80GB has no FP8 tensor cores: FP8 weights are computed in 16-bit")
    assert english_runs("- weights split evenly over 8 tensor-parallel x 3 pipeline GPUs")
    assert not english_runs("推理引擎 vLLM（按 vllm 估算；这张卡也能跑：SGLang, TensorRT-LLM, TGI (Text Generation "
                            "Inference), LMDeploy, llama.cpp）；KV 缓存格式 BF16")
    assert not english_runs("输入：sequences = 200, tokens = 8,192, layers = 61, kv_heads = 128, head_dim = 192")
    assert not english_runs("启动命令：`vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --max-model-len`")
    assert not english_runs("| 24 × NVIDIA A800 SXM4 80GB (TP8×PP3) | 是 | 16% | 11 | 400 ms |")


# Sentences the tools build around a catalog entry, crossed with every entry: the entry's own words
# (a precision's description, where a fit came from, a benchmark category) must come out in Chinese too.
CARRIED = [
    *(f"llama.cpp cuda backend, k-quant kernels: efficiencies from {r.id} (fitted on {r.fitted_on})"
      for r in llamacpp_efficiencies()),
    *(f"engine vLLM (also runs here: SGLang); KV cache in {p.name}" for p in precisions()),
    *(f"accounting of {words}" for words in ENGINE_VERSION_WORDS.values()),
    *(f"range: -30 % to +30 % of the estimate (bench category {c} has no measured rows)" for c in residuals()),
]


@pytest.mark.parametrize("sentence", CARRIED)
def test_a_catalog_entry_inside_a_tool_sentence_is_rewritten_too(sentence: str):
    chinese = localise("zh", sentence)
    assert chinese != sentence and not english_runs(chinese)
    assert not re.search(r"\b(of|on|the|and|rows|for|per|at)\b", chinese), chinese


def test_no_english_sentence_in_any_chinese_reply():
    found = leaks()
    assert not found, "\n".join(f"{run}\n    <- {where[0]} (+{len(where) - 1})" for run, where in sorted(found.items()))


@pytest.mark.parametrize("cloud", sorted(clouds()))
def test_a_clouds_card_list_reads_in_chinese(cloud):
    """'只在AutoDL能租到的卡里选（per-card rentals by GPU model …）' (review T2 #5): the list said in Chinese."""
    from gpu_advisor.assistant.catalog import say

    record = clouds()[cloud]
    text = say("zh", "note.provider_cards", name=record.name_zh, instances=record.instances_zh or record.instances)
    assert not english_runs(text), text
