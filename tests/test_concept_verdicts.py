"""Concept and choice questions get an expert's verdict for the user's setting, with the figures from the tools:
formats weighed on a card (assistant/format_verdict.py), tensor against pipeline parallelism for a model named
(assistant/parallel_choice.py), and the KV cache / GQA of a model named (assistant/followups.kv_cache).
Phrasings are generated in both languages; the assertions are on the intent read, the verdict code and the
figures, not on prose."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_precision
from tests.conversation import payload, run_conversation, unexplained_numbers

# ---------------------------------------------------------------- formats weighed on a card

FP8_INT4 = {
    "en": ["FP8 or INT4 for Llama 3.1 70B on {card}, which is better?", "llama 3.1 70b on {card}: fp8 vs int4?",
           "which is better on {card} for llama-3.1-70b, int4 or fp8"],
    "zh": ["Llama 3.1 70B在{card}上用FP8还是INT4好？", "{card}跑llama 3.1 70b，fp8和int4哪个好", "llama3.1 70b {card} int4还是fp8"],
}
CARDS = {"none": {"en": "H100", "zh": "H100"}, "one": {"en": "one H100", "zh": "单张H100"},
         "two": {"en": "2 H100", "zh": "2张H100"}}
EXPECT = {"none": ("cards", "fp8", 2, "int4", 1), "one": ("only", "int4", 1, "fp8", 1),
          "two": ("quality", "fp8", 2, "int4", 2)}


def _info(text: str, topic: str, glossary: bool = False):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "info" and data.get("topic") == topic, reply.content
    if not glossary:  # a glossary entry said first ("worth it?": what quantization is) carries its own figures
        assert unexplained_numbers(reply.content, data["results"]) == [], reply.content
    return reply.content, data["results"]


@pytest.mark.parametrize(("lang", "phrase", "count"), [
    (lang, phrase, count) for lang in ("en", "zh") for phrase in FP8_INT4[lang] for count in CARDS
    if count == "none" or not phrase.startswith("{card}跑")])  # '单张H100跑…' reads as a card of one's own
def test_fp8_or_int4_for_70b_on_h100_is_decided_for_the_cards_said(lang: str, phrase: str, count: str) -> None:
    text = phrase.format(card=CARDS[count][lang])
    assert "weigh" in understand(text).intents, text
    content, results = _info(text, "weigh")
    code, pick, pick_gpus, other, other_gpus = EXPECT[count]
    verdict = results["format_verdict"]
    assert (verdict["code"], verdict["pick"], verdict["pick_gpus"]) == (code, pick, pick_gpus), content
    assert (verdict["other"], verdict["other_gpus"]) == (other, other_gpus), content
    # the published gap from knowledge, with its source
    assert verdict["accuracy_drop_pct"]["fp8"] == [0.0, 0.0]
    assert verdict["accuracy_drop_pct"]["int4"] == list(find_precision("int4").accuracy_drop_pct or ())
    assert "2411.02355" in content
    assert content.count("**Verdict" if lang == "en" else "**结论") == 1, content
    assert ("What would change it" if lang == "en" else "什么会改变结论") in content


@pytest.mark.parametrize("text", [
    "is FP8 worth it over BF16 for Llama 3.1 8B on L40S?", "llama 3.1 8b on an L40S: bf16 or fp8, which?",
    "L40S上跑Llama 3.1 8B，FP8比BF16值得吗？", "llama 3.1 8b在L40S上用bf16还是fp8"])
def test_fp8_over_bf16_on_a_card_with_fp8_tensor_cores(text: str) -> None:
    content, results = _info(text, "weigh", glossary="worth" in text)
    verdict = results["format_verdict"]
    assert verdict["code"] == "faster" and verdict["pick"] == "fp8" and verdict["other"] == "bf16", content
    assert verdict["speed_ratio"] >= 1.1 and verdict["saved_bytes"] > 0


@pytest.mark.parametrize("text", ["INT8 vs FP8 for Llama 3.1 8B on A100?", "llama 3.1 8b on an a100: fp8 or int8?",
                                  "A100上跑Llama 3.1 8B，INT8和FP8哪个好？", "a100跑llama 3.1 8b用fp8还是int8"])
def test_int8_over_fp8_on_a_card_without_fp8_tensor_cores(text: str) -> None:
    content, results = _info(text, "weigh")
    verdict = results["format_verdict"]
    assert (verdict["code"], verdict["pick"], verdict["other"]) == ("native", "int8", "fp8"), content


# ---------------------------------------------------------------- tensor or pipeline parallel

PAR = {
    "en": ["TP or PP for {model} across {n} nodes?", "tensor parallel or pipeline parallel for {model} on {n} servers?",
           "{model} on {n} 8xH100 nodes: tensor parallelism vs pipeline parallelism, which?",
           "should we use pp or tp for {model} across {n} machines"],
    "zh": ["{n}台机器跑{model}，用张量并行还是流水线并行？", "{model} {n}台8卡H100，TP还是PP？",
           "{model}放在{n}台服务器上，张量并行和流水线并行选哪个", "{n}台机器{model}该用tp还是pp"],
}
MODELS = {"70B": ("one_node", 2, 1), "Llama 3.1 405B": ("cross_node", 8, 2), "Llama 3.1 8B": ("one_card", 1, 1)}


@pytest.mark.parametrize(("lang", "phrase", "model"), list(itertools.product(
    ["en"], PAR["en"], MODELS)) + list(itertools.product(["zh"], PAR["zh"], MODELS)))
def test_tp_or_pp_for_a_model_is_decided_by_whether_one_server_holds_it(lang: str, phrase: str, model: str) -> None:
    text = phrase.format(model=model, n=2)
    u = understand(text)
    assert "parallelism" in u.intents and u.ask["par_choice"]["servers"] == 2, (text, u.intents, u.ask)
    content, results = _info(text, "parallelism")
    code, tp, pp = MODELS[model]
    verdict = results["par_choice"]
    assert (verdict["code"], verdict["tp"], verdict["pp"], verdict["per_node"]) == (code, tp, pp, 8), content
    assert verdict["per_gpu_bytes"] <= verdict["capacity_bytes"]
    assert content.startswith("**Verdict" if lang == "en" else "**结论"), content[:120]
    if code == "cross_node":
        assert verdict["fp8_tp"] == 8  # 405B in FP8 fits one 8 x H100 server: then no cross-server split
    if code == "one_node":
        assert verdict["copies"] == 8  # 2 servers x 8 cards / TP 2


@pytest.mark.parametrize("text", ["what's the difference between tensor parallel and pipeline parallel for llama 70b?",
                                  "张量并行和流水线并行选哪个", "should i use tensor parallel or pipeline parallel to "
                                  "serve llama 3.3 70b on 4x L40S?"])
def test_tp_and_pp_explained_or_asked_with_a_job_keep_their_reply(text: str) -> None:
    assert "par_choice" not in understand(text).ask


# ---------------------------------------------------------------- KV cache and GQA of a model named

KV = {
    "en": ["how does GQA help for {model}?", "why is the KV cache so big for {model}?",
           "why is the kv cache of {model} so large at 32k", "how much does grouped-query attention save on {model}?"],
    "zh": ["GQA对{model}有什么用？", "{model}为什么KV缓存这么大？", "{model} 32k上下文，为什么KV缓存这么大",
           "{model}的GQA能省多少KV缓存？"],
}
GQA = {"Llama 3.1 8B": (32, 8, 4), "Llama 3.1 70B": (64, 8, 8), "Qwen2.5 7B": (28, 4, 7)}


@pytest.mark.parametrize(("lang", "phrase", "model"), list(itertools.product(["en"], KV["en"], GQA))
                         + list(itertools.product(["zh"], KV["zh"], GQA)))
def test_kv_and_gqa_of_a_model_named_give_its_figures(lang: str, phrase: str, model: str) -> None:
    text = phrase.format(model=model)
    assert "kv_cache" in understand(text).intents, text
    reply = run_conversation([text])[-1]
    kv = payload(reply)["results"]["kv_cache"]
    heads, kv_heads, factor = GQA[model]
    assert (kv["query_heads"], kv["kv_heads"], kv["gqa_factor"]) == (heads, kv_heads, factor), reply.content
    assert kv["mha_per_user_bytes"] == kv["per_user_bytes"] * factor
    assert not kv.get("example")  # the model named, not the worked example
    if "32k" in text:
        assert kv["context"] == 32768


@pytest.mark.parametrize("text", ["why is the KV cache so big?", "为什么KV缓存这么大", "为什么 kv cache 那么大？"])
def test_why_the_kv_cache_is_big_works_an_example_not_a_plan_question(text: str) -> None:
    reply = run_conversation([text])[-1]
    kv = payload(reply)["results"]["kv_cache"]
    assert kv["example"] and kv["gqa_factor"] == 4, reply.content


# ---------------------------------------------------------------- "is a 4090 enough for 32B"

@pytest.mark.parametrize("text", ["is a 4090 enough for 32B", "is one 4090 enough for a 32B model?",
                                  "can a 4090 run 32B?", "is a 4090 enough for qwen2.5 32b?",
                                  "4090够跑32B吗", "一张4090够跑32B吗？", "单张4090够不够跑32B"])
def test_is_one_card_enough_is_answered_on_that_one_card(text: str) -> None:
    assert "fit_check" in understand(text).intents or "owned" in understand(text).updates, text
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "answer", reply.content[:200]
    assert (data["decision"]["gpu"], data["decision"]["gpus"]) == ("rtx-4090", 1), reply.content[:200]
    assert reply.content.startswith(("**Yes**", "**能**")), reply.content[:200]
