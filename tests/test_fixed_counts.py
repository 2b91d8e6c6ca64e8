"""A count or card the user fixes is the plan (review AC: C10, E3, E4, E6, C3)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

# C10: a count put right in the same message replaces the count said before it.
BEFORE = {"en": ["we have {old} h100s, want to full finetune qwen2.5-72b on 50M tokens.",
                 "full finetune qwen2.5-72b on our {old} h100s, about 50M tokens,"],
          "zh": ["我们有{old_zh}张H100，想全参微调qwen2.5-72b，数据五千万token左右。。",
                 "想全参微调qwen2.5-72b，数据五千万token，我们有{old}张H100，"]}
AFTER = {"en": ["sorry, {new} not {old}", "wait, it's {new}", "actually we have {new}", "oh wait, it's {new} actually",
                "my bad, {new} gpus"],
         "zh": ["等下我看错了，是{new_zh}张", "等下我看错了，是{new}张", "不好意思，其实有{new}张", "说错了，是{new}张"]}
NUM_ZH = {16: "十六", 32: "三十二", 8: "八", 4: "四"}


@pytest.mark.parametrize(("lang", "i", "j", "counts"), [
    (lang, i, j, counts) for lang in BEFORE for i in range(2) for j in range(len(AFTER[lang]))
    for counts in ((16, 32), (8, 4))])
def test_a_count_corrected_in_the_same_message_replaces_the_first(lang, i, j, counts):
    old, new = counts
    words = {"old": old, "new": new, "old_zh": NUM_ZH[old], "new_zh": NUM_ZH[new]}
    text = BEFORE[lang][i].format(**words) + " " + AFTER[lang][j].format(**words)
    assert understand(text).updates.get("owned") == [f"{new}x h100-sxm"], text


@pytest.mark.parametrize("text", ["我们有十六张910B，想全参微调qwen2.5-72b，数据五千万token左右。。等下我看错了，是三十二张",
                                  "we have 16 910b, full fine-tune qwen2.5-72b on 50M tokens. wait, it's 32"])
def test_the_corrected_count_is_the_plan(text):
    data = payload(run_conversation([text])[-1])
    assert data["profile"]["owned"] == ["32x ascend-910b"]


@pytest.mark.parametrize("text", ["我们有8张4090，部署qwen2.5-7b，不对，并发是20",
                                  "we have 8 4090s serving qwen2.5 7b, wait, it is 20 users",
                                  "we have 4 a100s for llama 3 70b, actually 32k context"])
def test_another_number_after_the_cue_is_no_card_count(text):
    u = understand(text)
    assert u.updates.get("owned", [""])[0].split("x ")[0] in ("8", "4")


# E3: one count for both cards weighed ('8 of either', '各8张') compares 8 against 8.
EITHER = {"en": ["MI300X or H100 for serving Qwen3-235B-A22B? we'd get 8 of either. around 100 concurrent users, 16k context",
                 "serving qwen3-235b-a22b to 100 users at 16k, h100 vs mi300x, either way we get 8",
                 "8 of each: h100 or mi300x, serving qwen3-235b-a22b to 100 users, 16k context"],
          "zh": ["MI300X 和 H100 哪个适合部署Qwen3-235B-A22B，各8张，并发100，上下文16k",
                 "部署Qwen3-235B-A22B，并发100，上下文16k，H100和MI300X各买八张，哪个好",
                 "H100还是MI300X跑Qwen3-235B-A22B推理？两种卡都是8张，并发100"]}


@pytest.mark.parametrize(("lang", "i"), [(lang, i) for lang in EITHER for i in range(3)])
def test_one_count_for_both_cards_is_each_cards_count(lang, i):
    u = understand(EITHER[lang][i])
    assert u.counts == {"mi300x": 8, "h100-sxm": 8}


def test_the_comparison_is_eight_against_eight():
    table = payload(run_conversation([EITHER["en"][0]])[-1])["table"]
    options = [row[0] for row in table["rows"]]
    assert any(o.startswith("8 × AMD Instinct MI300X") for o in options), options
    assert any(o.startswith("8 × NVIDIA H100") for o in options), options


def test_no_count_said_is_no_count_fixed():
    assert understand("h100 or mi300x for llama 3 70b, 100 users").counts == {}


# E4: 'on one L40S' is one card: held with an FP8 KV cache, never silently two.
ONE_CARD = {"en": ["serving llama 3.1 8b on one L40S, ~40 concurrent chats",
                   "~40 concurrent chats with llama 3.1 8b, we serve it on a single L40S",
                   "serve llama 3.1 8b on 1 l40s for 40 concurrent users"],
            "zh": ["在一张L40S上部署llama 3.1 8b，40个人同时聊天",
                   "llama 3.1 8b 推理，并发40，只用1张L40S"]}
NOT_SURE = {"en": "working hours mostly", "zh": "工作时间"}


def _plan(turns: list[str]) -> dict:
    replies = run_conversation(turns)
    data = payload(replies[0])
    if data.get("kind") == "question":
        data = payload(run_conversation([*turns, NOT_SURE["zh" if any("\u4e00" <= c <= "\u9fff" for c in turns[0]) else "en"]])[-1])
    return data


@pytest.mark.parametrize(("lang", "i"), [(lang, i) for lang in ONE_CARD for i in range(len(ONE_CARD[lang]))])
def test_one_card_named_is_the_plan_with_an_fp8_kv_cache(lang, i):
    data = _plan([ONE_CARD[lang][i]])
    decision = data["decision"]
    assert (decision["gpu"], decision["gpus"], decision["fits"]) == ("l40s", 1, True)
    assert data["results"]["recommend"]["best"]["kv_precision"] == "fp8"
    fits = {"en": "yes", "zh": "是"}[lang]
    assert [row[1] for row in data["table"]["rows"] if row[0].startswith("1 × NVIDIA L40S")] == [fits]


# E6 T3: one card said as a change ('scratch that … on a single 3090 instead') is the plan's count now.
CHANGE = {"en": (["want to serve gpt-oss-120b for my team, 15 people", "hmm actually budget is tight, we'd buy like 4 used 3090s max"],
                 ["ok scratch that. what if we just use gpt-oss-20b on a single 3090 instead",
                  "forget it, gpt-oss-20b on one 3090 instead?"]),
          "zh": (["想给团队15个人部署gpt-oss-120b", "预算紧张，最多买4张二手3090"],
                 ["算了，换成gpt-oss-20b，只用一张3090呢", "那算了，用一张3090跑gpt-oss-20b"])}


@pytest.mark.parametrize(("lang", "i"), [(lang, i) for lang in CHANGE for i in range(2)])
def test_a_single_card_instead_is_the_plan(lang, i):
    first, changes = CHANGE[lang]
    decision = payload(run_conversation([*first, changes[i]])[-1])["decision"]
    assert (decision["gpu"], decision["gpus"], decision["model"]) == ("rtx-3090", 1, "gpt-oss-20b")


def test_a_count_asked_about_without_a_change_stays_a_question():
    u = understand("what if we use 2 of the 3090s?")
    assert u.recount is None or u.ask.get("hypothetical")


# C3: a card in a question of whether it is sold is no plan card; the two cards weighed get the verdict.
SOLD = {"en": ["can you still buy H100 in China? H20 or 4090D for serving qwen2.5-32b, 20 concurrent",
               "is the h100 still available in china? h20 vs 4090d for qwen2.5-32b with 20 concurrent users"],
        "zh": ["现在国内还能买到H100吗？H20 和 4090D 哪个更适合部署qwen2.5-32b，并发20左右",
               "H20 和 4090D 哪个更适合部署qwen2.5-32b，并发20左右。H100现在还能买到吗"]}


@pytest.mark.parametrize(("lang", "i"), [(lang, i) for lang in SOLD for i in range(2)])
def test_a_card_asked_if_sold_is_not_weighed(lang, i):
    u = understand(SOLD[lang][i])
    assert u.compare_gpus == ["h20", "rtx-4090d"]
    assert u.updates.get("preference") != "buy" and "h100-sxm" not in str(u.updates.get("only"))


@pytest.mark.parametrize("lang", list(SOLD))
def test_the_verdict_is_on_the_cards_weighed(lang):
    data = payload(run_conversation([SOLD[lang][0]])[-1])
    assert (data["decision"]["gpu"], data["decision"]["gpus"]) == ("h20", 1)


def test_three_cards_weighed_stay_three():
    assert len(understand("h100, h20 or 4090d for qwen2.5-32b, 20 concurrent").compare_gpus) == 3
