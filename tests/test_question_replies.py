"""Questions that are not sizing requests, through the whole graph: each gets its own reply (kind info,
the intent code as its topic, no options table, no decision), in the language it was asked in, with
every figure taken from the payload; corrections keep what was said; fit and price questions are
answered without the questions that do not change their answer."""

from __future__ import annotations

import re

import pytest

from tests.conversation import payload, run_conversation, unexplained_numbers

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
ENGLISH_RUN = re.compile(r"\b[a-z]{3,} [a-z]{3,} [a-z]{3,}\b")
TABLE = re.compile(r"^\| (option|方案) \|", re.MULTILINE)

# (first messages, question, intent code the reply is about, language)
QUESTIONS = [
    ([], "what does tensor parallelism buy me over pipeline parallelism?", "tensor-parallel+pipeline-parallel", "en"),
    ([], "张量并行和流水线并行有什么区别", "tensor-parallel+pipeline-parallel", "zh"),
    ([], "H100 or A100: which is faster for this?", "compare_cards", "en"),
    ([], "H100和A100哪个更快", "compare_cards", "zh"),
    ([], "TensorRT-LLM or vLLM here?", "engine_choice", "en"),
    ([], "用vLLM还是SGLang", "engine_choice", "zh"),
    ([], "is the B200 in stock anywhere?", "availability", "en"),
    ([], "B200现在有货吗", "availability", "zh"),
    ([], "will rental prices fall after the next launch?", "forecast", "en"),
    ([], "H100明年会降价吗", "forecast", "zh"),
    ([], "is the 8B good enough for legal drafting?", "quality", "en"),
    ([], "8B模型写法律文书够用吗", "quality", "zh"),
    ([], "I want to generate images with stable diffusion", "out_of_scope", "en"),
    ([], "train a vision model from scratch on images", "out_of_scope", "en"),
    ([], "用stable diffusion生成图片需要什么显卡", "out_of_scope", "zh"),
    ([], "部署whisper语音识别", "out_of_scope", "zh"),
    ([], "rent or buy? an H100 costs $30000 or $2.5 an hour", "rent_buy", "en"),
    ([], "租还是买？H100售价25万元，租一小时15元", "rent_buy", "zh"),
    (["serve llama 3.1 70b to 50 users", "working hours"], "H100 or A100: which is faster for this?", "compare_cards", "en"),
    (["部署qwen2.5 72b给50个人用", "工作时间"], "H100和A100哪个更快", "compare_cards", "zh"),
    (["fine-tune qwen2.5 14b with lora on 50k examples of 2k tokens"], "TensorRT-LLM or vLLM here?", "engine_choice", "en"),
    (["serve llama 3.1 8b to 20 users"], "is the H100 in stock?", "availability", "en"),
    (["微调qwen2.5 14b，用lora，5万条数据，每条2k token"], "H20和A800哪个好", "compare_cards", "zh"),
]


def _language_problems(text: str, lang: str) -> list[str]:
    if lang == "en":
        return ["Chinese in an English reply"] if CJK.search(text) else []
    english = [line for line in text.splitlines() if ENGLISH_RUN.search(line)]
    return (["no Chinese"] if not CJK.search(text) else []) + [f"English left: {english[:2]}"] * bool(english)


@pytest.mark.parametrize("before, question, topic, lang", QUESTIONS, ids=[q[1][:40] for q in QUESTIONS])
def test_a_question_gets_its_own_reply_in_its_language(before: list[str], question: str, topic: str, lang: str):
    reply = run_conversation([*before, question])[-1]
    data = payload(reply)
    assert data["kind"] == "info", reply.content
    assert data.get("topic") == topic, reply.content
    assert not TABLE.search(reply.content), "an options table in a reply to a question"
    assert not data.get("decision"), "a decision in a reply to a question"
    assert _language_problems(reply.content, lang) == [], reply.content
    if data.get("results") and topic != "out_of_scope":  # (its text names models: "Gemma 3")
        assert unexplained_numbers(reply.content, data["results"]) == [], reply.content


def test_two_cards_are_sized_for_the_job_when_there_is_one():
    replies = run_conversation(["serve llama 3.1 70b to 50 users", "working hours", "H100 or A100: which is faster for this?"])
    text = replies[-1].content
    assert "| memory bandwidth | 3,350 GB/s | 2,039 GB/s |" in text
    assert "**For your job** (serving, Llama 3.1 70B):" in text
    assert "For this job the NVIDIA H100 SXM 80GB is faster" in text
    assert len(payload(replies[-1])["results"]["options"]) == 2


def test_two_cards_without_a_job_are_compared_on_their_data_and_noted_for_the_answer():
    # the cards named make the job's answer come at once: how busy they are changes no card (assumed, said)
    replies = run_conversation(["H100 or A100: which is faster for this?", "serve llama 3.1 70b to 50 users"])
    assert "tell me the model and how it will be used" in replies[0].content  # the invitation to size a job
    assert "**Verdict** (running a model, the usual job" in replies[0].content
    assert payload(replies[-1])["kind"] == "answer"
    assert "| 4 × NVIDIA H100 SXM 80GB" in replies[-1].content or "NVIDIA H100 SXM 80GB" in replies[-1].content


