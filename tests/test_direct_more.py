"""A follow-up that asks for a figure is answered first with that figure, on the configuration it names (review T:
T3-19 'how much is it at 4k?' got the 32k figure twice; T1-11 '上下文最多能开到多长' was ignored; T1-05 'fp8 on h100 to
cut the count?' answered about MI300X; T2-16 / T2-11 never said how many servers of each card; T3-02 '换成LoRA呢，快多少'
gave no comparison). Generated over first turn x question shape x value x language; the answer's code and the
configuration and figures sized are asserted, and each figure is checked against the tool that makes it."""

from __future__ import annotations

import itertools

import pytest
from conversation import payload, run_conversation, unexplained_numbers
from test_no_english_in_chinese import english_runs

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.writers import gb
from gpu_advisor.tools.context_limit import longest_context
from gpu_advisor.tools.recommend import Recommendation

# ---------------------------------------------------------------- reading


LENGTHS = {"4k": 4096, "8k": 8192, "16k": 16384}
VALUE_SHAPES = ["and how much is it at {v}?", "at {v}?", "what about {v}, how much memory?", "那{v}呢",
                "换成{v}要多少显存", "{v}的话要多久"]


@pytest.mark.parametrize(("shape", "value"), list(itertools.product(VALUE_SHAPES, LENGTHS)))
def test_a_bare_length_tried_is_a_context(shape: str, value: str) -> None:
    u = understand(shape.format(v=value))
    assert u.updates.get("context") == LENGTHS[value]
    assert "users" not in u.updates


@pytest.mark.parametrize("text", ["cut the budget to 4k?", "50 users at 8k", "at 4k a month?", "at 3k?"])
def test_other_numbers_after_at_are_no_tried_length(text: str) -> None:
    u = understand(text)
    assert u.updates.get("users") == 50 if "users" in text else "users" not in u.updates
    assert u.updates.get("context") in ((8192,) if "users" in text else (None,))


@pytest.mark.parametrize(("text", "measure"), [
    ("那换成LoRA呢，快多少", "speed"), ("what about lora, how much faster?", "speed"),
    ("switch to qlora, how long then?", "speed"), ("how much cheaper with qlora", "cost"),
    ("那换成qlora，能省多少钱", "cost"), ("换成16k要多少显存", "memory"), ("what about 8k, how much memory?", "memory"),
    ("and how much is it at 4k?", "any")])
def test_the_measure_asked_of_a_change(text: str, measure: str) -> None:
    assert understand(text).ask.get("figure") == measure


@pytest.mark.parametrize("text", ["那int4的话上下文最多能开到多长", "上下文最长能开多少", "whats the max context i can run?",
                                  "with int4, how long a context can it fit?", "最大上下文能到多少"])
def test_the_longest_context_asked(text: str) -> None:
    u = understand(text)
    assert u.ask.get("longest") == "context"
    assert "figure" not in u.ask and "context" not in u.updates


@pytest.mark.parametrize(("text", "cards"), [
    ("h200 vs h100 vs mi300x, how many servers each?", ["h200", "h100-sxm", "mi300x"]),
    ("can we use fp8 on h100 to cut the count?", ["h100-sxm"]),
    ("用H100跑fp8能少几张吗", ["h100-sxm"]),
    ("h200、h100、mi300x各要几台服务器？", ["h200", "h100-sxm", "mi300x"])])
def test_the_count_asked_of_each_card(text: str, cards: list[str]) -> None:
    u = understand(text)
    assert u.ask.get("count_each") == cards
    if "fp8" in text:
        assert u.updates.get("precision") == "fp8" and "card_support" not in u.intents


def test_max_batch_is_the_capacity_question() -> None:
    for text in ("max batch", "what's the max batch size", "最大batch多少"):
        assert "capacity" in understand(text).intents


# ---------------------------------------------------------------- answers


def _checked(reply) -> dict:
    data = payload(reply)
    assert data.get("direct"), reply.content[:400]
    head = reply.content.split("\n\n")[0]
    if any("\u4e00" <= ch <= "\u9fff" for ch in head):  # a Chinese reply: no English sentence in the answer
        assert not english_runs(head), english_runs(head)
    traced = {**data["results"], "direct": data["direct"]}
    assert not unexplained_numbers(reply.content.split("\n\n")[0], traced), reply.content[:400]
    return data["direct"]


TRAIN_FIRST = {"en": "lora llama 3.1 8b on a single a100 80gb, 32k seq len, how much memory?",
               "zh": "在一张A100 80G上用LoRA微调llama 3.1 8b，序列长度32k，显存要多少"}
