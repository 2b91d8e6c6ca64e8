"""Renting against buying a stated number of one card ('should we rent or buy two 4090s to LoRA qwen3 32b on ~50k
examples?', '公司想微调 Qwen3-32B，用lora，数据大概五万条，租卡还是买两张4090划算？', '买4张L20还是租'; review CM #8): the
headline and the rent-or-buy line weigh exactly that count, with the method that fits it (QLoRA for a LoRA that does
not fit, 4-bit weights and an FP8 KV cache for a service), said as the change taken; never '8 × 4090' beside 'only
2 × 4090' and a warning against consumer cards for multi-card training. The card that does the job as asked is named
beside a fine-tune's fallback, rented."""
from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.catalog import say, text
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import run_conversation

EN_WORDS = {2: "two", 4: "four"}
ZH_WORDS = {2: "两", 4: "四"}

# How the count and the card are said: (English, Chinese) fillers, {n} the count as a numeral or a word.
EN_COUNTS = ["{word} {card}s", "{n} {card}s", "{n}x {card}"]
ZH_COUNTS = ["{word}张{card}", "{n}张{card}", "{n}块{card}"]
EN_TRAIN = ["should we rent or buy {cards} to LoRA {model} on ~50k examples?",
            "buy {cards} or rent? lora {model}, 50k examples",
            "we want to LoRA {model} on 50k examples: rent or buy {cards}?"]
ZH_TRAIN = ["公司想微调 {model}，用lora，数据大概五万条，租卡还是买{cards}划算？",
            "买{cards}还是租？想微调{model}，lora，五万条数据"]
EN_SERVE = ["should we rent or buy {cards} to serve {model} for 20 users? working hours",
            "buy {cards} or rent to serve {model} for 20 users, working hours?"]
ZH_SERVE = ["买{cards}还是租？部署{model}给20个人用，工作时间用",
            "租卡还是买{cards}划算？部署{model}给20个人用，工作时间用"]
SAID = {"rtx-4090": "4090", "rtx-3090": "3090", "rtx-5090": "5090", "l20": "L20", "l40s": "L40S",
        "rtx-a6000": "A6000"}
MODELS = {"qwen3-32b": "Qwen3-32B", "qwen3-8b": "qwen3 8b", "llama-3.1-70b": "llama 3.1 70b",
          "qwen2.5-14b": "qwen2.5 14b"}

# (card, count, model, phase, the change that fits the count, or None when it fits as asked)
TRAIN = [("rtx-4090", 2, "qwen3-32b", "qlora"), ("rtx-3090", 2, "qwen3-32b", "qlora"),
         ("rtx-5090", 2, "qwen3-32b", "qlora"), ("l40s", 2, "llama-3.1-70b", "qlora"),
         ("rtx-a6000", 2, "llama-3.1-70b", "qlora"), ("rtx-4090", 4, "qwen3-32b", "qlora"),
         ("rtx-4090", 2, "qwen3-8b", None), ("l20", 4, "qwen3-32b", None)]
SERVE = [("rtx-4090", 2, "qwen3-32b", "int4_kv8"), ("rtx-4090", 4, "llama-3.1-70b", "int4_kv8"),
         ("l20", 2, "llama-3.1-70b", "int4_kv8"), ("rtx-4090", 2, "qwen2.5-14b", "kv8"),
         ("l40s", 2, "qwen3-32b", None)]


def _message(lang: str, phase: str, card: str, n: int, model: str, i: int) -> str:
    """The i-th template of the language and phase, with the i-th way of saying the count."""
    counts, templates = ((EN_COUNTS, EN_TRAIN if phase == "train" else EN_SERVE) if lang == "en"
                         else (ZH_COUNTS, ZH_TRAIN if phase == "train" else ZH_SERVE))
    words = EN_WORDS if lang == "en" else ZH_WORDS
    cards = counts[i % len(counts)].format(word=words[n], n=n, card=SAID[card])
    return templates[i % len(templates)].format(cards=cards, model=MODELS[model])


# ---- reading: the card and its count, weighed for buying ----

@pytest.mark.parametrize(("lang", "phase", "i", "card", "n"), itertools.product(
    ("en", "zh"), ("train", "serve"), range(3), ("rtx-4090", "l20", "rtx-a6000"), (2, 4)))
def test_the_count_weighed_for_buying_is_read(lang, phase, i, card, n):
    u = understand(_message(lang, phase, card, n, "qwen3-32b", i))
    assert "rent_buy" in u.intents
    assert u.updates.get("only") == [f"{n}x {card}"]
    assert u.updates.get("only_bought") is True


@pytest.mark.parametrize("msg", [
    "租A800还是买两张4090？微调qwen3 32b lora",  # two cards weighed: another question
    "we have two 4090s, rent or buy more to lora qwen3 32b?",  # cards of their own
    "lora qwen3 32b on two 4090s, how long does it take?",  # no renting or buying asked
    "用两张4090微调qwen3 32b，lora，要多久？",
    "should we rent 2 h100s or buy 4 4090s to lora qwen3 32b",
])
def test_no_count_weighed_for_buying_when_none_is(msg):
    assert not understand(msg).updates.get("only_bought")


# ---- the tool: the plan on exactly the count, with the fallback that fits it ----

