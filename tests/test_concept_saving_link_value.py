"""Concept questions answered in full (reviews CV #7, NC30 #4 and #9): what prefix caching saves is computed
(tools.prefix_saving: 2k shared of 5.1k -> 39% of the prefill skipped) and said with how it works, not an engine blurb
and an intake question; 'do I actually need NVLink' is answered (usually not: one card or replicas never need it, TP=2
over PCIe costs little, TP>=4, large-batch prefill and training do) with the links' bandwidths; 'which is 划算 / better
value' divides the rental prices into bandwidth (decode) and TFLOPS (prefill), with no deployment opener and no model
asked when the user says it is not a configuration."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.card_value import CardValueInput, card_value
from gpu_advisor.tools.link_need import PCIE_X16_GBPS, LinkNeedInput, link_need
from gpu_advisor.tools.prefix_saving import (
    DEFAULT_QUESTION,
    DEFAULT_RETRIEVED,
    PrefixSavingInput,
    prefix_saving,
)
from tests.conversation import payload, run_states

CJK = re.compile(r"[\u4e00-\u9fff]")

# ---------------------------------------------------------------- the tools


@pytest.mark.parametrize(("shared", "own", "pct"), [(2000, None, 39), (2000, 3100, 39), (3000, 4200, 42),
                                                   (1600, 400, 80), (2048, 0, 100)])
def test_prefill_saved_is_shared_over_the_whole_prompt(shared: int, own: int | None, pct: int) -> None:
    r = prefix_saving(PrefixSavingInput(shared_tokens=shared, own_tokens=own))
    assert r.own_assumed == (own is None)
    assert r.own_tokens == (DEFAULT_RETRIEVED + DEFAULT_QUESTION if own is None else own)
    assert r.prompt_tokens == shared + r.own_tokens
    assert round(r.prefill_saved_share * 100) == pct and r.ttft_saved_share == r.prefill_saved_share
    assert r.kv_saved_bytes is None and r.prefix_kv_bytes is None  # no model: no figure invented


def test_vllm_reuses_whole_blocks_only() -> None:
    r = prefix_saving(PrefixSavingInput(shared_tokens=2010, own_tokens=3090))
    assert r.cached_tokens == 2000 and r.block_tokens == 16
    assert r.prefill_saved_share == pytest.approx(2000 / 5100)


@pytest.mark.parametrize("users", [1, 10, 50])
def test_prefix_kv_is_held_once_per_model_copy(users: int) -> None:
    r = prefix_saving(PrefixSavingInput(shared_tokens=2000, model="llama-3.1-8b", sequences=users))
    per_token = 2 * 32 * 8 * 128 * 2  # K and V, 32 layers, 8 KV heads of 128, BF16: 128 KiB
    assert r.kv_bytes_per_token == pytest.approx(per_token)
    assert r.prefix_kv_bytes == pytest.approx(2000 * per_token)
    assert r.kv_saved_bytes == pytest.approx((users - 1) * 2000 * per_token)


def test_link_figures_come_from_the_cards_records() -> None:
    r = link_need(LinkNeedInput())
    assert [(x.gpu, x.nvlink_gbps) for x in r.nvlink] == [("a100-80gb-sxm", 600), ("h100-sxm", 900), ("b200", 1800)]
    assert r.pcie_gbps[4] == 64 and r.pcie_gbps[5] == 128
    assert r.nvlink_over_pcie == pytest.approx((900 / 128, 1800 / 128))
    assert r.cards_needed is None


@pytest.mark.parametrize(("model", "gpu", "cards"), [("llama-3.1-8b", "h100-sxm", 1), ("llama-3.1-8b", "rtx-4090", 1),
                                                     ("llama-3.3-70b", "h100-sxm", 2), ("llama-3.3-70b", "rtx-4090", 8)])
def test_cards_a_model_needs_say_whether_the_link_matters(model: str, gpu: str, cards: int) -> None:
    r = link_need(LinkNeedInput(model=model, gpu=gpu))
    assert r.cards_needed == cards
    assert (r.per_gpu_bytes or 0) <= (r.capacity_bytes or 0)
    assert r.gpu_pcie_gbps == PCIE_X16_GBPS[find_gpu(gpu).pcie_gen or 4]


def test_h20_has_more_bandwidth_and_a100_more_compute_per_rented_yuan() -> None:
    r = card_value(CardValueInput(gpus=["h20", "a100-80gb-sxm"], region="china"))
    h20, a100 = r.cards
    assert h20.rent_region == a100.rent_region == "china" and h20.rent_providers == ["AutoDL"]
    assert h20.bandwidth_per_rent > a100.bandwidth_per_rent and h20.tflops_per_rent < a100.tflops_per_rent
    assert (r.decode_rent, r.prefill_rent) == ("h20", "a100-80gb-sxm")
    assert h20.bandwidth_per_rent / a100.bandwidth_per_rent == pytest.approx((4000 / 10.5) / (2039 / 7.03), rel=0.01)


@pytest.mark.parametrize(("a", "b"), [("h100-sxm", "a100-80gb-sxm"), ("rtx-4090", "rtx-3090"), ("h200", "h100-sxm"),
                                      ("l40s", "a100-80gb-pcie")])
@pytest.mark.parametrize("region", ["global", "china"])
def test_value_winners_are_the_best_ratio(a: str, b: str, region: Any) -> None:
    r = card_value(CardValueInput(gpus=[a, b], region=region))
    priced = [c for c in r.cards if c.rent_usd_per_hour]
    if len(priced) < 2:
        assert r.decode_rent is None and r.prefill_rent is None
        return
    assert r.decode_rent == max(priced, key=lambda c: c.bandwidth_gbps / c.rent_usd_per_hour).gpu
    assert r.prefill_rent == max(priced, key=lambda c: c.bf16_tflops / c.rent_usd_per_hour).gpu


# ---------------------------------------------------------------- reading: generated phrasings

FILL = {"en": ["", "quick question: ", "hey, ", "conceptual q - "], "zh": ["", "问个概念问题：", "请问", "想了解一下，"]}
PREFIX = {
    "en": ["how does prefix caching work in vllm? our rag app has the same {n} token system prompt on every request, "
           "how much does it save",
           "what's the principle behind vllm prefix caching? every request shares a {n} token system prompt. how much "
           "would it save?",
           "how much does prefix caching save if the system prompt is {n} tokens and identical for every request?",
           "prefix caching: how much speedup with a fixed {n}-token system prompt?"],
    "zh": ["vllm 的 prefix caching 是啥原理？我们做RAG，每个请求 system prompt 都一样有{n} token，开了能省多少？",
           "前缀缓存是什么原理？系统提示词固定{n} token，开了能省多少",
           "vllm的前缀缓存能省多少？每个请求的系统提示词都一样，{n}个token",
           "开了prefix caching能省多少，我们的system prompt都是一样的，{n} token"],
}
NUMBERS = {"en": ["2k", "2000", "2,000"], "zh": ["2k", "2000", "2K"]}


def _prefix_cases() -> list[tuple[str, str]]:
    out = []
    for lang in ("en", "zh"):
        for i, (f, t, n) in enumerate(itertools.product(FILL[lang], PREFIX[lang], NUMBERS[lang])):
            if i % 2 == 0:
                out.append((lang, f + t.format(n=n)))
    return out


@pytest.mark.parametrize(("lang", "text"), _prefix_cases())
def test_prefix_saving_read_with_the_shared_length(lang: str, text: str) -> None:
    u = understand(text)
    assert {"prefix_saving", "no_sizing"} <= u.intents, (text, u.intents)
    assert not u.intents & {"engine_choice", "injection", "whatif", "concept", "explain"}, u.intents
    assert u.ask.get("shared") == 2000 and "own" not in u.ask, u.ask
    assert u.updates == {} and u.topic is None and u.aside is None


@pytest.mark.parametrize(("text", "shared", "own"), [
    ("prefix caching能省多少？系统提示词3000 token，检索文档4k token，问题200 token", 3000, 4200),
    ("how much does prefix caching save? system prompt 1500 tokens, retrieved chunks 3k tokens, question 100 tokens",
     1500, 3100),
    ("开了前缀缓存能省多少？system prompt 2k token，后面检索的文档大概3000 token", 2000, 3000),
])
def test_prefix_saving_reads_the_rest_of_the_prompt(text: str, shared: int, own: int) -> None:
    u = understand(text)
    assert "prefix_saving" in u.intents
    assert (u.ask.get("shared"), u.ask.get("own")) == (shared, own), u.ask


@pytest.mark.parametrize("text", ["what is prefix caching", "how does prefix caching save compute on repeated prompts",
                                  "前缀缓存有什么用", "is prefix caching worth it? just curious",
                                  "serve llama 3.1 8b to 50 users with a 2k system prompt, prefix caching on"])
def test_the_glossary_worth_and_sizing_questions_keep_their_readers(text: str) -> None:
    assert "prefix_saving" not in understand(text).intents


LINK = {
    "en": ["whats the difference between nvlink and pcie for inference, do i actually need it",
           "nvlink vs pcie for inference - do I really need nvlink?",
           "do i need nvlink for inference or is pcie fine",
           "is nvlink necessary for inference?"],
    "zh": ["nvlink和pcie推理有啥区别，我真的需要nvlink吗", "推理需要nvlink吗", "跑推理有必要上nvlink吗",
           "nvlink跟pcie有什么区别？推理非要nvlink吗"],
}


@pytest.mark.parametrize(("lang", "text"), [(lang, f + t) for lang in ("en", "zh")
                                            for f, t in itertools.product(FILL[lang], LINK[lang])])
def test_the_link_need_is_the_link_question(lang: str, text: str) -> None:
    u = understand(text)
    assert "interconnect" in u.intents and u.topic is None, (text, u.intents, u.topic)
    assert not u.intents & {"concept", "explain", "whatif"}
    assert u.updates == {}


VALUE = {
    "en": ["which is better value for inference, {a} or {b}? not asking for a config, just curious",
           "{a} vs {b}: which is more bang for the buck for inference? just curious",
           "is the {a} or the {b} more cost-effective for inference? not looking for a setup"],
    "zh": ["{a}和{b}哪个跑推理划算？不是要配置，就想知道区别", "{a}跟{b}跑推理哪个性价比高？只是好奇",
           "{a}还是{b}跑推理更划算，不用给配置"],
}
PAIRS = [("H20", "A100", {"h20", "a100-80gb-sxm"}), ("H100", "A100", {"h100-sxm", "a100-80gb-sxm"}),
         ("4090", "3090", {"rtx-4090", "rtx-3090"})]


@pytest.mark.parametrize(("lang", "template", "pair"), [(lang, t, p) for lang in ("en", "zh") for t in VALUE[lang]
                                                        for p in PAIRS])
def test_value_between_cards_is_the_comparison_with_prices(lang: str, template: str, pair: tuple) -> None:
    a, b, ids = pair
    u = understand(template.format(a=a, b=b))
    assert "compare_cards" in u.intents and "no_sizing" in u.intents, (u.intents, u.ask)
    assert u.ask.get("value") is True and set(u.cards) == ids
    assert "phase" not in u.updates


# ---------------------------------------------------------------- through the graph

def _reply(turn: str) -> tuple[dict[str, Any], str]:
    state = run_states([turn])[-1]
    message = state["messages"][-1]
    return payload(message), str(message.content)


INTAKE = ["你打算用这个模型做什么", "[服务用户]", "What are you planning", "用哪个模型", "Which model", "推理引擎",
          "Inference engines", "好的：", "Noted:"]


def test_the_reviewed_prefix_question_gets_the_mechanism_and_39_percent() -> None:
    p, text = _reply("问个概念问题：vllm 的 prefix caching 是啥原理？我们做RAG，每个请求 system prompt 都一样有2k token，"
                     "开了能省多少？")
    assert p["kind"] == "info" and p["topic"] == "prefix_saving"
    data = p["results"]["prefix_saving"]
    assert (data["shared_tokens"], data["own_tokens"], data["own_assumed"]) == (2000, 3100, True)
    for said in ("16 个 token", "哈希", "LRU", "V1", "RadixAttention", "检索", "5,100", "约 39%", "3,000", "生成速度不变"):
        assert said in text, said
    assert not any(s in text for s in INTAKE)
    assert not re.search(r"[A-Za-z]{4,} [a-z]{3,} [a-z]{3,}", text.replace("`--enable-prefix-caching`", ""))


def test_a_model_and_users_put_a_figure_on_the_memory() -> None:
    p, text = _reply("how much does prefix caching save for llama 3.1 8b with 50 users at once, 2k system prompt, "
                     "retrieved docs 2k tokens and a 100 token question?")
    data = p["results"]["prefix_saving"]
    assert (data["own_tokens"], data["sequences"]) == (2100, 50)
    assert round(data["prefill_saved_share"] * 100) == 49 and "about **49% of the prefill work is skipped**" in text
    assert "12.8 GB" in text or "12.9 GB" in text  # 49 x 2,000 tokens x 128 KiB
    assert not CJK.search(text) and not any(s in text for s in INTAKE)


@pytest.mark.parametrize(("lang", "turn"), [
    ("en", "whats the difference between nvlink and pcie for inference, do i actually need it"),
    ("zh", "nvlink和pcie推理有啥区别，我真的需要nvlink吗"),
])
def test_do_i_need_nvlink_is_answered(lang: str, turn: str) -> None:
    p, text = _reply(turn)
    assert p["topic"] == "interconnect"
    data = p["results"]["link_need"]
    assert data["pcie_gbps"]["4"] == 64 and data["pcie_gbps"]["5"] == 128
    first = text.split("\n\n")[0]
    assert ("Usually not" in first) if lang == "en" else ("不需要" in first)
    for said in ("TP=2", "600 GB/s", "900 GB/s", "1,800 GB/s", "64 GB/s", "128 GB/s", "7–14"):
        assert said in text, said
    assert ("FSDP" in text) and bool(CJK.search(text)) == (lang == "zh")
    assert "When you have a job in mind" not in text and "把任务告诉我" not in text


@pytest.mark.parametrize(("turn", "wins"), [
    ("H20和A100哪个跑推理划算？不是要配置，就想知道区别", ("NVIDIA H20 96GB** 每份租金买到的带宽", "NVIDIA A100 SXM4 80GB** 每份租金买到的 BF16 算力")),
    ("which is better value for inference, H20 or A100? not asking for a config, just curious",
     ("NVIDIA H20 96GB** gives", "NVIDIA A100 SXM4 80GB** gives")),
])
def test_value_answered_with_prices_and_no_intake(turn: str, wins: tuple[str, str]) -> None:
    p, text = _reply(turn)
    data = p["results"]["card_value"]
    assert data["decode_rent"] == "h20" and data["prefill_rent"] == "a100-80gb-sxm"
    for said in wins:
        assert said in text, said
    if CJK.search(turn):
        assert data["region"] == "china" and "¥10.50" in text and "¥7.03" in text
    assert not any(s in text for s in INTAKE) and not text.startswith("好的")