ASKED = {"en": ["and how much is it at {v}?", "what about {v}, how much memory?", "at {v}?"],
         "zh": ["那{v}呢，要多少显存", "换成{v}要多少显存", "那{v}呢"]}


@pytest.mark.parametrize(("lang", "shape", "value"),
                         [(lang, shape, v) for lang in ASKED for shape in ASKED[lang] for v in ("4k", "16k")])
def test_a_figure_at_another_length(lang: str, shape: str, value: str) -> None:
    first, second = run_conversation([TRAIN_FIRST[lang], shape.format(v=value)])
    d = _checked(second)
    assert d["code"] == "figure.moved" and d["input"] == "seq_len" and d["new"] == LENGTHS[value]
    before = payload(first)["results"]["recommend"]["best"]
    now = next(o for o in [payload(second)["results"]["recommend"]["best"], *payload(second)["results"]["recommend"]["options"]]
               if (o["gpu"], o["gpus"]) == (before["gpu"], before["gpus"]))  # like for like: the setup before
    assert d["old"] == payload(first)["results"]["inputs"]["seq_len"]
    assert d["per_gpu_bytes"] == [now["train_per_gpu_bytes"], before["train_per_gpu_bytes"]]
    assert d["per_gpu_bytes"][0] < d["per_gpu_bytes"][1]  # a shorter sequence takes less memory
    assert d["hours"] == [now["job_hours"], before["job_hours"]]
    assert (d["gpu"], d["gpus"]) == (before["gpu"], before["gpus"])
    head = second.content.split("\n\n")[0]
    assert f"{LENGTHS[value]:,}" in head and (("GB per GPU" in head) if lang == "en" else ("每张 GPU" in head))


def test_t3_19_how_much_at_4k_on_their_own_a100() -> None:
    replies = run_conversation([
        "does context length matter much for finetuning memory? thinking of going from 4k to 32k seq len for llama 3.1 "
        "8b lora, currently on a single a100 80gb", "and how much is it at 4k? we own the a100 btw"])
    # the first turn is a comparison of the two lengths (assistant.seq_compare), so the second is the plan at 4k on
    # their own card; after a plan at 32k it is the figure at 4k beside the one before
    data = payload(replies[1])
    best = data["results"]["recommend"]["best"]
    assert best["owned"] is True and (best["gpu"], best["gpus"]) == ("a100-80gb-sxm", 1)
    assert data["profile"]["seq_len"] == 4096 and data["profile"]["method"] == "lora"
    replies = run_conversation(["finetune llama 3.1 8b with lora at 32k seq len on a single a100 80gb",
                                "and how much is it at 4k? we own the a100 btw"])
    d = _checked(replies[1])
    assert (d["input"], d["new"], d["gpu"], d["gpus"]) == ("seq_len", 4096, "a100-80gb-sxm", 1)
    assert d["memory_pct"] == round((d["per_gpu_bytes"][1] - d["per_gpu_bytes"][0]) / d["per_gpu_bytes"][1] * 100)


V100_FIRST = "实验室有8张V100 32G，想全参微调Qwen2.5-7B，数据大概5万条，平均每条800 token左右，能跑吗？大概要多久"
V100_FIRST_EN = "we have 8 v100 32gb in the lab, full finetune qwen2.5-7b on 50k examples of about 800 tokens, how long?"


@pytest.mark.parametrize(("first", "asked", "method", "measure"), [
    (V100_FIRST, "那换成LoRA呢，快多少", "lora", "speed"), (V100_FIRST, "换成qlora的话要多久", "qlora", "speed"),
    (V100_FIRST_EN, "what about lora, how much faster?", "lora", "speed"),
    (V100_FIRST_EN, "switch to qlora, how long then?", "qlora", "speed")])
def test_how_much_faster_with_another_method(first: str, asked: str, method: str, measure: str) -> None:
    replies = run_conversation([first, asked])
    d = _checked(replies[1])
    assert (d["code"], d["input"], d["old"], d["new"], d["asked"]) == ("figure.moved", "method", "full", method, measure)
    new, old = d["hours"]
    assert old == payload(replies[0])["results"]["recommend"]["best"]["job_hours"]
    assert d["hours_pct"] == round(abs(new - old) / old * 100)
    head = replies[1].content.split("\n\n")[0]
    assert head.index(f"{new:,.1f}") < head.index(f"{gb(d['per_gpu_bytes'][0])} GB")  # the time asked comes first
    if "\u4e00" <= asked[0] <= "\u9fff":
        assert any(w in head for w in ("时间少", "时间多", "和之前"))
    else:
        assert any(w in head for w in ("less time", "more time", "the same as before"))


