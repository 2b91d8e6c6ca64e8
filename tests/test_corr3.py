"""A correction or an answer in a later turn is understood whatever its wording, and nothing said earlier is lost
(review AT/AU, round D corr3): owned cards partly taken, a budget restated, working hours described, the owned cards
put right, a preference for cheap kept through a correction."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_states

NOT_UNDERSTOOD = ("didn't understand", "没看懂")


def _run(turns: list[str]) -> tuple[dict[str, Any], str]:
    state = run_states(turns)[-1]
    return state["profile"], str(state["messages"][-1].content)


def _understood(text: str) -> None:
    assert not any(w in text for w in NOT_UNDERSTOOD), text[:300]


# 1. Owned cards partly taken: the job runs on the free count.

A100_ZH = "我们实验室有一台8卡A100 80G的服务器，想全参微调 llama3 8b，数据大概50万条对话，平均长度1500 token左右，跑3个epoch要多久？"
A100_EN = ("we have a server with 8x A100 80GB in the lab, want to full finetune llama 3 8b on 500k conversations "
           "of ~1500 tokens, 3 epochs. how long?")


@pytest.mark.parametrize("first, fix", [
    (A100_ZH, "哦对了 其中两张卡被别的同学占着，只能用6张"),
    (A100_ZH, "只能用6张卡"),
    (A100_ZH, "不好意思，可以用的只有6张"),
    (A100_ZH, "其中两张被占用了"),
    (A100_ZH, "两张卡别人在用"),
    (A100_EN, "two of them are taken, we can use 6"),
    (A100_EN, "only 6 are free"),
    (A100_EN, "oh btw two of the cards are taken by another team"),
    (A100_EN, "sorry, we can only use 6 of them"),
    (A100_EN, "actually 6 of them are free, the other two are busy"),
])
def test_owned_cards_partly_taken_leave_the_free_count(first: str, fix: str) -> None:
    profile, text = _run([first, fix])
    _understood(text)
    assert profile["owned"] == ["6x a100-80gb-sxm"]
    assert "6 × NVIDIA A100" in text and "40.1" in text


# 2. A budget restated with correction words in any order is the new budget.

KB_ZH = "想给内部知识库问答上个模型，qwen2.5 14b，大概300个员工用，不过同时在线估计也就30个左右。预算一个月5000以内租云，够吗"
KB_EN = "want to serve qwen2.5 14b for an internal knowledge base, ~30 concurrent users, budget $5000 a month to rent. enough?"


@pytest.mark.parametrize("first, fix, usd", [
    (KB_ZH, "不好意思说错了，预算是每个月3000", 420.0),
    (KB_ZH, "预算改成每个月3000", 420.0),
    (KB_ZH, "说错了 每个月预算是3000", 420.0),
    (KB_ZH, "预算其实是每月3000", 420.0),
    (KB_ZH, "每个月3000的预算，刚才说错了", 420.0),
    (KB_EN, "sorry, budget is 3000 a month", 3000.0),
    (KB_EN, "my mistake, the budget is actually 3000 per month", 3000.0),
    (KB_EN, "budget changed to 3000/month", 3000.0),
    (KB_EN, "actually it's a 3000 a month budget", 3000.0),
])
def test_a_budget_restated_is_the_new_budget(first: str, fix: str, usd: float) -> None:
    profile, text = _run([first, fix])
    _understood(text)
    assert profile["budget_usd_per_month"] == pytest.approx(usd)
    assert profile["model"] and "14b" in profile["model"].lower()
    assert not profile["owned"]


# 3. Working hours described in words answer the utilisation question, from the hours said where given.

QWEN_EN = ("thinking of running qwen3 235b a22b for our dev team of like thirty people, 32k ctx for coding. what "
           "hardware, and is it cheaper to rent or buy if we use it 2 years straight")
QWEN_ZH = "想给30人的研发团队跑qwen3 235b a22b写代码，32k上下文，用什么硬件？用两年的话租还是买划算"


@pytest.mark.parametrize("first, answer, share", [
    (QWEN_EN, "mostly working hours, weekdays 9 to 7, rarely at night", 10 * 5 / 168),
    (QWEN_EN, "weekdays 9am-7pm, occasionally evenings", 10 * 5 / 168),
    (QWEN_EN, "mostly during the workday, 9-7 mon-fri, almost never at night", 10 * 5 / 168),
    (QWEN_EN, "office hours mostly, nights rarely", 0.24),
    (QWEN_EN, "working hours, rarely at night", 0.24),
    (QWEN_ZH, "主要是工作日白天用，晚上很少", 0.24),
    (QWEN_ZH, "基本朝九晚六，周末偶尔用一下", 9 * 5 / 168),
    (QWEN_ZH, "工作日早九点到晚七点，晚上基本不用", 10 * 5 / 168),
])
def test_working_hours_described_are_the_utilisation(first: str, answer: str, share: float) -> None:
    profile, text = _run([first, answer])
    _understood(text)
    assert profile["utilisation"] == pytest.approx(share, abs=0.01)
    assert profile["model"] and "235b" in profile["model"].lower()


def test_a_side_job_said_occasionally_still_gives_no_utilisation() -> None:
    from gpu_advisor.assistant.reading import understand
    assert "utilisation" not in understand("mostly lora, occasionally inference").updates
    assert "utilisation" not in understand("主要做lora微调7b到14b的模型，偶尔推理").updates


# 4. The owned cards put right with two kinds: the plan is made again on both, pooled, the slower card's pace.

RIG_EN = "i've got two 4090s in my rig, want to qlora llama 3.1 70b on like five thousand examples over the weekend"
RIG_ZH = "我机器上有两张4090，想周末用qlora微调llama 3.1 70b，五千条数据"
MIXED = ["1x rtx-4090", "1x rtx-3090"]


@pytest.mark.parametrize("first, fix", [
    (RIG_EN, "oh wait no, its one 4090 and one 3090, sorry. still doable?"),
    (RIG_EN, "my bad, actually it's a 4090 plus a 3090"),
    (RIG_EN, "sorry, correction: one 3090 and one 4090. does it still work?"),
    (RIG_ZH, "不好意思说错了，是一张4090和一张3090，还能跑吗"),
    (RIG_ZH, "说错了，其实是1张4090加1张3090"),
    (RIG_ZH, "搞错了 是一张3090一张4090"),
])
def test_owned_cards_put_right_are_planned_together(first: str, fix: str) -> None:
    profile, text = _run([first, fix])
    _understood(text)
    assert sorted(profile["owned"]) == sorted(MIXED)
    assert "3090" in text.split("\n")[0] and "4090" in text.split("\n")[0]
    assert "2 × NVIDIA GeForce RTX 3090" in text and "B200" not in text.split("##")[1].split("\n")[0]


@pytest.mark.parametrize("msg", [
    "i have one 4090 and one 3090 in my rig, want to qlora llama 3.1 70b on like five thousand examples over the "
    "weekend. doable?",
    "got a 3090 and a 4090 in my pc, can i qlora llama 3.1 70b on 5k examples this weekend?",
    "我有一张4090和一张3090，想用qlora微调llama 3.1 70b，五千条数据，周末能跑完吗",
    "我有一张3090和一张4090，想这个周末qlora微调llama 3.1 70b，5000条样本，可以吗",
])
def test_mixed_owned_cards_pool_in_one_turn(msg: str) -> None:
    profile, text = _run([msg])
    assert sorted(profile["owned"]) == sorted(MIXED)
    assert text.startswith(("**Yes", "**可以"))
    assert "2 × NVIDIA GeForce RTX 3090" in text


def test_cards_weighed_are_no_correction() -> None:
    from gpu_advisor.assistant.reading import understand
    for msg in ("sorry, 4090 or 3090?", "compare one 4090 and one 3090", "4090还是3090，说错了"):
        assert "owned" not in understand(msg).updates


# 5. 'Cheap' said once survives a correction: the plan is the cheapest option that does the job.

LORA_EN = ("want to lora finetune qwen2.5 14b on about 40k instruction pairs, avg maybe 800 tokens each. 3 epochs. "
           "{cheap}")
LORA_ZH = "想用lora微调qwen2.5 14b，4万条指令数据，每条大概800 token，3个epoch，{cheap}"


@pytest.mark.parametrize("first, fix", [
    (LORA_EN.format(cheap="rent something cheap"), "oh wait sorry, its 400k pairs not 40k"),
    (LORA_EN.format(cheap="we're on a budget, cheap is fine"), "correction: 400k pairs, not 40k"),
    (LORA_EN.format(cheap="want the cheapest option"), "my bad, it's actually 400k examples"),
    (LORA_ZH.format(cheap="租便宜点的卡就行"), "不好意思说错了，是40万条不是4万条"),
    (LORA_ZH.format(cheap="想省钱"), "说错了，数据是40万条"),
    (LORA_ZH.format(cheap="越便宜越好"), "搞错了，其实有40万条"),
])
def test_cheap_survives_a_correction(first: str, fix: str) -> None:
    profile, text = _run([first, fix])
    _understood(text)
    assert profile["cheapest"] is True
    assert profile["train_examples"] == 400_000
    headline = next(line for line in text.split("\n") if line.startswith("## "))
    assert "RTX 4090" in headline and "B200" not in headline


@pytest.mark.parametrize("msg", ["is it cheaper to rent or buy", "cheapest place to rent an h100", "is that cheap enough?",
                                 "哪家租a100最便宜", "the 4090 is cheap but slow"])
def test_cheap_asked_or_described_is_no_goal(msg: str) -> None:
    from gpu_advisor.assistant.reading import understand
    assert not understand(msg).updates.get("cheapest")