def _workload(card: str, n: int, model: str, phase: str, bought: bool) -> Workload:
    job = {"phase": "fine-tune", "method": "lora", "train_tokens": 5e7} if phase == "train" else \
        {"phase": "serve", "users": 20, "context": 8192, "utilisation": 0.24}
    return Workload(model=model, candidates=[f"{n}x {card}"], only_bought=bought, flexible=["precision"], **job)


@pytest.mark.parametrize(("card", "n", "model", "change"), TRAIN)
def test_a_fine_tune_is_planned_on_the_count_weighed(card, n, model, change):
    rec = recommend(_workload(card, n, model, "train", True))
    assert rec.best is not None and rec.best.ok
    assert (rec.best.gpu, rec.best.gpus) == (card, n)
    assert rec.taken_lever == change
    if change:  # the card that does the LoRA as asked, rented, beside the fallback
        assert rec.workload.method == "qlora" and rec.better is not None and rec.better.gpu != card
        assert rec.better_why in ("method", "train")


@pytest.mark.parametrize(("card", "n", "model", "change"), SERVE)
def test_a_service_is_planned_on_the_count_weighed(card, n, model, change):
    rec = recommend(_workload(card, n, model, "serve", True))
    assert rec.best is not None and rec.best.ok
    assert (rec.best.gpu, rec.best.gpus) == (card, n)
    assert rec.taken_lever == change


def test_without_a_purchase_weighed_a_lora_still_takes_more_of_the_card():
    """'LoRA qwen3 32b on 2 × 4090' with no purchase weighed: the method asked stands (on more cards)."""
    rec = recommend(_workload("rtx-4090", 2, "qwen3-32b", "train", False))
    assert rec.best is not None and rec.best.gpus == 8 and rec.workload.method == "lora" and rec.taken_lever is None


def test_unsloth_is_never_the_plan_on_two_cards():
    """Unsloth trains on one GPU: a 70B whose QLoRA fits only with its kernels is no plan on two 4090s."""
    rec = recommend(_workload("rtx-4090", 2, "llama-3.1-70b", "train", True))
    assert rec.taken_lever != "qlora-unsloth"
    assert rec.best is None or rec.best.gpus != 2 or rec.workload.framework is None


# ---- the reply: headline and rent-or-buy line name the count asked ----

def _counts_of(line: str, name: str) -> list[int]:
    return [int(x) for x in re.findall(rf"(\d+) × {re.escape(name)}", line)]


def _rent_or_buy_lines(reply: str, lang: str) -> list[str]:
    heads = [str(text(lang, key)).split("{")[0] for key in ("rb.job", "setup_rb.head")]
    return [line for line in reply.splitlines() if any(line.startswith(h) for h in heads)]


CONVERSATIONS = [(lang, "train", *case, i) for i, (lang, case) in enumerate(itertools.product(("en", "zh"), TRAIN))] \
    + [(lang, "serve", *case, i) for i, (lang, case) in enumerate(itertools.product(("en", "zh"), SERVE))]


@pytest.mark.parametrize(("lang", "phase", "card", "n", "model", "change", "i"), CONVERSATIONS)
def test_the_reply_weighs_the_count_asked(lang, phase, card, n, model, change, i):
    reply = run_conversation([_message(lang, phase, card, n, model, i)], thread="buy-count")[0].content
    name = find_gpu(card).name
    head = reply.splitlines()[reply.splitlines().index(next(x for x in reply.splitlines() if x.startswith("## ")))]
    assert _counts_of(head, name) == [n], head
    rb = _rent_or_buy_lines(reply, lang)
    assert rb and all(_counts_of(line, name) == [n] for line in rb), rb
    prose = [x for x in reply.splitlines() if not x.startswith("|")]  # (the table may list more of the card)
    assert all(c == n for line in prose for c in _counts_of(line, name)), [x for x in prose if _counts_of(x, name)]
    if change is None:
        assert str(text(lang, "answer.count_named_lever")).split("{")[0] not in reply
        assert str(text(lang, "answer.count_kept_lever")).split("{")[0] not in reply
    elif phase == "train":
        assert say(lang, "answer.count_named_lever", change=say(lang, f"lever.{change}")) in reply
    else:
        assert say(lang, "answer.count_kept_lever", change=say(lang, f"lever.{change}")) in reply


def test_the_review_question_in_chinese():
    """Review CM #8 as asked: 2 × 4090 in QLoRA, about 19 h a run; renting H800s for LoRA as asked named beside it;
    buying the two cards priced; rent, for a job that ends."""
    reply = run_conversation(["公司想微调 Qwen3-32B，用lora，数据大概五万条，租卡还是买两张4090划算？"])[0].content
    assert reply.startswith("## 租用 2 × NVIDIA GeForce RTX 4090 24GB，用于微调")
    assert "8 × NVIDIA GeForce RTX 4090 24GB 约需" not in reply and "消费级显卡不适合大规模多卡训练" not in reply
    assert "**微调**（QLoRA，Qwen3 32B）" in reply and "约需 19.1 小时" in reply
    assert "**更合适的选择**：1 × NVIDIA H800 SXM 80GB 跑同样的训练约 7.6 小时" in reply
    assert "买下 2 × NVIDIA GeForce RTX 4090 24GB 约需 ¥55,832" in reply and "所以租" in reply
