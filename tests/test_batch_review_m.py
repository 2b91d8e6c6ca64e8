"""Review M (E03, C06): batch jobs sized like an expert.

1. Each model copy takes the tensor-parallel size that does the job in the fewest GPU-hours (70B in fp8 on one
   80 GB card leaves KV room for two sequences: 23 single-card copies took ~1,800 GPU-hours; two cards per copy
   do it in ~125), and the reply says the layout.
2. "can we just do it on h100s?" after a batch plan re-plans on the H100.
3. Lengths said in words in a later turn ("标题 30 个字左右", "十几个 token") change the job: characters read as
   tokens plus an instruction prompt, said.
4. "租 4090 还是 A100 划算" for a batch job: the plan on the cheaper of the two, both costs and the verdict said.
Generated over phrasings and both languages."""
from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Workload, batch_copy_size, evaluate
from tests.conversation import payload, run_conversation

E03 = "need to run 2M prompts thru llama 3.3 70b by friday (4 days), avg 800 tokens in 200 out. cheapest way to rent gpus for this?"
E03_ZH = "用 llama 3.3 70b 跑 200 万条提示词，周五前（4 天）跑完，每条输入 800 token 输出 200，租卡最便宜的方案？"


def _best(reply) -> dict:
    return payload(reply)["results"]["recommend"]["best"]


