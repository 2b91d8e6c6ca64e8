"""Traffic said as volumes (reading.load, assistant.serve_buy_rent): requests a day or a month become the busiest
hour's rate (the rule's peak factor, said); a service's buy-or-rent weighs each card's plan at that load over its
running hours, never the training-time tool. Generated over phrasings, number spellings and both languages."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH
from tests.conversation import run_conversation

PEAK = rules().daily_requests_peak_factor

DAY_VOLUMES = ["日均调用大概10万次", "日均调用10万次", "每天10万次请求", "每天调用10万次", "100k requests a day",
               "about 100k api calls per day", "daily requests ~100k", "100,000 requests per day"]
MONTH_VOLUMES = ["每月300万次调用", "每个月调用300万次", "3 million requests a month", "monthly calls about 3m",
                 "3m requests per month"]
LENGTHS = ["，每次输入2k输出500", ", 2k in 500 out each"]
MODELS = ["推理qwen2.5-72b", "serving qwen2.5 72b"]


@pytest.mark.parametrize("volume", DAY_VOLUMES)
@pytest.mark.parametrize("lengths", LENGTHS)
@pytest.mark.parametrize("model_first", [True, False])
def test_a_day_volume_is_the_busiest_hour_rate(volume, lengths, model_first):
    model = MODELS[0] if any("\u4e00" <= c <= "\u9fff" for c in volume) else MODELS[1]
    text = f"{model}，{volume}{lengths}" if model_first else f"{volume}{lengths}, {model}"
    u = understand(text)
    assert u.updates["requests_per_s"] == pytest.approx(100_000 / 86400 * PEAK, rel=1e-3)
    assert u.updates["utilisation"] == 1.0
    assert "load.note_volume_peak_day" in [k for k, _ in u.notes]


@pytest.mark.parametrize("volume", MONTH_VOLUMES)
def test_a_month_volume_is_the_busiest_hour_rate(volume):
    u = understand(f"serving qwen2.5 72b, {volume}")
    assert u.updates["requests_per_s"] == pytest.approx(3e6 / (HOURS_PER_MONTH * 3600) * PEAK, rel=1e-3)
    assert "load.note_volume_peak_month" in [k for k, _ in u.notes]


def test_a_peak_factor_said_beats_the_assumed_one():
    u = understand("serving qwen2.5 72b, 100k requests a day, peak is 2x the average")
    assert u.updates["requests_per_s"] == pytest.approx(100_000 / 86400 * 2, rel=1e-3)


BUY_RENT = [
    "想问下，租H800和买H20，哪个划算？我们是做大模型应用的，主要是推理qwen2.5-72b，日均调用大概10万次，每次输入2k输出500，要用三年",
    "租H800还是买H20划算？推理qwen2.5-72b，每天10万次请求，每次输入2k输出500，用三年",
    "rent H800 or buy H20? we serve qwen2.5-72b, about 100k requests a day, 2k in 500 out, for three years",
]


@pytest.mark.parametrize("text", BUY_RENT)
def test_a_service_buy_or_rent_weighs_each_plan_at_the_load(text):
    reply = run_conversation([text])[-1].content
    head = reply.split("\n## ")[0]
    assert "训练时间工具" not in head and "training-time tool" not in head
    assert ("4 × NVIDIA H800" in head) and ("36" in head)
    if "想" in text or "租" in text:
        assert "租 4 × NVIDIA H800 SXM 80GB：" in head
        assert not any(w in reply for w in ("1 个用户", "告诉我同时有多少人用"))


TURNS = ["平均每人每天聊20轮", "每人每天20轮", "每个用户每天大概聊二十轮", "每位用户每天聊20轮左右", "人均每天20轮对话",
         "20 turns per user per day", "each chats about 20 rounds a day", "every user sends 20 messages daily"]
DAU = ["预计日活1万", "1万日活", "日活一万", "10k DAU", "10,000 daily active users"]


@pytest.mark.parametrize("turns", TURNS)
@pytest.mark.parametrize("dau", DAU)
@pytest.mark.parametrize("model_first", [True, False])
def test_turns_per_person_a_day_are_requests_not_epochs(turns, dau, model_first):
    text = f"qwen2.5 14b chat app, {dau}, {turns}" if model_first else f"{dau}，{turns}，模型用qwen2.5 14b"
    u = understand(text)
    assert "epochs" not in u.updates
    assert u.updates["requests_per_s"] == pytest.approx(10_000 * 20 / 86400 * PEAK, rel=1e-2)


@pytest.mark.parametrize("text", ["qwen2.5 14b 训练3轮", "用qwen2.5 7b做lora微调，5万条数据，训练3轮"])
def test_rounds_in_a_training_plan_stay_epochs(text):
    assert understand(text).updates["epochs"] == 3


def test_the_companion_app_is_sized_from_its_turns():
    reply = run_conversation(["做个AI陪聊app，预计日活1万，平均每人每天聊20轮，模型用qwen2.5 14b，租云服务器一个月大概多少钱"])[-1].content
    assert "epoch" not in reply and "200,000" in reply


SPLITS = [("80/20 in/out", 80, 20), ("like 80/20 in/out", 80, 20), ("in/out 70/30", 70, 30),
          ("4:1 input to output", 4, 1), ("input to output ratio of 3:1", 3, 1), ("输入输出比3:1", 3, 1),
          ("输入和输出的比例大概是4比1", 4, 1), ("80/20 input/output", 80, 20)]
USAGE = ["3 billion tokens a month", "每月30亿token", "about 3B tokens per month"]


@pytest.mark.parametrize(("split", "read", "written"), SPLITS)
@pytest.mark.parametrize("usage", USAGE)
@pytest.mark.parametrize("split_first", [True, False])
def test_an_in_out_split_is_a_share_of_the_volume_not_lengths(split, read, written, usage, split_first):
    text = f"deepseek v3, {split}, {usage}" if split_first else f"deepseek v3, {usage} ({split})"
    u = understand(text)
    assert "prompt_tokens" not in u.updates
    out = round(4096 * written / read)
    assert u.updates["output_tokens"] == out
    assert u.updates["requests_per_s"] == pytest.approx(3e9 / (HOURS_PER_MONTH * 3600) / (4096 + out), rel=1e-3)


@pytest.mark.parametrize("text", ["in/out 1500/300, 20 rps, llama 3.1 8b", "1500/300 in/out at 20 rps, llama 3.1 8b",
                                  "输入/输出 1500/300，每秒20个请求，llama 3.1 8b"])
def test_lengths_said_as_a_pair_stay_lengths(text):
    u = understand(text)
    assert (u.updates["prompt_tokens"], u.updates["output_tokens"]) == (1500, 300)


@pytest.mark.parametrize("text", [
    "is it cheaper to run deepseek v3 ourselves or just pay the api? we'd push maybe 3 billion tokens a month "
    "(mostly input, like 80/20 in/out). if self hosting, what hardware",
    "deepseek v3自己部署还是直接调api划算？每月大概30亿token，输入输出比4:1",
    "we use about 3B tokens a month on the deepseek v3 api, 4:1 input to output, would self hosting be cheaper?"])
def test_self_host_or_api_uses_the_makers_price_on_record(text):
    from gpu_advisor.knowledge.api_prices import api_price_of, blended

    reply = run_conversation([text])[-1].content
    head = reply.split("\n## ")[0]
    price = blended(api_price_of("deepseek-v3"), 4, 1)  # 80/20 and 4:1 are the same mix
    assert f"${price:.2f}" in head and "2025-02-09" in head
    assert head.startswith(("**No: stay on the API.**", "**不会更便宜，继续用 API。**"))


HEADCOUNT_MEMORY = [("想部署GLM-4-9B给50个老师用，显存要多少", 50), ("给50个老师用GLM-4-9B，需要多少显存？", 50),
                    ("how much VRAM to serve qwen2.5 14b for 30 analysts", 30),
                    ("qwen2.5 14b for our 30 analysts, how much vram do we need", 30),
                    ("how much gpu memory for glm-4-9b, 50 teachers will use it", 50)]


@pytest.mark.parametrize(("text", "people"), HEADCOUNT_MEMORY)
def test_a_memory_question_with_a_headcount_sizes_their_concurrency(text, people):
    u = understand(text)
    assert u.updates.get("population") == people or u.updates.get("users") == people
    reply = run_conversation([text])[-1].content
    assert "1 个用户" not in reply and "1 user" not in reply
    assert "能不能跑起来" not in reply and "whether it fits at all" not in reply


CONTEXT_SAID = [
    ("qwen3-32b问答，同时在线15个人，合同动不动就五六万字，所以上下文得给到64k", 65536, "load.note_context_said"),
    ("qwen3 32b，上下文64k，合同五六万字，15人同时用", 65536, "load.note_context_said"),
    ("qwen3 32b，合同五六万字，15人同时用，上下文要64k", 65536, "load.note_context_said"),
    ("qwen3 32b，15人同时用，合同大概十万字，上下文32k就行", 32768, "load.note_context_said_short"),
    ("qwen3-32b, 15 users, contracts are 50-60k chinese characters so the context must be 64k", 65536, None),
]


@pytest.mark.parametrize(("text", "context", "note"), CONTEXT_SAID)
def test_an_explicit_context_beats_one_worked_out_from_characters(text, context, note):
    u = understand(text)
    assert u.updates["context"] == context
    if note:
        assert note in [k for k, _ in u.notes]


def test_a_context_worked_out_alone_stays():
    assert understand("qwen3 32b，15人同时用，合同五六万字").updates["context"] == 39285