def test_a_question_at_a_question_asks_it_again():
    replies = run_conversation(["serve llama 3.1 8b to my team", "is the H100 in stock anywhere?"])
    first, second = payload(replies[0]), payload(replies[1])
    assert first["kind"] == "question"
    assert second["kind"] == "info" and second["slot"] == first["slot"]


def test_why_not_puts_the_card_beside_the_plan():
    replies = run_conversation(["serve llama 3.1 70b to 50 users during working hours", "why not two L40S instead?"])
    data = payload(replies[-1])
    assert data["kind"] == "answer"
    assert "2 × NVIDIA L40S 48GB" in replies[-1].content
    assert data["profile"]["only"] is None  # put beside the plan, not made the only choice


def test_an_engine_question_names_what_runs_on_the_planned_card_and_invents_no_figure():
    replies = run_conversation(["serve llama 3.1 8b to 20 users during working hours", "TensorRT-LLM or vLLM here?"])
    text = replies[-1].content
    plan = payload(replies[0])["decision"]
    assert "TensorRT-LLM" in text and "vLLM" in text
    assert "I size it as vLLM" in text  # no figures of its own
    assert "tokens/s" not in text
    assert plan["gpu"] in str(payload(replies[-1])) or "Runs on the" in text


def test_a_language_model_beside_a_job_the_tools_do_not_size_is_sized_with_a_note():
    reply = run_conversation(["serve llama 3.1 8b to 20 users and also run stable diffusion"])[-1]
    assert payload(reply)["kind"] in ("answer", "question")
    assert "image generation is not covered" in reply.content


# ---------------------------------------------------------------- corrections keep what was said


def test_interactive_not_offline_switches_to_serving_and_keeps_prompt_and_users():
    replies = run_conversation(["summarise 200k documents of 3k tokens each into 300-token summaries with qwen2.5 14b, "
                                "40 people will use the results", "it's interactive, not offline"])
    profile = payload(replies[-1])["profile"]
    assert profile["phase"] == "serve"
    assert profile["users"] == 40
    assert profile["prompt_tokens"] == 3000
    assert profile["model"] == "qwen2.5-14b"


def test_zh_online_not_offline_switches_to_serving_and_keeps_the_prompt():
    replies = run_conversation(["用qwen2.5 14b离线处理20万篇文档，每篇3000 token，输出300 token", "不是离线的，是在线服务"])
    data = payload(replies[-1])
    assert data["profile"]["phase"] == "serve" and data["profile"]["prompt_tokens"] == 3000
    assert _language_problems(replies[-1].content, "zh") == []


def test_owned_cards_after_a_fine_tuning_plan_stay_a_fine_tuning_plan():
    replies = run_conversation(["fine-tune qwen2.5 14b with lora on 50k examples of 2k tokens",
                                "what if we use the 4 A6000s we already have?"])
    data = payload(replies[-1])
    assert data["profile"]["phase"] == "fine-tune"
    assert data["profile"]["seq_len"] == 2000
    assert data["profile"]["owned"] == ["4x rtx-a6000"]
    assert data["decision"]["owned"] is True


def test_serving_turned_batch_keeps_the_prompt_as_tokens_in():
    replies = run_conversation(["serve llama 3.1 8b to 20 users with prompts of 3k tokens",
                                "actually it's an offline batch job over 1 million documents"])
    profile = payload(replies[-1])["profile"]
    assert profile["phase"] == "batch" and profile["batch_input_tokens"] == 3000


# ---------------------------------------------------------------- no question that changes nothing


@pytest.mark.parametrize("question", ["does llama 3.1 70b fit on an H100?", "how fast is qwen2.5 32b on a 4090?",
                                      "qwen2.5 32b能在4090上跑吗"])
def test_a_fit_question_is_answered_at_once_with_utilisation_as_an_assumption(question: str):
    reply = run_conversation([question])[-1]
    data = payload(reply)
    assert data["kind"] == "answer", reply.content
    assert "utilisation" in data["assumptions"]
    assert data["profile"]["only"]


@pytest.mark.parametrize("question", ["rent or buy? an H100 costs $30000 or $2.5 an hour",
                                      "租还是买？H100售价25万元，租一小时15元"])
def test_rent_or_buy_with_prices_asks_no_phase(question: str):
    reply = run_conversation([question])[-1]
    data = payload(reply)
    assert data["kind"] == "info" and data.get("slot") != "phase", reply.content
    rb = data["results"]["rent_or_buy"]
    assert rb["gpu"] == "h100-sxm" and rb["utilisation"] == 0.24


def test_a_batch_turned_fine_tuning_trains_on_the_same_documents():
    replies = run_conversation(["summarise 200k documents of 3k tokens each into 300-token summaries with qwen2.5 14b",
                                "actually we want to fine-tune it with lora on those documents instead"])
    profile = payload(replies[-1])["profile"]
    assert profile["phase"] == "fine-tune" and profile["method"] == "lora"
    assert profile["train_tokens"] == 200_000 * 3000 and profile["seq_len"] == 3000
    assert profile.get("prompt_tokens") is None  # no serving prompt is made up for a training job
