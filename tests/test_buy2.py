"""buy2 (session 17 round F): a vague count of cards to buy priced at that count (AZ 10), one card to buy planned as
one (AY 13), a training run of many months called impractical (AY 14), DeepSeek V3 on a budget that buys no server
for it (AY 9). English and Chinese, several phrasings each; decisions and counts asserted, not prose."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_states


def _last(turns: list[str]) -> tuple[dict[str, Any], str]:
    state = run_states(turns)[-1]
    message = state["messages"][-1]
    return message.additional_kwargs.get("gpu_advisor", {}), str(message.content)


# ---- 1. 'a couple of 4090s' to buy: priced at 2 cards, a preference, not a cap
VAGUE = [
    ("startup here, budget is 15k USD total. should we buy a couple of 4090s or just rent an H100 for fine-tuning "
     "Llama 3.1 8B with LoRA every week (about 100k samples each time)?", 2),
    ("we LoRA fine-tune llama 3.1 8b every week, 100k samples. buy a couple of 4090s or keep renting an H100?", 2),
    ("buy a few 4090s or keep renting an H100? weekly LoRA on llama 3.1 8b, about 100k samples", 3),
    ("创业公司，总预算1.5万美元。我们每周用LoRA微调一次Llama 3.1 8B（每次大概10万条样本），是买两三张4090还是直接租H100？", 2),
    ("每周用LoRA微调一次Llama 3.1 8B，每次10万条样本，买三四张4090还是继续租H100？", 3),
]


@pytest.mark.parametrize(("text", "n"), VAGUE)
def test_vague_count_bought_is_priced_at_that_count(text: str, n: int) -> None:
    data, reply = _last([text])
    weighed = data["buy_or_rent"]
    assert weighed["buy"] == "rtx-4090"
    assert weighed["buy_n"] == n
    assert weighed["purchase_usd"] == pytest.approx(1599 * n)
    assert weighed["code"] == "rent"  # weekly 8B LoRA: renting stays cheaper
    assert f"{n} × NVIDIA GeForce RTX 4090" in reply
    assert f"only {n} ×" not in reply and f"只用 {n} ×" not in reply  # a preference, never a cap on the plan


def test_one_card_weighed_keeps_one() -> None:
    data, _reply = _last(["buy a 4090 or keep renting an H100? weekly LoRA on llama 3.1 8b, 100k samples"])
    assert data["buy_or_rent"]["buy_n"] == 1
    assert data["buy_or_rent"]["purchase_usd"] == pytest.approx(1599)
