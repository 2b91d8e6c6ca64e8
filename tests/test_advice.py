"""Round G 'advice' (session 18): the decisions an expert signs, asserted from the reply's payload in English and
Chinese, several phrasings each.

1. China supply said once and consistently: a card under a US licence requirement (the H20) is 'licence', never
   called barred while a plan is headed with it; cards barred since 2023-10 (A800, H800) are never offered to buy in
   China; 'worth it vs just using the API' is answered with the self-hosted cost per million tokens at the load and
   the break-even volume against the maker's API price on record."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.api_prices import api_price_of
from gpu_advisor.knowledge.china_channel import china_channel, officially_sold
from gpu_advisor.knowledge.export_rules import china_status
from tests.conversation import run_conversation


def _data(turns: list[str]) -> dict[str, Any]:
    return run_conversation(turns)[-1].additional_kwargs.get("gpu_advisor") or {}


def test_one_standing_per_card_in_china() -> None:
    assert china_status("h20") == "licence" and china_channel(find_gpu("h20")) == "licence"
    for gpu in ("a800-80gb-sxm", "h800-sxm", "h100-sxm"):
        assert china_status(gpu) == "barred" and not officially_sold(find_gpu(gpu))


H20_API = [
    "Our company is in Shenzhen, we can only legally buy the H20 now. How many H20s to serve full DeepSeek V3 (671B) "
    "for maybe 60 concurrent users? And is it even worth it vs just using the API",
    "we're in shenzhen and can only legally buy h20s. deepseek v3 671b for ~60 concurrent users, how many h20? or "
    "should we just pay for the api instead",
    "how many H20 do we need for deepseek-v3 with 60 users at once? company in china, legally we can only buy H20. "
    "is self hosting even cheaper than the API?",
    "我们公司在深圳，现在只能合法买到H20。部署满血 DeepSeek V3 (671B)，大概60个人同时用，需要几张H20？还是直接调API划算？",
    "深圳公司，合法能买的只有H20，DeepSeek-V3 671B 给60人同时用要几张？和直接用官方API比哪个便宜？",
    "DeepSeek V3 满血版，60 并发，我们在国内只能合法买 H20，要买几张？自己部署还是用API划算",
]


@pytest.mark.parametrize("text", H20_API)
def test_h20_in_china_is_never_barred_while_headed_and_the_api_is_weighed(text: str) -> None:
    d = _data([text])
    decision, r = d.get("decision") or {}, d.get("results") or {}
    assert decision.get("gpu") == "h20" and decision.get("action") == "buy" and decision.get("fits")
    legal = next((a for a in d.get("asked_more") or [] if a.get("code") == "legal_buy"), None)
    if legal is not None:  # the standing said is the licence caveat, never 'barred'
        assert legal["market"].get("h20") == "licence"
    rows = " ".join(row[0] for row in (d.get("table") or {}).get("rows") or [])
    assert "A800" not in rows and "H800" not in rows and "A100" not in rows  # barred: never offered to buy in China
    api = r.get("api_compare") or {}
    price = api_price_of("deepseek-v3")
    assert price is not None and api.get("self_usd_per_million", 0) > 0
    assert api.get("break_even_million_per_month", 0) > 0 and api.get("break_even_share", 0) > 0
    assert api["self_wins_at_capacity"] == (api["break_even_share"] < 1)
    assert d.get("decision", {}).get("lang") == ("zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en")


@pytest.mark.parametrize("text", [
    "serve qwen2.5 72b for 30 users behind an openai-compatible api on rented h100s",
    "部署 qwen2.5 72b 给 30 人用，对外提供 API，租 H100",
])
def test_serving_behind_an_api_is_no_api_comparison(text: str) -> None:
    assert not (_data([text]).get("results") or {}).get("api_compare")


# ---------------------------------------------------------------- 2. no FP8 on a card without it (Ascend 910B)

def test_the_8bit_kv_cache_follows_the_card() -> None:
    from gpu_advisor.tools.kv_format import kv8_format

    assert kv8_format(find_gpu("ascend-910b")) == "int8"  # no FP8 units: its engines' INT8 cache
    assert kv8_format(find_gpu("h100-sxm")) == "fp8" and kv8_format(find_gpu("a100-80gb-sxm")) == "fp8"


ASCEND = [
    "我们是做政务项目的，要求全栈国产化，只能用昇腾910B。要部署Qwen2.5-72B-Instruct，峰值并发大概100路，平均输入1500 token，"
    "输出400左右。需要多少张卡？",
    "政务项目，全栈国产化，只能上昇腾910B，Qwen2.5-72B-Instruct，高峰100路并发，输入约1500 token、输出约400，要几张卡",
    "Government project, fully domestic stack: Ascend 910B only. Qwen2.5-72B-Instruct for about 100 concurrent users at "
    "peak, ~1500 tokens in and ~400 out. How many cards?",
    "how many huawei ascend 910b cards (domestic only, nothing else) to serve qwen2.5 72b instruct, 100 users at once, "
    "prompts 1500 tokens, answers 400 tokens?",
]


@pytest.mark.parametrize("text", ASCEND)
def test_ascend_plan_has_no_fp8_and_one_per_user_speed(text: str) -> None:
    d = _data([text])
    decision, rec = d.get("decision") or {}, (d.get("results") or {}).get("recommend") or {}
    assert decision.get("gpu") == "ascend-910b" and decision.get("fits")
    assert 8 <= decision["gpus"] <= 16  # one or two 8-card servers, as an expert would size it
    assert "fp8" not in (decision.get("precision") or "") and (rec["best"].get("kv_precision") or "") != "fp8"
    load = rec.get("prefill_load")
    if load:  # the prompt load's streams are written at the plan's one per-user speed, in closed loop
        assert round(load["tokens_per_s"]) == round(rec["best"]["decode_tokens_per_s"])
        traffic = rec.get("traffic") or {}
        assert traffic.get("in_flight", 0) <= load["users"] * 1.03  # never more requests in flight than people


@pytest.mark.parametrize("text", [
    "Ascend 910B only: serve qwen2.5 72b in fp8 for 50 users, how many cards?",
    "只能用昇腾910B，qwen2.5 72b 用 fp8 部署，50 人同时用，要几张卡",
    "fp8 qwen2.5-72b on huawei 910b npus, 50 concurrent users — card count?",
])
def test_fp8_asked_on_ascend_serves_w8a8(text: str) -> None:
    d = _data([text])
    decision = d.get("decision") or {}
    assert decision.get("gpu") == "ascend-910b" and decision.get("precision") == "w8a8-int8"


# ---------------------------------------------------------------- 3. owned first for a full fine-tune

OWNED_FULL = [
    "Our lab has 2 nodes of 8x A100 40GB (so 16 cards total, infiniband between nodes). PI wants to do a FULL finetune "
    "of llama 3.1 70B on ~300M tokens of domain text. do we need to buy more hardware or can we make it work? "
    "deadline is 3 weeks",
    "deadline 3 weeks: full fine-tune of llama 3.1 70b, about 300M tokens, on our 16x A100 40GB (two 8-GPU servers, "
    "infiniband). can we make it work or must we buy?",
    "实验室有两台8卡A100 40G（共16张，节点间infiniband），要全参微调 llama 3.1 70b，大概3亿token的领域文本，三周内要完成。需要买新卡吗？",
    "三周内全参微调 llama 3.1 70b，3亿 token，我们自己有 2 台 8 卡 A100 40GB（IB 互联），够不够，要不要再买卡",
]


@pytest.mark.parametrize("text", OWNED_FULL)
def test_owned_cards_with_offload_lead_when_they_meet_the_deadline(text: str) -> None:
    d = _data([text])
    decision, rec = d.get("decision") or {}, (d.get("results") or {}).get("recommend") or {}
    assert decision.get("owned") and decision.get("gpu") == "a100-40gb-sxm" and decision.get("gpus") == 16
    assert decision.get("action") == "use" and rec.get("relaxed") == "zero_offload"
    assert rec["best"]["job_hours"] <= 21 * 24 and decision["meets"].get("deadline") is True
    assert rec["best"]["job_hours"] > rec["owned_as_planned"]["job_hours"]  # the cost in speed, said
    assert rec.get("instead") and not rec["instead"]["owned"]  # the rented plan that is faster stays beside it


@pytest.mark.parametrize("text", [
    "lab has 16x A100 40GB over 2 nodes, full finetune llama 3.1 70b on 300M tokens, must finish in 1 day. do we "
    "need more hardware?",
    "16张A100 40G（两台服务器），全参微调 llama 3.1 70b，3亿 token，一天之内要完成，需要买卡吗",
])
def test_offload_missing_the_deadline_rents(text: str) -> None:
    decision = _data([text]).get("decision") or {}
    assert not decision.get("owned") and decision.get("action") in ("rent", "buy")


# ---------------------------------------------------------------- 4. a correction of what is owned limits no rental

OWNED_FIX = [
    ("我们有两张 H100 80G，想部署 Llama-3.1-70B，fp16 就行，给大概30个人同时用",
     "啊不对，我看了下机器，其实是两张 A100 40G 的，不是 H100。那还能跑吗？"),
    ("我们有两张 H100 80G，部署 Llama 3.1 70B fp16，30 人同时用", "不对不对，是两张 A100 40G，不是 H100，还能跑吗"),
    ("we have two H100 80GB and want to serve llama 3.1 70b in fp16 for about 30 people at once",
     "oh wait, I checked the box, they're actually two A100 40GB, not H100s. can it still run?"),
    ("serve llama-3.1-70b fp16 to 30 concurrent users on our 2x h100 80gb",
     "sorry, my mistake: it's 2x A100 40GB, not H100. does it still work?"),
]


@pytest.mark.parametrize("first, fix", OWNED_FIX)
def test_correcting_the_owned_cards_limits_no_rental(first: str, fix: str) -> None:
    d = _data([first, fix])
    profile, decision = d.get("profile") or {}, d.get("decision") or {}
    assert [e.replace(" ", "") for e in profile.get("owned") or []] == ["2xa100-40gb-sxm"]
    assert not profile.get("only") and "h100-sxm" not in (profile.get("exclude") or [])
    assert decision.get("fits") and not decision.get("owned")
    assert decision.get("gpu") != "a100-40gb-sxm"  # an 80-96 GB card rented, not eight more of the 40 GB one
    assert decision.get("gpus", 99) <= 4


# ---------------------------------------------------------------- 5. QLoRA on the cards owned before any rental

QLORA_OWNED = [
    "two questions: 1) how much vram to run gemma 2 27b for inference in fp16, just me using it? 2) could i lora "
    "finetune it on my 2x rtx 3090 box (no nvlink)?",
    "could i lora finetune gemma 2 27b on my 2x rtx 3090 box (no nvlink)?",
    "lora fine-tune gemma-2-27b, I have two 3090s at home, is that possible?",
    "两个问题：1）gemma 2 27b 用 fp16 推理要多少显存，就我自己用？2）我这台两张 3090（没有 nvlink）的机器能 lora 微调它吗？",
    "我有两张3090（没有nvlink），能不能 lora 微调 gemma 2 27b？",
    "我这台机器有两张3090，想 lora 微调 gemma 2 27b，可以吗",
]


@pytest.mark.parametrize("text", QLORA_OWNED)
def test_qlora_on_the_owned_cards_comes_first(text: str) -> None:
    d = _data([text])
    decision, rec = d.get("decision") or {}, (d.get("results") or {}).get("recommend") or {}
    assert decision.get("owned") and decision.get("gpu") == "rtx-3090" and decision.get("gpus") == 2
    assert decision.get("action") == "use" and decision.get("fits")
    assert (rec.get("relaxed") or "").startswith("qlora")
    assert rec["workload"]["method"] == "qlora"


def test_fp16_memory_asked_is_answered_in_fp16_beside_the_owned_plan() -> None:
    text = QLORA_OWNED[0]
    reply = run_conversation([text])[-1]
    first = reply.content.split("\n\n")[0]
    assert "FP16" in first and "58.8 GB" in first  # the format asked, its figure (54.4 GB weights + KV + overhead)


@pytest.mark.parametrize("text", [
    "lora finetune llama 3.1 70b and serve it to 40 users at once, we have 2x rtx 3090",
    "我们有两张3090，lora 微调 llama 3.1 70b，然后给 40 个人同时用",
])
def test_a_service_for_many_is_not_squeezed_onto_the_owned_cards(text: str) -> None:
    rec = ((_data([text]).get("results") or {}).get("recommend") or {})
    assert not (rec.get("relaxed") or "").startswith("qlora_serve")
