"""A bare size equal to the model planned names that model, not the newest of its family (review BD #16:
'and if we go int4 on the 70b?' while on Llama 3.1 70B moved the plan to Llama 3.3 70B)."""

from __future__ import annotations

import pytest

from tests.conversation import run_states

CASES = [
    (["we want to host llama 3.1 8b for our app, around 1000 daily active users", "ok actually product wants the 70b "
      "instead, what changes", "and if we go int4 on the 70b?"], "llama-3.1-70b", "int4"),
    (["serve llama 3.1 70b to 30 users", "what if we run the 70b in fp8"], "llama-3.1-70b", "fp8"),
    (["部署 llama 3.1 70b 给50人用", "70b 用 int4 呢"], "llama-3.1-70b", "int4"),
    (["用 qwen2.5 14b 做客服，20人同时", "那 14b 换成 int8 呢"], "qwen2.5-14b", "int8"),
]


@pytest.mark.parametrize(("turns", "model", "precision"), CASES)
def test_the_size_of_the_model_planned_keeps_it(turns: list[str], model: str, precision: str) -> None:
    profile = run_states(turns)[-1]["profile"]
    assert profile["model"] == model
    assert precision in str(profile.get("precision") or profile.get("serve_precision"))


def test_another_size_of_the_family_still_moves_within_its_line() -> None:
    profile = run_states(["serve llama 3.1 8b to 20 users", "actually the 70b"])[-1]["profile"]
    assert profile["model"] == "llama-3.1-70b"


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "两个问题想请教下：1. 大模型训练里 ZeRO-3 和 FSDP 有啥区别，选哪个？2. 70B 的模型做 LoRA 微调，bf16 底座不量化的话，"
           "最少要几张 A800 80G？"),
    ("en", "two questions: what's the difference between zero-3 and fsdp, which one should we pick? and how many a800 80g "
           "at least to lora fine-tune a 70b model with a bf16 base?"),
])
def test_zero3_or_fsdp_is_answered_with_which_to_choose_and_the_count_says_no_empty_format(lang: str, text: str) -> None:
    from tests.conversation import run_conversation

    reply = run_conversation([text])[0].content
    assert ("选哪个" if lang == "zh" else "Choose the one your training framework supports best") in reply
    assert " 下 4 张" not in reply and "4 in  (" not in reply  # a training count names no empty weight format
    assert ("4 张（一台服务器" in reply) if lang == "zh" else reply.startswith("## Rent 4 × NVIDIA A800")


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "手上有四张二手的 V100 32G（PCIe版），想拿来跑 Qwen2.5-32B 给小组内部用，五六个人。那该用啥精度，速度大概多少"),
    ("en", "we own 4 used v100 32gb pcie, want to run qwen2.5 32b for our 6 person team, not all at once. how fast?"),
    ("en", "our lab has 2 a100 80gb sitting idle, could we serve llama 3.1 70b on them for 3 people?"),
])
def test_owned_data_centre_cards_for_a_few_people_run_a_batching_server(lang: str, text: str) -> None:
    """llama.cpp first only on home cards: on owned data-centre cards a few users get vLLM/LMDeploy's tensor
    parallel (review BE #16: four V100s at 6.4 tokens/s per user on llama.cpp's layer split, 31 on LMDeploy)."""
    state = run_states([text])[-1]
    best = state["results"]["recommend"]["best"]
    assert best["owned"] and best["engine"] != "llama.cpp", best["engine"]
    assert best["decode_tokens_per_s"] >= 10


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "we have 4 rtx 3060 12gb, want to run qwen2.5 14b in fp16 for 4 people chatting"),
    ("zh", "家里有 4 张 3060 12G，跑 qwen2.5 14b fp16，4个人同时聊天"),
])
def test_a_slow_chat_on_owned_cards_names_the_smaller_format_first(lang: str, text: str) -> None:
    reply = run_states([text])[-1]["messages"][-1].content
    assert ("在你这些卡上改用 Q8_0" if lang == "zh" else "on these cards in Q8_0") in reply


@pytest.mark.parametrize("text", [
    "need to run batch summarization over 3 million docs, avg 2k tokens in 200 out, using mistral 7b. deadline is "
    "friday (4 days). how many L4s do i need?",
    "公司要离线跑一批数据，大概两百万条，每条输入1000输出300 token，用qwen2.5-14b，三天内要跑完，租H800的话要几张",
])
def test_a_batch_plans_command_keeps_the_sequences_in_flight_it_was_sized_with(text: str) -> None:
    """Reviews BG #5 and BH #12: the batch plan was sized with 128 sequences in flight per copy, its command said
    --max-num-seqs 1 (one document at a time: the deadline missed)."""
    reply = run_states([text])[-1]["messages"][-1].content
    assert "--max-num-seqs 128" in reply and "--max-num-seqs 1 " not in reply + " "


@pytest.mark.parametrize(("text", "model"), [
    ("本来想用 llama3.1 70b 部署，后来想了下还是换成 qwen2.5-32b 吧，A100 40G 要几张？10个人用", "qwen2.5-32b"),
    ("原本打算用 qwen2.5 72b，现在改用 qwen2.5 32b，10个人用", "qwen2.5-32b"),
    ("we were going to use llama 3.1 70b but decided to switch to qwen2.5 32b instead, how many a100 40g for 10 "
     "people", "qwen2.5-32b"),
    ("算了还是换成72B吧，效果差太多了，其他不变", "72B"),
    ("qwen2.5 32b possible?? or should i go with the 7b", "qwen2.5-32b"),  # an option offered, no decision
])
def test_a_plan_given_up_in_the_same_message_takes_the_model_switched_to(text: str, model: str) -> None:
    """Review BH #15: '本来想用 llama3.1 70b …，后来还是换成 qwen2.5-32b' was weighed as two models."""
    from gpu_advisor.assistant.reading import understand

    u = understand(text, None)
    assert u.updates.get("model") == model
    assert not u.intents & {"weigh", "why_not"} or "go with the 7b" in text


@pytest.mark.parametrize("text", [
    "batch job: summarize 2 million docs, avg 1500 tokens in, 200 out, with mistral small 24b. need it done by friday "
    "(3 days). how many h100s should we rent",
    "下周一之前要把100万条评论用qwen2.5 7b打标签，每条输入大概200 token输出20 token，租A800还是4090划算？预算1万人民币",
])
def test_a_batch_commands_length_limit_leaves_room_for_items_longer_than_the_mean(text: str) -> None:
    """Review BI #3, #9: --max-model-len was the mean item (1700, 220), rejecting every longer one."""
    import re

    reply = run_states([text])[-1]["messages"][-1].content
    limit = re.search(r"--max-model-len (\d+)", reply)
    assert limit and int(limit.group(1)) >= 8192
