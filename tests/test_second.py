"""The second question of a message is answered (review AE E7, s14 'second'): more of the same cards asked beside a
job ('would a second node halve it?', '16 instead of 8', '加一台能快一倍吗') gets the tools' time on that many cards,
in English and Chinese, in either word order, with fillers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_conversation

JOB_EN = "we own 8x h100 sxm. need to classify 50M tweets (avg 60 tokens in, 5 tokens out) with llama 3.1 8b instruct."
JOB_ZH = "我们自己有8张H100，用llama 3.1 8b给5000万条推文分类，每条输入60个token，输出5个token。"
SECOND_EN = [
    "how many hours will it take? and if we got a second node of 8 would it halve it?",
    "takes how long on 16 h100 instead of 8?",
    "hmm, would doubling the gpus cut it in half?",
    "what if we add another 8 cards?",
    "would it go twice as fast with another node?",
]
SECOND_ZH = [
    "要多久？加一台能快一倍吗",
    "再加8张卡能快多少？",
    "要跑几个小时？第二台机器能让时间减半吗",
    "那个，卡翻倍的话能快一倍吗",
]
CASES = [("en", f"{JOB_EN} {q}") for q in SECOND_EN] + [("en", f"{q} {JOB_EN}") for q in SECOND_EN[:2]] \
    + [("zh", f"{JOB_ZH}{q}") for q in SECOND_ZH] + [("zh", f"{q}{JOB_ZH}") for q in SECOND_ZH[:2]]


def _asked(reply: Any, code: str) -> dict[str, Any]:
    found = [d for d in reply.additional_kwargs["gpu_advisor"].get("asked_more") or [] if d["code"] == code]
    assert found, reply.content[:600]
    return found[0]


@pytest.mark.parametrize(("lang", "text"), CASES)
def test_second_node_on_a_batch_job(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "scale_out")
    assert (data["gpu"], data["now_gpus"], data["gpus"]) == ("h100-sxm", 8, 16)
    assert 1.8 <= data["speedup"] <= 2.05  # independent copies: near linear
    assert ("独立" in reply.content) == (lang == "zh")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "we own 8x h800. full finetune llama 3 8b on 1B tokens, how long? would a second server make it twice as fast?"),
    ("zh", "我们自己有8卡H800，全量微调llama 3 8b，10亿token，要多久？第二台机器能快一倍吗"),
])
def test_second_node_on_training(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "scale_out")
    assert (data["now_gpus"], data["gpus"]) == (8, 16)
    assert data["job_hours"] < data["now_hours"]
    assert ("梯度" in reply.content) == (lang == "zh")


@pytest.mark.parametrize("text", [JOB_EN + " how many hours will it take?", JOB_ZH + "要多久？"])
def test_no_second_node_when_none_asked(text: str) -> None:
    reply = run_conversation([text])[-1]
    assert not [d for d in reply.additional_kwargs["gpu_advisor"].get("asked_more") or [] if d["code"] == "scale_out"]


DSV3 = "want to serve deepseek v3 (the 671B one) in fp8, ~20 req/s, avg 2k in / 500 out."
BUDGET_EN = [
    f"budget is 40k USD a month. {DSV3} how many req/s can 40k a month get me",
    f"{DSV3} we have $40k per month: if not 20, what's the max rps that budget can afford?",
    f"{DSV3} budget 40k/month. so how many requests per second does that money get us?",
]
BUDGET_ZH = [
    "每月预算 5 万人民币，想在国内云上部署 Llama 3.1 70B 对外提供 API，大概能撑多少 QPS？",
    "想在国内云上部署 Llama 3.1 70B 做对外 API，每月 5 万块，这笔钱最多能撑多少并发？",
    "Llama 3.1 70B 对外提供 API，国内云，月预算五万元，能支撑多少 QPS 呀",
]


@pytest.mark.parametrize("text", BUDGET_EN)
def test_what_a_budget_sustains_en(text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "budget_rate")
    assert 0 < data["usd_per_month"] <= 40_000
    # two nodes of big cards: 40 on 16 MI300X (was 16, < 20), each 8-GPU copy data-parallel attention with expert parallel
    # and vLLM's max_num_seqs per rank (h-moe: was one rank's 256 for all 8, and every GPU dispatched the whole batch);
    # the decode step is within +8..19% of LMSYS's and DeepSeek's published large-EP runs (tests/reference/moe_serving.csv)
    assert 30 < data["sustain_rps"] < 50
    assert "What $40,000 a month gets you" in reply.content


@pytest.mark.parametrize("text", BUDGET_ZH)
def test_what_a_budget_sustains_zh(text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "budget_rate")  # answered at once: no 'how many people at once?' asked back
    assert data["usd_per_month"] <= 50_000 / 7.0 + 1  # within ¥50k
    assert data["sustain_rps"] > 0 and data["gpus"] >= 2
    assert "能撑多少" in reply.content


def test_budget_rate_as_a_follow_up_not_asked_back() -> None:
    replies = run_conversation([
        "budget is 40k USD a month. want to serve deepseek v3 (the 671B one) in fp8, ~20 req/s, avg 2k in / 500 out. "
        "doable on that budget?",
        "what about 8x H200? if not 20 req/s, how many req/s can 40k a month get me"])
    assert "nothing that changes the answer" not in replies[-1].content
    assert "What $40,000 a month gets you" in replies[-1].content


LEGAL_EN = [
    "can my team in shanghai legally buy h100s? if not whats the best option we actually can get",
    "are we allowed to buy H100 in china? we're in beijing",
    "is it legal to purchase h100 gpus for our office in Shenzhen",
]
LEGAL_ZH = [
    "上海能合法买H100吗？不行的话我们能买到的最好的是什么",
    "我们在北京，H100 国内能合法买吗",
    "那个，深圳这边买H100合规吗？",
]


@pytest.mark.parametrize(("lang", "text"), [("en", t) for t in LEGAL_EN] + [("zh", t) for t in LEGAL_ZH])
def test_can_we_legally_buy_answers_the_rules(lang: str, text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    reply, profile = state["messages"][-1], state.get("profile") or {}
    assert profile.get("only") in (None, [])  # never 'only H100'
    assert profile.get("region") == "china"
    assert ("**不能：**" if lang == "zh" else "**No:**") in reply.content
    assert "2022-10-07" in reply.content  # the rule, dated


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "can my team in shanghai legally buy h100s to serve qwen2.5 72b for ~30 people internally? if not whats the "
           "best we can get"),
    ("en", "we want to serve qwen2.5 72b to 30 people at once from our shanghai office: can we legally buy h100s?"),
    ("zh", "我们在上海，想部署qwen2.5 72b给30个人同时用，全天候，能合法买H100吗？不行的话买什么"),
    ("zh", "能合法在上海买H100吗？想给30个人同时部署qwen2.5 72b，全天候在线"),
])
def test_legal_question_with_a_job_plans_on_obtainable_cards(lang: str, text: str) -> None:
    from gpu_advisor.knowledge import find_gpu

    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    legal = [d for d in data.get("asked_more") or [] if d["code"] == "legal_buy"]
    assert legal, reply.content[:500]
    card = find_gpu(data["decision"]["gpu"])
    assert card.china_specific or card.domestic_china or not card.export_limited
    assert ("**不能：**" if lang == "zh" else "**No:**") in reply.content


ENGINE_NO_LOAD = [
    ("en", "vllm vs sglang vs tensorrt-llm for deepseek v3 on 8xH200? which engine"),
    ("en", "which engine for deepseek v3 on 8x h200: vllm, sglang or trt-llm?"),
    ("zh", "8卡H200跑deepseek v3，vllm、sglang、trt-llm选哪个引擎"),
    ("zh", "deepseek v3 放 8 张 H200 上，用 vllm 还是 sglang 还是 tensorrt-llm？"),
]


@pytest.mark.parametrize(("lang", "text"), ENGINE_NO_LOAD)
def test_engine_question_on_named_cards_answered_first_without_a_plan(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert "decision" not in data or not data.get("decision")  # no purchase plan: no load was stated
    assert "H200" in reply.content and "SGLang" in reply.content
    assert "96" not in reply.content


def test_engine_question_with_a_load_leads_and_never_claims_96_named() -> None:
    text = "vllm vs sglang vs tensorrt-llm for deepseek v3 on 8xH200, we need ~50 req/s, which engine"
    reply = run_conversation([text])[-1]
    assert reply.content.index("SGLang") < reply.content.index("## ")  # the engine answer first
    assert "96 GPUs you named" not in reply.content


ASCEND = [
    ("zh", "昇腾上用啥推理框架啊，vllm能跑吗？mindie咋样"),
    ("zh", "华为的卡用什么推理引擎好，mindie还是vllm"),
    ("en", "on ascend which serving engine should we use, does vllm even run? how's mindie"),
    ("en", "vllm or mindie for huawei npus?"),
]


@pytest.mark.parametrize(("lang", "text"), ASCEND)
def test_engines_on_ascend_never_suggest_tensorrt(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert "vllm-ascend" in reply.content.lower() and "MindIE" in reply.content
    assert ("TensorRT-LLM 不能在昇腾上运行" if lang == "zh" else "TensorRT-LLM does not run on Ascend") in reply.content
    assert "换成 TensorRT-LLM" not in reply.content and "Move to TensorRT-LLM" not in reply.content
    assert not data.get("decision")


FP8_TRAINING = [
    ("zh", "FP8训练和BF16训练区别是啥？"),
    ("zh", "用fp8训练跟bf16训练有什么不同"),
    ("en", "what's the difference between fp8 training and bf16 training?"),
    ("en", "fp8 training vs bf16 training - what changes?"),
]


@pytest.mark.parametrize(("lang", "text"), FP8_TRAINING)
def test_fp8_training_is_not_inference_quantisation(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert data.get("topic") == "fp8-training", reply.content[:300]
    assert "E4M3" in reply.content and "GPTQ" not in reply.content


def test_fp8_training_beside_a_two_card_question() -> None:
    reply = run_conversation(["两个问题：FP8训练和BF16训练有啥区别？在H20上全参微调8B模型会比H800慢多少？"])[-1]
    assert "E4M3" in reply.content and "量化就是" not in reply.content
    assert "H20" in reply.content and "H800" in reply.content


MOE_PAIR = [
    ("en", "does moe need less vram than dense?? like mixtral 8x7b vs llama 2 70b, which is cheaper to host"),
    ("en", "is mixture of experts lighter on vram than dense models, e.g. llama 2 70b vs mixtral 8x7b?"),
    ("zh", "MoE 比稠密模型省显存吗？比如 Mixtral 8x7B 和 Llama 2 70B，哪个部署更便宜"),
    ("zh", "混合专家模型是不是更省显存，拿 llama 2 70b 和 mixtral 8x7b 比一下"),
]


@pytest.mark.parametrize(("lang", "text"), MOE_PAIR)
def test_moe_against_dense_compares_the_named_models(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    pair = reply.additional_kwargs["gpu_advisor"].get("moe_pair")
    assert pair, reply.content[:300]
    models = pair["models"]
    assert set(models) == {"mixtral-8x7b", "llama-2-70b"}
    assert models["mixtral-8x7b"]["fp8_bytes"] < models["llama-2-70b"]["fp8_bytes"]
    assert models["mixtral-8x7b"]["active_b"] < 15
    assert pair["cheaper"] == "mixtral-8x7b"
    assert ("结论" in reply.content) == (lang == "zh")
