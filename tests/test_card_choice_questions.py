"""Card-choice questions answered on the card asked, at the count it needs (review: h-choice):

- "how many L40S, or should we go with H100s instead?": a comparison, never an 'only H100' restriction;
- "用 4090 行不行？要几张？": sized on the 4090 at the count the target needs, never one card forced first, and a
  rate a card sustains never printed as 0;
- "H20 和 910B 哪个更适合…": each card sized at the count it needs (910B across servers), never 'only H20 can';
- "can we do it on H100s and stay under the 15k?": yes or no on the H100 and the budget, with a way that fits.
"""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.writers import rate_said
from tests.conversation import run_conversation

# --- a second card said as a way to go after the first: compared, not the only one ---------------------------------

JOB_EN = "We want Mistral Small 24B as an internal assistant, 50 users at the same time, 8k context."
JOB_ZH = "我们想用 Mistral Small 24B 做内部助手，50 人同时用，8k 上下文。"
OR_INSTEAD_EN = [
    "How many L40S do we need, or should we go with H100s instead?",
    "how many l40s would it take, or should i just go with h100s?",
    "How many L40S? Or would we rather use H100s instead?",
    "how many L40S do we need or do we go with H100 instead",
    "How many L40S are needed, or should we get H100s instead?",
    "how many L40S, or could we pick H100s?",
]
OR_INSTEAD_ZH = [
    "要几张 L40S，还是直接上 H100？",
    "L40S 要几张？还是应该用 H100？",
    "需要多少张 L40S，或者换成 H100？",
    "要几张L40S，还是干脆买H100？",
    "L40S 得几张，还是选 H100 好？",
    "要多少张 L40S 呢，还是直接用 H100",
]


@pytest.mark.parametrize("text", [JOB_EN + " " + q for q in OR_INSTEAD_EN] + [JOB_ZH + q for q in OR_INSTEAD_ZH])
def test_or_instead_is_a_comparison_not_a_limit(text):
    u = understand(text)
    assert not u.updates.get("only"), u.updates
    assert set(u.compare_gpus) == {"l40s", "h100-sxm"}


@pytest.mark.parametrize("text", [
    "Enterprise here (bank, ~500 employees). We want Mistral Small 24B as an internal assistant, maybe 10% of staff "
    "using it at the same time, 8k context. How many L40S do we need, or should we go with H100s instead?",
    "银行，500 名员工，合规要求本地部署。内部助手用 Mistral Small 24B，大约 10% 的人同时在用，8k 上下文。要几张 L40S，还是直接上 H100？",
])
def test_or_instead_headlines_the_cheaper_at_its_count(text):
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert data["decision"]["gpu"] == "l40s" and data["decision"]["gpus"] > 1
    assert "L40S" in "\n".join(reply.content.splitlines()[:3])  # the headline, or each card's count first
    assert not (data["profile"].get("only") or [])


# --- "X 行不行？要几张？": X at the count the target needs ------------------------------------------------------------

RATE_ZH = "客服机器人用 GLM-4-9B，首 token 500ms 以内，高峰每秒 20 个请求，输入 1000 token 输出 200。"
RATE_EN = "Support bot on GLM-4-9B, first token under 500ms, peak 20 requests per second, 1000 tokens in, 200 out. "
COUNT_ZH = ["用 4090 行不行？要几张？", "4090 行吗，要几张", "4090可以吗？需要几张？", "用4090行不行，要多少张",
            "上 4090 行不行？得几张？", "4090 够不够？要几块？"]
COUNT_EN = ["Would the 4090 work? How many would we need?", "can we use 4090s? how many do we need?",
            "is the 4090 ok? how many cards?", "4090 enough? how many gpus?",
            "Could we use the RTX 4090, and how many of them?", "would a 4090 setup be fine, how many would we need?"]


@pytest.mark.parametrize("text", [RATE_ZH + q for q in COUNT_ZH] + [RATE_EN + q for q in COUNT_EN])
def test_count_asked_beside_yes_no_is_the_card_at_its_count(text):
    u = understand(text)
    only = u.updates.get("only") or []
    assert only == ["rtx-4090"] or (not only and u.compare_gpus == ["rtx-4090"]), (u.updates, u.compare_gpus)
    assert "fit_check" not in u.intents


@pytest.mark.parametrize("text", [RATE_ZH + COUNT_ZH[0], RATE_EN + COUNT_EN[0]])
def test_count_asked_sizes_several_cards(text):
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert data["decision"]["gpu"] == "rtx-4090" and data["decision"]["gpus"] > 1
    assert "每秒 0 个" not in reply.content and " 0 requests" not in reply.content
    assert "1x rtx-4090" not in (data["profile"].get("only") or [])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rate_rounded_to_zero_is_never_printed(lang):
    assert "0" not in rate_said(0.0, lang).replace("10", "")
    assert "1" in rate_said(0.0, lang)
    assert "0.4" in rate_said(0.4, lang)


# --- two cards compared: each at the count it needs ----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "H20 和 910B 哪个更适合部署 Llama 3.3 70B？大概 100 个并发，主要是长文档问答，输入一般 16k",
    "部署 Llama 3.3 70B，100 个并发，输入 16k，910B 还是 H20？",
    "Which is better for Llama 3.3 70B, H20 or 910B? About 100 concurrent users, long documents, 16k prompts",
    "llama 3.3 70b, 100 concurrent users, 16k-token prompts: 910B vs H20, which one?",
])
def test_compared_cards_each_at_the_count_it_needs(text):
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    rows = {o["gpu"]: o for o in data["results"]["options"]}
    assert rows["ascend-910b"]["ok"] and rows["ascend-910b"]["gpus"] > 8
    assert rows["h20"]["ok"]
    assert "只有它能" not in reply.content and "only one" not in reply.content.lower()


# --- "can we do it on H100s and stay under the budget?" after a plan -----------------------------------------------

PLAN_EN = "peak 5 rps, p95 TTFT < 1 s, llama 3.1 70b, budget 15k a month"
PLAN_ZH = "高峰每秒 5 个请求，p95 首 token 1 秒以内，llama 3.1 70b，每月预算 1.5 万美元"
ON_EN = ["hmm can we do it on H100s and stay under the 15k?", "can we do it on h100s within the budget?",
         "could it run on H100s and stay under budget?"]
ON_ZH = ["用 H100 能做吗？能控制在预算内吗？", "H100 行不行，能不超预算吗？", "换成 H100 能在预算内吗？"]


@pytest.mark.parametrize("turns", [["peak 5 rps, p95 TTFT < 1 s, llama 3.1 8b, budget 15k a month",
                                     "sorry, llama 3.1 70b not 8b", ON_EN[0]]]
                         + [[PLAN_EN, q] for q in ON_EN[1:]] + [[PLAN_ZH, q] for q in ON_ZH])
def test_on_a_card_under_a_budget_answers_on_that_card(turns):
    reply = run_conversation(turns)[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    direct = data.get("direct") or {}
    on_it = direct.get("gpu") == "h100-sxm" or data["decision"]["gpu"] == "h100-sxm"
    assert on_it, (direct, data["decision"])
    assert "H100" in reply.content.splitlines()[0]
    if direct.get("gpu") == "h100-sxm" and direct.get("missed") == "budget":
        assert direct["usd_per_month"] > direct["budget_usd_per_month"]
