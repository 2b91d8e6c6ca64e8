"""Plans an expert would sign: a domestic-only rule holds in every row and suggestion, the 'better fit'
line speaks of the job's own phase, and engine facts say how each engine batches (with sources)."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from gpu_advisor.knowledge import gpus
from gpu_advisor.knowledge.loader import engines
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import answer_to, payload

FOREIGN_NAMES = sorted({g.name for g in gpus() if not g.domestic_china})
FOREIGN_IDS = {g.id for g in gpus() if not g.domestic_china}
DOMESTIC_RULES = ["信创项目，必须国产化，", "只能用国产卡，", "我们要求自主可控，", "禁用进口卡，",
                  "All cards must be domestic Chinese accelerators (xinchuang). "]
JOBS = ["部署qwen2.5 72b给200人用", "用qwen2.5 72b跑批处理，20万条数据每条2000 token，3天内",
        "全参微调qwen2.5 7b，1B token，一周内", "我们有两张4090，部署qwen2.5 32b给10人用",
        "我们有4张A100，用LoRA微调qwen2.5 14b", "用H100部署llama 3.1 70b给50人用",
        "serve llama 3.1 70b to 100 users", "fine-tune qwen2.5 72b with LoRA on 100M tokens in 3 days"]
# Lines that say the user's own words back (or why a named card is left out) may name a foreign card.
SAID_BACK = ("**你说的**", "**From what you said", "好的：", "Got it", "不是国产卡", "not made by a Chinese vendor")


@cache
def _reply(message: str):
    return answer_to(message)


@pytest.mark.parametrize(("rule", "job"), list(itertools.product(DOMESTIC_RULES, JOBS)))
def test_a_domestic_rule_names_no_foreign_card_in_any_row_or_suggestion(rule: str, job: str) -> None:
    reply = _reply(rule + job)
    p = payload(reply)
    decision = p.get("decision") or {}
    assert decision.get("gpu") not in FOREIGN_IDS
    for row in (p.get("table") or {}).get("rows", []):
        assert not any(name in row[0] for name in FOREIGN_NAMES), row
    for line in reply.content.splitlines():
        if any(mark in line for mark in SAID_BACK) or "?" in line or "？" in line:
            continue
        assert not any(name in line for name in FOREIGN_NAMES), line


@pytest.mark.parametrize("message", ["信创项目，必须国产化，我们有两张4090，部署qwen2.5 32b给10人用",
                                     "禁用进口卡，用H100部署llama 3.1 70b给50人用"])
def test_foreign_cards_named_under_a_domestic_rule_are_said_to_be_left_out(message: str) -> None:
    reply = _reply(message)
    assert "不是国产卡" in reply.content
    assert payload(reply)["decision"]["gpu"].startswith("ascend")


def test_english_domestic_rule_says_the_owned_cards_are_left_out_in_english() -> None:
    reply = _reply("All cards must be domestic Chinese accelerators (xinchuang). We have two RTX 4090s; "
                   "serve qwen2.5 32b to 10 people")
    assert "not made by a Chinese vendor" in reply.content
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in reply.content.split("**From what you said")[0])


@pytest.mark.parametrize("exclude", [["nvidia", "amd", "apple", "intel"], ["amd", "apple", "intel", "nvidia"]])
def test_recommend_drops_foreign_owned_and_named_cards_under_the_rule(exclude: list[str]) -> None:
    w = Workload(phase="serve", model="qwen2.5-32b", users=10, region="china", exclude=exclude,
                 owned=["2x rtx-4090"], candidates=["h100-sxm"])
    rec = recommend(w)
    assert rec.ruled_out == ["2x rtx-4090", "h100-sxm"]
    assert rec.best is not None and rec.best.gpu not in FOREIGN_IDS
    assert all(o.gpu not in FOREIGN_IDS for o in rec.options + rec.owned_options)
    assert rec.better is None or rec.better.gpu not in FOREIGN_IDS


def test_no_rule_outside_china_keeps_owned_cards() -> None:
    w = Workload(phase="serve", model="qwen2.5-32b", users=10, owned=["2x rtx-4090"], exclude=["amd"])
    assert recommend(w).ruled_out == []


# ------------------------------------------------------------------ the better-fit line

BATCH = ["batch job: summarize 200k documents of 2000 tokens with llama 3.1 70b within 2 days, only on H100s",
         "offline batch: classify 500k tickets of 800 tokens with qwen2.5 72b by friday, only on h100s",
         "只用H100，离线批处理：用qwen2.5 72b 处理20万条数据，每条2000 token，3天内完成"]


@pytest.mark.parametrize("message", BATCH)
def test_a_better_fit_on_a_batch_job_speaks_of_the_batch_job_not_training(message: str) -> None:
    text = _reply(message).content
    assert "poor fit for training" not in text and "不适合训练" not in text
    if "A better fit" in text or "更合适的选择" in text or "With a price on record" in text:
        assert "same batch job" in text or "同样的批处理任务" in text


@pytest.mark.parametrize(("message", "phrase"), [
    ("serve llama 3.1 70b to 200 users, only on H100", "serves the same users"),
    ("只用H20，全参微调qwen2.5 7b，1B token", "跑同样的训练"),
])
def test_the_better_fit_line_matches_the_phase(message: str, phrase: str) -> None:
    assert phrase in _reply(message).content


def test_better_why_is_a_code_that_matches_the_plan() -> None:
    serve = recommend(Workload(phase="serve", model="llama-3.1-70b", users=200, candidates=["h100-sxm"]))
    assert serve.better_why in (None, "tight", "spread", "unpriced", "service")
    train = recommend(Workload(phase="fine-tune", model="qwen2.5-7b", method="full", train_tokens=1e9,
                               region="china", candidates=["h20"]))
    assert train.better_why == "train"


# ------------------------------------------------------------------ engine facts

def test_serving_engines_record_how_they_batch_with_a_source() -> None:
    by_id = {e.id: e for e in engines()}
    for engine_id in ("vllm", "sglang", "tensorrt-llm", "mindie", "tgi", "lmdeploy", "llama.cpp"):
        e = by_id[engine_id]
        assert "batching" in e.batching
        assert "batching" in e.for_en and "批处理" in e.for_zh
        assert e.source
    assert by_id["tensorrt-llm"].batching == "in-flight batching"
    assert "in-flight batching" in by_id["tensorrt-llm"].for_en
    assert "in-flight batching" in by_id["tensorrt-llm"].source


@pytest.mark.parametrize(("message", "phrase"), [
    ("TensorRT-LLM or vLLM for serving llama 3.1 70b to 200 users on H100?", "in-flight batching"),
    ("TensorRT-LLM还是vLLM？部署qwen2.5 72b给200人用，H100", "in-flight batching"),
])
def test_the_engine_answer_says_tensorrt_llm_batches(message: str, phrase: str) -> None:
    assert phrase in _reply(message).content