LOCAL_FIRST = {"zh": "我就一张4090，想本地跑qwen3 32b推理，能跑吗？需要量化不",
               "en": "i have one rtx 4090, want to run qwen3 32b locally for myself, can it run? do i need to quantize"}
LONGEST = {"zh": ["那int4的话上下文最多能开到多长", "上下文最长能开多少"],
           "en": ["whats the max context i can run?", "with int4, how long a context can it fit?"]}


@pytest.mark.parametrize(("lang", "asked"), [(lang, a) for lang in LONGEST for a in LONGEST[lang]])
def test_the_longest_context_on_their_card(lang: str, asked: str) -> None:
    replies = run_conversation([LOCAL_FIRST[lang], asked])
    d = _checked(replies[1])
    assert (d["code"], d["gpu"], d["gpus"]) == ("figure.longest", "rtx-4090", 1)
    rec = Recommendation.model_validate(payload(replies[1])["results"]["recommend"])
    w = rec.workload.model_copy(update={"engine": rec.best.engine or rec.workload.engine})
    contexts = [x["context"] for x in d["limits"]]
    for limit in d["limits"]:  # each figure is the tool's
        assert limit["context"] == longest_context(w, "rtx-4090", 1, precision=d["precision"],
                                                   kv_cache=limit["kv_cache"]).context
    assert contexts == sorted(contexts) and contexts[0] < contexts[-1]  # a smaller KV cache holds a longer context
    assert f"{contexts[0]:,}" in replies[1].content.split("\n\n")[0]


MISTRAL_FIRST = "need to serve mistral small 24b in prod. p95 ttft under 500ms, ~50 rps, avg prompt 1500 tokens, " \
                "output 300. what gpus and how many"


@pytest.mark.parametrize("asked", ["can we use fp8 on h100 to cut the count?", "用H100跑fp8能少几张吗"])
def test_a_format_on_a_named_card_gives_its_count(asked: str) -> None:
    replies = run_conversation([MISTRAL_FIRST, asked])
    d = _checked(replies[1])
    assert d["code"] == "figure.counts"
    fp8, bf16 = d["cards"]
    assert (fp8["gpu"], fp8["format"], bf16["gpu"], bf16["format"]) == ("h100-sxm", "fp8", "h100-sxm", "bf16")
    assert fp8["gpus"] and bf16["gpus"] and fp8["gpus"] < bf16["gpus"]  # 8-bit weights cut the count
    assert "MI300X" not in replies[1].content.split("\n\n")[0]


@pytest.mark.parametrize("first", [
    "we want to self host deepseek r1 (the full 671b) for around 200 concurrent users internally, long reasoning "
    "outputs. h200 vs h100 vs mi300x, how many servers each?",
    "自建部署deepseek r1满血版，内部200人同时用，h200、h100、mi300x各要几台服务器？"])
def test_the_servers_of_each_card_named(first: str) -> None:
    reply = run_conversation([first])[0]
    d = _checked(reply)
    assert d["code"] == "figure.counts"
    rows = {c["gpu"]: c for c in d["cards"]}
    assert set(rows) == {"h200", "h100-sxm", "mi300x"}
    assert all(c["gpus"] and c["servers"] for c in rows.values())
    assert rows["h100-sxm"]["servers"] > rows["h200"]["servers"]  # 80 GB cards take more servers than 141 GB ones
    assert rows["h100-sxm"]["servers"] == -(-rows["h100-sxm"]["gpus"] // 8)


SERVE_FIRST = {"en": "serve qwen2.5 14b for 20 people at once on rented cards, around the clock",
               "zh": "租卡给20个人同时用qwen2.5 14b推理，全天候"}
SERVE_ASKED = {"en": ["what about {n} users?", "how much at {n} users?"], "zh": ["那{n}人呢", "{n}个人同时用要多少钱"]}


@pytest.mark.parametrize(("lang", "shape", "n"),
                         [(lang, shape, n) for lang in SERVE_ASKED for shape in SERVE_ASKED[lang] for n in (40, 80)])
def test_a_serving_figure_at_another_load(lang: str, shape: str, n: int) -> None:
    first, second = run_conversation([SERVE_FIRST[lang], shape.format(n=n)])
    d = _checked(second)
    assert (d["code"], d["input"], d["old"], d["new"]) == ("figure.moved", "users", 20, n)
    before = payload(first)["results"]["recommend"]["best"]
    assert d["per_gpu_bytes"][1] == before["serve_per_gpu_bytes"]
    if (d["gpu"], d["gpus"]) == (before["gpu"], before["gpus"]):  # the same cards carry more people: more KV cache
        assert d["per_gpu_bytes"][0] > d["per_gpu_bytes"][1]
        assert d["tokens_per_s"][0] <= d["tokens_per_s"][1]
