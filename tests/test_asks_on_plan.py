"""Questions that are not sizing requests, asked once a plan is on screen: how the training time was
found, which link the cards need, which weight format or engine, which parallelism, whether FP8 changes
eval scores, what a card rents for per provider, why full fine-tuning takes so much memory. Each gets its
own short answer tied to the plan, in the user's language, and never a new sizing."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.conversation import payload, run_conversation

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
FULL_FT = {"en": "full fine-tune qwen2.5 7b on 100M tokens, 2 epochs",
           "zh": "全参微调qwen2.5 7b，1亿token，2个epoch"}


def _after_plan(first: str, question: str):
    plan, reply = run_conversation([first, question])
    assert payload(plan)["kind"] == "answer", plan.content
    return plan, reply


FORMULA = {"en": ["how did you get the training time, whats the formula", "how is the training time calculated?",
                  "where does the training time come from? show me the formula"],
           "zh": ["训练时间是怎么算的，公式是什么", "训练时长怎么算出来的？", "训练时间的计算公式给我看看"]}


@pytest.mark.parametrize(("lang", "question"), [(lang, q) for lang, qs in FORMULA.items() for q in qs])
def test_the_training_time_is_shown_with_its_formula_and_the_plan_stays(lang, question):
    plan, reply = _after_plan(FULL_FT[lang], question)
    p = payload(reply)
    assert p["kind"] == "info" and p["topic"] == "math", reply.content
    title = "Training time" if lang == "en" else "训练时间"
    assert f"### {title}" in reply.content
    hours = plan.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]["training_hours"]
    assert f"= {hours:.1f} h" in reply.content
    assert "active" in reply.content if lang == "en" else "激活参数量" in reply.content


# ---------------------------------------------------------------- generated phrasings, read alone

OPEN = {"en": ["", "ok ", "quick q: ", "hmm "], "zh": ["", "那", "请问", "另外"]}
END = {"en": ["", "?", " ??"], "zh": ["", "？", "呢"]}
ASKED = {
    "interconnect": {
        "en": ["do i need nvlink for this or is pcie fine", "does nvlink matter here", "is pcie enough for this",
               "will the lack of nvlink slow this down", "is an nvlink bridge worth it for this", "do we need nvlink"],
        "zh": ["没插nvlink桥 影响大吗", "需要nvlink吗", "pcie够不够", "没有nvlink会慢很多吗", "要不要装nvlink桥",
               "nvlink有必要吗"],
    },
    "formats": {
        "en": ["difference between q4_k_m gguf and awq? which one should i use with vllm", "gguf or awq for vllm",
               "awq vs gptq, which one should i use", "which format should i download for vllm, gguf or gptq",
               "q4_k_m or awq"],
        "zh": ["gguf和awq有什么区别，vllm用哪个", "awq和gptq哪个好", "vllm该用gguf还是awq", "q4_k_m和awq有啥区别",
               "用vllm的话选什么量化格式，gguf还是awq"],
    },
    "parallelism": {
        "en": ["difference between tensor parallel and expert parallel, which should i use here",
               "tensor parallel or pipeline parallel for this", "is tp=8 enough here", "should i use expert parallelism here",
               "can i just use tp 4"],
        "zh": ["是不是直接tp=8就行", "张量并行和专家并行有啥区别，这里该用哪个", "这里该用张量并行还是流水线并行",
               "tp=4够吗", "要不要开专家并行"],
    },
}


@pytest.mark.parametrize(("code", "lang"), [(c, lang) for c in ASKED for lang in ("en", "zh")])
def test_each_phrasing_is_read_as_its_question_and_sizes_nothing(code, lang):
    from gpu_advisor.assistant.reading import understand

    said = [o + w + e for o, w, e in itertools.product(OPEN[lang], ASKED[code][lang], END[lang])]
    assert len(said) >= 60
    for text in said:
        for pending in (None, "utilisation"):
            u = understand(text, pending)
            # asked of this job ("here", "就行"): its own question; asked like a glossary question ("需要nvlink吗"):
            # the glossary's, made this plan's question when a plan is on screen (the graph tests below)
            assert code in u.intents or (u.topic and u.ask.get("plan_code") == code), (text, pending, u.intents, u.topic)
            assert not u.updates, (text, u.updates)


@pytest.mark.parametrize("text", ["what is nvlink?", "tensor parallelism vs pipeline parallelism?", "什么是张量并行",
                                  "serve llama 70b on 2 3090s with nvlink", "what about int4?",
                                  "serve qwen 72b to 50 users with awq on vllm", "用两张3090跑qwen2.5 32b，tp=2"])
def test_a_glossary_question_or_a_sizing_request_is_not_one_of_these(text):
    from gpu_advisor.assistant.reading import understand

    u = understand(text, None)
    assert not u.intents & set(ASKED), (text, u.intents)


def test_tp_degree_and_a_missing_bridge_are_read():
    from gpu_advisor.assistant.reading import understand

    assert understand("是不是直接tp=8就行", None).ask == {"tp": 8}
    assert understand("can i just use tp 4?", None).ask == {"tp": 4}
    assert understand("没插nvlink桥 影响大吗", None).ask == {"no_bridge": True}
    assert understand("we don't have the nvlink bridge, does it matter?", None).ask == {"no_bridge": True}
    assert understand("do i need nvlink for this or is pcie fine", None).ask == {"no_bridge": False}


# ---------------------------------------------------------------- through the graph, after a plan

LORA_3090 = {"en": "lora fine-tune llama 3.1 8b on my 4 rtx 3090s, 50M tokens, 3 epochs",
             "zh": "用我的4张3090 lora微调llama 3.1 8b，5000万token，3个epoch"}
FULL_3090 = {"en": "full fine-tune qwen2.5 1.5b on my 4 rtx 3090s, 50M tokens",
             "zh": "用我的4张3090全参微调qwen2.5 1.5b，5000万token"}
SERVE = {"en": "serve qwen2.5 72b to 50 users with 8k context, around the clock",
         "zh": "给50个人部署qwen2.5 72b，上下文8k，全天候"}
ASCEND = {"en": "serve deepseek v3 on ascend 910b to 100 users around the clock",
          "zh": "用昇腾910B部署deepseek v3给100人用，全天候"}


def _info(first: str, question: str, topic: str):
    plan, reply = _after_plan(first, question)
    p = payload(reply)
    assert p["kind"] == "info" and p.get("topic") == topic, (question, p.get("topic"), reply.content)
    assert "|---|" not in reply.content  # no sizing table
    lang = "zh" if CJK.search(question) else "en"
    assert bool(CJK.search(reply.content)) == (lang == "zh")
    return plan, reply, p


@pytest.mark.parametrize(("lang", "question"), [("en", "do i need nvlink for this or is pcie fine"),
                                                ("zh", "没插nvlink桥 影响大吗"), ("en", "does nvlink matter here?"),
                                                ("zh", "需要nvlink吗")])
def test_the_link_question_says_lora_moves_megabytes_and_the_3090_takes_a_bridge(lang, question):
    _plan, reply, p = _info(LORA_3090[lang], question, "interconnect")
    text = str(reply.content)
    assert p["results"]["training"]["method"] == "lora"
    mb = p["results"]["training"]["adapter_gradient_bytes"] / 1e6
    assert 10 < mb < 500 and f"{mb:,.0f} MB" in text
    assert "NVLink" in text and "PCIe 4.0" in text
    assert "has no NVLink" not in text and "没有 NVLink" not in text  # the 3090 takes a bridge
    said_no_bridge = "没插" in question
    assert ("你说没装桥" in text) == said_no_bridge


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_link_question_after_full_fine_tuning_says_it_matters(lang):
    question = {"en": "do we need nvlink for this?", "zh": "需要nvlink吗"}[lang]
    _plan, reply, p = _info(FULL_3090[lang], question, "interconnect")
    assert p["results"]["training"]["method"] == "full"
    assert "70%" in reply.content and ("FSDP/ZeRO-3" in reply.content)


def test_a_lora_run_on_cards_without_nvlink_pays_no_pcie_penalty_and_full_fine_tuning_does():
    from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

    for gpu in ("rtx-3090", "rtx-4090"):
        one = training_time(TrainingTimeInput(model="llama-3.1-8b", gpu=gpu, gpus=1, method="lora", tokens=1e7))
        four = training_time(TrainingTimeInput(model="llama-3.1-8b", gpu=gpu, gpus=4, method="lora", tokens=1e7))
        assert four.hours == pytest.approx(one.hours / 4)
        assert not any("NVLink" in w and "efficiency" in w for w in four.warnings)
        full1 = training_time(TrainingTimeInput(model="qwen2.5-1.5b", gpu=gpu, gpus=1, method="full", tokens=1e7))
        full4 = training_time(TrainingTimeInput(model="qwen2.5-1.5b", gpu=gpu, gpus=4, method="full", tokens=1e7))
        assert full4.hours == pytest.approx(full1.hours / 4 / 0.7)
    bridged = training_time(TrainingTimeInput(model="qwen2.5-1.5b", gpu="rtx-3090", gpus=2, method="full", tokens=1e7))
    assert any("NVLink bridge" in w for w in bridged.warnings)
    assert not any("has no NVLink" in w for w in bridged.warnings)


@pytest.mark.parametrize(("lang", "question"), [
    ("en", "difference between q4_k_m gguf and awq? which one should i use with vllm"),
    ("en", "gguf or awq for vllm?"), ("zh", "gguf和awq有什么区别，vllm用哪个"), ("zh", "vllm该用gguf还是awq")])
def test_the_format_question_puts_awq_with_vllm_and_gguf_with_llama_cpp(lang, question):
    _plan, reply, p = _info(SERVE[lang], question, "formats")
    text = str(reply.content)
    ids = [f["id"] for f in p["results"]["formats"]]
    assert "awq" in ids and ("q4_k_m" in ids or "gguf" in ids)
    assert "AWQ" in text and "GGUF" in text and "llama.cpp" in text
    assert ("experimental" in text) if lang == "en" else ("实验性" in text)


@pytest.mark.parametrize(("lang", "question", "pick"), [
    ("zh", "tensorrt-llm会不会比vllm快很多", "vllm"), ("en", "is tensorrt-llm much faster than vllm here?", "vllm"),
    ("en", "is llama.cpp ok for production?", "vllm"), ("zh", "llama.cpp能用在生产环境吗", "vllm")])
def test_an_engine_question_after_a_plan_is_answered_not_resized(lang, question, pick):
    _plan, _reply, p = _info(SERVE[lang], question, "engine_choice")
    assert p["results"]["pick"]["engine"] == pick


@pytest.mark.parametrize(("lang", "question", "verdict"), [
    ("en", "difference between tensor parallel and expert parallel, which should i use here", None),
    ("zh", "张量并行和专家并行有啥区别，这里该用哪个", None),
    ("zh", "是不是直接tp=8就行", "不行"), ("en", "can i just use tp=8?", "So no")])
def test_the_parallelism_question_answers_from_the_plans_layout(lang, question, verdict):
    _plan, reply, p = _info(ASCEND[lang], question, "parallelism")
    layout = p["results"]["layout"]
    assert layout["expert_parallel"] and layout["tp"] == 8 and layout["pp"] > 1
    if verdict:
        assert reply.content.startswith(verdict) or reply.content.startswith("所以" + verdict)


def test_which_one_on_ascend_after_a_parallelism_question_is_that_question_again():
    replies = run_conversation([ASCEND["zh"], "张量并行和专家并行有啥区别，这里该用哪个", "昇腾上一般用哪个"])
    p = payload(replies[-1])
    assert p["kind"] == "info" and p["topic"] == "parallelism"
    assert "HCCS" in replies[-1].content and "vLLM-Ascend" in replies[-1].content


@pytest.mark.parametrize(("lang", "question"), [("en", "will eval scores differ between fp8 and bf16?"),
                                                ("zh", "fp8和bf16的评测分数会差很多吗"),
                                                ("en", "would accuracy drop with int4 vs fp8?")])
def test_an_eval_score_question_is_answered_honestly_and_the_plan_stays(lang, question):
    plan, reply, p = _info(SERVE[lang], question, "quality")
    assert len(p["results"]["precisions"]) == 2
    text = str(reply.content)
    assert ("eval set" in text) if lang == "en" else ("评测集" in text)
    precision = plan.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]["precision"]
    assert precision.upper() in text


@pytest.mark.parametrize(("lang", "question", "card"), [
    ("en", "cheapest place to rent an h100 right now", "h100-sxm"), ("en", "just want the hourly price per provider", None),
    ("zh", "h100各家价格多少", "h100-sxm"), ("zh", "哪家租a100最便宜", "a100-80gb-sxm")])
def test_a_price_per_provider_lists_each_offer_with_its_date(lang, question, card):
    plan, reply, p = _info(SERVE[lang], question, "availability")
    offers = p["results"]["offers"]
    assert offers and all(re.fullmatch(r"\d{4}-\d\d-\d\d", o["as_of"]) for o in offers)
    assert [o["usd_low"] for o in offers if o["gpu"] == offers[0]["gpu"]] == sorted(
        o["usd_low"] for o in offers if o["gpu"] == offers[0]["gpu"])
    expected = card or plan.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]["gpu"]
    assert offers[0]["gpu"] == expected
    assert offers[0]["provider"] in reply.content and offers[0]["as_of"] in reply.content


def test_a_provider_with_no_offers_on_record_is_said_so():
    _plan, reply, p = _info(SERVE["zh"], "天翼云上有昇腾卡可以租吗", "availability")
    assert p["results"]["offers"] == []
    assert "天翼云" in reply.content and "没有" in reply.content and "Ascend" in reply.content


@pytest.mark.parametrize(("lang", "question"), [("zh", "为啥全参微调要这么多显存"), ("zh", "全参微调为什么这么吃显存"),
                                                ("en", "why does full fine-tuning need so much memory?")])
def test_why_full_fine_tuning_takes_so_much_memory_is_the_plans_own_breakdown(lang, question):
    _plan, reply = _after_plan(FULL_FT[lang], question)
    text = str(reply.content)
    parts = ("权重", "梯度", "优化器状态", "激活", "16 字节") if lang == "zh" else \
        ("weights", "gradients", "optimizer states", "activations", "16 bytes a parameter")
    for part in parts:
        assert part in text, (part, text)
    assert "|---|" not in text
    if "× NVIDIA" in text.split("GB")[0] and not re.search(r"\b1 × ", text):
        assert "FSDP/ZeRO-3" in text


@pytest.mark.parametrize(("lang", "first", "question", "said"), [
    ("zh", "用我的两张3090给10个人部署qwen2.5 32b", "没插nvlink桥 影响大吗", "装了 NVLink 桥"),
    ("en", "serve qwen2.5 32b to 10 users on my 2 rtx 3090s", "do we need an nvlink bridge for this?",
     "joined by a bridge")])
def test_serving_split_over_two_bridged_cards_says_its_speed_assumes_the_bridge(lang, first, question, said):
    _plan, reply, p = _info(first, question, "interconnect")
    assert p["results"]["serving"]["tp"] == 2
    assert said in reply.content
