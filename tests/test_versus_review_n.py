"""'A or B' gets A vs B sized on the user's workload, with the verdict in the headline (review N class 2): cards named as
the choice beside a job are each sized on it (at the count said with a card), the plan (headline) is on the one the
verdict picks among them only, the table ranks only those (others: one 'also consider' line), a named option that
falls short says why, a missing price is said rather than 'about the same cost', and a load not given is assumed and
said. Two models named as the choice are each sized on the job with a verdict between them. Generated over pairs
and triples, word orders, counts with cards and both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.message import prepare
from gpu_advisor.assistant.reading.model_choice import models_weighed
from gpu_advisor.knowledge import find_gpu
from tests.conversation import payload, run_conversation

# (card words a, b, [c], model words, the job in each language): serving choices with no load said.
SERVE = [
    (("h100", "h200"), "llama 3.3 70b"),
    (("l4", "4090"), "llama 3.1 8b"),
    (("h20", "l20"), "qwen2.5 72b"),
    (("a100 80gb", "l40s"), "qwen2.5 32b"),
]
IDS = {"h100": "h100-sxm", "h200": "h200", "l4": "l4", "4090": "rtx-4090", "h20": "h20", "l20": "l20",
       "a100 80gb": "a100-80gb-sxm", "l40s": "l40s", "3090": "rtx-3090", "5090": "rtx-5090", "l40s 48gb": "l40s",
       "a100": "a100-80gb-sxm"}
ORDERS = {"en": ["for serving {model}, {a} or {b}?", "{a} vs {b} for serving {model}, which one",
                 "serving {model}: between {a} and {b}, which is better value"],
          "zh": ["部署 {model} 推理，{a}还是{b}？", "{a}和{b}哪个更适合部署 {model} 推理", "{model} 推理服务用 {a} 还是 {b} 划算"]}


def _reply(text: str):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "answer", reply.content  # answered at once: the load is assumed, and said
    return reply, data


def _compared(data: dict) -> dict:
    also = next(a for a in data.get("also") or [] if a["code"] == "compare_cards")
    return also


CASES = [(lang, order, cards, model) for lang in ORDERS for order in range(3) for cards, model in SERVE]


@pytest.mark.parametrize(("lang", "order", "cards", "model"), CASES)
def test_two_cards_named_for_serving_headline_the_verdict_among_them(lang, order, cards, model):
    text = ORDERS[lang][order].format(a=cards[0], b=cards[1], model=model)
    reply, data = _reply(text)
    named = {IDS[c] for c in cards}
    best = data["results"]["recommend"]["best"]
    assert best["gpu"] in named, (text, best["gpu"])
    also = _compared(data)
    assert {o["gpu"] for o in also["options"]} == named  # both options sized on the workload
    assert also["verdict"]["pick"] == best["gpu"]  # the headline and the verdict agree
    assert reply.content.startswith("## ") and find_gpu(best["gpu"]).name in reply.content.splitlines()[0]
    shown = {row[0] for row in data["table"]["rows"]}  # the table ranks only the options named
    assert all(any(find_gpu(g).name in row for g in named) for row in shown), shown
    assert data["profile"]["users"]  # a load assumed, and said among the assumptions
    assert "users" in data["assumptions"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_cards_are_ranked_with_a_verdict_among_the_three(lang):
    text = {"en": "for serving llama 3.1 8b which is better value, L4 or L40S or 4090",
            "zh": "部署 llama 3.1 8b 推理，L4、L40S 还是 4090 哪个划算"}[lang]
    _reply_text, data = _reply(text)
    named = {"l4", "l40s", "rtx-4090"}
    also = _compared(data)
    assert {o["gpu"] for o in also["options"]} == named
    assert also["verdict"]["pick"] in named and also["verdict"]["pick"] == data["results"]["recommend"]["best"]["gpu"]
    if also["verdict"]["code"] == "cheaper":
        assert set(also["verdict"]["ranked"]) == named


def test_a10g_is_weighed_not_dropped():
    # the A10G (AWS G5) is in the catalog since session 15: weighed with the others, never an unknown card
    u = understand("for serving llama 3.1 8b which is better value, L4 or A10G or 4090")
    assert not any(k == "note.card_unknown" for k, _v in u.notes)
    assert set(u.compare_gpus) == {"l4", "a10g", "rtx-4090"}


@pytest.mark.parametrize(("text", "pick", "count"), [
    ("thinking of buying either 2x used 3090 or one 5090 for local llms, mostly 70b models. which one", "rtx-3090", 2),
    ("2x 3090 or a single 5090 for running 70b models locally?", "rtx-3090", 2),
    ("本地跑 70b 模型，2x 3090 还是一张 5090？", "rtx-3090", 2),
    ("two used 3090s or one 5090 for local llm, 70b, which one", "rtx-3090", 2),
])
def test_counts_with_cards_are_the_options(text, pick, count):
    reply, data = _reply(text)
    best = data["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"]) == (pick, count), reply.content.splitlines()[0]
    also = _compared(data)
    sized = {(o["gpu"], o["gpus"]): o["ok"] for o in also["options"]}
    assert sized == {("rtx-3090", 2): True, ("rtx-5090", 1): False}  # the 5090 alone says why it falls short
    assert also["verdict"] == {"code": "only", "pick": "rtx-3090"}
    assert data["profile"]["precision"] == "q4_k_m"  # at home: the usual 4-bit GGUF, said
    assert "precision" in data["assumptions"]


@pytest.mark.parametrize("text", [
    "A100 80G 和 H100 训练 LoRA 差多少？Llama-3.1-8B 20 万条",
    "a100 80gb vs h100 for a lora fine-tune of llama 3.1 8b on 200k examples, which one",
])
def test_training_choice_headlines_one_of_the_two(text):
    _reply_text, data = _reply(text)
    best = data["results"]["recommend"]["best"]
    assert best["gpu"] in {"a100-80gb-sxm", "h100-sxm"}
    also = _compared(data)
    assert {o["gpu"] for o in also["options"]} == {"a100-80gb-sxm", "h100-sxm"}
    assert all(o["job_hours"] and o["job_usd"] for o in also["options"])  # time and cost per run for each
    assert also["verdict"]["pick"] == best["gpu"]


def test_a_missing_price_is_said_not_about_the_same():
    reply, data = _reply("昇腾910B和H20跑Qwen2.5-72B推理哪个划算？不一定非要国产")
    assert data["results"]["recommend"]["best"]["gpu"] == "h20"
    also = _compared(data)
    assert also["verdict"]["code"] == "faster" and also["verdict"]["unpriced"] == ["ascend-910b"]
    last = reply.content.strip().splitlines()[-1]
    assert "没有价格记录" in last and "成本差不多" not in last


@pytest.mark.parametrize("text", [
    "线上客服 Qwen3-32B，峰值QPS 15，p95首token<500ms，输入1500输出300，用H20还是L20，各要几张",
    "support bot on qwen3 32b, 15 requests per second peak, p95 ttft under 500ms, 1500 in 300 out: h20 or l20, how many of each",
])
def test_how_many_of_each_sizes_each_card_at_the_target(text):
    _reply_text, data = _reply(text)
    rows = {o["gpu"]: o for o in data["results"]["options"]}
    assert set(rows) == {"h20", "l20"}  # a count for each, on the user's rate and target
    assert all(o["gpus"] >= 1 for o in rows.values())
    also = _compared(data)
    assert {(o["gpu"], o["gpus"]) for o in also["options"]} == {(g, o["gpus"]) for g, o in rows.items()}
    assert also["verdict"]["pick"] == data["results"]["recommend"]["best"]["gpu"]


@pytest.mark.parametrize(("text", "models"), [
    ("deepseek r1 distill qwen 32b or qwq 32b, which cheaper to serve? ~5 rps, 4k outputs",
     ["deepseek-r1-distill-qwen-32b", "qwq-32b"]),
    ("Qwen3-32B 和 Qwen3-30B-A3B 哪个部署更省钱，20 个用户", ["qwen3-32b", "qwen3-30b-a3b"]),
    ("qwen3 32b vs qwen3 30b a3b for serving 20 users, which is cheaper", ["qwen3-32b", "qwen3-30b-a3b"]),
    ("部署 20 个用户，Qwen3-30B-A3B 还是 Qwen3-32B？", ["qwen3-30b-a3b", "qwen3-32b"]),
])
def test_two_models_named_are_each_sized_with_a_verdict(text, models):
    assert models_weighed(prepare(text, None)) == models
    reply = run_conversation([text])[-1]
    assert payload(reply)["kind"] == "answer"
    first = reply.content.split("\n\n")[0]
    assert first.count("\n- ") == 2  # one line for each model, before the plan
    verdict = reply.content.split("\n\n")[1]
    assert verdict.startswith(("**Verdict**", "**结论**"))
    if "qwq-32b" in models:  # one architecture: the same cost, said
        assert "share one architecture" in verdict
    else:  # the MoE model is cheaper per token, and the plan is for it
        assert "Qwen3 30B-A3B" in verdict
        assert payload(reply)["profile"]["model"] == "qwen3-30b-a3b"


@pytest.mark.parametrize("text", ["serve qwen2.5 32b and llama 3.1 8b for 20 users", "run qwen3 32b on 2 h100s",
                                  "qwen2.5 72b 推理，20 个用户"])
def test_no_choice_of_models_when_none_is_asked(text):
    assert models_weighed(prepare(text, None)) == []


@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(["h100", "h200", "a100"], 2)))
def test_every_order_of_a_pair_reads_the_same_choice(a, b):
    for template in ("{a} or {b} for serving llama 3.3 70b", "{a}还是{b}跑 llama 3.3 70b 推理", "between {a} and {b}, which one for serving llama 3.3 70b"):
        u = understand(template.format(a=a, b=b))
        assert set(u.compare_gpus) == {IDS[a], IDS[b]}, template
        assert u.also == "compare_cards"
