"""Concept and comparison questions get a comparison with computed figures, not a rental plan on an invented job
(review T1-06, T1-09, T1-15, T2-08, T3-05, T3-08, T3-09, T3-12, T3-19). Generated over question shapes x models x
methods or cards x language; each asserts the answer's code and that the figures compared stand on the same basis,
computed here with the tools (never typed in):

- two fine-tuning methods: each one's total for ONE model at ONE sequence length (the one said), their ratio;
- a method switched on a plan whose cards changed: the two totals, never 8 cards' share against one card's whole;
- two sequence lengths: the memory at each on the cards said, what grows (activations, logits) and what stays;
- two forms of one card ('h100 pcie and sxm') and a price ratio said ('worth ~2x the hourly price?');
- equal speeds are a tie ('about the same'), never 'faster: 31 against 31'."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.verdict import even, pick_among
from gpu_advisor.tools.recommend import Workload, training_setup
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
from tests.conversation import payload, run_conversation

# ---------------------------------------------------------------- two methods, one model, one sequence length

# (words per language, model id)
MODELS = [({"en": "qwen3 8b", "zh": "Qwen3-8B"}, "qwen3-8b"), ({"en": "llama 3.1 8b", "zh": "llama3.1 8b"}, "llama-3.1-8b"),
          ({"en": "qwen2.5 14b", "zh": "Qwen2.5-14B"}, "qwen2.5-14b")]
METHODS = {"en": {"lora": "lora", "qlora": "qlora", "full": "full fine-tuning"},
           "zh": {"lora": "LoRA", "qlora": "QLoRA", "full": "全参微调"}}
PAIRS = [("full", "lora"), ("lora", "qlora"), ("full", "qlora")]
# (words, tokens): the sequence length said
SEQS = [("4k", 4000), ("8k", 8000), ("2048", 2048)]
SHAPES = {"en": ["how much memory difference between {a} and {b} for {model}, seq len {seq}?",
                 "{a} vs {b}: how much vram for {model} at sequence length {seq}?",
                 "difference between {a} and {b} in terms of memory? for {model}, seq len {seq}"],
          "zh": ["请教下，{a}和{b}显存到底差多少？拿{model}举个例子，序列长度{seq}",
                 "{model}用{a}还是{b}，序列长度{seq}，显存差多少？"]}
PLAN_HEAD = ("## Rent", "## 租用", "## Buy", "## 购买")


def _method_cases() -> list[tuple[str, str, tuple[str, str], int]]:
    out = []
    for i, (lang, (words, model), pair, (seq_words, seq)) in enumerate(
            itertools.product(("en", "zh"), MODELS, PAIRS, SEQS)):
        shapes = SHAPES[lang]
        a, b = pair if i % 2 else pair[::-1]  # both orders said
        text = shapes[i % len(shapes)].format(a=METHODS[lang][a], b=METHODS[lang][b], model=words[lang], seq=seq_words)
        if i % 3 == 0 or seq == 4000:  # every shape, pair and model in each language, not the whole product
            out.append((text, model, (a, b), seq))
    return out


@pytest.mark.parametrize(("text", "model", "pair", "seq"), _method_cases())
def test_methods_compared_on_one_model_at_the_length_said(text: str, model: str, pair: tuple[str, str], seq: int) -> None:
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["topic"] == "method_compare" and data["kind"] == "info", reply.content
    assert not reply.content.lstrip().startswith(PLAN_HEAD)  # no rental plan on an invented job
    rows = {r["method"]: r for r in data["results"]["method_compare"]}
    assert set(rows) == set(pair)
    totals = {}
    for method in pair:
        expected = training_memory(TrainingMemoryInput(model=model, method=method, seq_len=seq))
        assert rows[method]["seq_len"] == seq and rows[method]["gpus"] == 1
        assert rows[method]["per_gpu_bytes"] == pytest.approx(expected.per_gpu_total_bytes)
        totals[method] = expected.per_gpu_total_bytes
    saves = data["results"]["method_saves"]
    assert saves["basis"] == "total_one_gpu"
    assert saves["times"] == round(max(totals.values()) / min(totals.values()), 1) > 1.0
    assert "1.0×" not in reply.content and "1.0 倍" not in reply.content and "1/1.0" not in reply.content


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bare_size_is_the_example_of_a_method_comparison(lang: str) -> None:
    text = {"en": "whats the actual difference between lora and qlora in terms of memory? like for a 70b model, would "
                  "qlora let me do it on one card",
            "zh": "lora和qlora显存上到底差多少？比如一个70b的模型，qlora能不能单卡跑"}[lang]
    data = payload(run_conversation([text])[-1])
    rows = {r["method"]: r for r in data["results"]["method_compare"]}
    for method in ("lora", "qlora"):
        expected = training_memory(TrainingMemoryInput(model="70B", method=method))
        assert rows[method]["per_gpu_bytes"] == pytest.approx(expected.per_gpu_total_bytes)


# ---------------------------------------------------------------- a method switched on cards that changed

SWITCH = {"en": ("lora finetune {model} on 20k examples of 500 tokens, rent", "what about full fine-tuning on 8x a100 80gb instead?"),
          "zh": ("用LoRA微调{model}，2万条样本，每条500 token，租卡", "那如果要全参呢，8张A100 80GB够吗")}


@pytest.mark.parametrize(("lang", "model"), list(itertools.product(("en", "zh"), [m for _w, m in MODELS[:2]])))
def test_a_switch_compares_totals_when_the_cards_changed(lang: str, model: str) -> None:
    words = next(w for w, m in MODELS if m == model)[lang]
    first, second = SWITCH[lang]
    reply = run_conversation([first.format(model=words), second])[-1]
    data = payload(reply)
    switch = data["method_switch"]
    assert (switch["from"], switch["to"]) == ("lora", "full")
    memory = switch["memory"]
    if (switch["old_gpu"], switch["old_gpus"]) == (switch["new_gpu"], switch["new_gpus"]):
        assert memory["basis"] == "per_gpu"
        return
    assert memory["basis"] == "total"
    w = Workload.model_validate(data["results"]["recommend"]["workload"])
    for method, key in (("lora", "old_bytes"), ("full", "new_bytes")):
        expected = training_memory(training_setup(w.model_copy(update={"method": method}), 1, switch["new_gpu"]))
        assert memory[key] == pytest.approx(expected.per_gpu_total_bytes)
    assert memory["times"] > 2  # a full fine-tune's states against LoRA's adapters: never "about 1.0×"
    assert "1.0×" not in reply.content and "1.0 倍" not in reply.content and "1/1.0" not in reply.content


# ---------------------------------------------------------------- two sequence lengths

SEQ_SHAPES = {"en": ["does context length matter much for finetuning memory? going from {a} to {b} seq len for {model} "
                     "{method}{card}",
                     "{method} on {model}: how much more memory at {b} sequence length vs {a}?{card}"],
              "zh": ["序列长度从{a}加到{b}，{model} 做{method}显存会涨多少？{card}",
                     "{model} {method}微调，{a}和{b}的序列长度显存差多少{card}"]}
CARDS = {"en": [("", None), (", on a single a100 80gb", (1, "a100-80gb-sxm")), (" on one 4090", (1, "rtx-4090"))],
         "zh": [("", None), ("单卡A100 80GB", (1, "a100-80gb-sxm")), ("，一张4090", (1, "rtx-4090"))]}
LENGTHS = [("4k", "32k", 4000, 32000), ("2k", "8k", 2000, 8000)]


def _seq_cases() -> list[tuple[str, str, str, int, int, tuple[int, str] | None]]:
    out = []
    for i, (lang, (words, model), method, (a, b, na, nb)) in enumerate(
            itertools.product(("en", "zh"), MODELS[:2], ("lora", "qlora"), LENGTHS)):
        card_words, card = CARDS[lang][i % len(CARDS[lang])]
        shape = SEQ_SHAPES[lang][i % 2]
        out.append((shape.format(a=a, b=b, model=words[lang], method=METHODS[lang][method], card=card_words),
                    model, method, na, nb, card))
    return out


@pytest.mark.parametrize(("text", "model", "method", "short", "long_", "card"), _seq_cases())
def test_two_sequence_lengths_are_sized_on_the_same_model_and_cards(text: str, model: str, method: str, short: int,
                                                                   long_: int, card: tuple[int, str] | None) -> None:
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["topic"] == "method_compare" and not reply.content.lstrip().startswith(PLAN_HEAD), reply.content
    seq = data["results"]["seq_compare"]
    assert seq["method"] == method
    rows = {r["seq_len"]: r for r in seq["rows"]}
    assert set(rows) == {short, long_}
    for n in (short, long_):
        expected = training_memory(TrainingMemoryInput(model=model, method=method, seq_len=n))
        assert rows[n]["per_gpu_bytes"] == pytest.approx(expected.per_gpu_total_bytes)
        assert rows[n]["logit_bytes"] == pytest.approx(expected.logit_bytes) and expected.logit_bytes > 0
    assert rows[long_]["weights_bytes"] == pytest.approx(rows[short]["weights_bytes"])  # the weights stay
    assert rows[long_]["activation_bytes"] > rows[short]["activation_bytes"]  # the activations grow
    if card is None:
        assert seq["card"] is None and seq["code"] in ("grows", "grows_big", "barely")
        return
    assert (seq["card"]["gpus"], seq["card"]["gpu"]) == card
    fits = {int(k): v for k, v in seq["card"]["fits"].items()}
    room = seq["card"]["capacity_bytes"]
    assert fits == {n: rows[n]["per_gpu_bytes"] <= room for n in (short, long_)}
    code = "grows_fits" if all(fits.values()) else "grows_not_fits" if fits[short] else "neither_fits"
    assert seq["code"] in (code, "barely")


def test_a_serving_context_is_no_training_length_question() -> None:
    u = understand("serve llama 3.1 8b with 4k or 32k context, memory?")
    assert "seq_lens" not in u.ask


# ---------------------------------------------------------------- two forms of one card, a price ratio said

FORMS = {"en": ["whats the actual difference between {card} {a} and {b} for inference?", "{card} {a} vs {b}?",
                "{card} {a} or {b}, which one for serving?"],
         "zh": ["{card} {a} 和 {b} 有什么区别？", "{card} {a} 还是 {b}，推理用哪个"]}
FORM_CARDS = [("h100", {"pcie": "h100-pcie", "sxm": "h100-sxm"}), ("a100", {"pcie": "a100-80gb-pcie", "sxm": "a100-80gb-sxm"})]


@pytest.mark.parametrize(("lang", "shape", "card", "order"), [
    (lang, shape, card, order) for lang in ("en", "zh") for shape in range(len(FORMS[lang]))
    for card in range(len(FORM_CARDS)) for order in (0, 1)])
def test_two_forms_of_one_card_are_two_cards_compared(lang: str, shape: int, card: int, order: int) -> None:
    name, ids = FORM_CARDS[card]
    a, b = ("pcie", "sxm") if order == 0 else ("sxm", "pcie")
    text = FORMS[lang][shape].format(card=name, a=a.upper() if lang == "zh" else a, b=b.upper() if lang == "zh" else b)
    u = understand(text)
    assert u.compare_gpus == [ids[a], ids[b]], text
    assert "interconnect" not in u.intents  # "pcie" inside a card's name asks nothing about links


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_forms_alone_compare_the_conversations_card(lang: str) -> None:
    turns = {"en": ["whats the actual difference between h100 pcie and sxm for inference? is sxm worth the extra money "
                    "if i'm just serving a 13b model", "5-20. but mostly i want to know the pcie vs sxm thing"],
             "zh": ["H100 PCIe 和 SXM 到底有什么区别？只是部署一个13b的模型，SXM 值得多花钱吗",
                    "5到20个人。我主要想知道 pcie 和 sxm 的区别"]}[lang]
    replies = run_conversation(turns)
    for reply in replies:
        also = [a for a in payload(reply).get("also") or [] if a.get("code") == "compare_cards"]
        assert also, reply.content
        facts = {f["id"]: f for f in also[0]["facts"]} if also[0].get("facts") else None
        options = {o["gpu"] for o in also[0]["options"]}
        assert options == {"h100-pcie", "h100-sxm"}
        if facts:
            assert set(facts) == {"h100-pcie", "h100-sxm"}
    assert payload(replies[-1])["profile"]["users_range"] == [5, 20]


RATIO = {"en": ["h100 vs a100 for finetuning, is the h100 actually worth ~{r}x the hourly price? we mostly do lora on "
                "{model}", "h100 or a100 for lora on {model}, the h100 is {r} times the price, worth it?"],
         "zh": ["H100 和 A100 做微调，H100 每小时价格是 A100 的 {r} 倍，值得吗？主要是 {model} 的 lora",
                "{model} lora 微调用 H100 还是 A100？H100 租金是 A100 的 {r} 倍"]}


@pytest.mark.parametrize(("lang", "shape", "ratio", "model"), [
    (lang, shape, r, m) for lang in ("en", "zh") for shape in (0, 1) for r in (1.5, 2, 3) for m in ("7b", "14b")
    if (shape + int(r * 2) + len(m)) % 2 == 0 or r == 2])
def test_a_price_ratio_said_weighs_the_cost_per_run_at_it(lang: str, shape: int, ratio: float, model: str) -> None:
    text = RATIO[lang][shape].format(r=f"{ratio:g}", model=model)
    reply = run_conversation([text])[-1]
    data = payload(reply)
    also = [a for a in data.get("also") or [] if a.get("code") == "compare_cards"]
    assert also, reply.content
    weighed = also[0]["price_ratio"]
    options = {o["gpu"]: o for o in also[0]["options"]}
    assert weighed["ratio"] == ratio and {weighed["dear"], weighed["cheap"]} == {"h100-sxm", "a100-80gb-sxm"}
    hours = {g: options[g]["job_hours"] * options[g]["gpus"] for g in options}
    cost = ratio * hours[weighed["dear"]] / hours[weighed["cheap"]]
    assert weighed["cost_times"] == round(cost, 2)
    code = "even" if 1 / 1.1 <= cost <= 1.1 else "worth" if cost < 1 else "not_worth"
    assert weighed["code"] == code
    assert data["results"].get("glossary") is None and "LoRA fine-tunes a model by freezing" not in reply.content


# ---------------------------------------------------------------- ties said as ties

@pytest.mark.parametrize(("a", "b", "tie"), [(31.2, 30.9, True), (54.0, 54.4, True), (91.0, 63.0, False),
                                             (1.3, 1.31, True), (2.9, 1.3, False), (10.0, 10.6, False)])
def test_even_speeds_are_a_tie(a: float, b: float, tie: bool) -> None:
    assert even(a, b, round) is tie


@pytest.mark.parametrize("figure", ["decode_tokens_per_s", "job_hours"])
def test_the_verdict_on_equal_speeds_says_so(figure: str) -> None:
    options = [{"gpu": "a800-80gb-sxm", "ok": True, "usd_per_hour": 1.6, figure: 31.2},
               {"gpu": "h20", "ok": True, "usd_per_hour": 1.5, figure: 30.9}]
    v = pick_among(options, {"a800-80gb-sxm": 100.0, "h20": 101.0}, "month")
    assert v["code"] == "faster" and v["speed"] == "same"
    options[1][figure] = 15.0
    assert pick_among(options, {"a800-80gb-sxm": 100.0, "h20": 101.0}, "month")["speed"] == "faster"


@pytest.mark.parametrize("text", ["A800和H20选哪个跑推理啊，模型是qwen2.5 72b，主要是线上服务",
                                  "A800 or H20 for serving qwen2.5 72b to customers, which one?"])
def test_equal_speeds_in_a_card_comparison_are_about_the_same(text: str) -> None:
    turns = [text]
    reply = run_conversation(turns)[-1]
    while payload(reply).get("kind") == "question" and len(turns) < 5:
        turns.append("不确定" if "模型" in text else "not sure")
        reply = run_conversation(turns)[-1]
    sections = [payload(reply)["results"], *(payload(reply).get("also") or [])]
    speed = next((s["speed"] for s in sections if isinstance(s, dict) and s.get("speed")), None)
    assert speed is not None, reply.content
    shown_same = f"{speed['a']:,.0f}" == f"{speed['b']:,.0f}"
    assert (speed["code"] == "same") is (shown_same or even(speed["a"], speed["b"]))
    if speed["code"] == "same":
        assert "更快：" not in reply.content and "is faster:" not in reply.content


@pytest.mark.parametrize("turns", [
    ["请教下，全参微调和LoRA显存到底差多少？拿Qwen3-8B举个例子呗，序列长度4k"],
    ["序列长度从4k加到32k，llama 3.1 8b 做lora显存会涨多少？一张4090"],
    ["H100 和 A100 做微调，H100 每小时价格是 A100 的 2 倍，值得吗？主要是 14b 的 lora"],
    ["公司要求国产化，只能用昇腾910B，想对GLM-4-9B做LoRA微调，数据2万条左右，每条500字上下，需要几张卡？大概跑多久",
     "那如果要全参呢，一台8卡910B的机器够吗"],
    ["A800和H20选哪个跑推理啊，模型是qwen2.5 72b，主要是线上服务", "不确定"]])
def test_chinese_comparisons_have_no_english_sentence(turns: list[str]) -> None:
    from tests.test_no_english_in_chinese import english_runs

    for reply in run_conversation(turns):
        assert english_runs(str(reply.content)) == [], reply.content
