"""'Why is the L40S so much slower than an H100 at serving a 70B model … just curious' (review CJ #5): answered, not
sized. The reply's first line is the answer (writing tokens is memory-bandwidth-bound: 864 against 3,350 GB/s), the
figures of both cards follow from the catalog, the model said is put on each card (two L40S split over PCIe with an
all-reduce every layer, one H100), and there is no plan, no rent-or-buy and no price."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_states

from gpu_advisor.assistant.reading import understand

EN = [
    "not buying anything rn, {tail}: why is the l40s so much slower than an h100 at serving a 70b model even tho it "
    "has 48gb and decent fp8 tflops on paper? whats the actual bottleneck",
    "why is the L40S way slower than the H100 for serving a 70b model? {tail}",
    "how come the h100 is so much faster than an l40s at inference on a 70b model, {tail}",
]
ZH = [
    "为什么L40S跑70B推理比H100慢那么多，不买卡，{tail}",
    "为啥H100跑70B模型推理比L40S快这么多？{tail}",
    "L40S部署70B为什么比H100慢很多，{tail}",
]
TAILS = {"en": ["just curious", "out of curiosity", "just wondering"], "zh": ["就是好奇", "纯好奇", "只是好奇"]}


def _cases() -> list[tuple[str, str]]:
    return [(t.format(tail=tail), lang) for lang, templates in (("en", EN), ("zh", ZH))
            for t, tail in itertools.product(templates, TAILS[lang])]


@pytest.mark.parametrize("text,lang", _cases())
def test_reader_hears_a_curious_comparison_for_decode(text, lang):
    u = understand(text, None)
    assert "compare_cards" in u.intents and "no_sizing" in u.intents
    assert u.also is None and u.compare_gpus == []  # nothing sized beside it
    assert sorted(u.cards) == ["h100-sxm", "l40s"]
    assert u.ask.get("job") == "decode" and u.ask.get("why") is True
    assert u.updates.get("model") == "70B" and "preference" not in u.updates


@pytest.mark.parametrize("text,lang", [_cases()[0], _cases()[4], _cases()[8], _cases()[9], _cases()[13]])
def test_first_line_is_the_answer_and_nothing_is_planned_or_priced(text, lang):
    reply = run_states([text])[-1]["messages"][-1]
    data = reply.additional_kwargs["gpu_advisor"]
    content = reply.content
    first = content.splitlines()[0]
    if lang == "zh":
        assert first.startswith("**NVIDIA L40S 48GB 生成 token（decode）慢，瓶颈在显存带宽")
    else:
        assert first.startswith("**The NVIDIA L40S 48GB is slower at writing tokens (decode) because of memory bandwidth")
    assert "3,350 GB/s" in first and "864 GB/s" in first and "3.9" in first
    assert data["topic"] == "compare_cards" and "recommend" not in data["results"]
    assert data["results"]["why"] == {"job": "decode", "figure": "bandwidth", "fast": "h100-sxm", "slow": "l40s",
                                      "ratio": 3.9}
    for banned in ("## Rent", "## Buy", "Rent or buy", "租还是买", "$", "¥", "an hour", "每小时", "vllm serve"):
        assert banned not in content, banned
    # the model said, on each card: two L40S split over PCIe (an all-reduce pair every layer), one H100
    cards = data["results"]["why_model"]["cards"]
    assert (cards["l40s"]["gpus"], cards["l40s"]["split_pcie"], cards["l40s"]["all_reduces"]) == (2, True, 160)
    assert (cards["h100-sxm"]["gpus"], cards["h100-sxm"]["split_pcie"]) == (1, False)
    assert cards["h100-sxm"]["tokens_per_s"] > cards["l40s"]["tokens_per_s"]
    assert ("每个 token 要做 160 次 all-reduce" if lang == "zh" else "160 all-reduces per token") in content
    assert ("1 张卡放得下" if lang == "zh" else "holds it on 1 card") in content
    # TFLOPS are said to matter for the prompt (prefill), not for writing
    assert ("预填充" if lang == "zh" else "prefill") in first


@pytest.mark.parametrize("text,lang", [
    ("why is the l40s slower than an h100 at serving, just curious", "en"),
    ("为什么L40S推理比H100慢，纯好奇", "zh"),
])
def test_without_a_model_the_figures_answer_alone(text, lang):
    reply = run_states([text])[-1]["messages"][-1]
    content = reply.content
    assert content.splitlines()[0].startswith("**NVIDIA L40S 48GB" if lang == "zh" else "**The NVIDIA L40S 48GB is slower")
    assert "why_model" not in reply.additional_kwargs["gpu_advisor"]["results"]
    assert ("等我给出方案时" if lang == "zh" else "Once I have your answer") not in content  # no question was asked
    assert "$" not in content and "¥" not in content


@pytest.mark.parametrize("text", [
    "why is the l40s so much slower than an h100 at serving a 70b model for our 20 users?",
    "what's the actual difference between the h100 and a100 for serving llama 70b",
])
def test_without_a_curious_cue_the_job_is_still_sized(text):
    u = understand(text, None)
    assert u.ask.get("why") is None and u.ask.get("job") != "decode"
