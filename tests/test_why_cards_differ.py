"""'Why is my 4090 slower at long-prompt prefill than the A100 at work … just curious' and 'H20跟H800差在哪，为啥训练拉胯'
are comparisons of two cards, answered as such (review CH #5, CI #11): the two cards compared for the job the question
names (prefill and training follow compute), no sizing question, no rent preference made up from 'not buying', the
card said twice counted once, and a GeForce card's printed spec figure explained against the FP32-accumulate rate."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_states

from gpu_advisor.assistant.reading import understand

PREFILL = [
    ("why is my 4090 way slower on long prompt prefill than an a100 at work when the 4090 supposedly has similar "
     "tflops on paper? {tail}"),
    "why does my 4090 take so much longer to first token than the a100 at work? {tail}",
    "为啥我的4090做长prompt的prefill比公司的A100慢那么多，纸面算力不是差不多吗，{tail}",
    "我的4090首token比公司那张A100慢很多，为啥，{tail}",
]
TAILS = {"en": ["not trying to buy anything just curious", "just curious", "out of curiosity"],
         "zh": ["就是好奇，不买卡", "纯好奇", "只是好奇"]}


def _cases() -> list[str]:
    out = []
    for template in PREFILL:
        lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in template) else "en"
        out += [template.format(tail=t) for t in TAILS[lang]]
    return out


@pytest.mark.parametrize("text", _cases())
def test_reader_hears_a_comparison_not_a_plan(text):
    u = understand(text, None)
    assert "compare_cards" in u.intents and "no_sizing" in u.intents
    assert u.ask.get("job") == "prefill"
    assert "preference" not in u.updates  # 'not buying' is no wish to rent
    assert sorted(u.updates.get("owned") or []) in ([], ["1x a100-80gb-sxm", "1x rtx-4090"])


@pytest.mark.parametrize("text", [_cases()[0], _cases()[6]])
def test_prefill_verdict_is_on_compute_with_the_printed_figure_explained(text):
    reply = run_states([text])[-1]["messages"][-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert "recommend" not in data["results"] and data["results"]["verdict"]["figure"] == "compute"  # nothing sized
    content = reply.content
    zh = any("\u4e00" <= c <= "\u9fff" for c in text)
    assert ("处理长提示词" if zh else "reading long prompts") in content
    assert ("选 NVIDIA A100" if zh else "the NVIDIA A100 SXM4 80GB: it has 312 against 165 TFLOPS") in content
    assert "330" in content and "165" in content  # printed FP16-accumulate figure against the rate compared
    assert ("用哪个模型" if zh else "Which model") not in content


@pytest.mark.parametrize("text,lang", [
    ("H20跟H800到底差在哪 为啥都说H20做推理还凑合 训练就拉胯", "zh"),
    ("h20 vs h800 for training, which one", "en"),
    ("H20和H800训练选哪个", "zh"),
    ("for fine-tuning, h800 or h20?", "en"),
])
def test_training_verdict_is_compute_when_both_hold_the_same_models(text, lang):
    reply = run_states([text])[-1]["messages"][-1]
    verdict = reply.additional_kwargs["gpu_advisor"]["results"]["verdict"]
    content = reply.content
    line = next(x for x in content.splitlines() if x.startswith("**结论**" if lang == "zh" else "**Verdict**"))
    assert ("BF16 算力是 989 TFLOPS" if lang == "zh" else "989 against 148 TFLOPS") in line
    assert (verdict["pick"], verdict["figure"], verdict["job"]) == ("h800-sxm", "compute", "train")


@pytest.mark.parametrize("first,second", itertools.product(["my 4090", "our 4090", "the 4090 i have"],
                                                            ["the 4090", "that 4090", "this 4090"]))
def test_a_card_named_again_is_the_same_card(first, second):
    u = understand(f"{first} is slow on 14b models, {second} supposedly has 24gb", None)
    assert u.updates.get("owned") == ["1x rtx-4090"]