def _head(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


def _job(**kw) -> Workload:
    base = {"model": "llama-3.3-70b", "phase": "batch", "batch_items": 2_000_000, "batch_input_tokens": 800,
            "batch_output_tokens": 200, "deadline_hours": 96.0, "preference": "rent"}
    return Workload(**(base | kw))


@pytest.mark.parametrize("tokens_in,tokens_out", [(800, 200), (1500, 300), (400, 100)])
def test_copy_size_is_the_one_with_fewest_gpu_hours_not_the_smallest(tokens_in: int, tokens_out: int) -> None:
    w = _job(batch_input_tokens=tokens_in, batch_output_tokens=tokens_out)
    h100 = find_gpu("h100-sxm")
    t = batch_copy_size(w, h100, "fp8")
    assert t is not None and t >= 2  # one 80 GB card holds 70B fp8 with almost no KV cache
    o = evaluate(w.model_copy(update={"candidates": ["h100-sxm"]}), h100, t)
    assert o is not None and o.ok and o.job_hours is not None
    gpu_hours = o.gpus * o.job_hours
    one = evaluate(w.model_copy(update={"deadline_hours": None}), h100, 1)
    assert one is None  # the single-card copy is no option when a bigger copy does more per card
    # 2.8e20 FLOP at 800/200: between a few dozen and a few hundred H100-hours, never the ~1,800 of 23 x TP1
    total_tokens = 2_000_000 * (tokens_in + tokens_out)
    assert 30 * total_tokens / 2e9 < gpu_hours < 400 * total_tokens / 2e9, gpu_hours


def test_owned_cards_take_the_copy_size_that_does_the_most() -> None:
    w = _job(owned=["8x h100-sxm"], deadline_hours=None)
    o = evaluate(w, find_gpu("h100-sxm"), 8, owned=True)
    assert o is not None and o.ok and o.job_hours is not None
    per_copy = o.gpus // o.replicas
    assert per_copy >= 2 and o.gpus == 8
    assert o.job_hours < 40  # one 8 x H100 node: well under two days, not 1 copy per card at 2 sequences each


@pytest.mark.parametrize("first", [E03, E03_ZH])
@pytest.mark.parametrize("second", [
    "can we just do it on h100s? we have credits with lambda",
    "could we just run it on H100s instead",
    "just do it on h100s",
    "just use h100s",
])
def test_just_on_h100s_replans_on_h100(first: str, second: str) -> None:
    replies = run_conversation([first, second])
    head = _head(replies[-1].content)
    assert "H100" in head and "MI300X" not in head, head
    best = _best(replies[-1])
    assert best["gpu"] == "h100-sxm"
    assert best["gpus"] * best["job_hours"] < 400  # GPU-hours: ~125, not ~1,800
    assert best["gpus"] // best["replicas"] >= 2


@pytest.mark.parametrize("first", [E03, E03_ZH])
def test_batch_reply_says_the_copy_layout(first: str) -> None:
    reply = run_conversation([first, "just use h100s"])[-1]
    best = _best(reply)
    per = best["gpus"] // best["replicas"]
    text = reply.content
    assert f"tensor parallel {per}" in text or f"张量并行 {per}" in text, text


LENGTHS_ZH = [
    ("标题一般就 30 个字左右，输出就是一个类目名，十几个 token", 21, 15),
    ("标题大概 30 个字，输出十几个 token", 21, 15),
    ("每个标题 42 个字左右，输出就是一个类目名，十几个 token", 30, 15),
]
LENGTHS_EN = [
    ("titles are about 30 words, the output is just a category name, about 15 tokens", 40, 15),
    ("each title is around 60 words; output is just a label, about 12 tokens", 80, 12),
]


@pytest.mark.parametrize("second,text_tokens,out", LENGTHS_ZH)
def test_lengths_in_characters_change_the_batch_chinese(second: str, text_tokens: int, out: int) -> None:
    first = "要用 Qwen2.5-7B 给 500 万条商品标题打标签，周末两天要跑完，租 4090 还是 A100 划算"
    replies = run_conversation([first, second])
    w = payload(replies[-1])["results"]["recommend"]["workload"]
    assert w["batch_input_tokens"] == text_tokens + 100  # the title's tokens plus the instruction prompt
    assert w["batch_output_tokens"] == out
    assert "100 token 的指令提示词" in replies[-1].content
    assert f"每条输入按 {text_tokens + 100} token 计算" in replies[-1].content


@pytest.mark.parametrize("second,text_tokens,out", LENGTHS_EN)
def test_lengths_in_words_change_the_batch_english(second: str, text_tokens: int, out: int) -> None:
    first = "label 5 million product titles with qwen2.5 7b over the weekend (48 hours), rent 4090 or a100, which is cheaper?"
    replies = run_conversation([first, second])
    w = payload(replies[-1])["results"]["recommend"]["workload"]
    assert w["batch_input_tokens"] == text_tokens + 100
    assert w["batch_output_tokens"] == out
    assert "100 tokens of instruction prompt" in replies[-1].content


CHOICE = [
    ("要用 Qwen2.5-7B 给 500 万条商品标题打标签，周末两天要跑完，租 4090 还是 A100 划算", "zh"),
    ("用 qwen2.5 7b 给 500 万条标题打标签，48 小时内跑完，租 A100 还是 4090 更划算？", "zh"),
    ("label 5 million product titles with qwen2.5 7b over the weekend (48 hours), rent 4090 or a100, which is cheaper?", "en"),
    ("qwen2.5-7b batch job: 5M product titles to tag within 48 hours. a100 or 4090 to rent, which is cheaper?", "en"),
]


@pytest.mark.parametrize("message,lang", CHOICE)
def test_choice_of_two_cards_is_answered_with_both_costs_and_a_verdict(message: str, lang: str) -> None:
    reply = run_conversation([message])[-1]
    head = _head(reply.content)
    best = _best(reply)
    assert best["gpu"] in ("rtx-4090", "a100-80gb-sxm"), head  # one of the two asked, not a 5090 or an H800
    options = payload(reply)["results"]["options"]
    rows = {o["gpu"]: o for o in [best, *options] if o["gpu"] in ("rtx-4090", "a100-80gb-sxm")}
    assert set(rows) == {"rtx-4090", "a100-80gb-sxm"}
    cheaper = min(rows.values(), key=lambda o: o["job_usd"])
    assert best["gpu"] == cheaper["gpu"]
    name = find_gpu(cheaper["gpu"]).name
    verdict = f"这个任务用 {name} 更划算" if lang == "zh" else f"the {name} does this job for less"
    assert verdict in reply.content, reply.content
    if lang == "zh":
        assert "only these cards" not in reply.content and "按你的要求只考虑" not in reply.content
    else:
        assert "only these cards" not in reply.content


def test_choice_is_weighed_again_after_the_lengths_change() -> None:
    first = "要用 Qwen2.5-7B 给 500 万条商品标题打标签，周末两天要跑完，租 4090 还是 A100 划算"
    replies = run_conversation([first, "标题一般就 30 个字左右，输出就是一个类目名，十几个 token"])
    best = _best(replies[-1])
    assert best["gpu"] in ("rtx-4090", "a100-80gb-sxm")
    assert "还是" in replies[-1].content and "更划算" in replies[-1].content
