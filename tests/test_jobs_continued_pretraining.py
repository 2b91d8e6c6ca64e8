"""Continued (domain-adaptive) pretraining is every weight trained on raw text from a released checkpoint:
labelled as such, never as pretraining from scratch, and sized with the same 6·N·D as pretraining."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import payload, run_conversation

EN_WORDS = ["continued pretraining", "continued pre-training", "continual pretraining", "CPT",
            "domain-adaptive pretraining", "further pretraining", "continue pretraining", "DAPT"]
EN_FORMS = ["{w} of {model} on {tokens} of legal text", "we want to do {w} on {model}, {tokens}",
            "{model}: {w} with {tokens}, how many gpus?", "{tokens} of medical papers, {w} {model}"]
ZH_WORDS = ["继续预训练", "增量预训练", "二次预训练", "持续预训练", "领域预训练"]
ZH_FORMS = ["用{model}做{w}，{tokens}", "{model}{w}，数据有{tokens}，要多少卡", "想在{model}上{w}，{tokens}金融语料"]
MODELS = [("qwen2.5 7b", "qwen2.5-7b"), ("llama 3.1 8b", "llama-3.1-8b")]
TOKENS = {"en": [("20B tokens", 20e9), ("5 billion tokens", 5e9)], "zh": [("200亿token", 20e9), ("50亿token", 5e9)]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_continued_pretraining_is_read_as_such_in_any_order(lang):
    words, forms = (EN_WORDS, EN_FORMS) if lang == "en" else (ZH_WORDS, ZH_FORMS)
    for w, form, (model, model_id), (tokens, n) in itertools.product(words, forms, MODELS, TOKENS[lang]):
        text = form.format(w=w, model=model, tokens=tokens)
        u = understand(text, None).updates
        assert u.get("phase") == "continued-pretrain", (text, u)
        assert u.get("model") == model_id and u.get("train_tokens") == n, (text, u)


@pytest.mark.parametrize("text", ["pretrain a 3B model from scratch on 50B tokens", "我们想从零预训练一个3B模型，500亿token",
                                  "pretraining a 1b model on 100b tokens"])
def test_pretraining_from_scratch_stays_pretraining(text):
    assert understand(text, None).updates.get("phase") == "pretrain"


def test_continued_pretraining_costs_the_same_compute_as_pretraining():
    base = dict(model="qwen2.5-7b", train_tokens=20e9, candidates=["8x h100-sxm"])
    cpt = recommend(Workload(phase="continued-pretrain", **base))
    scratch = recommend(Workload(phase="pretrain", **base))
    assert cpt.best is not None and scratch.best is not None
    assert cpt.best.training_hours == pytest.approx(scratch.best.training_hours)
    assert cpt.best.train_per_gpu_bytes == scratch.best.train_per_gpu_bytes
    assert any(a.startswith("continued pretraining from the checkpoint (full, ZeRO-3)") for a in cpt.assumptions)


@pytest.mark.parametrize(("turn", "said", "not_said"), [
    ("continued pretraining of qwen2.5 7b on 20B tokens of domain text", "continued pretraining from the released "
     "checkpoint", "from scratch"),
    ("用qwen2.5 7b做增量预训练，20B token", "在已发布的权重上继续预训练", "从零预训练"),
])
def test_the_answer_says_continued_pretraining_not_from_scratch(turn, said, not_said):
    reply, = run_conversation([turn])
    assert payload(reply)["kind"] == "answer"
    assert said in reply.content and not_said not in reply.content
    assert payload(reply)["profile"]["phase"] == "continued-pretrain"
