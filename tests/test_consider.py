"""A card weighed as an addition to the one owned (review AD E5): 'i have a 4090 … or should i just buy a used 3090
as a second card' sizes the 4090 alone with part in system RAM against 4090 + 3090 as one layer split, with tok/s
for each and a verdict on buying it; the 3090 is never called owned. A card said as owned or added stays so."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

WEIGHED_72B = [
    "i have a 4090 + 64gb ddr5 at home. can i run qwen2.5 72b at a readable speed? or should i just buy a used 3090 "
    "as a second card",
    "or should i just buy a used 3090 as a second card? i have a 4090 and 64gb ram, want qwen2.5 72b",
    "i have a 4090 and 64gb ram. thinking of adding a 3090. can i run qwen2.5 72b at a readable speed?",
    "i own a 4090. would buying a second-hand 3090 help run qwen2.5 72b?",
    "我家里有一张4090，64G内存，想跑qwen2.5 72b，速度能看吗？要不要再买一张3090",
    "要不要再买一张3090？我有一张4090，想跑qwen2.5 72b",
    "我有一张4090，考虑再入一张二手3090，跑qwen2.5 72b能看吗",
    "家里4090一张，64g内存，跑qwen2.5-72b够快吗，还是再买张3090",
    "我有一张4090，想再加一张3090跑qwen2.5 72b",
]


@pytest.mark.parametrize("text", WEIGHED_72B)
def test_weighed_card_is_not_owned(text: str) -> None:
    u = understand(text)
    assert u.updates.get("owned") == ["1x rtx-4090"]
    assert u.ask.get("considered") == {"rtx-3090": 1}
    assert "rtx-3090" not in u.added_cards
    assert not u.updates.get("only")


@pytest.mark.parametrize("text", WEIGHED_72B[:1] + WEIGHED_72B[4:5] + WEIGHED_72B[7:8] + WEIGHED_72B[2:3])
def test_alone_with_offload_against_the_pair_and_a_verdict(text: str) -> None:
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]["considered"]
    assert data["owned"] == "rtx-4090" and data["added"] == {"rtx-3090": 1}
    assert data["pool_fits"] is True and data["verdict"] == "buy"
    assert 0.5 < data["alone_tokens_per_s"] < 5  # DDR5-bound: barely readable
    assert data["pool_tokens_per_s"] >= 10 and data["pool_tokens_per_s"] > 3 * data["alone_tokens_per_s"]
    first = reply.content.split("\n\n")[0]
    assert first.startswith("## ") and "3090" in first and "4090" in first
    assert "1 × NVIDIA GeForce RTX 3090 24GB you are weighing" in first or "在考虑的" in first
    said = reply.content.split("**From what you said:**")[-1].split("**你说的**")[-1].split("\n")[0]
    assert "3090" not in said  # never 'you own … 3090'
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert ("不用买，但要改一处" not in reply.content) if zh else ("Use your 1 × NVIDIA GeForce RTX 4090 24GB + " not in reply.content)


@pytest.mark.parametrize("text", ["i have a 4090. thinking of adding a 3090. worth it for llama 3.1 8b?",
                                  "我有一张4090，要不要再买一张3090跑llama 3.1 8b"])
def test_model_that_fits_alone_gets_no(text: str) -> None:
    data = run_conversation([text])[-1].additional_kwargs["gpu_advisor"]["considered"]
    assert data["verdict"] == "skip" and data["alone_tokens_per_s"] > 30


@pytest.mark.parametrize("text, owned, added", [
    ("i have a 4090 and a 3090, run qwen2.5 72b", ["1x rtx-4090", "1x rtx-3090"], {}),
    ("我有一张4090，还有一张3090，跑qwen2.5 72b", ["1x rtx-4090", "1x rtx-3090"], {}),
    ("i have a 4090, add my old 3060 as a second card, run qwen2.5 32b", ["1x rtx-4090"], {"rtx-3060-12gb": 1}),
    ("i have a 4090 and already got a 3090, run qwen 72b", ["1x rtx-4090", "1x rtx-3090"], {}),
])
def test_owned_or_added_cards_stay_so(text: str, owned: list[str], added: dict[str, int]) -> None:
    u = understand(text)
    assert "considered" not in u.ask
    assert u.updates.get("owned") == owned
    assert dict(u.added_cards) == added


SWITCH = [
    ("thinking of getting two used 3090s to run llama 3.3 70b at 4bit for me n my brother, is that the move?",
     "actually scratch that, what if i just get one 4090 and offload the rest to cpu ram (64gb ddr5)?"),
    ("thinking of getting two used 3090s to run llama 3.3 70b at 4bit for me n my brother, is that the move?",
     "what if i just get one 4090 and put the rest in system ram instead? 64gb ddr5"),
    ("想买两张二手3090跑llama 3.3 70b 4bit，我和我弟用，行吗", "算了，要不就买一张4090，剩下的放内存（64g ddr5）？"),
    ("想买两张二手3090跑llama 3.3 70b 4bit，我和我弟用，行吗", "64g内存，还是只买一张4090，其余放到内存里呢"),
]


@pytest.mark.parametrize("turns", SWITCH)
def test_one_card_with_offload_against_the_plan_before(turns: tuple[str, str]) -> None:
    reply = run_conversation(list(turns))[-1]
    data = reply.additional_kwargs["gpu_advisor"]["switched_offload"]
    assert data["gpu"] == "rtx-4090" and data["before_gpu"] == "rtx-3090" and data["before_gpus"] == 2
    assert 0.5 < data["offload_tokens_per_s"] < 5 and data["before_tokens_per_s"] >= 10
    assert data["before_purchase_usd"] and data["verdict"] == "before"
    first = reply.content.split("\n\n")[0]
    assert first.startswith("## ") and "4090" in first and "3090" in first
    assert not any(line.startswith("## ") for line in reply.content.split("\n\n")[1:4])


@pytest.mark.parametrize("text", ["put the rest in system ram with one 4090, llama 3.3 70b",
                                  "一张4090跑llama 3.3 70b，剩下的放内存", "一张4090跑llama 3.3 70b，放不下的塞内存里"])
def test_rest_in_ram_is_offload(text: str) -> None:
    assert understand(text).updates.get("cpu_offload") is True


@pytest.mark.parametrize("text", [
    "serve deepseek v3 internally for 20 concurrent users",
    "internally, 20 concurrent users on deepseek v3",
    "serve deepseek v3 internally for 20 users at once",
    "deploy deepseek v3 internally, 20 simultaneous users",
    "部署DeepSeek-V3给内部用，20个并发",
    "内部用，20个并发，部署DeepSeek-V3",
    "内部部署deepseek v3，同时20人在用",
])
def test_concurrent_beside_a_count_is_at_once(text: str) -> None:
    u = understand(text)
    assert u.updates.get("users") == 20 and "population" not in u.updates


@pytest.mark.parametrize("text, population", [("deepseek v3 internally for 3000 internal users", 3000),
                                              ("serve deepseek v3 internally for 20 users", 20)])
def test_internal_users_without_at_once_stay_a_head_count(text: str, population: int) -> None:
    assert understand(text).updates.get("population") == population
