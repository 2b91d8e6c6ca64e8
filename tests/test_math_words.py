"""'Show the math' in a Chinese conversation: every term's name and formula in Chinese words (the phrase
table assistant/catalog/formula.zh.yaml); symbols, engine settings and numbers stay as they are."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.catalog import formula_words
from gpu_advisor.assistant.writers import write_math
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import run_conversation
from tests.test_no_english_in_chinese import english_runs

# what may stay in Latin letters: symbols and names, not words
SYMBOLS = {"logits", "vLLM", "SGLang", "PyTorch", "cuBLAS", "graph", "profile", "rank", "all-reduce", "flashinfer",
           "top-k/top-p", "max", "macOS", "x", "token", "tokens", "f32", "torch.distributed", "llama.cpp", "bit",
           "adamw", "adamw-8bit", "paged-adamw-8bit", "GiB", "MiB", "GB", "K", "V"}
TERM = re.compile(r"- \*\*(.*?)\*\* = [^：]*：(.*)")


def _words_left(part: str) -> list[str]:
    part = re.sub(r"\b(NVIDIA|AMD|Apple|Intel|Huawei)\b.*?(可用显存|统一内存)", "", part)  # a card's own name
    part = re.sub(r"'[^']*'", "", part)  # a log line quoted as the engine prints it
    return [w for w in re.findall(r"[A-Za-z][A-Za-z0-9_.\-/]*", part)
            if not ("_" in w or w in SYMBOLS or (re.fullmatch(r"[A-Z0-9][A-Za-z0-9\-+]*", w)
                                                 and not re.fullmatch(r"[A-Z][a-z]+", w)))]


def _workloads():
    models = ["llama-3.1-8b", "qwen2.5-32b", "deepseek-v3", "gemma-3-27b", "qwen3-30b-a3b", "qwen3-next-80b-a3b"]
    for m, engine, owned in itertools.product(models, (None, "vllm", "llama.cpp", "sglang", "transformers"),
                                              ([], ["1x rtx-4090"], ["1x apple-m4-max-128gb"])):
        yield Workload(phase="serve", model=m, engine=engine, owned=owned, users=1 if owned else 20, context=32768)
    for m, method, fw in itertools.product(models[:3], ("full", "lora", "qlora"),
                                           (None, "llama-factory", "unsloth", "torchtune", "deepspeed")):
        yield Workload(phase="fine-tune", model=m, method=method, framework=fw)
    yield Workload(phase="production", model="llama-3.1-8b", users=50, preference="buy")
    yield Workload(phase="train-and-serve", model="qwen2.5-7b", owned=["2x rtx-3090"], utilisation=0.8)


def _math_views(lang: str) -> list[str]:
    views = []
    for w in _workloads():
        try:
            rec = recommend(w)
        except (ToolError, LookupError, ValueError):
            continue
        views.append(write_math({"recommend": rec.model_dump(mode="json")}, lang)[0])
    return views


def test_no_english_word_is_left_in_a_chinese_math_view():
    views = _math_views("zh")
    assert len(views) >= 100
    left = {w for text in views for line in text.splitlines() for m in [TERM.match(line)] if m
            for part in m.groups() for w in _words_left(part)}
    assert left == set()


def test_the_english_math_view_keeps_the_tools_own_formulas():
    assert formula_words("en", "sequences x tokens x layers x 2 (K and V)") == "sequences x tokens x layers x 2 (K and V)"


@pytest.mark.parametrize("formula, chinese", [
    ("sequences x tokens x layers x 2 (K and V) x KV heads x head size x bytes; 5 sliding-window layers keep at "
     "most 1,024 tokens",
     "序列数 x token 数 x 层数 x 2 (K 和 V) x KV 头数 x 头维度 x 每个值的字节数; 5 个滑动窗口层最多保留 1,024 token"),
    ("parameters x 4 bytes (BF16 gradients) / 8 GPUs (ZeRO-2+)", "参数量 x 4 字节 (BF16 梯度) / 8 张 GPU (ZeRO-2+)"),
    ("1 GB + 8% of the rest (caching allocator, fragmentation)", "1 GB + 8% × 其余部分 (缓存分配器, 碎片)"),
    ("max(max_num_batched_tokens x 2 bytes x (4 x hidden + 4 x MLP width), max_num_seqs x vocab x 14 bytes of "
     "sampler warm-up (flashinfer top-k/top-p path))",
     "max(max_num_batched_tokens x 2 字节 x (4 x 隐藏维度 + 4 x MLP 宽度), max_num_seqs x 词表大小 x 14 字节（采样器预热） "
     "(flashinfer 的 top-k/top-p 路径))"),
    ("Allocator peak per GPU", "每张 GPU 的分配器峰值"),
])
def test_formula_phrases_become_chinese_and_settings_and_numbers_stay(formula, chinese):
    assert formula_words("zh", formula) == chinese


@pytest.mark.parametrize("turns, says", [
    (["在我的一张4090上用llama.cpp跑qwen2.5-32b，32k上下文，就我一个人用", "展示计算过程"],
     ["- **KV 缓存** = 4.6 GB：序列数 x token 数 x 层数 x 2 (K 和 V) x KV 头数 x 头维度 x 每个值的字节数",
      "- **每个输出 token 的时间** = 31 ms：这个批大小下的一个解码步: max(访存, 计算) + 开销 + 通信"]),
    (["在我的一张H200上全参微调qwen2.5-14b", "展示计算过程"], ["**权重** = ", "：参数量 x 2 字节 (BF16 权重)"]),
])
def test_a_chinese_conversation_gets_the_math_in_chinese_words(turns, says):
    text = str(run_conversation(turns)[-1].content)
    for words in says:
        assert words in text
    assert "bytes" not in text.split("### ")[1].split("_假设")[0]


def test_the_math_views_assumptions_are_all_chinese():
    """vLLM's own internals included (its memory accounting per version, the hybrid KV cache manager's groups):
    each assumption is rewritten whole, and an English part it carries (a precision's name, where a fit came
    from) is rewritten too; setting names and quoted log lines stay as vLLM spells them."""
    assumptions = [line for text in _math_views("zh") for line in text.splitlines() if line.startswith("- _假设：_ ")]
    assert len(assumptions) > 500
    assert [line for line in assumptions
            if english_runs(line) or not re.search(r"[\u3400-\u9fff]", line[len("- _假设：_ "):])] == []
