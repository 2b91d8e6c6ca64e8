"""Nothing the user said is dropped: whole conversations, generated over phrasings, orders and both languages.

Each case asserts the decision the engine kept (state after every turn: phase, model, the second job in
`also`, the engine named, the cards owned or waiting for their type) and what the reply says of it.
- a training run named beside a served job stays the second job through later slot answers and owned cards;
- batch summarisation 'to build a training set' is a batch job, the training said to come later;
- 'not asking for sizing' / 'just curious' / '不用算配置': the question answered, no slot question after it;
- ollama / LM Studio stay the named engine (llama.cpp underneath, sized as llama.cpp);
- a model variant with no entry of its own is sized as its base's shape and said so;
- cards owned with no type are kept and asked about, and the card named next is theirs.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states


def talk(turns: list[str]) -> list[tuple[dict[str, Any], str]]:
    """(state, reply text) after each turn of one conversation."""
    return [(state, str(state["messages"][-1].content)) for state in run_states(turns)]


def kind(state: dict[str, Any]) -> str:
    return state["messages"][-1].additional_kwargs["gpu_advisor"]["kind"]


# ---------------------------------------------------------------- a second job survives later turns

SERVE = {"en": ["serve qwen2.5-7b for the support team", "we want to host qwen2.5 7b for our support staff"],
         "zh": ["给客服团队部署qwen2.5-7b", "我们要给客服部署qwen2.5 7b"]}
TRAIN = {"en": [" and also fine-tune llama 3 8b on our tickets", ", plus fine-tune llama 3 8b with qlora on our tickets"],
         "zh": ["，同时还要用我们的工单微调llama 3 8b", "，另外还要用lora微调llama 3 8b"]}
OWNED = {"en": ["we have 2 A6000s", "we already have 2 x RTX A6000"], "zh": ["我们有2张A6000", "我们已经有两张A6000"]}
USERS = {"en": "about 20 people", "zh": "20个人"}


@pytest.mark.parametrize("lang,serve,train,owned", [
    (lang, s, t, o) for lang in ("en", "zh") for s, t, o in itertools.product(SERVE[lang], TRAIN[lang], OWNED[lang])])
def test_training_run_beside_a_service_survives_owned_cards(lang: str, serve: str, train: str, owned: str) -> None:
    turns = talk([serve + train, USERS[lang], owned])
    for state, _ in turns:
        also = state.get("also")
        assert also and also["phase"] == "fine-tune" and also["model"] == "llama-3-8b", (serve + train, also)
        assert state["profile"]["model"] == "qwen2.5-7b" and state["profile"]["phase"] == "serve"
        assert state["profile"].get("method") is None  # the training run's method is not the service's
    state, text = turns[-1]
    assert kind(state) == "answer" and state["profile"]["owned"] == ["2x rtx-a6000"]
    assert "Llama 3 8B" in text and ("fine-tuning" in text if lang == "en" else "微调" in text)
    assert ("not sized here" in text) if lang == "en" else ("没有测算" in text)
    assert "Qwen2.5 7B" in text


@pytest.mark.parametrize("order", ["train_first", "serve_first"])
def test_service_sizes_the_cards_whichever_job_is_named_first(order: str) -> None:
    serve, train = "serve qwen2.5-7b for 30 people", "fine-tune llama 3 8b with qlora on 20k examples"
    text = f"{train}, and also {serve}" if order == "train_first" else f"{serve}, and also {train}"
    u = understand(text)
    assert u.updates["phase"] == "serve" and u.updates["model"] == "qwen2.5-7b" and u.updates.get("users") == 30
    assert u.second and u.second["phase"] == "fine-tune" and u.second["model"] == "llama-3-8b"
    assert "method" not in u.updates and "train_tokens" not in u.updates


@pytest.mark.parametrize("text", ["fine-tune llama 3 8b and also serve it to 20 users",
                                  "微调llama 3 8b，同时还要部署给20个人用"])
def test_one_model_trained_then_served_is_one_job(text: str) -> None:
    u = understand(text)
    assert u.updates["phase"] == "train-and-serve" and u.updates["model"] == "llama-3-8b" and u.second is None


# ---------------------------------------------------------------- batch work that makes training data

BATCH_FOR_TRAINING = [
    ("summarise 2M docs with llama 3 70b to build a training set", "llama-3-70b", 2_000_000, "en"),
    ("summarize 300k articles with qwen2.5 72b as training data", "qwen2.5-72b", 300_000, "en"),
    ("classify 500k tickets with qwen2.5 32b to make a training dataset", "qwen2.5-32b", 500_000, "en"),
    ("用qwen2.5 72b批量总结50万篇文章做训练数据", "qwen2.5-72b", 500_000, "zh"),
    ("用llama 3 70b总结200万篇文档，用来做训练集", "llama-3-70b", 2_000_000, "zh"),
]


@pytest.mark.parametrize("text,model,items,lang", BATCH_FOR_TRAINING)
def test_batch_work_for_a_training_set_is_batch(text: str, model: str, items: int, lang: str) -> None:
    [(state, reply)] = talk([text])
    profile = state["profile"]
    assert profile["phase"] == "batch" and profile["model"] == model and profile["batch_items"] == items, profile
    assert profile.get("train_tokens") is None and profile.get("method") is None
    assert ("training on what this job writes is a later job" in reply) if lang == "en" else ("之后的另一个任务" in reply)


@pytest.mark.parametrize("text", ["fine-tune llama 3 8b on our training set of 20k examples",
                                  "用我们的训练数据微调llama 3 8b，2万条样本"])
def test_training_on_a_training_set_is_still_training(text: str) -> None:
    u = understand(text)
    assert u.updates["phase"] == "fine-tune" and u.updates.get("train_tokens")


# ---------------------------------------------------------------- a question with no sizing wanted

NO_SIZING = {"en": ["I'm not asking for sizing, just: is vLLM or SGLang better for this?",
                    "just curious, is vLLM or SGLang better for this?",
                    "not looking for a plan - vllm or sglang, which is better?"],
             "zh": ["不用算配置，只想问：vLLM和SGLang哪个更好？", "只是好奇，vLLM和SGLang哪个好？", "随便问问，vllm还是sglang好？"]}
FIRST = {"en": "serve qwen2.5 7b for 20 users", "zh": "部署qwen2.5 7b给20个人用"}
CHOICE_LINE = {"en": "[A few hours a week]", "zh": "[每周几小时]"}


@pytest.mark.parametrize("lang,question", [(lang, q) for lang in ("en", "zh") for q in NO_SIZING[lang]])
def test_no_sizing_wanted_gets_the_answer_alone(lang: str, question: str) -> None:
    turns = talk([FIRST[lang], question])
    state, text = turns[-1]
    assert kind(state) == "info" and "vLLM" in text and "SGLang" in text
    assert CHOICE_LINE[lang] not in text and "|---|" not in text  # no slot question, no sizing table
    assert state["pending"] == "utilisation"  # the open question is kept for later, not asked now
    assert state["profile"]["model"] == "qwen2.5-7b" and state["profile"]["users"] == 20
    alone = talk([question])[-1]
    assert kind(alone[0]) == "info" and "|---|" not in alone[1] and not alone[0].get("pending")


def test_random_question_is_not_unsure() -> None:
    u = understand("随便问问，vllm和sglang哪个好")
    assert "not_sure" not in u.intents and "no_sizing" in u.intents


def test_just_curious_sizing_question_still_sizes() -> None:
    u = understand("just curious, how many H100s do I need to serve llama 3 70b for 50 users?")
    assert u.updates["model"] == "llama-3-70b" and u.updates["users"] == 50


# ---------------------------------------------------------------- ollama and LM Studio stay named

APPS = [("ollama", "ollama", "ollama"), ("Ollama", "ollama", "ollama"), ("LM Studio", "lm-studio", "LM Studio"),
        ("lmstudio", "lm-studio", "LM Studio")]
APP_TEXT = {"en": "run llama 3 8b on my 4090 with {app}", "zh": "我想在我的4090上用{app}跑llama 3 8b"}


@pytest.mark.parametrize("lang,typed,app,shown", [(lang, *a) for lang in ("en", "zh") for a in APPS])
def test_app_engine_is_named_and_sized_as_llamacpp(lang: str, typed: str, app: str, shown: str) -> None:
    [(state, text)] = talk([APP_TEXT[lang].format(app=typed)])
    assert state["profile"]["engine"] == "llama.cpp" and state["profile"]["engine_app"] == app
    assert kind(state) == "answer"
    assert f"{shown} (llama.cpp underneath)" in text if lang == "en" else f"{shown}（底层是 llama.cpp）" in text
    assert ("the figures are llama.cpp's" in text) if lang == "en" else ("数字按 llama.cpp 测算" in text)


def test_another_engine_later_drops_the_app() -> None:
    turns = talk(["run llama 3 8b on my 4090 with ollama", "with vllm"])
    assert turns[0][0]["profile"]["engine_app"] == "ollama"
    state, text = turns[-1]
    profile = state["profile"]
    assert profile.get("engine") == "vllm" and profile.get("engine_app") is None
    # the GGUF file assumed for ollama is not carried to vLLM: the model asked is sized, never a smaller one
    assert profile.get("precision") is None and "Llama 3.2 3B" not in text and "Llama 3 8B" in text.split("\n")[0]


def test_ollama_gets_its_own_offload_command() -> None:
    [(_, text)] = talk(["run llama 3 70b on my 4090 with ollama, I have 64GB of RAM"])
    assert "llama-server -ngl 43" in text and "/set parameter num_gpu 43" in text


# ---------------------------------------------------------------- model variants are kept or said

VARIANTS = [("Qwen2.5-Coder-32B", "qwen2.5-coder-32b", None), ("qwen2.5 coder 7b", "qwen2.5-coder-7b", None),
            ("Qwen2.5-Coder-14B", "qwen2.5-14b", "Qwen2.5 14B"), ("Qwen2.5-Math 7b", "qwen2.5-7b", "Qwen2.5 7B"),
            ("Qwen2.5-Math-72B-Instruct", "qwen2.5-72b", "Qwen2.5 72B"),
            ("DeepSeek-Coder-V2-Lite", "deepseek-v2-lite", "DeepSeek-V2-Lite")]
VARIANT_TEXT = {"en": ["serve {m} for 10 developers", "we want to host {m} for 10 people"],
                "zh": ["给10个人部署{m}", "我们想用{m}给10个同事用"]}


@pytest.mark.parametrize("lang,template,typed,model,base", [
    (lang, t, *v) for lang in ("en", "zh") for t in VARIANT_TEXT[lang] for v in VARIANTS])
def test_model_variant_resolves_or_is_said(lang: str, template: str, typed: str, model: str, base: str | None) -> None:
    [(state, text)] = talk([template.format(m=typed)])
    assert state["profile"]["model"] == model
    if base:
        said = f'I sized "{typed}" as {base}: the same architecture' if lang == "en" else f"“{typed}”按 {base} 测算"
        assert said in text
    else:
        assert "the same architecture" not in text and "架构和参数量相同" not in text


# ---------------------------------------------------------------- cards owned, type not said

UNTYPED = {"en": ["we have an 8-gpu box", "we have 8 GPUs", "we have an 8 gpu server", "we have a server with 8 gpus"],
           "zh": ["手上有一台8卡的", "我们有8张卡", "我们有一台8卡服务器", "公司有台8卡的机器"]}
JOB = {"en": ", want to serve qwen2.5 72b for 50 people", "zh": "，想给50个人部署qwen2.5 72b"}
CARD = {"en": ["A100 80GB", "they are H100s"], "zh": ["都是H20", "A100"]}
CARD_IDS = {"A100 80GB": "a100-80gb-sxm", "they are H100s": "h100-sxm", "都是H20": "h20", "A100": "a100-80gb-sxm"}


@pytest.mark.parametrize("lang,owned,card", [
    (lang, o, c) for lang in ("en", "zh") for o, c in itertools.product(UNTYPED[lang], CARD[lang])])
def test_untyped_cards_are_kept_and_asked(lang: str, owned: str, card: str) -> None:
    turns = talk([owned + JOB[lang], card])
    state, text = turns[0]
    assert state["owned_untyped"] == 8 and not state["profile"].get("owned")
    assert state["profile"]["model"] == "qwen2.5-72b" and state["profile"]["users"] == 50
    assert ("Which card are your 8?" in text) if lang == "en" else ("你这 8 张是什么卡" in text)
    assert text.count("?" if lang == "en" else "？") == 1 and "[" not in text  # one question, no slot's choices
    state, text = turns[1]
    assert state["profile"]["owned"] == [f"8x {CARD_IDS[card]}"] and not state.get("owned_untyped")
    assert kind(state) == "answer"


def test_untyped_cards_stay_said_when_the_card_is_not_given() -> None:
    turns = talk(["we have 4 gpus", "serve qwen2.5 7b for 10 people during working hours"])
    state, text = turns[-1]
    assert state["owned_untyped"] == 4 and kind(state) == "answer"
    assert "4 cards of your own, their type not said yet" in text


@pytest.mark.parametrize("text", ["we have 8 H100s", "we don't have 8 gpus", "we have 2 servers", "我们有8张A100"])
def test_typed_or_negated_cards_are_not_untyped(text: str) -> None:
    assert understand(text).owned_untyped is None


# ---------------------------------------------------------------- a model line with no size is said, never dropped

LINES = [("llama 3", "Llama 3", "8B/70B"), ("qwen2.5", "Qwen2.5", "0.5B/1.5B/3B/7B/14B/32B/72B"),
         ("Llama 3.1", "Llama 3.1", "8B/70B/405B"), ("gemma 3", "Gemma 3", "1B/4B/12B/27B")]
LINE_TEXT = {"en": ["serve {m} for 10 users", "we want to run {m} for our team of 10"],
             "zh": ["我们要部署{m}给10个人用", "想用{m}给团队10个人用"]}


@pytest.mark.parametrize("lang,template,typed,line,sizes", [
    (lang, t, *x) for lang in ("en", "zh") for t in LINE_TEXT[lang] for x in LINES])
def test_line_without_size_is_said(lang: str, template: str, typed: str, line: str, sizes: str) -> None:
    [(state, text)] = talk([template.format(m=typed)])
    assert not state["profile"].get("model") and state["pending"] in ("model", "phase")
    said = f"You named {line} with no size: it comes in {sizes}." if lang == "en" else f"你提到了 {line}，但没说大小：它有 {sizes} 这几种。"
    assert said in text


@pytest.mark.parametrize("text,model", [("serve llama 3 8b for 10 users", "llama-3-8b"),
                                        ("run llama 3.2 3b locally", "llama-3.2-3b"), ("lama 3.1 8b for 5 users", "llama-3.1-8b")])
def test_sized_names_still_resolve(text: str, model: str) -> None:
    u = understand(text)
    assert u.updates["model"] == model and not any(k == "note.line_no_size" for k, _ in u.notes)


@pytest.mark.parametrize("text,n", [("deploy qwen2.5 72b on our 8 gpus", 8), ("用我们的4张卡部署qwen2.5 7b", 4),
                                    ("在我的2张卡上跑llama 3 8b", 2), ("our 4-card workstation should run it", 4),
                                    ("we got 6 cards in the lab", 6)])
def test_untyped_cards_in_other_words(text: str, n: int) -> None:
    u = understand(text)
    assert u.owned_untyped == n and not u.updates.get("owned")


@pytest.mark.parametrize("text,lang", [("run qwen2.5 7b on my mac with ollama", "en"),
                                       ("I want to run qwen2.5-coder-32b on my macbook pro with LM Studio", "en"),
                                       ("在我的mac上用ollama跑qwen2.5 7b", "zh"), ("我想在我的苹果电脑上跑qwen2.5 7b", "zh")])
def test_unnamed_mac_is_said_and_named_mac_is_used(text: str, lang: str) -> None:
    turns = talk([text, "it's an M2 Max 64GB" if lang == "en" else "是M2 Max 64GB的"])
    said = "You said your Mac but not which one" if lang == "en" else "你说了是自己的 Mac，但没说哪一款"
    assert said in turns[0][1]
    assert turns[1][0]["profile"]["owned"] == ["1x apple-m2-max-38c-64gb"]
    assert understand("run qwen2.5 7b on my M2 Max 64GB").notes == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_asking_for_the_second_job_swaps_the_two(lang: str) -> None:
    script = {"en": ["serve qwen2.5-7b for the support team and also fine-tune llama 3 8b on our tickets",
                     "we have 2 A6000s", "fine-tune llama 3 8b with qlora on 20k examples", "serve qwen2.5 7b"],
              "zh": ["给客服团队部署qwen2.5-7b，同时还要用我们的工单微调llama 3 8b", "我们有2张A6000",
                     "用qlora在2万条样本上微调llama 3 8b", "部署qwen2.5 7b"]}[lang]
    turns = talk(script)
    state, text = turns[2]
    assert state["profile"]["phase"] == "fine-tune" and state["profile"]["model"] == "llama-3-8b"
    assert state["also"]["phase"] == "serve" and state["also"]["model"] == "qwen2.5-7b"
    assert "Qwen2.5 7B" in text and kind(state) == "answer"
    state, text = turns[3]
    assert state["profile"]["phase"] == "serve" and state["profile"]["model"] == "qwen2.5-7b"
    assert state["also"]["phase"] == "fine-tune" and state["also"]["model"] == "llama-3-8b" and "Llama 3 8B" in text
