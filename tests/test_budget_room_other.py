"""A higher budget shows what it buys (review BK #13: ¥20万 → ¥40万 kept 8 × 3090 with nothing said): the dearer option
of the plan's table the budget pays for that serves clearly better (a first token in half the time here), with its
figures; none is named when the budget buys nothing better."""

from __future__ import annotations

from tests.conversation import run_states


def test_review_bk13_raised_budget_names_what_it_buys() -> None:
    # 8k said: h-fixa sizes a reasoning model at 32k when none is said (8 × RTX 5090 then); this test is the budget
    first, second = run_states(["预算二十万以内 自己攒机 本地部署deepseek r1 70b蒸馏版 给团队十几个人用，上下文8k", "那如果预算提到四十万呢"])
    a, b = first["messages"][-1].content, second["messages"][-1].content
    assert "## 购买 8 × NVIDIA GeForce RTX 3090 24GB" in a and "预算能买到更好的" not in a  # ¥20万 buys nothing better
    # h-rank4 (review CG #7): a team's purchase in China goes on new cards sold there officially when the budget
    # reaches them; the used 3090s stay in the table, and the reply says the pick moved
    assert b.startswith("## 购买 8 × NVIDIA L20 48GB") and "**方案换了卡**：8 × NVIDIA GeForce RTX 3090 24GB → 8 × NVIDIA L20 48GB" in b
    assert "**和之前的方案比**" in b or "之前" in b.split("**推理服务**")[0]


def test_english_raised_budget() -> None:
    # 8k said: h-fixa sizes a reasoning model at 32k when none is said (8 × RTX 5090 then); this test is the budget
    states = run_states(["budget 200k yuan, building our own box, deepseek r1 distill llama 70b for a team of 15, 8k context",
                         "what if the budget goes up to 400k yuan?"])
    b = states[-1]["messages"][-1].content
    assert b.startswith("## Buy 8 × NVIDIA L20 48GB"), b[:1500]
    assert "**The pick moved**: 8 × NVIDIA GeForce RTX 3090 24GB → 8 × NVIDIA L20 48GB" in b
