"""Token volumes said with a period are traffic (review s21 #1): '300M output tokens and 1.2B input tokens per month'
is a month's usage, its read and written shares the split each request is sized at, never a 1.2-billion-token prompt;
in any order, both languages, amounts with k/M/B/万/亿. A value the tools refuse never reaches the user as a
validation error."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.cost import HOURS_PER_MONTH
from tests.conversation import run_conversation, run_states

MONTH_S = HOURS_PER_MONTH * 3600
PERIOD_S = {"month": MONTH_S, "day": 86400.0}

# (read, written) said as written in English, and their values
EN_AMOUNTS = [("1.2B", "300M", 1.2e9, 3e8), ("1200M", "300M", 1.2e9, 3e8), ("1.2 billion", "300 million", 1.2e9, 3e8),
              ("40M", "10M", 4e7, 1e7), ("800k", "200k", 8e5, 2e5)]
EN_PERIODS = [("per month", "month"), ("a month", "month"), ("/mo", "month"), ("per day", "day"), ("a day", "day")]
EN_ORDERS = [
    "we do about {w} output tokens and {r} input tokens {p}",
    "{r} input and {w} output tokens {p}",
    "{r} in / {w} out tokens {p}",
    "{r} tokens in and {w} tokens out {p}",
    "{r} input + {w} output tokens {p}",
    "{r} input tokens{p} and {w} output tokens{p}",
]
ZH_AMOUNTS = [("12亿", "3亿", 1.2e9, 3e8), ("4000万", "1000万", 4e7, 1e7), ("80万", "20万", 8e5, 2e5)]
ZH_PERIODS = [("每月", "month"), ("一个月", "month"), ("每天", "day"), ("一天", "day")]
ZH_ORDERS = [
    "{p}输入{r}token，输出{w}token",
    "{p}大概输入{r}、输出{w}token",
    "{p}输入约{r}token，输出约{w}token",
    "输入{p}{r}token，输出{p}{w}token",
]
SERVE_EN = "serving llama 3.3 70b behind our api. "
SERVE_ZH = "我们用api调llama 3.3 70b，"


def _cases() -> list[tuple[str, float, float, str]]:
    out = []
    for (r, w, rv, wv), (p, period), order in itertools.product(EN_AMOUNTS, EN_PERIODS, EN_ORDERS):
        gap = "" if p.startswith("/") else " "
        said = order.format(r=r, w=w, p=(gap + p) if "tokens{p}" in order else p)
        out.append((SERVE_EN + said, rv, wv, period))
    for (r, w, rv, wv), (p, period), order in itertools.product(ZH_AMOUNTS, ZH_PERIODS, ZH_ORDERS):
        out.append((SERVE_ZH + order.format(r=r, w=w, p=p), rv, wv, period))
    return out


@pytest.mark.parametrize("text, read, written, period", _cases())
def test_volumes_with_a_period_are_traffic(text: str, read: float, written: float, period: str) -> None:
    u = understand(text)
    for slot in ("prompt_tokens", "context", "train_tokens", "batch_input_tokens", "batch_output_tokens", "model"):
        assert u.updates.get(slot) in (None, "llama-3.3-70b"), (slot, u.updates)  # no length, no 1.2B model
    assert u.updates["phase"] == "serve"
    assert u.updates["output_tokens"] == round(4096 * written / read)  # the split said: each request at that share
    per_s = (read + written) / PERIOD_S[period]
    assert u.updates["requests_per_s"] == pytest.approx(per_s / (4096 + u.updates["output_tokens"]), rel=1e-3, abs=1e-6)
    assert any(k == "usage.note_split" for k, _v in u.notes)


@pytest.mark.parametrize("text, tokens", [
    ("we use about 2B tokens/mo on the api", 2e9),
    ("llama 3.3 70b via the api, 15m tok/month, is renting a gpu cheaper?", 15e6),
    ("一天大概5000万token，走的api", 5e7 * MONTH_S / 86400),
    ("每天大概五千万token，用的api", 5e7 * MONTH_S / 86400),
])
def test_one_volume_is_the_whole_traffic(text: str, tokens: float) -> None:
    u = understand(text)
    assert "output_tokens" not in u.updates and "train_tokens" not in u.updates
    assert u.updates["requests_per_s"] == pytest.approx(tokens / MONTH_S / (4096 + 256), rel=1e-3, abs=1e-6)


@pytest.mark.parametrize("text", [
    "serve llama 3.1 8b, 32k context and 15M tokens of docs to index",
    "fine-tune llama 3.1 8b on 300M tokens and 1.2B tokens of chats",
    "serve llama 3.1 8b with 2k input and 300 output tokens per request",
])
def test_no_period_no_volume(text: str) -> None:
    u = understand(text)
    assert not any(k.startswith("usage.") for k, _v in u.notes)


# ---------------------------------------------------------------- the review's conversation, whole

R1 = ("Is it cheaper to self host deepseek r1 or just use the deepseek api? we do about 300M output tokens and 1.2B "
      "input tokens per month, steady traffic")


def test_r1_against_its_api_at_the_volumes_said() -> None:
    states = run_states([R1, "not sure"])
    first, second = (s["messages"][-1] for s in states)
    d = first.additional_kwargs["gpu_advisor"]
    api = d["results"]["api_compare"]
    assert d["profile"]["prompt_tokens"] is None and d["profile"]["output_tokens"] == 1024
    assert api["api_usd_at_usage"] == pytest.approx(1200 * 0.55 + 300 * 2.19, rel=1e-3)  # $1,317: DeepSeek's R1 list
    assert api["self_wins_at_usage"] is False and api["month_usd"] > 5 * api["api_usd_at_usage"]
    assert first.content.startswith("**No: stay on the API.** At your 1.5 billion tokens a month it bills $1,317")
    assert "DeepSeek's list price on record (2025-02-09)" in first.content
    assert "validation error" not in second.content and "1,200,000,000-token" not in first.content


@pytest.mark.parametrize("turns, said", [
    (["serve llama 3.1 8b for 5 users", "make each answer 300M tokens long"], "I can't use that: the context is out of range."),
    (["serve llama 3.1 8b for 2 users", "make every answer 500 million tokens long"], "the context is out of range"),
    # '每个回答…长' is read as the answer's length since session 23 (h-rl3: '最大回复长度4096'): that length is refused
    (["部署llama 3.1 8b给5个人用", "每个回答3亿token长"], "这个我没法用：回答长度超出了合理范围。"),
])
def test_a_value_out_of_range_is_said_politely(turns: list[str], said: str) -> None:
    reply = run_conversation(turns)[-1].content
    assert said in reply  # was '1 validation error for SpeedInput … less than or equal to …'
    assert "validation error" not in reply and "input_value" not in reply


def test_every_field_refused_is_named_in_the_users_language() -> None:
    from pydantic import ValidationError

    from gpu_advisor.assistant.invalid_values import refused
    from gpu_advisor.tools.recommend import Workload

    with pytest.raises(ValidationError) as e:
        Workload(phase="serve", model="llama-3.1-8b", output_tokens=300_000_000, users=0, max_gpus=-1)
    assert refused("en", e.value) == ("the users is out of range, the output is out of range, "
                                      "one of the values is out of range")
    assert refused("zh", e.value).count("超出了合理范围") == 3 and "validation" not in refused("zh", e.value)
