"""An input:output ratio is a ratio, never a length ('输入输出3比1' was read as 3 output tokens, review BZ #7): said in
either language, with or without a ratio word, from either side, or as a multiple ('prompts are about 3x the output',
'输入是输出的3倍'); with one length said the other is worked out from it, with none the usual prompt is assumed and said."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

THREE_TO_ONE = {
    "en": ["3:1 in/out", "in:out 3:1", "input:output is 3:1", "input to output ratio 3:1", "3 to 1 input to output",
           "output:input 1:3", "prompts are about 3x the output", "input is 3 times the output", "input ~3x output"],
    "zh": ["输入输出差不多3比1", "输入输出大概3:1", "输入和输出3比1", "输入输出比例大约是3比1", "输出输入1比3", "输入是输出的3倍",
           "输入大概是输出的三倍"],
}
JOBS = {"en": "serve llama 3.1 8b to 20 users, {r}", "zh": "部署llama 3.1 8b给20个用户，{r}"}
USAGE = {"en": "we use about 20M tokens a day, {r}", "zh": "我们每天大概消耗两千万token，{r}"}
CASES = [(lang, r) for lang, rs in THREE_TO_ONE.items() for r in rs]


@pytest.mark.parametrize(("lang", "ratio"), CASES)
def test_a_ratio_with_no_length_assumes_the_usual_prompt_and_says_so(lang, ratio):
    u = understand(JOBS[lang].format(r=ratio))
    assert u.updates.get("output_tokens") == 1365 and "prompt_tokens" not in u.updates, (ratio, u.updates)
    assert ("load.note_split", {"read": "3", "written": "1", "prompt": "4,096", "output": "1,365"}) in u.notes


@pytest.mark.parametrize(("lang", "ratio"), CASES)
@pytest.mark.parametrize("first", [True, False])
def test_a_ratio_with_the_prompt_said_works_out_the_output(lang, ratio, first):
    length = {"en": "prompts about 1200 tokens", "zh": "输入大概1200 token"}[lang]
    said = f"{ratio}, {length}" if first else f"{length}, {ratio}"
    u = understand(JOBS[lang].format(r=said))
    assert (u.updates.get("prompt_tokens"), u.updates.get("output_tokens")) == (1200, 400), (said, u.updates)


@pytest.mark.parametrize(("lang", "ratio"), CASES)
def test_a_ratio_with_the_output_said_works_out_the_prompt(lang, ratio):
    length = {"en": "answers around 400 tokens", "zh": "每次输出大概400个token"}[lang]
    u = understand(JOBS[lang].format(r=f"{ratio}, {length}"))
    assert (u.updates.get("prompt_tokens"), u.updates.get("output_tokens")) == (1200, 400), (ratio, u.updates)
    assert any(code == "load.note_split_prompt" for code, _ in u.notes)


@pytest.mark.parametrize(("lang", "ratio"), CASES)
def test_a_ratio_beside_a_daily_volume_splits_the_volume(lang, ratio):
    u = understand(USAGE[lang].format(r=ratio))
    assert u.updates.get("output_tokens") == 1365, (ratio, u.updates)
    assert u.updates["requests_per_s"] == round(20e6 / 86400 / (4096 + 1365), 6)


@pytest.mark.parametrize(("ratio", "out"), [("1:2 in/out", 8192), ("输出是输入的2倍", 8192), ("4:1 input to output", 1024),
                                            ("输入输出4比1", 1024)])
def test_the_larger_side_is_the_one_said(ratio, out):
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in ratio) else "en"
    assert understand(JOBS[lang].format(r=ratio)).updates.get("output_tokens") == out


@pytest.mark.parametrize(("text", "slot", "value"), list(itertools.chain(
    [("serve llama 3.1 8b to 20 users, in/out 1500/300", "prompt_tokens", 1500)],
    [("部署llama 3.1 8b给20个用户，输入800输出20", "output_tokens", 20)])))
def test_two_lengths_are_still_two_lengths(text, slot, value):
    assert understand(text).updates.get(slot) == value


def test_the_review_conversation_prices_the_api_at_the_split():
    reply = run_conversation(["我们每天大概消耗两千万token 输入输出差不多3比1 现在用deepseek v3的api 自己买卡部署会不会更划算"])[0].content
    assert "按你的输入占比（75%）" in reply and "每个请求输出 3 token" not in reply
    assert "你说的输入输出 3:1 是总 token 量的比例" in reply
