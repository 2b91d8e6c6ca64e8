"""Every question asked gets its answer (review AA/AB, s13 r3): a question beside the sizing is answered with its
tools' figures, in English and Chinese, in either word order."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_conversation

BIGGEST = [
    ("en", "startup, budget is 25k/month for gpus. two things: 1) can we serve deepseek v3 with that at ~2 req/s, 4k "
           "token prompts, 800 token answers? 2) if not, whats the biggest model we can serve for that money at the "
           "same load"),
    ("en", "With $25k a month for GPUs, what is the largest model we could serve at 2 requests/s, 4k prompts and 800 "
           "output tokens? We'd like deepseek v3 if the budget allows."),
    ("zh", "我们是创业公司，GPU 预算每月 2.5 万美元。1）能不能用这笔钱部署 DeepSeek V3，每秒 2 个请求，输入 4k token，输出 800？"
           "2）如果不行，同样负载下这笔钱最大能跑多大的模型？"),
    ("zh", "每秒 2 个请求，输入 4000 token，输出 800 token，想部署 DeepSeek-V3，每月预算 25000 美元，够吗？不够的话这个预算最大能跑什么模型？"),
]


def _asked(reply: Any, code: str) -> dict[str, Any]:
    found = [d for d in reply.additional_kwargs["gpu_advisor"].get("asked_more") or [] if d["code"] == code]
    assert found, reply.content[:400]
    return found[0]


@pytest.mark.parametrize(("lang", "text"), BIGGEST)
def test_biggest_model_for_the_budget(lang: str, text: str) -> None:
    from gpu_advisor.knowledge import find_model

    reply = run_conversation([text])[-1]
    data = _asked(reply, "biggest_model")
    assert data["model"], reply.content[:400]
    assert find_model(data["model"]).total_params_b >= 100  # not the 16B DeepSeek-V2-Lite of the review
    assert data["usd"] <= 25_000 + 1
    assert ("最大模型" in reply.content) == (lang == "zh")


ASCEND = [
    ("zh", "银行智能客服，模型 GLM-4-9B，峰值 QPS 50，输入 800 token 输出 150，P99 首 token 要 300ms 以内。必须国产化，昇腾 310P 和 "
           "910B 哪个合适，要几张？"),
    ("zh", "必须国产化：用 910B 还是 310P？GLM-4-9B 智能客服，峰值每秒 50 个请求，输入 800 输出 150 token，首 token P99 300ms 内，各要几张"),
    ("en", "bank customer-service bot on GLM-4-9B, peak 50 QPS, 800 tokens in / 150 out, p99 TTFT under 300 ms. Must be "
           "domestic Chinese hardware: Ascend 310P or 910B, which one and how many?"),
    ("en", "Ascend 910B or Ascend 310P for GLM-4-9B at 50 requests/s peak, 800 in / 150 out, p99 first token within 300ms? "
           "Domestic chips only. How many of each?"),
]


@pytest.mark.parametrize(("lang", "text"), ASCEND)
def test_both_ascend_cards_asked_are_sized_and_one_is_picked(lang: str, text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    results = state["results"]
    rows = {o["gpu"]: o for o in results["options"]}
    assert {"ascend-310p", "ascend-910b"} <= set(rows), list(rows)
    assert results["recommend"]["best"]["gpu"] == "ascend-910b"
    assert rows["ascend-310p"]["gpus"] > rows["ascend-910b"]["gpus"]  # the 310P's slow memory needs many more
    reply = state["messages"][-1].content
    assert "310P" in reply and ("需要" in reply or "张" in reply) == (lang == "zh")


MOE_DENSE = [
    ("zh", "为啥 MoE 模型比如 Qwen3-30B-A3B 推理比 32B 稠密模型快那么多，显存却省不了多少？顺便算一下两个模型在一张 H20 上各能撑多少并发"
           "（8k 上下文，fp8）"),
    ("zh", "一张 H20 上，8k 上下文 fp8，Qwen3-30B-A3B 和 32B 稠密模型各能撑多少并发？为什么 MoE 快那么多却不省显存？"),
    ("en", "why is a MoE like qwen3-30b-a3b so much faster than a 32b dense model while saving little memory? also how "
           "many concurrent users can each handle on one H20, 8k context, fp8"),
    ("en", "On one H20 with 8k context in fp8, how many concurrent users can qwen3-30b-a3b and a dense 32B model each "
           "handle? And why is the MoE so much faster when it saves hardly any memory?"),
]


@pytest.mark.parametrize(("lang", "text"), MOE_DENSE)
def test_moe_against_dense_is_explained_and_both_counts_given(lang: str, text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    reply = state["messages"][-1]
    data = reply.additional_kwargs["gpu_advisor"]["results"]
    found = data.get("moe_dense") or {}
    assert found.get("moe") == "qwen3-30b-a3b" and found.get("dense") == "qwen3-32b", reply.content[:300]
    assert found["moe_step_bytes"] * 5 < found["dense_step_bytes"]  # decode reads only the active weights
    assert found["moe_weights_bytes"] > 0.8 * found["dense_weights_bytes"]  # memory holds them all
    moe_users = data["capacity"]["users"]
    assert found["dense_users"] > 0 and moe_users > found["dense_users"]
    assert ("稠密" in reply.content) == (lang == "zh")


FIRST_MONTH = [
    ("en", "plan: full finetune llama 3.1 8b on 3B tokens, then serve it at 10 rps with p95 ttft 800ms, prompts 2k / "
           "outputs 300. we rent everything. what does the first month cost total (training + one month of serving)?"),
    ("en", "We rent everything. Full fine-tune of llama 3.1 8b on 3B tokens, then serving it at 10 rps (2k prompts, 300 "
           "outputs, p95 ttft 800ms): total cost for the first month, training plus one month of serving?"),
    ("zh", "计划：全参微调 llama 3.1 8b，训练数据 30 亿 token，然后上线推理，每秒 10 个请求，P95 首 token 800ms 内，输入 2k 输出 300。"
           "全部租卡。第一个月总共要花多少钱（训练加一个月推理）？"),
    ("zh", "全部租卡，首月一共多少钱？先全参微调 llama 3.1 8b（30 亿 token），再部署推理：每秒 10 个请求，输入 2k 输出 300，P95 首 token 800ms"),
]


@pytest.mark.parametrize(("lang", "text"), FIRST_MONTH)
def test_first_month_total_sums_training_and_a_month_of_serving(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "first_month")
    results = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]
    train = results.get("training_run") or results["best"]
    assert data["training_usd"] == pytest.approx(train["job_usd"])
    assert data["total_usd"] == pytest.approx(data["training_usd"] + data["serving_usd_per_month"])
    assert data["training_usd"] > 0 and data["serving_usd_per_month"] > data["training_usd"]
    assert ("第一个月合计" in reply.content) == (lang == "zh")
